//! `PackedBoard`: a position in 32 bytes (the layout of marlinformat).
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | occupancy: bit `i` set when square `i` (a1 = 0, h8 = 63) holds a piece |
//! | 8..24 | one nibble per occupied square, in square order, low nibble first: piece (0 pawn … 5 king, or 6 for a rook that still has a castling right) plus 8 for Black |
//! | 24 | bit 7: Black to move; bits 0..7: the en-passant square, 64 when none |
//! | 25 | halfmove clock |
//! | 26..28 | fullmove number |
//! | 28..30 | reserved (0) |
//! | 30 | the game's result: 0 Black won, 1 draw, 2 White won |
//! | 31 | format version ([`PackedBoard::VERSION`]) |
//!
//! A rook marked 6 gives its side the castling right on its side of the king,
//! which covers standard chess and Chess960 alike.

use crate::GameResult;
use board::{Bitboard, Board, CastlingSide, Color, File, Piece, Square};
use std::fmt;

/// A position and a game result in 32 bytes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PackedBoard(pub [u8; 32]);

/// Why a [`PackedBoard`] does not describe a valid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnpackError {
    /// More than 32 occupied squares, a bad nibble, result or version byte.
    BadField(&'static str),
    /// The fields decode, but the position is not legal.
    IllegalPosition(String),
}

impl fmt::Display for UnpackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnpackError::BadField(what) => write!(f, "bad packed board: {what}"),
            UnpackError::IllegalPosition(why) => write!(f, "packed board is not legal: {why}"),
        }
    }
}

impl std::error::Error for UnpackError {}

const CASTLING_ROOK: u8 = 6;
const NO_EN_PASSANT: u8 = 64;

impl PackedBoard {
    /// The format version written in byte 31.
    pub const VERSION: u8 = 1;

    /// Packs `board` with the game's `result`. A position with more than 32
    /// pieces (impossible in a legal game) or a halfmove clock above 255 cannot
    /// be packed.
    pub fn pack(board: &Board, result: GameResult) -> Option<PackedBoard> {
        let occupied = board.occupied();
        if occupied.count() > 32 || board.halfmove_clock() > 255 {
            return None;
        }
        let mut castling_rooks = Bitboard::EMPTY;
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(sq) = board.castling_rook(color, side) {
                    castling_rooks = Bitboard(castling_rooks.0 | sq.bitboard().0);
                }
            }
        }
        let mut bytes = [0u8; 32];
        bytes[0..8].copy_from_slice(&occupied.0.to_le_bytes());
        for (n, sq) in squares(occupied).enumerate() {
            let piece = board.colored_piece_on(sq)?;
            let code = if castling_rooks.has(sq) { CASTLING_ROOK } else { piece.piece as u8 };
            let nibble = code | (piece.color as u8) << 3;
            bytes[8 + n / 2] |= nibble << (4 * (n % 2));
        }
        let ep = board.en_passant().map_or(NO_EN_PASSANT, |sq| sq as u8);
        bytes[24] = ep | (board.side_to_move() as u8) << 7;
        bytes[25] = board.halfmove_clock() as u8;
        bytes[26..28].copy_from_slice(&board.fullmove_number().to_le_bytes());
        bytes[30] = result as u8;
        bytes[31] = Self::VERSION;
        Some(PackedBoard(bytes))
    }

    /// The game result stored with the position.
    pub fn result(&self) -> Result<GameResult, UnpackError> {
        GameResult::from_byte(self.0[30]).ok_or(UnpackError::BadField("result"))
    }

    /// The position, checked for legality (through the FEN parser, which
    /// validates kings, pawns, castling rights and the en-passant square).
    pub fn unpack(&self) -> Result<Board, UnpackError> {
        if self.0[31] != Self::VERSION {
            return Err(UnpackError::BadField("version"));
        }
        let occupied = Bitboard(u64::from_le_bytes(self.0[0..8].try_into().expect("8 bytes")));
        if occupied.count() > 32 {
            return Err(UnpackError::BadField("more than 32 pieces"));
        }
        let mut grid: [Option<(char, bool)>; 64] = [None; 64];
        for (n, sq) in squares(occupied).enumerate() {
            let nibble = self.0[8 + n / 2] >> (4 * (n % 2)) & 15;
            let color = if nibble & 8 != 0 { Color::Black } else { Color::White };
            let code = nibble & 7;
            let (piece, castles) = match code {
                CASTLING_ROOK => (Piece::Rook, true),
                c => (Piece::try_index(c as usize).ok_or(UnpackError::BadField("piece"))?, false),
            };
            let letter = piece.to_char();
            let letter = if color == Color::White { letter.to_ascii_uppercase() } else { letter };
            grid[sq as usize] = Some((letter, castles));
        }
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match grid[rank * 8 + file] {
                    Some((letter, _)) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(letter);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let black_to_move = self.0[24] & 0x80 != 0;
        fen.push_str(if black_to_move { " b " } else { " w " });
        // Castling rights in Shredder-FEN: the file letter of each castling rook.
        let mut rights = String::new();
        for (index, cell) in grid.iter().enumerate() {
            if let Some((letter, true)) = cell {
                let file = File::try_index(index % 8).ok_or(UnpackError::BadField("square"))?;
                let c = file.to_char();
                rights.push(if letter.is_ascii_uppercase() { c.to_ascii_uppercase() } else { c });
            }
        }
        // White's letters first, as FEN writes them.
        let (mut upper, lower): (Vec<char>, Vec<char>) =
            rights.chars().partition(|c| c.is_ascii_uppercase());
        upper.extend(lower);
        let rights: String = upper.into_iter().collect();
        fen.push_str(if rights.is_empty() { "-" } else { &rights });
        fen.push(' ');
        match self.0[24] & 0x7F {
            NO_EN_PASSANT => fen.push('-'),
            sq => {
                let sq = Square::try_index(sq as usize)
                    .ok_or(UnpackError::BadField("en-passant square"))?;
                fen.push_str(&sq.to_string());
            }
        }
        let fullmove = u16::from_le_bytes([self.0[26], self.0[27]]);
        fen.push_str(&format!(" {} {}", self.0[25], fullmove));
        let board =
            Board::from_fen(&fen).map_err(|e| UnpackError::IllegalPosition(e.to_string()))?;
        if board.en_passant().map_or(NO_EN_PASSANT, |sq| sq as u8) != self.0[24] & 0x7F {
            return Err(UnpackError::IllegalPosition("en-passant square without a capture".into()));
        }
        Ok(board)
    }
}

