//! Checks that a table allocated with the huge-page advice really gets huge pages
//! from the kernel, by reading `AnonHugePages` from `/proc/self/smaps_rollup`
//! (this file is its own test binary, so nothing else allocates meanwhile).
#![cfg(all(not(loom), target_os = "linux"))]

use tt::{Backing, TranspositionTable};

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// `AnonHugePages` of this process in KiB.
fn anon_huge_kib() -> u64 {
    read("/proc/self/smaps_rollup")
        .lines()
        .find_map(|l| l.strip_prefix("AnonHugePages:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

#[test]
fn advised_tables_get_huge_pages() {
    let enabled = read("/sys/kernel/mm/transparent_hugepage/enabled");
    let defrag = read("/sys/kernel/mm/transparent_hugepage/defrag");
    let before = anon_huge_kib();
    let tt = TranspositionTable::new(64);
    let after = anon_huge_kib();
    println!(
        "THP enabled: {}; defrag: {}; backing: {}; AnonHugePages {before} KiB -> {after} KiB",
        enabled.trim(),
        defrag.trim(),
        tt.backing()
    );
    let thp_usable = enabled.contains("[always]") || enabled.contains("[madvise]");
    assert_eq!(tt.backing() == Backing::HugePages, thp_usable, "backing disagrees with sysfs");
    // The kernel only promises to try; with direct compaction on for advised
    // regions it succeeds unless memory is badly fragmented.
    let compacts = ["[always]", "[madvise]", "[defer+madvise]"].iter().any(|d| defrag.contains(d));
    if thp_usable && compacts {
        assert!(after > before, "no huge pages granted for an advised 64 MiB table");
    }
    // Tables under one huge page are not advised.
    assert_eq!(TranspositionTable::with_buckets(1000).backing(), Backing::Regular);
}
