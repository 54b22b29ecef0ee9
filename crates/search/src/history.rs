//! Move-ordering statistics learned during the search: butterfly history,
//! continuation history, killers and counter-moves.

use board::{Color, Move, Piece, Square};

/// The largest magnitude a history value reaches (the gravity formula keeps it there).
pub const HISTORY_MAX: i32 = 16_384;

/// The bonus for a move that caused (or a malus for one that failed before) a cutoff at `depth`.
#[inline]
pub fn stat_bonus(depth: i32) -> i32 {
    (150 * depth - 100).clamp(0, 1500)
}

/// Moves `entry` towards `bonus`'s sign, slowing down as it nears the bound.
#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry = (e + b - e * b.abs() / HISTORY_MAX) as i16;
}

/// A moved piece and where it went: the key of continuation history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceTo(pub u16);

impl PieceTo {
    /// `color`'s `piece` arriving on `to`.
    #[inline(always)]
    pub fn new(color: Color, piece: Piece, to: Square) -> PieceTo {
        PieceTo(((color as u16 * 6 + piece as u16) << 6) | to as u16)
    }

    /// No move (after a null move or at the root): uses a slot no real move uses.
    pub const NONE: PieceTo = PieceTo(12 * 64);
}

const PIECE_TO: usize = 12 * 64 + 1;

/// All the search's move-ordering tables, owned by one search thread.
pub struct Histories {
    butterfly: Vec<[[i16; 64]; 64]>,
    continuation: Vec<i16>,
    counters: Vec<Move>,
    /// Two killer moves per ply.
    pub killers: Vec<[Move; 2]>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            butterfly: vec![[[0; 64]; 64]; 2],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            counters: vec![Move::NULL; PIECE_TO],
            killers: vec![[Move::NULL; 2]; crate::params::MAX_SEARCH_PLY + 2],
        }
    }
}

impl Histories {
    /// Forgets everything (for `ucinewgame`).
    pub fn clear(&mut self) {
        *self = Histories::default();
    }

    /// The butterfly history of `mv` for `color`.
    #[inline(always)]
    pub fn butterfly(&self, color: Color, mv: Move) -> i32 {
        self.butterfly[color as usize][mv.from() as usize][mv.to() as usize] as i32
    }

    /// The continuation history of playing `now` after `before`.
    #[inline(always)]
    pub fn continuation(&self, before: PieceTo, now: PieceTo) -> i32 {
        self.continuation[before.0 as usize * PIECE_TO + now.0 as usize] as i32
    }

    /// The counter-move stored against `previous`.
    #[inline(always)]
    pub fn counter(&self, previous: PieceTo) -> Move {
        self.counters[previous.0 as usize]
    }

    /// Updates the tables after `best` (quiet) caused a cutoff, penalising the
    /// quiet moves tried before it.
    pub fn update_quiet(
        &mut self,
        color: Color,
        ply: usize,
        best: (Move, PieceTo),
        tried: &[(Move, PieceTo)],
        prev: [PieceTo; 2],
        depth: i32,
    ) {
        let bonus = stat_bonus(depth);
        let killers = &mut self.killers[ply];
        if killers[0] != best.0 {
            killers[1] = killers[0];
            killers[0] = best.0;
        }
        if prev[0] != PieceTo::NONE {
            self.counters[prev[0].0 as usize] = best.0;
        }
        self.update_one(color, best, prev, bonus);
        for &(mv, pt) in tried {
            if mv != best.0 {
                self.update_one(color, (mv, pt), prev, -bonus);
            }
        }
    }

    #[inline(always)]
    fn update_one(
        &mut self,
        color: Color,
        (mv, pt): (Move, PieceTo),
        prev: [PieceTo; 2],
        bonus: i32,
    ) {
        gravity(&mut self.butterfly[color as usize][mv.from() as usize][mv.to() as usize], bonus);
        for before in prev {
            if before != PieceTo::NONE {
                gravity(
                    &mut self.continuation[before.0 as usize * PIECE_TO + pt.0 as usize],
                    bonus,
                );
            }
        }
    }
}
