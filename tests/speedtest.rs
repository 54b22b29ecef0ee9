//! `tessera speedtest`: the machine, a table row per thread count, and the
//! last line `speedtest: T threads M nps (×R)`; bad words are refused with
//! the usage line and a failing status.

mod common;

use common::binary;
use std::process::Command;

/// Whether `line` is a row `threads nodes/s ×ratio efficiency%` for `threads`.
fn is_row(line: &str, threads: usize) -> bool {
    let cells: Vec<&str> = line.split_whitespace().collect();
    matches!(cells.as_slice(), [t, nps, ratio, efficiency]
        if t.parse() == Ok(threads)
            && nps.parse::<u64>().is_ok_and(|n| n > 0)
            && ratio.strip_prefix('×').is_some_and(|r| r.parse::<f64>().is_ok())
            && efficiency.strip_suffix('%').is_some_and(|e| e.parse::<f64>().is_ok()))
}

#[test]
fn speedtest_describes_the_machine_then_measures_each_thread_count() {
    let out = Command::new(binary())
        .args(["speedtest", "2", "16", "0.03"])
        .output()
        .expect("the engine runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("Tessera "), "{lines:?}");
    for field in ["network code: ", "CPU: ", "logical CPUs: ", "NUMA nodes: "] {
        assert!(lines.iter().any(|l| l.starts_with(field)), "no {field:?} in {lines:?}");
    }
    let header = lines
        .iter()
        .position(|l| l.split_whitespace().eq(["threads", "nodes/s", "ratio", "efficiency"]));
    let header = header.unwrap_or_else(|| panic!("no table in {lines:?}"));
    assert_eq!(lines.len(), header + 4, "{lines:?}");
    assert!(is_row(lines[header + 1], 1) && lines[header + 1].contains("×1.00"), "{lines:?}");
    assert!(is_row(lines[header + 2], 2), "{lines:?}");
    let two_threads = lines[header + 2].split_whitespace().nth(1).unwrap();
    let last: Vec<&str> = lines[header + 3].split_whitespace().collect();
    assert!(
        matches!(last.as_slice(), ["speedtest:", "2", "threads", nps, "nps", ratio]
            if *nps == two_threads && ratio.starts_with("(×") && ratio.ends_with(')')),
        "last line: {}",
        lines[header + 3]
    );
}

#[test]
fn speedtest_refuses_bad_words() {
    let bad: [&[&str]; 6] =
        [&["0"], &["x"], &["1025"], &["2", "0"], &["2", "16", "0"], &["1", "16", "0.1", "extra"]];
    for words in bad {
        let out =
            Command::new(binary()).arg("speedtest").args(words).output().expect("the engine runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{words:?} accepted");
        assert!(stderr.starts_with("usage: tessera speedtest "), "{words:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{words:?}: {}", String::from_utf8_lossy(&out.stdout));
    }
}
