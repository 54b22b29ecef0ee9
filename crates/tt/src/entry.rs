//! One table entry: two atomic words and the packing of the data word.
//!
//! # Data word layout
//!
//! | bits    | width | field      | encoding                                              |
//! |---------|-------|------------|-------------------------------------------------------|
//! | 0..16   | 16    | move       | opaque `u16`, `0` = no move                           |
//! | 16..32  | 16    | score      | `i16`, two's complement                               |
//! | 32..48  | 16    | eval       | `i16`, two's complement                               |
//! | 48..56  | 8     | depth      | `depth + DEPTH_OFFSET` (1..=255); **0 = empty entry** |
//! | 56..58  | 2     | bound      | 0 none, 1 upper, 2 lower, 3 exact                     |
//! | 58      | 1     | pv         | 1 = PV node                                           |
//! | 59..64  | 5     | generation | search generation, `0..32`, wraps                     |
//!
//! The entry is the pair `(check, data)` with `check = key ^ data`. A reader
//! accepts the entry for `key` only if `check ^ data == key` **and** the depth
//! byte is non-zero. The second condition is what stops an all-zero (cleared)
//! entry from being a hit for key `0`: `0 ^ 0 == 0`, but its depth byte is `0`,
//! and every stored entry has depth byte `>= 1`.
//!
//! # Why `Relaxed` is enough
//!
//! Each word is a single 64-bit atomic, so it is never torn by itself; the only
//! possible inconsistency is a *mix* of the two words from different stores (the
//! reader saw `check` from store A and `data` from store B, in either order and
//! whichever way the hardware reordered them). Then
//! `check ^ data = key_A ^ data_A ^ data_B`, which equals the probed key only if
//! `data_A ^ data_B == key_A ^ key` — for 64-bit keys the same odds as a genuine
//! key collision, which the search must tolerate anyway (it validates the move).
//! No ordering between the two words is relied on, so no fences or
//! acquire/release pairs are needed: the validity check happens on the values,
//! not on their order. The table holds no other data that a hit would publish.

use crate::record::{Bound, Record};
use crate::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Added to the depth before storing so that a stored depth byte is never `0`.
pub(crate) const DEPTH_OFFSET: i32 = 8;
/// Smallest depth the table stores exactly; smaller depths are clamped to it.
pub const MIN_STORED_DEPTH: i32 = 1 - DEPTH_OFFSET;
/// Largest depth the table stores exactly; larger depths are clamped to it.
pub const MAX_STORED_DEPTH: i32 = 255 - DEPTH_OFFSET;
/// Number of distinct generations (5 bits).
pub(crate) const GENERATIONS: u8 = 32;

const SCORE_SHIFT: u32 = 16;
const EVAL_SHIFT: u32 = 32;
const DEPTH_SHIFT: u32 = 48;
const BOUND_SHIFT: u32 = 56;
const PV_SHIFT: u32 = 58;
const GEN_SHIFT: u32 = 59;

/// The packed data word. Plain value type; see the module docs for the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Data(pub(crate) u64);

impl Data {
    /// Packs `rec` stamped with `generation` (only its low 5 bits are kept).
    #[inline]
    pub(crate) fn pack(rec: &Record, generation: u8) -> Self {
        let score = rec.score.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
        let eval = rec.eval.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
        // In 1..=255 after the clamp, so the byte is never the "empty" marker.
        let depth = (rec.depth.clamp(MIN_STORED_DEPTH, MAX_STORED_DEPTH) + DEPTH_OFFSET) as u8;
        Self(
            u64::from(rec.mv)
                | u64::from(score as u16) << SCORE_SHIFT
                | u64::from(eval as u16) << EVAL_SHIFT
                | u64::from(depth) << DEPTH_SHIFT
                | (rec.bound as u64) << BOUND_SHIFT
                | u64::from(rec.pv) << PV_SHIFT
                | u64::from(generation % GENERATIONS) << GEN_SHIFT,
        )
    }

    /// `true` for a cleared (never stored) entry.
    #[inline]
    pub(crate) const fn is_empty(self) -> bool {
        self.depth_byte() == 0
    }

    #[inline]
    const fn depth_byte(self) -> u8 {
        (self.0 >> DEPTH_SHIFT) as u8
    }

    /// The stored depth in plies (meaningless for an empty entry).
    #[inline]
    pub(crate) const fn depth(self) -> i32 {
        self.depth_byte() as i32 - DEPTH_OFFSET
    }

    #[inline]
    pub(crate) const fn mv(self) -> u16 {
        self.0 as u16
    }

    #[inline]
    pub(crate) const fn bound(self) -> Bound {
        Bound::from_bits(self.0 >> BOUND_SHIFT)
    }

    #[inline]
    pub(crate) const fn generation(self) -> u8 {
        (self.0 >> GEN_SHIFT) as u8
    }

    /// Whether the entry was stored by a PV node.
    #[inline]
    pub(crate) const fn pv(self) -> bool {
        (self.0 >> PV_SHIFT) & 1 == 1
    }

