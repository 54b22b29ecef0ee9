//! The engine as a hostile GUI or a careless user drives it: each test is one
//! of the reproducers of issue 12 (numbered as there), run against the real
//! binary. Each failed on the code of commit 09b327e.

mod common;

use common::{Engine, SLOW, is_legal};
use std::time::Duration;

/// The lines before the next `bestmove`, and its move.
fn one_bestmove(e: &mut Engine) -> (String, Vec<String>) {
    let (mv, before) = e.bestmove(SLOW);
    let after = e.sync();
    assert!(after.iter().all(|l| !l.starts_with("bestmove")), "a second bestmove: {after:?}");
    (mv, before)
}

/// Reproducer 1: a byte that is not UTF-8 is one error line; the loop goes on, and a
/// search under way is not disturbed.
#[test]
fn input_that_is_not_utf8_is_reported_and_the_loop_goes_on() {
    let mut e = Engine::start();
    e.send_bytes(b"isready\n\xff\nisready\nuci\n");
    assert_eq!(e.wait_for(SLOW, |_| true).0, "readyok");
    let (line, _) = e.wait_for(SLOW, |_| true);
    assert!(line.starts_with("info string error: input is not UTF-8"), "{line}");
    assert_eq!(e.wait_for(SLOW, |_| true).0, "readyok");
    e.wait_for(SLOW, |l| l == "uciok");

    e.send("position startpos");
    e.send("go infinite");
    e.send_bytes(b"\xe9\n");
    let during = e.lines_for(Duration::from_millis(300));
    assert!(during.iter().any(|l| l.starts_with("info string error: input is not UTF-8")));
    assert!(!during.iter().any(|l| l.starts_with("bestmove")), "the search ended: {during:?}");
    e.send("stop");
    let (mv, _) = one_bestmove(&mut e);
    assert!(is_legal(board::STARTPOS_FEN, &mv));
    assert!(e.quit(SLOW));
}

/// Reproducer 2: `go perft` runs beside the command loop: `isready` is answered and `stop`
/// ends it while it counts; then `quit` and end of input end the process. (Without
/// `stop`, both wait for the count: `tests/uci.rs`.)
#[test]
fn go_perft_leaves_the_command_loop_responsive() {
    // Perft 8 of the start position takes minutes: none of these may wait for it.
    let mut e = Engine::start();
    e.send("go perft 8");
    e.send("isready");
    let (_, before) = e.wait_for(Duration::from_secs(10), |l| l == "readyok");
    assert!(before.is_empty(), "{before:?}");
    e.send("stop");
    let after = e.sync();
    assert!(after.iter().all(|l| !l.starts_with("Nodes searched")), "{after:?}");
    e.send("go perft 8");
    e.send("stop");
    assert!(e.quit(Duration::from_secs(10)), "quit after stopping go perft");

    let mut e = Engine::start();
    e.send("go perft 8");
    e.send("stop");
    e.close_input();
    let status = e.wait_exit(Duration::from_secs(10));
    assert!(status.is_some_and(|s| s.success()), "EOF after stopping go perft");

    // Depths are bounded; within the bound a count still completes.
    let mut e = Engine::start();
    e.send("go perft 11");
    let (line, _) = e.wait_for(SLOW, |_| true);
    assert!(line.starts_with("info string error: go perft"), "{line}");
    e.send("go perft 3");
    assert_eq!(e.wait_for(SLOW, |l| l.starts_with("Nodes")).0, "Nodes searched: 8902");
}

/// Reproducer 3: a `go` with unknown or malformed tokens is still answered with exactly one
/// legal `bestmove` (after one error line naming what was ignored).
#[test]
fn go_with_tokens_not_understood_gets_exactly_one_bestmove() {
    let mut e = Engine::start();
    e.send("position startpos");
    let cases = [
        ("go wtime 1000 btime 1000 foo 5", true),
        ("go wtime 1000.5 btime 1000", false),
        ("go depth", true),
        ("go depth deep", true),
        ("go wtime", true),
        ("go searchmoves e2e5", true),
        ("go movetime -100", false),
        ("go nodes 3000 depth 99999999999999999999 winc 1e400", false),
        ("go depth 2 perft 3", true),
    ];
    for (go, reports) in cases {
        e.send(go);
        let (mv, before) = one_bestmove(&mut e);
        assert!(is_legal(board::STARTPOS_FEN, &mv), "{go}: {mv}");
        let errors = before.iter().filter(|l| l.starts_with("info string error")).count();
        assert_eq!(errors, usize::from(reports), "{go}: {before:?}");
    }
}

