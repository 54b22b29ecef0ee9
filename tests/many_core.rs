//! The many-core kit (`scripts/many_core.sh`) measured on this machine:
//! `scripts/check_many_core.sh` runs its `scaling` at 1 and 2 threads and
//! depth 6 against the engine this test run built (or `TESSERA_BIN`), stops
//! it with SIGTERM in mid-run, renders the partial results with `report`,
//! resumes it, and holds it to a budget (about 10 s; it needs bash and
//! python3). Linux only: the kit reads /proc and /sys.
#![cfg(target_os = "linux")]

mod common;

#[test]
fn scaling_keeps_what_it_finished_and_resumes() {
    let root = env!("CARGO_MANIFEST_DIR");
    let output = std::process::Command::new("bash")
        .arg(format!("{root}/scripts/check_many_core.sh"))
        .env("ENGINE", common::binary())
        .output()
        .expect("run bash scripts/check_many_core.sh");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "scripts/check_many_core.sh failed:\n{text}");
}
