//! Correction history: what searches found about the static evaluation of
//! positions with the same pawns, or the same material, kept as a moving
//! average of "search score minus static eval" and added to later static evals.
//!
//! The tables may be one thread's own or shared by every thread of the pool
//! (feature `sharedcorr`). Either way each entry is one `AtomicI16` read and
//! written with `Relaxed` loads and stores — plain moves on x86-64, so a
//! thread's own table costs what a plain array does. When threads share the
//! tables, two threads updating one entry at once may lose one of the two
//! updates (each is a load, a blend and a store, not a read-modify-write
//! instruction); a lost update is a slightly staler average, never a torn or
//! out-of-range value, and the search needs nothing more.

use board::{Board, Color, Piece};
use std::sync::atomic::{AtomicI16, Ordering};

/// Entries of each table per side to move (a power of two).
const SIZE: usize = 16_384;
/// Entries hold 1/`GRAIN` centipawns.
const GRAIN: i32 = 256;
/// The largest correction an entry holds, in centipawns.
pub(crate) const CORRECTION_MAX: i32 = 64;

/// The pawn-key and material-key tables, `[side to move][slot]` each.
pub struct CorrectionHistory {
    pawn: Box<[AtomicI16]>,
    material: Box<[AtomicI16]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        let table = || (0..2 * SIZE).map(|_| AtomicI16::new(0)).collect();
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
    /// Forgets everything (for `ucinewgame`; no search may be running).
    pub fn clear(&self) {
        for entry in self.pawn.iter().chain(self.material.iter()) {
            entry.store(0, Ordering::Relaxed);
        }
    }

    /// Whether every entry is zero (nothing learned since the last clear).
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.pawn.iter().chain(self.material.iter()).all(|e| e.load(Ordering::Relaxed) == 0)
    }

    /// The two entries of `board`.
    #[inline(always)]
    fn entries(&self, board: &Board) -> [&AtomicI16; 2] {
        let us = board.side_to_move();
        [&self.pawn[slot(us, board.pawn_key())], &self.material[slot(us, material_key(board))]]
    }

    /// The correction of `board`'s static evaluation, in centipawns: what
    /// searches of positions with the same pawns and the same material found,
    /// on average, beyond their static evaluation.
    #[inline(always)]
    pub fn correction(&self, board: &Board) -> i32 {
        let [pawn, material] = self.entries(board).map(|e| i32::from(e.load(Ordering::Relaxed)));
        (pawn + material) / (2 * GRAIN)
    }

    /// Moves the corrections of `board` towards `difference` (search score
    /// minus corrected static eval, centipawns), more for deeper searches.
    pub fn update(&self, board: &Board, difference: i32, depth: i32) {
        let weight = (depth + 1).min(16);
        let target = difference.clamp(-CORRECTION_MAX, CORRECTION_MAX) * GRAIN;
        let limit = CORRECTION_MAX * GRAIN;
        for entry in self.entries(board) {
            let e = i32::from(entry.load(Ordering::Relaxed));
            // An exponential moving average: weight/256 of the way towards the target.
            let updated = (e * (256 - weight) + target * weight) / 256;
            entry.store(updated.clamp(-limit, limit) as i16, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn corrections_move_towards_what_searches_found() {
        let h = CorrectionHistory::default();
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
        assert!(h.correction(&board) <= -CORRECTION_MAX + 1);
        // The other side to move has its own entries.
        let other = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
            .expect("valid FEN");
        assert_eq!(h.correction(&other), 0);
        h.clear();
        assert_eq!(h.correction(&board), 0);
    }

    /// Threads hammering the same entries with opposite targets: every value read
    /// stays within the bounds, whatever updates are lost.
    #[test]
    fn racing_writers_never_leave_a_value_out_of_range() {
        let h = Arc::new(CorrectionHistory::default());
        let board = Board::startpos();
        std::thread::scope(|s| {
            for t in 0..4 {
                let h = Arc::clone(&h);
                s.spawn(move || {
                    let target = if t % 2 == 0 { 5000 } else { -5000 };
                    for i in 0..20_000 {
                        h.update(&board, target, i % 20);
                        let c = h.correction(&board);
                        assert!(c.abs() <= CORRECTION_MAX, "{c}");
                    }
                });
            }
        });
    }
}
