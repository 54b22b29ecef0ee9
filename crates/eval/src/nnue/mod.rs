//! NNUE: an efficiently updatable neural network evaluation.
//!
//! The network is a perspective net `(768 × king buckets → H) × 2 → 1` with SCReLU,
//! its output layer one of [`OUTPUT_BUCKETS`] chosen by the pieces on the board:
//!
//! - [`layout`]: the input features (one per colour, piece and square, seen
//!   from each side, in the bucket of that side's king) and the quantisation constants, declared once for the
//!   engine and the trainer;
//! - [`network`]: the quantised weights, their file format (the one declaration
//!   of it: the trainer writes its files with the header built here), and the
//!   first layer's output on a board, from scratch;
//! - [`cache`]: the accumulator cache, which rebuilds a perspective whose
//!   king moved into another bucket from the half it last had there;
//! - [`accumulator`]: the first layer's output for both perspectives, updated
//!   incrementally with each move;
//! - [`output`]: the output layer, the evaluation from an accumulator;
//! - [`simd`]: the accumulator update and the output layer's dot product on
//!   each instruction set (portable, AVX2, AVX-512), chosen at compile time.
//!
//! Evaluating a position is `network.evaluate(&accumulator, &board)`; the
//! accumulator of a child is `parent.play(&network, &board, mv)`. See `docs/nnue.md`.

pub mod accumulator;
pub mod cache;
pub mod layout;
pub mod network;
pub mod output;
pub mod simd;
#[cfg(test)]
mod simd_paths;

pub use accumulator::{Accumulator, MoveDelta};
pub use cache::AccumulatorCache;
pub use layout::{
    HIDDEN, INPUTS, KING_BUCKETS, MIRRORED, OUTPUT_BUCKETS, PIECE_SQUARES, QA, QB, SCALE, VIEWS,
    VIEWS_VARY, View, feature_index, output_bucket, summary, view,
};
pub use network::{MAGIC, NetError, Network, file_len, header};
pub use output::{MAX_EVAL, output_layer};

use std::sync::{Arc, OnceLock};

/// The network built into the engine (chosen by `build.rs`), parsed and
/// checked at compile time: a net of the wrong shape does not build.
#[allow(long_running_const_eval)]
pub static EMBEDDED: Network =
    match Network::from_bytes(include_bytes!(concat!(env!("OUT_DIR"), "/network.nnue"))) {
        Ok(net) => net,
        Err(_) => panic!("the embedded network is not a valid network of this engine"),
    };

/// The file name of the embedded network (the default net of
/// crates/eval/build.rs, or the one `EVALFILE` gave the build).
pub const EMBEDDED_NAME: &str = env!("TESSERA_NET_NAME");

/// The sha256 of the embedded network's file, in hexadecimal.
pub const EMBEDDED_SHA256: &str = env!("TESSERA_NET_SHA256");

/// The widest vectors the build lets the network's code use (the accumulator
/// update and the output layer: explicit kernels or the compiler's, see
/// [`simd`]), in bits, with the instruction set that has them.
pub const VECTOR_WIDTH: (u32, &str) = if cfg!(target_feature = "avx512bw") {
    (512, "AVX-512BW")
} else if cfg!(target_feature = "avx2") {
    (256, "AVX2")
} else if cfg!(target_feature = "sse2") {
    (128, "SSE2")
} else if cfg!(target_feature = "neon") {
    (128, "NEON")
} else if cfg!(target_feature = "simd128") {
    (128, "WebAssembly simd128")
} else {
    (0, "no vector instructions")
};

/// The embedded network, shared: copied once, at the first call, onto the
/// heap; every later call hands out the same [`Arc`].
pub fn embedded() -> Arc<Network> {
    static SHARED: OnceLock<Arc<Network>> = OnceLock::new();
    Arc::clone(SHARED.get_or_init(|| Arc::from(EMBEDDED.boxed_copy())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_is_named_with_its_digest() {
        assert!(EMBEDDED_NAME.ends_with(".nnue"), "{EMBEDDED_NAME}");
        assert_eq!(EMBEDDED_SHA256.len(), 64);
        assert!(EMBEDDED_SHA256.bytes().all(|b| b.is_ascii_hexdigit()));
        // The default net (a build without `TESSERA_EVALFILE`) is listed in
        // the nets' README, and a listed net has the digest the README gives.
        let readme = include_str!("../../nets/README.md");
        let listed = readme.contains(&format!("| `{EMBEDDED_NAME}` |"));
        let default_build = option_env!("TESSERA_EVALFILE").is_none_or(str::is_empty);
        assert!(listed || !default_build, "{EMBEDDED_NAME} is not in nets/README.md");
        if listed {
            assert!(readme.contains(EMBEDDED_SHA256), "{EMBEDDED_NAME}: {EMBEDDED_SHA256}");
        }
    }

    /// The embedded file is one of this build's format, byte for byte the
    /// header the trainer writes for a net of this size.
    #[test]
    fn the_embedded_file_has_this_builds_header() {
        let bytes = include_bytes!(concat!(env!("OUT_DIR"), "/network.nnue"));
        assert_eq!(bytes[..Network::HEADER_LEN], header(HIDDEN, OUTPUT_BUCKETS));
        assert_eq!(bytes.len(), file_len(HIDDEN, OUTPUT_BUCKETS));
    }

    /// The compile-time reading (the first layer taken as one block) gives
    /// the network that the run-time reading of the same file gives.
    #[test]
    fn the_embedded_network_is_its_file_read_at_run_time() {
        let bytes = include_bytes!(concat!(env!("OUT_DIR"), "/network.nnue"));
        let read = Network::from_bytes_boxed(bytes).expect("the embedded file loads");
        assert!(*read == EMBEDDED);
        assert!(EMBEDDED.feature_weights.iter().flatten().any(|&w| w != 0));
    }

    #[test]
    fn the_embedded_network_is_shared_not_copied() {
        let (a, b) = (embedded(), embedded());
        assert!(Arc::ptr_eq(&a, &b));
        assert!(*a == EMBEDDED);
    }
}
