//! Pawn structure: passed, isolated, doubled, backward and connected pawns,
//! cached by pawn key because it changes rarely between nodes.

use crate::layout::*;
use crate::{S, Trace};
use board::{Bitboard, Board, Color, File, Piece, pawn_attacks};

/// The cached result of [`pawn_structure`].
#[derive(Clone, Copy, Default)]
pub struct PawnInfo {
    /// The pawn-structure score, White's point of view.
    pub score: S,
    /// Passed pawns of each color.
    pub passed: [Bitboard; 2],
}

/// A small per-thread cache of pawn structures, indexed by pawn key.
pub struct PawnCache {
    entries: Vec<(u64, PawnInfo)>,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache::new(1 << 14)
    }
}

impl PawnCache {
    /// A cache of `entries` slots (rounded up to a power of two).
    pub fn new(entries: usize) -> PawnCache {
        let n = entries.max(1).next_power_of_two();
        // Key 0 with a zero PawnInfo is right for the board without pawns, so a
        // zeroed slot is never wrong.
        PawnCache { entries: vec![(0, PawnInfo::default()); n] }
    }

    /// The pawn structure of `board`, from the cache or computed.
    #[inline]
    pub fn get(&mut self, board: &Board, weights: &[S]) -> PawnInfo {
        let key = board.pawn_key();
        let slot = (key as usize) & (self.entries.len() - 1);
        let (k, info) = self.entries[slot];
        if k == key && (key != 0 || board.pieces(Piece::Pawn).is_empty()) {
            return info;
        }
        let info = pawn_structure(board, weights, &mut crate::NoTrace);
        self.entries[slot] = (key, info);
        info
    }
}

fn adjacent_files(file: File) -> Bitboard {
    let f = Bitboard::file(file);
    f.east() | f.west()
}

/// Squares in front of `sq` (exclusive) on its file, from `color`'s side.
pub(crate) fn front_span(color: Color, sq: board::Square) -> Bitboard {
    let mut span = Bitboard::EMPTY;
    let mut b = sq.bitboard().forward(color);
    while b.any() {
        span |= b;
        b = b.forward(color);
    }
    span
}

/// Computes the pawn structure of `board`, recording features into `trace`.
pub fn pawn_structure<T: Trace>(board: &Board, w: &[S], trace: &mut T) -> PawnInfo {
    let mut info = PawnInfo::default();
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let ours = board.colored_pieces(color, Piece::Pawn);
        let theirs = board.colored_pieces(!color, Piece::Pawn);
        let mut their_attacks = Bitboard::EMPTY;
        for sq in theirs {
            their_attacks |= pawn_attacks(!color, sq);
        }
        let mut our_attacks = Bitboard::EMPTY;
        for sq in ours {
            our_attacks |= pawn_attacks(color, sq);
        }
        for sq in ours {
            let rank = color.relative_rank(sq.rank()).index();
            let adjacent = adjacent_files(sq.file());
            let front = front_span(color, sq);
            let front_and_sides = front | front.east() | front.west();
            let mut add = |index: usize| {
                info.score += w[index] * sign;
                trace.add(index, sign);
            };
            if (theirs & front_and_sides).is_empty() && (ours & front).is_empty() {
                info.passed[color as usize] |= sq.bitboard();
                add(PASSED + rank);
            }
            if (ours & adjacent).is_empty() {
                add(ISOLATED);
            }
            if (ours & front).any() {
                add(DOUBLED);
            }
            let supported = our_attacks.has(sq);
            let phalanx = (ours & adjacent & Bitboard::rank(sq.rank())).any();
            if supported || phalanx {
                add(CONNECTED + rank);
            } else if (ours & adjacent).any() {
                // Backward: no friendly pawn level with or behind it on the adjacent
                // files (none can come to defend it), and an enemy pawn guards its stop square.
                let behind = front_span(!color, sq) | sq.bitboard();
                let helpers = ours & (behind.east() | behind.west());
                let stop = sq.bitboard().forward(color);
                if helpers.is_empty() && (stop & their_attacks).any() {
                    add(BACKWARD);
                }
            }
        }
    }
    info
}
