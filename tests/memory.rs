//! The table's memory as the engine manages it, measured from outside: the
//! engine's own peak resident memory during a `Hash` resize.
#![cfg(target_os = "linux")]

mod common;

use common::{Engine, SLOW};

/// A field of `/proc/<pid>/status` in KiB (`VmRSS`, `VmHWM`).
fn status_kib(pid: u32, field: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the engine's status");
    text.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"))
}

/// A resize frees the old table before it takes the new one: the engine's peak
/// resident memory (`VmHWM`) through a resize from 256 MB to 512 MB is the new
/// table and the rest of the process, never both tables (768 MB) at once.
#[test]
fn the_peak_of_a_resize_is_the_new_table_not_both() {
    const OLD_KIB: u64 = 256 << 10;
    const NEW_KIB: u64 = 512 << 10;
    // The rest of the process may grow a little meanwhile (threads' stacks, buffers).
    const ALLOWANCE_KIB: u64 = 64 << 10;
    let mut e = Engine::start();
    let pid = e.pid();
    e.send("setoption name Hash value 256");
    let (line, _) = e.wait_for(SLOW, |l| l.starts_with("info string hash table"));
    assert!(line.starts_with("info string hash table 256 MB"), "{line}");
    e.sync();
    // Every page of the table is touched when it is made, so all of it is resident.
    let rss = status_kib(pid, "VmRSS");
    assert!(rss >= OLD_KIB, "{rss} KiB resident with a 256 MB table");
    let rest = rss - OLD_KIB;
    e.send("setoption name Hash value 512");
    let (line, _) = e.wait_for(SLOW, |l| l.starts_with("info string hash table"));
    assert!(line.starts_with("info string hash table 512 MB"), "{line}");
    e.sync();
    let peak = status_kib(pid, "VmHWM");
    let bound = rest + NEW_KIB + ALLOWANCE_KIB;
    println!("rest of the process {rest} KiB; peak {peak} KiB; bound {bound} KiB");
    assert!(
        peak <= bound,
        "peak {peak} KiB through the resize: more than the new table ({NEW_KIB} KiB), the rest \
         of the process ({rest} KiB) and {ALLOWANCE_KIB} KiB; both tables would be {} KiB",
        rest + OLD_KIB + NEW_KIB
    );
    assert!(e.quit(SLOW));
}