    /// Replaces the move field.
    #[inline]
    pub(crate) const fn with_mv(self, mv: u16) -> Self {
        Self(self.0 & !0xFFFF | mv as u64)
    }

    /// Unpacks into the public view (generation is dropped).
    #[inline]
    pub(crate) const fn unpack(self) -> Record {
        Record {
            mv: self.mv(),
            score: (self.0 >> SCORE_SHIFT) as u16 as i16 as i32,
            eval: (self.0 >> EVAL_SHIFT) as u16 as i16 as i32,
            depth: self.depth(),
            bound: self.bound(),
            pv: self.pv(),
        }
    }
}

/// Generations elapsed from `then` to `now`, wrapping in 5 bits (`0..32`).
#[inline]
pub(crate) const fn age(now: u8, then: u8) -> u8 {
    now.wrapping_sub(then) % GENERATIONS
}

/// The lock-free entry: `check = key ^ data` next to `data`.
#[doc(hidden)]
#[derive(Debug)]
pub struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

impl Default for Entry {
    fn default() -> Self {
        Self::new()
    }
}

impl Entry {
    /// An empty entry (both words zero).
    pub(crate) fn new() -> Self {
        Self { check: AtomicU64::new(0), data: AtomicU64::new(0) }
    }

    /// Returns the data word if this entry holds `key`, otherwise `None`
    /// (empty, another key, or a mix of two concurrent stores).
    #[inline]
    pub(crate) fn read(&self, key: u64) -> Option<Data> {
        let data = Data(self.data.load(Relaxed));
        let check = self.check.load(Relaxed);
        (check ^ data.0 == key && !data.is_empty()).then_some(data)
    }

    /// The key this entry claims to hold and its data word, unvalidated.
    /// Used by replacement, which only needs a heuristic view; a mixed entry
    /// yields a garbage key that matches nobody and is simply a victim candidate.
    #[inline]
    pub(crate) fn raw(&self) -> (u64, Data) {
        let data = Data(self.data.load(Relaxed));
        let check = self.check.load(Relaxed);
        (check ^ data.0, data)
    }

    /// Overwrites the entry with `key` / `data`.
    #[inline]
    pub(crate) fn write(&self, key: u64, data: Data) {
        self.check.store(key ^ data.0, Relaxed);
        self.data.store(data.0, Relaxed);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    fn rec(mv: u16, score: i32, eval: i32, depth: i32, bound: Bound, pv: bool) -> Record {
        Record { mv, score, eval, depth, bound, pv }
    }

    #[test]
    fn pack_round_trips_extremes() {
        for bound in [Bound::None, Bound::Upper, Bound::Lower, Bound::Exact] {
            for (mv, score, eval, depth, pv) in [
                (0, 0, 0, 0, false),
                (u16::MAX, i16::MAX.into(), i16::MIN.into(), MAX_STORED_DEPTH, true),
                (1, i16::MIN.into(), i16::MAX.into(), MIN_STORED_DEPTH, false),
                (0x8001, -1, -1, -1, true),
            ] {
                let r = rec(mv, score, eval, depth, bound, pv);
                for generation in [0, 1, 30, 31] {
                    let d = Data::pack(&r, generation);
                    assert!(!d.is_empty());
                    assert_eq!(d.unpack(), r);
                    assert_eq!(d.generation(), generation);
                }
            }
        }
    }

    #[test]
    fn out_of_range_values_saturate() {
        let r = rec(7, 100_000, -100_000, 1000, Bound::Exact, false);
        let u = Data::pack(&r, 0).unpack();
        assert_eq!(
            (u.score, u.eval, u.depth),
            (i16::MAX.into(), i16::MIN.into(), MAX_STORED_DEPTH)
        );
        let u = Data::pack(&rec(7, 0, 0, -50, Bound::Exact, false), 0).unpack();
        assert_eq!(u.depth, MIN_STORED_DEPTH);
    }

    #[test]
    fn generation_wraps_in_five_bits() {
        assert_eq!(Data::pack(&Record::default(), 33).generation(), 1);
        assert_eq!(age(1, 31), 2);
        assert_eq!(age(0, 0), 0);
        assert_eq!(age(5, 6), 31);
    }

    #[test]
    fn empty_entry_never_matches_key_zero() {
        let e = Entry::new();
        assert_eq!(e.read(0), None);
        let stored = Data::pack(&Record::default(), 0);
        e.write(0, stored);
        assert_eq!(e.read(0), Some(stored));
        assert_eq!(e.read(1), None);
    }

    #[test]
    fn mixed_words_are_rejected() {
        let a = Entry::new();
        let da = Data::pack(&rec(1, 10, 10, 5, Bound::Exact, false), 0);
        let db = Data::pack(&rec(2, 20, 20, 6, Bound::Lower, true), 0);
        // check from store A, data from store B.
        a.write(0xAAAA, da);
        a.data.store(db.0, Relaxed);
        assert_eq!(a.read(0xAAAA), None);
        assert_eq!(a.read(0xBBBB), None);
    }
}
