//! The prober's view of Tessera's attack tables.

use board::{Bitboard, Color, Square};
use pyrrhic_rs::EngineAdapter;

/// Gives `pyrrhic-rs` the board crate's attack generation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoardAdapter;

fn square(index: u64) -> Square {
    Square::index_const(index as usize)
}

impl EngineAdapter for BoardAdapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, sq: u64) -> u64 {
        let color = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        board::pawn_attacks(color, square(sq)).0
    }
    fn knight_attacks(sq: u64) -> u64 {
        board::knight_attacks(square(sq)).0
    }
    fn bishop_attacks(sq: u64, occupied: u64) -> u64 {
        board::bishop_attacks(square(sq), Bitboard(occupied)).0
    }
    fn rook_attacks(sq: u64, occupied: u64) -> u64 {
        board::rook_attacks(square(sq), Bitboard(occupied)).0
    }
    fn queen_attacks(sq: u64, occupied: u64) -> u64 {
        board::queen_attacks(square(sq), Bitboard(occupied)).0
    }
    fn king_attacks(sq: u64) -> u64 {
        board::king_attacks(square(sq)).0
    }
}
