//! Correction history: what searches found about the static evaluation of
//! similar positions, kept as a moving average of "search score minus static
//! eval" and added to later static evals.
//!
//! Five kinds of table key a position by a part of it: its pawns, its material,
//! each side's pieces other than pawns (one table per side), the minor pieces
//! and kings of both sides, and the last two moves played (continuation
//! correction). The correction is their weighted sum (`corr_*_weight` in
//! params.rs).
//!
//! Each search thread keeps its own tables (its `Worker` owns them), so an
//! entry is a plain `i16`.

use crate::history::PieceTo;
use crate::params::{
    corr_cont_weight, corr_material_weight, corr_minor_weight, corr_non_pawn_weight,
    corr_pawn_weight, correction_kind_weight_scale, correction_max, correction_max_weight,
    correction_weight_scale,
};
use board::{Bitboard, Board, Color, Piece};

/// Entries of each table per side to move (a power of two).
const SIZE: usize = 16_384;
/// Entries hold 1/`GRAIN` centipawns.
const GRAIN: i32 = 256;

/// Entries of the continuation table: one per pair of (piece, destination)
/// of the last two moves, `PieceTo::NONE` included.
const CONT_SIZE: usize = (PieceTo::NONE.0 as usize + 1) * (PieceTo::NONE.0 as usize + 1);

/// The tables, `[side to move][slot]` each (the continuation table by the two
/// moves, whose pieces' colours say who moves).
pub struct CorrectionHistory {
    pawn: Box<[i16]>,
    material: Box<[i16]>,
    /// By the side to move's pieces other than pawns, then by the opponent's.
    non_pawn: [Box<[i16]>; 2],
    minor: Box<[i16]>,
    cont: Box<[i16]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        let table = || vec![0; 2 * SIZE].into_boxed_slice();
        CorrectionHistory {
            pawn: table(),
            material: table(),
            non_pawn: [table(), table()],
            minor: table(),
            cont: vec![0; CONT_SIZE].into_boxed_slice(),
        }
    }
}

/// A key of a set of bitboards (every bit counts: two sets that differ in any
/// square differ here but for hash collisions).
#[inline(always)]
fn bitboards_key(bbs: impl IntoIterator<Item = Bitboard>) -> u64 {
    bbs.into_iter().fold(0u64, |h, bb| {
        let h = (h ^ bb.0).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^ (h >> 32)
    })
}

/// A key of `color`'s pieces other than pawns, king included.
#[inline(always)]
fn non_pawn_key(board: &Board, color: Color) -> u64 {
    let pieces = [Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen, Piece::King];
    bitboards_key(pieces.map(|p| board.colored_pieces(color, p)))
}

/// A key of both sides' knights, bishops and kings.
#[inline(always)]
fn minor_key(board: &Board) -> u64 {
    let mut bbs = [Bitboard::EMPTY; 6];
    for (i, color) in Color::ALL.into_iter().enumerate() {
        for (j, piece) in [Piece::Knight, Piece::Bishop, Piece::King].into_iter().enumerate() {
            bbs[i * 3 + j] = board.colored_pieces(color, piece);
        }
    }
    bitboards_key(bbs)
}

/// The continuation table's slot of the moves `prev` (the last, then the one before).
#[inline(always)]
fn cont_slot(prev: [PieceTo; 2]) -> usize {
    prev[1].0 as usize * (PieceTo::NONE.0 as usize + 1) + prev[0].0 as usize
}

/// The slots of a position in the tables beyond pawns and material.
struct ExtraSlots {
    non_pawn: [usize; 2],
    minor: usize,
    cont: usize,
}

impl ExtraSlots {
    #[inline(always)]
    fn of(board: &Board, prev: [PieceTo; 2]) -> ExtraSlots {
        let us = board.side_to_move();
        ExtraSlots {
            non_pawn: [slot(us, non_pawn_key(board, us)), slot(us, non_pawn_key(board, !us))],
            minor: slot(us, minor_key(board)),
            cont: cont_slot(prev),
        }
    }
}

