//! The library half of the `tessera` binary: the UCI front end (parsing and
//! the command loop) and `perft`, public so that integration tests and fuzz
//! targets can drive them directly.

pub mod perft_cmd;
pub mod uci;
