//! The trainer of Tessera's evaluation network, a tool apart from the engine
//! (the engine's crates do not link it).
//!
//! - [`sample`]: a training position in 32 bytes, and its input features;
//! - [`data`]: reading games (the `gamedata` format, plain or xz-compressed, and
//!   the older text format), filtering them into samples, and the validation split;
//! - [`net`]: the float network `(768 → H) × 2 → 1` with SCReLU, its loss and gradient;
//! - [`optim`]: AdamW with weight clipping;
//! - [`train`]: the training loop (shuffled batches on every core, validation,
//!   checkpoints, a loss log);
//! - [`netfile`]: a quantised network of any size as its file holds it, in the
//!   format `eval::nnue::network` declares;
//! - [`quantise`]: the float net as such a file (at the engine's size, the
//!   engine's integer [`eval::nnue::Network`]);
//! - [`resume`]: a run's state after an epoch as a file, to continue it later;
//! - [`pgn`]: games of Tessera against Tessera from a match's PGN, as training games.
//!
//! See `docs/nnue.md`.

#![warn(missing_docs)]

pub mod data;
pub mod net;
pub mod netfile;
pub mod optim;
pub mod pgn;
pub mod quantise;
pub mod resume;
pub mod sample;
pub mod train;

#[cfg(test)]
mod testing;
