//! Picks the network embedded in the engine: `TESSERA_EVALFILE` if set (the
//! Makefile's `EVALFILE=`), otherwise the default net below, copied into
//! `OUT_DIR` for `include_bytes!`. It is parsed and checked at compile time.
//! Its file name and sha256 become `TESSERA_NET_NAME` and `TESSERA_NET_SHA256`,
//! which a build reports (`tessera --version`).

use sha2::Digest;
use std::path::PathBuf;

/// The default network, relative to this crate.
const DEFAULT_NET: &str = "nets/gen13.nnue";

fn main() {
    println!("cargo:rerun-if-env-changed=TESSERA_EVALFILE");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let source = match std::env::var("TESSERA_EVALFILE") {
        Ok(path) if !path.is_empty() => PathBuf::from(path),
        _ => manifest.join(DEFAULT_NET),
    };
    println!("cargo:rerun-if-changed={}", source.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("network.nnue");
    let bytes = std::fs::read(&source)
        .unwrap_or_else(|e| panic!("cannot read the network {}: {e}", source.display()));
    if let Err(e) = std::fs::write(&out, &bytes) {
        panic!("cannot write {}: {e}", out.display());
    }
    let name = source.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    println!("cargo:rustc-env=TESSERA_NET_NAME={name}");
    let digest = sha2::Sha256::digest(&bytes);
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=TESSERA_NET_SHA256={hex}");
}
