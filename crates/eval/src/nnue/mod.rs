//! NNUE: an efficiently updatable neural network evaluation.
//!
//! The network is a perspective net `(768 → H) × 2 → 1` with SCReLU:
//!
//! - [`layout`]: the input features (one per colour, piece and square, seen
//!   from each side) and the quantisation constants, declared once for the
//!   engine and the trainer;
//! - [`network`]: the quantised weights, their file format, and the output layer;
//! - [`accumulator`]: the first layer's output for both perspectives, updated
//!   incrementally with each move.
//!
//! Evaluating a position is `network.evaluate(&accumulator, side_to_move)`; the
//! accumulator of a child is `parent.play(&network, &board, mv)`. See `docs/nnue.md`.

pub mod accumulator;
pub mod layout;
pub mod network;

pub use accumulator::{Accumulator, MoveDelta};
pub use layout::{HIDDEN, INPUTS, QA, QB, SCALE, feature_index};
pub use network::{NetError, Network};

use std::sync::Arc;

/// The network built into the engine (chosen by `build.rs`), parsed and
/// checked at compile time: a net of the wrong shape does not build.
#[allow(long_running_const_eval)]
pub static EMBEDDED: Network =
    match Network::from_bytes(include_bytes!(concat!(env!("OUT_DIR"), "/network.nnue"))) {
        Ok(net) => net,
        Err(_) => panic!("the embedded network is not a valid network of this engine"),
    };

/// A shared copy of the embedded network.
pub fn embedded() -> Arc<Network> {
    Arc::new(EMBEDDED.clone())
}
