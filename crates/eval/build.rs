//! Picks the network embedded in the engine: `TESSERA_EVALFILE` if set (the
//! Makefile's `EVALFILE=`), otherwise the default net below, copied into
//! `OUT_DIR` for `include_bytes!`. It is parsed and checked at compile time.

use std::path::PathBuf;

/// The default network, relative to this crate.
const DEFAULT_NET: &str = "nets/gen9.nnue";

fn main() {
    println!("cargo:rerun-if-env-changed=TESSERA_EVALFILE");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let source = match std::env::var("TESSERA_EVALFILE") {
        Ok(path) if !path.is_empty() => PathBuf::from(path),
        _ => manifest.join(DEFAULT_NET),
    };
    println!("cargo:rerun-if-changed={}", source.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("network.nnue");
    if let Err(e) = std::fs::copy(&source, &out) {
        panic!("cannot read the network {}: {e}", source.display());
    }
}