/// The squares of `bb`, in ascending order.
fn squares(bb: Bitboard) -> impl Iterator<Item = Square> {
    let mut bits = bb.0;
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let sq = Square::try_index(bits.trailing_zeros() as usize);
        bits &= bits - 1;
        sq
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(fen: &str) {
        let board = Board::from_fen(fen).expect("valid FEN");
        for result in [GameResult::BlackWins, GameResult::Draw, GameResult::WhiteWins] {
            let packed = PackedBoard::pack(&board, result).expect("packable");
            let back = packed.unpack().expect("unpacks");
            assert_eq!(back, board, "{fen}");
            assert_eq!(packed.result(), Ok(result));
        }
    }

    #[test]
    fn positions_survive_packing() {
        round_trip(board::STARTPOS_FEN);
        round_trip("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        round_trip("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
        round_trip("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 37 99");
        round_trip("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        // Chess960: rooks on b and g files, only some rights left.
        round_trip("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w Gb - 2 10");
    }

    #[test]
    fn corrupt_boards_are_refused() {
        let packed = PackedBoard::pack(&Board::startpos(), GameResult::Draw).expect("packable");
        let mut bad = packed;
        bad.0[31] = 9;
        assert!(bad.unpack().is_err(), "version");
        let mut bad = packed;
        bad.0[30] = 3;
        assert!(bad.result().is_err(), "result");
        let mut bad = packed;
        bad.0[8] = 0x77; // two "piece 7" nibbles
        assert!(bad.unpack().is_err(), "piece code");
        let mut bad = packed;
        bad.0[0..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(bad.unpack().is_err(), "64 pieces");
        let mut bad = packed;
        bad.0[24] = 20; // e3 as an en-passant square in the start position
        assert!(bad.unpack().is_err(), "en passant");
    }
}
