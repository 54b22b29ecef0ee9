//! Syzygy endgame tablebases for Tessera, behind one small interface.
//!
//! - [`Tablebases::load`] takes a path list (folders separated by `:` or `;`),
//!   checks every table file before the prober may map it (size, magic number and
//!   the checksum the files carry, see [`Verify`]), and reports what it found and
//!   what it skipped ([`LoadReport`]).
//! - [`Tablebases::probe_wdl`] gives win/draw/loss for the search (thread-safe).
//! - [`Tablebases::probe_root`] ranks the root moves by DTZ (or WDL where the DTZ
//!   table is missing), honouring the fifty-move rule as Stockfish does.
//!
//! The decoding itself is done by the `pyrrhic-rs` crate (a Rust port of
//! Fathom/Pyrrhic); this crate adapts it to [`board::Board`] and makes it safe
//! to point at files a user supplies. See `docs/tablebases.md`.

mod adapter;
mod checksum;
mod material;
mod paths;
mod rank;
mod staging;
mod tablebases;
mod validate;
mod wdl;

pub use paths::split_path_list;
pub use rank::{RankedBy, RankedMove, RootOptions, RootProbe};
pub use tablebases::{LoadError, LoadReport, Tablebases};
pub use validate::{Rejected, TableProblem, Verify};
pub use wdl::Wdl;
