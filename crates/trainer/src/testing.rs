//! Test data shared by the trainer's tests.

use crate::sample::Sample;
use board::Board;

/// Positions from random play labelled by a simple rule the net can learn:
/// the material balance for the side to move.
pub fn synthetic(n: usize) -> Vec<Sample> {
    let values = [100, 300, 300, 500, 900, 0];
    let mut out = Vec::new();
    let mut board = Board::startpos();
    let mut seed = 99u64;
    let mut plies = 0;
    while out.len() < n {
        let moves = board.legal_moves();
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        // Many short random games, each position 20 to 100 plies in.
        if moves.is_empty() || plies > 100 || (plies > 20 && seed >> 60 == 0) {
            board = Board::startpos();
            plies = 0;
            continue;
        }
        board.play_unchecked(moves.as_slice()[(seed >> 33) as usize % moves.len()]);
        plies += 1;
        if plies < 20 {
            continue;
        }
        let us = board.side_to_move();
        let material: i32 = board::Piece::ALL
            .iter()
            .map(|&p| {
                values[p as usize]
                    * (i32::from(board.count(us, p)) - i32::from(board.count(!us, p)))
            })
            .sum();
        out.push(Sample::new(&board, material as i16, 1));
    }
    out
}
