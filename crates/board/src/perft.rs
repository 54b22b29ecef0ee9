//! Perft: counting the leaves of the legal move tree, for testing move generation.

use crate::{Board, Move};

/// The number of leaf nodes `depth` plies below `board`, counting the last ply
/// in bulk (by popcount of each piece's destinations).
pub fn perft(board: &Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            for &mv in board.legal_moves().iter() {
                let mut child = *board;
                child.play_unchecked(mv);
                nodes += perft(&child, depth - 1);
            }
            nodes
        }
    }
}

/// The perft count below each root move (`divide`), in move generation order.
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    board
        .legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = *board;
            child.play_unchecked(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
