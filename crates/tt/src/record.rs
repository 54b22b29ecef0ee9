//! The public, unpacked view of a table entry.

/// What kind of bound the stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Bound {
    /// No score information; only the move and static evaluation are meaningful
    /// (for example an entry stored just to cache the static evaluation).
    #[default]
    None = 0,
    /// The true score is at most the stored score (fail-low, all-node).
    Upper = 1,
    /// The true score is at least the stored score (fail-high, cut-node).
    Lower = 2,
    /// The stored score is exact (PV-node).
    Exact = 3,
}

impl Bound {
    /// Decodes the two-bit field; every value is a valid bound.
    #[inline]
    pub(crate) const fn from_bits(bits: u64) -> Self {
        match bits & 3 {
            0 => Self::None,
            1 => Self::Upper,
            2 => Self::Lower,
            _ => Self::Exact,
        }
    }
}

/// One position's worth of information: what [`store`] takes and [`probe`] returns.
///
/// [`store`]: crate::TranspositionTable::store
/// [`probe`]: crate::TranspositionTable::probe
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Record {
    /// Best or refutation move, as an opaque 16-bit code; `0` means "no move".
    /// The table never interprets it.
    pub mv: u16,
    /// Search score, already converted with [`to_tt_score`](crate::to_tt_score).
    /// Stored as `i16`: values outside `i16::MIN..=i16::MAX` are saturated.
    pub score: i32,
    /// Static evaluation of the position. Stored as `i16`, saturated like `score`.
    pub eval: i32,
    /// Search depth in plies, in [`MIN_STORED_DEPTH`](crate::MIN_STORED_DEPTH)`..=`
    /// [`MAX_STORED_DEPTH`](crate::MAX_STORED_DEPTH); values outside are clamped.
    /// Quiescence search may store `0` or `-1`.
    pub depth: i32,
    /// What kind of bound `score` is.
    pub bound: Bound,
    /// Whether the node was (or was searched as) a PV node.
    pub pv: bool,
}

/// The result of a successful [`probe`](crate::TranspositionTable::probe).
pub type Hit = Record;