/// Reproducer 4: a refused allocation or thread is an error line; the engine keeps its
/// table and threads and goes on searching.
#[test]
fn refused_memory_and_threads_leave_a_working_engine() {
    // 3 GB of address space: a 4000 MB table, or 1024 threads with 16 MB stacks,
    // cannot fit.
    let mut e = Engine::start_with_memory_limit(3_000_000);
    e.send("uci");
    let (_, lines) = e.wait_for(SLOW, |l| l == "uciok");
    let max_hash: u64 = lines
        .iter()
        .find_map(|l| l.strip_prefix("option name Hash type spin default 16 min 1 max "))
        .and_then(|m| m.parse().ok())
        .expect("the Hash option");
    if max_hash >= 4000 {
        e.send("setoption name Hash value 4000");
        let (line, _) = e.wait_for(SLOW, |_| true);
        assert!(line.starts_with("info string error: setoption: the system refused"), "{line}");
        assert!(line.contains("stays at 16 MB"), "{line}");
    }
    e.send("setoption name Threads value 1024");
    let (line, _) = e.wait_for(SLOW, |_| true);
    assert!(line.starts_with("info string error: setoption: the system refused"), "{line}");
    assert!(line.contains("keeping 1 thread"), "{line}");
    // The table the refused resize left (allocated again at 16 MB) stores entries.
    e.send("position startpos moves e2e4");
    e.send("go depth 10");
    let (mv, before) = one_bestmove(&mut e);
    assert!(is_legal("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", &mv));
    let hashfull = before.iter().rev().find_map(|l| common::info_field(l, "hashfull"));
    assert!(hashfull.is_some_and(|h| h != "0"), "nothing stored: {before:?}");
    // What fits still works.
    e.send("setoption name Threads value 3");
    e.send("setoption name Hash value 64");
    let (line, _) = e.wait_for(SLOW, |_| true);
    assert!(line.starts_with("info string hash table 64 MB"), "{line}");
    e.send("go depth 6");
    one_bestmove(&mut e);
    assert!(e.quit(SLOW));
}

/// Reproducer 5: castling rights a standard FEN can give to a king off the e-file: the move
/// is written king-takes-rook, never from = to, and each move is listed once.
#[test]
fn chess960_castling_without_uci_chess960() {
    let mut e = Engine::start();
    let fen = "k4r2/8/8/8/4b2p/7P/7P/6KR w K - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go depth 5");
    let (mv, _) = one_bestmove(&mut e);
    assert_ne!(mv[0..2], mv[2..4], "{mv}");
    assert!(is_legal(fen, &mv), "{mv}");

    e.send("position fen 4k3/8/8/8/8/8/8/RK6 w Q - 0 1");
    e.send("go perft 1");
    let (_, divide) = e.wait_for(SLOW, |l| l.starts_with("Nodes searched"));
    let moves: Vec<&str> = divide.iter().filter_map(|l| l.split(':').next()).collect();
    let distinct: std::collections::HashSet<&&str> = moves.iter().collect();
    assert_eq!(distinct.len(), moves.len(), "{moves:?}");
    assert!(moves.contains(&"b1a1") && moves.contains(&"b1c1"), "{moves:?}");
    // The plain king move can be entered.
    e.send("position fen 4k3/8/8/8/8/8/8/RK6 w Q - 0 1 moves b1c1");
    assert_eq!(e.fen(), "4k3/8/8/8/8/8/8/R1K5 b - - 1 1");
}

/// Reproducer 6: impossible material is refused (263 legal moves would not fit the list).
#[test]
fn impossible_material_is_refused() {
    let mut e = Engine::start();
    e.send("position fen QQQQQQbk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1");
    let (line, _) = e.wait_for(SLOW, |_| true);
    assert!(line.starts_with("info string error: position fen: illegal position"), "{line}");
    assert_eq!(e.fen(), board::STARTPOS_FEN);
}

/// Reproducer 7: only `stop` ends `go infinite`: a stray `ponderhit` does not.
#[test]
fn a_stray_ponderhit_does_not_end_go_infinite() {
    let mut e = Engine::start();
    // Mate in one: the search is done at once and only waits for `stop`.
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go infinite depth 3");
    e.send("ponderhit");
    let lines = e.lines_for(Duration::from_millis(500));
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "ended by ponderhit: {lines:?}");
    e.send("stop");
    assert_eq!(one_bestmove(&mut e).0, "d1d8");
}

/// Reproducer 8a: perft 0 counts the position itself.
#[test]
fn go_perft_0_is_one_node() {
    let mut e = Engine::start();
    e.send("go perft 0");
    let (line, divide) = e.wait_for(SLOW, |l| l.starts_with("Nodes searched"));
    assert_eq!(line, "Nodes searched: 1");
    assert!(divide.iter().all(|l| !l.contains(':')), "{divide:?}");
}

