//! The library half of the `tessera` binary: the UCI front end (parsing and
//! the command loop) and `perft`, public so that integration tests and fuzz
//! targets can drive them directly.

// The start-up CPU check is compiled on its own by build.rs and linked into the
// binary; here it is a module only for its tests.
pub mod build_info;
pub mod cli;
#[cfg(all(test, target_arch = "x86_64"))]
#[path = "cpu_check.rs"]
mod cpu_check;
pub mod datagen;
pub mod genfens;
pub mod perft_cmd;
pub mod rng;
pub mod uci;
pub mod wasm_memory;

/// The version this build reports (`id name Tessera <VERSION>`): the package
/// version, then the short commit it was built from where that is known
/// (`0.8.0 3f2a9c1`; `0.8.0` alone for a build outside a git checkout).
pub const VERSION: &str = env!("TESSERA_VERSION");
