//! The chess board of Tessera: bitboards, legal move generation, copy-make with
//! incremental Zobrist keys, FEN (with Chess960 castling), UCI and SAN move text,
//! static exchange evaluation and perft.
//!
//! ```
//! use board::{Board, perft};
//! let board = Board::startpos();
//! assert_eq!(perft(&board, 3), 8902);
//! let mv = board.parse_uci_move("e2e4", false).unwrap();
//! let mut next = board;
//! next.play(mv);
//! assert_eq!(next.key(), next.compute_key());
//! ```
//!
//! The crate does no I/O and knows nothing of UCI as a protocol.

#![warn(missing_docs)]

mod attacks;
mod bitboard;
mod board;
mod castling;
mod check;
mod chess_move;
mod fen;
mod make;
mod movegen;
mod notation;
mod perft;
mod position;
mod san;
mod see;
mod threats;
mod types;
pub mod zobrist;

pub use attacks::{
    SLIDER_INDEXING, between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks,
    queen_attacks, rook_attacks,
};
pub use bitboard::Bitboard;
pub use board::{Board, GameStatus};
pub use castling::{CastlingRights, CastlingSide};
pub use check::CheckSquares;
pub use chess_move::{MAX_MOVES, Move, MoveKind, MoveList, StackList};
pub use fen::{FenError, MAX_HALFMOVE_CLOCK, STARTPOS_FEN};
pub use make::IllegalMove;
pub use movegen::PieceMoves;
pub use notation::MoveError;
pub use perft::{divide, perft};
pub use position::Position;
pub use san::SanError;
pub use see::{SEE_VALUES, see_value};
pub use threats::LesserAttacks;
pub use types::{ByColor, ByPiece, Color, ColoredPiece, File, Piece, Rank, Square};
