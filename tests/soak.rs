//! The short soak (`scripts/soak.py --short`): a few games of every stage of the
//! full soak against itself and the reference engines, then the stop-to-bestmove
//! latency; Tessera must have no time loss, illegal move, crash, missing
//! bestmove or unanswered isready. A few minutes, so `--ignored`; run it on a
//! release build: `cargo test --release --test soak -- --ignored`.
//! `TESSERA_BIN` soaks another build. The full soak is `python3 scripts/soak.py`
//! (docs/reliability.md).

mod common;

#[test]
#[ignore = "plays games against the reference engines for a few minutes"]
fn short_soak() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = format!("{root}/target/soak-short");
    let status = std::process::Command::new("python3")
        .arg(format!("{root}/scripts/soak.py"))
        .args(["--short", "--out", &out, "--engine"])
        .arg(common::binary())
        .status()
        .expect("run python3 scripts/soak.py");
    assert!(status.success(), "the short soak found a fault: see {out}/summary.md");
}