/// Moves `entry` towards `target` by `weight`/`correction_weight_scale()` (an
/// exponential moving average).
#[inline(always)]
fn approach(entry: &mut i16, target: i32, weight: i32) {
    let limit = correction_max() * GRAIN;
    let scale = correction_weight_scale();
    let e = i32::from(*entry);
    let updated = (e * (scale - weight) + target * weight) / scale;
    *entry = updated.clamp(-limit, limit) as i16;
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
        self.non_pawn.iter_mut().for_each(|t| t.fill(0));
        self.minor.fill(0);
        self.cont.fill(0);
    }

    /// The slots of `board` in the pawn table and in the material table.
    #[inline(always)]
    fn slots(board: &Board) -> [usize; 2] {
        let us = board.side_to_move();
        [slot(us, board.pawn_key()), slot(us, material_key(board))]
    }

    /// The correction of `board`'s static evaluation, in centipawns, reached
    /// by the moves `prev` (the last, then the one before): what searches of
    /// positions with the same pawns, material, pieces, minor pieces or last
    /// moves found, on average, beyond their static evaluation.
    #[inline(always)]
    pub fn correction(&self, board: &Board, prev: [PieceTo; 2]) -> i32 {
        let [pawn, material] = Self::slots(board);
        let (pawn, material) = (i32::from(self.pawn[pawn]), i32::from(self.material[material]));
        let mut sum = corr_pawn_weight() * pawn + corr_material_weight() * material;
        let extra = ExtraSlots::of(board, prev);
        let [ours, theirs] = extra.non_pawn;
        let both = i32::from(self.non_pawn[0][ours]) + i32::from(self.non_pawn[1][theirs]);
        sum += corr_non_pawn_weight() * both;
        sum += corr_minor_weight() * i32::from(self.minor[extra.minor]);
        sum += corr_cont_weight() * i32::from(self.cont[extra.cont]);
        sum / (correction_kind_weight_scale() * GRAIN)
    }

    /// Moves the corrections of `board`, reached by the moves `prev`, towards
    /// `difference` (search score minus corrected static eval, centipawns),
    /// more for deeper searches. The continuation table learns only after a
    /// move (not at the root, nor after a null move).
    pub fn update(&mut self, board: &Board, prev: [PieceTo; 2], difference: i32, depth: i32) {
        let weight = (depth + 1).min(correction_max_weight());
        let target = difference.clamp(-correction_max(), correction_max()) * GRAIN;
        let [pawn, material] = Self::slots(board);
        approach(&mut self.pawn[pawn], target, weight);
        approach(&mut self.material[material], target, weight);
        let extra = ExtraSlots::of(board, prev);
        let [ours, theirs] = extra.non_pawn;
        approach(&mut self.non_pawn[0][ours], target, weight);
        approach(&mut self.non_pawn[1][theirs], target, weight);
        approach(&mut self.minor[extra.minor], target, weight);
        if prev[0] != PieceTo::NONE {
            approach(&mut self.cont[extra.cont], target, weight);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE2: [PieceTo; 2] = [PieceTo::NONE; 2];

    /// The correction when every table but the continuation one holds `cp`.
    fn weighted(cp: i32) -> i32 {
        let weights = corr_pawn_weight()
            + corr_material_weight()
            + 2 * corr_non_pawn_weight()
            + corr_minor_weight();
        weights * cp / correction_kind_weight_scale()
    }

    #[test]
    fn corrections_move_towards_what_searches_found() {
        let mut h = CorrectionHistory::default();
        let board = Board::startpos();
        assert_eq!(h.correction(&board, NONE2), 0);
        for _ in 0..200 {
            h.update(&board, NONE2, 40, 10);
        }
        // Every table but the continuation one (no move led here) learnt about 40.
        let c = h.correction(&board, NONE2);
        assert!((weighted(38)..=weighted(40)).contains(&c), "{c}");
        // Bounded: a huge difference saturates every entry at the limit.
        for _ in 0..500 {
            h.update(&board, NONE2, -5000, 20);
        }
        let c = h.correction(&board, NONE2);
        assert!(
            (weighted(-correction_max())..=weighted(-correction_max() + 1)).contains(&c),
            "{c}"
        );
        // The other side to move has its own entries.
        let other = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
            .expect("valid FEN");
        assert_eq!(h.correction(&other, NONE2), 0);
        h.clear();
        assert_eq!(h.correction(&board, NONE2), 0);
    }

    #[test]
    fn each_table_keys_by_its_own_part_of_the_position() {
        let mut h = CorrectionHistory::default();
        let board = Board::startpos();
        for _ in 0..200 {
            h.update(&board, NONE2, 40, 10);
        }
        // Other pawns and material but the same pieces: the non-pawn and minor
        // entries alone are shared.
        let fewer_pawns = Board::from_fen("rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - 0 1").unwrap();
        let shared = h.correction(&fewer_pawns, NONE2);
        assert!(shared > 0 && shared < h.correction(&board, NONE2), "{shared}");

        // Only the continuation table knows the moves: a position that shares
        // nothing else reads what it learnt, after the same two moves only.
        let mut h = CorrectionHistory::default();
        let unrelated = Board::from_fen("4k3/8/8/3p4/8/8/8/R3K3 w - - 0 1").unwrap();
        let moved = [PieceTo(5), PieceTo(7)];
        for _ in 0..100 {
            h.update(&board, moved, -60, 15);
        }
        assert!(h.correction(&unrelated, moved) < 0);
        assert_eq!(h.correction(&unrelated, NONE2), 0);
        assert_eq!(h.correction(&unrelated, [PieceTo(7), PieceTo(5)]), 0);
        // After a null move (no last move) the continuation table does not learn.
        let after_null = [PieceTo::NONE, PieceTo(9)];
        for _ in 0..100 {
            h.update(&board, after_null, -60, 15);
        }
        assert_eq!(h.correction(&unrelated, after_null), 0);
    }
}