/// Reproducer 8b: `go mate` with a huge number (2 * 2^31 overflowed an i32).
#[test]
fn go_mate_with_a_huge_number() {
    let mut e = Engine::start();
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go mate 2147483648");
    assert_eq!(one_bestmove(&mut e).0, "d1d8");
}

/// Reproducer 8c: a halfmove clock at the FEN maximum, then a quiet move: `d` must print a
/// FEN that `position fen` reads back.
#[test]
fn the_fen_of_d_reads_back() {
    let mut e = Engine::start();
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w - - 1000 80 moves h1h5");
    let fen = e.fen();
    e.send(&format!("position fen {fen}"));
    let reply = e.sync();
    assert!(reply.is_empty(), "the FEN from d was refused: {reply:?}");
    assert_eq!(e.fen(), fen);
}

/// Reproducer 8d: a 1 MB unknown command gets one short error line; a line beyond what the
/// engine keeps (1 MiB) is dropped and reported.
#[test]
fn a_huge_command_is_not_echoed_whole() {
    let mut e = Engine::start();
    e.send(&"x".repeat(1_000_000));
    let (line, _) = e.wait_for(SLOW, |_| true);
    assert!(line.starts_with("info string error: unknown command"), "{}", &line[..60]);
    assert!(line.len() < 400, "{} bytes", line.len());
    e.send(&format!("position startpos moves {}", "e2e4 ".repeat(300_000)));
    let (line, _) = e.wait_for(SLOW, |_| true);
    assert!(line.starts_with("info string error: input line of"), "{}", &line[..60]);
    assert_eq!(e.fen(), board::STARTPOS_FEN);
    assert!(e.quit(SLOW));
}

/// A search's `bestmove` is written in the notation of its own `go`, even when
/// `UCI_Chess960` changes before the next `go` stops it.
#[test]
fn bestmove_notation_follows_its_own_go() {
    let mut e = Engine::start();
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    e.send("go infinite searchmoves e1g1");
    e.send("setoption name UCI_Chess960 value true");
    e.send("go depth 1 searchmoves e1h1");
    let (first, _) = e.bestmove(SLOW);
    assert_eq!(first, "e1g1");
    let (second, _) = one_bestmove(&mut e);
    assert_eq!(second, "e1h1");
}

/// A binary built for a CPU feature this machine lacks says so in one line and
/// exits with status 1 (instead of dying on an illegal instruction). Builds the
/// engine again with `-C target-feature=+<feature>` in its own target directory.
#[test]
#[ignore = "builds the engine again with other RUSTFLAGS (about a minute)"]
fn a_build_for_cpu_features_this_cpu_lacks_says_so() {
    // A feature this CPU lacks, by the kernel's list of the CPU's flags (rustc's
    // `native` leaves off some features a CPU has, AMX for one): SSE4a is AMD's
    // alone, AVX512-FP16 Intel's alone.
    let flags = std::fs::read_to_string("/proc/cpuinfo").expect("read /proc/cpuinfo");
    let flags: Vec<&str> = flags
        .lines()
        .find_map(|l| l.strip_prefix("flags"))
        .map(|l| l.trim_start_matches([' ', '\t', ':']).split_whitespace().collect())
        .unwrap_or_default();
    let candidates = [
        ("sse4a", "sse4a"),
        ("avx512fp16", "avx512_fp16"),
        ("avx512vp2intersect", "avx512_vp2intersect"),
    ];
    let Some((feature, _)) = candidates.iter().find(|(_, flag)| !flags.contains(flag)) else {
        panic!("this CPU has every candidate feature; add one it lacks");
    };
    let root = env!("CARGO_MANIFEST_DIR");
    let status = std::process::Command::new(env!("CARGO"))
        .args(["build", "--bin", "tessera", "--manifest-path", &format!("{root}/Cargo.toml")])
        .env("RUSTFLAGS", format!("-C target-cpu=native -C target-feature=+{feature}"))
        .env("CARGO_TARGET_DIR", format!("{root}/target/cpu-check"))
        .status()
        .expect("run cargo");
    assert!(status.success());
    let out = std::process::Command::new(format!("{root}/target/cpu-check/debug/tessera"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run the build");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("info string error: this tessera binary was built for CPU"), "{text}");
    assert!(text.contains(&format!(" {feature}")), "{text}");
    // It names the Makefile's build this CPU runs (the tests' own build says which).
    let v3 = cfg!(all(target_feature = "avx2", target_feature = "bmi2", target_feature = "fma"));
    let build = if v3 { "`make avx2`" } else { "`make portable`" };
    assert!(text.contains(build) && text.contains("`make native`"), "{text}");
}
