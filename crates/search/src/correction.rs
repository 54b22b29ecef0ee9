//! Correction history: what searches found about the static evaluation of
//! positions with the same pawns, or the same material, kept as a moving
//! average of "search score minus static eval" and added to later static evals.
//!
//! Each search thread keeps its own tables (its `Worker` owns them), so an
//! entry is a plain `i16`.

use crate::params::{correction_max, correction_max_weight, correction_weight_scale};
use board::{Board, Color, Piece};

/// Entries of each table per side to move (a power of two).
const SIZE: usize = 16_384;
/// Entries hold 1/`GRAIN` centipawns.
const GRAIN: i32 = 256;

/// The pawn-key and material-key tables, `[side to move][slot]` each.
pub struct CorrectionHistory {
    pawn: Box<[i16]>,
    material: Box<[i16]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        let table = || vec![0; 2 * SIZE].into_boxed_slice();
        CorrectionHistory { pawn: table(), material: table() }
    }
}

/// The slot of a position keyed by `key` for side `us`.
#[inline(always)]
fn slot(us: Color, key: u64) -> usize {
    us as usize * SIZE
        + (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SIZE.trailing_zeros())) as usize
}

/// A key of the material on the board (the count of each colour's pieces).
#[inline(always)]
fn material_key(board: &Board) -> u64 {
    let mut key = 0u64;
    for color in Color::ALL {
        for piece in [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
            key = key * 17 + u64::from(board.count(color, piece));
        }
    }
    key
}

impl CorrectionHistory {
    /// Forgets everything (for `ucinewgame`).
    pub fn clear(&mut self) {
        self.pawn.fill(0);
        self.material.fill(0);
    }

    /// The slots of `board` in the pawn table and in the material table.
    #[inline(always)]
    fn slots(board: &Board) -> [usize; 2] {
        let us = board.side_to_move();
        [slot(us, board.pawn_key()), slot(us, material_key(board))]
    }

    /// The correction of `board`'s static evaluation, in centipawns: what
    /// searches of positions with the same pawns and the same material found,
    /// on average, beyond their static evaluation.
    #[inline(always)]
    pub fn correction(&self, board: &Board) -> i32 {
        let [pawn, material] = Self::slots(board);
        (i32::from(self.pawn[pawn]) + i32::from(self.material[material])) / (2 * GRAIN)
    }

    /// Moves the corrections of `board` towards `difference` (search score
    /// minus corrected static eval, centipawns), more for deeper searches.
    pub fn update(&mut self, board: &Board, difference: i32, depth: i32) {
        let weight = (depth + 1).min(correction_max_weight());
        let target = difference.clamp(-correction_max(), correction_max()) * GRAIN;
        let limit = correction_max() * GRAIN;
        let [pawn, material] = Self::slots(board);
        for entry in [&mut self.pawn[pawn], &mut self.material[material]] {
            let e = i32::from(*entry);
            // An exponential moving average: weight/scale of the way towards the target.
            let scale = correction_weight_scale();
            let updated = (e * (scale - weight) + target * weight) / scale;
            *entry = updated.clamp(-limit, limit) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_move_towards_what_searches_found() {
        let mut h = CorrectionHistory::default();
        let board = Board::startpos();
        assert_eq!(h.correction(&board), 0);
        for _ in 0..200 {
            h.update(&board, 40, 10);
        }
        let c = h.correction(&board);
        assert!((38..=40).contains(&c), "{c}");
        // Bounded: a huge difference saturates at the limit.
        for _ in 0..500 {
            h.update(&board, -5000, 20);
        }
        assert!(h.correction(&board) <= -correction_max() + 1);
        // The other side to move has its own entries.
        let other = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
            .expect("valid FEN");
        assert_eq!(h.correction(&other), 0);
        h.clear();
        assert_eq!(h.correction(&board), 0);
    }
}
