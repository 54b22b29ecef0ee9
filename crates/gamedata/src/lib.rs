//! The binary game format of Tessera's training data.
//!
//! A file is a sequence of games with no file header. A game is a 32-byte
//! [`PackedBoard`] (the position the recorded part of the game starts from,
//! with the game's result), then one 4-byte `(move, score)` record per ply, then
//! a 4-byte terminator of zeros:
//!
//! | bytes | field |
//! |---|---|
//! | 32 | [`PackedBoard`]: the start position and the game's result |
//! | 4 × n | per ply: the move played (`u16`, Tessera's [`board::Move`] encoding) and the search score (`i16`, centipawns from White's point of view, mate scores as the search gives them) |
//! | 4 | `0u16, 0i16`: the end of the game ([`board::Move::NULL`] is never legal) |
//!
//! All integers are little-endian. A position costs 4 bytes plus its share of
//! the 36 bytes of header and terminator: about 4.3 bytes in a 120-ply game.
//! Every searched position is recorded; filtering (checks, captures, early
//! plies, mate scores) is the reader's business, so the data stays reusable.
//! See `docs/datagen.md`.

#![warn(missing_docs)]

mod game;
mod packed;
mod result;

pub use game::{Game, GameReader, Ply, ReadError, write_game};
pub use packed::{PackedBoard, UnpackError};
pub use result::GameResult;
