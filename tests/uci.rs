//! The UCI engine, driven over stdin/stdout as a GUI would drive it.

mod common;

use common::{Engine, SLOW, info_field, is_legal};
use std::time::{Duration, Instant};

/// `id name` tells builds apart: `Tessera`, the package version, then the
/// short commit of the checkout it was built from (git asked here on its own).
#[test]
fn id_name_is_the_version_and_the_commit_built() {
    let root = env!("CARGO_MANIFEST_DIR");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git").arg("-C").arg(root).args(args).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let own_checkout = git(&["rev-parse", "--show-toplevel"])
        .is_some_and(|top| std::fs::canonicalize(top).ok() == std::fs::canonicalize(root).ok());
    let version = env!("CARGO_PKG_VERSION");
    let expected = match own_checkout.then(|| git(&["rev-parse", "--short", "HEAD"])).flatten() {
        Some(commit) => format!("id name Tessera {version} {commit}"),
        None => format!("id name Tessera {version}"),
    };
    let mut e = Engine::start();
    e.send("uci");
    let (_, before) = e.wait_for(SLOW, |l| l == "uciok");
    assert_eq!(before.iter().find(|l| l.starts_with("id name ")), Some(&expected), "{before:?}");
    assert!(e.quit(SLOW));
}

#[test]
fn handshake_lists_options_and_answers_isready() {
    let mut e = Engine::start();
    e.send("uci");
    let (_, before) = e.wait_for(SLOW, |l| l == "uciok");
    assert!(before.iter().any(|l| l.starts_with("id name Tessera")));
    assert!(
        before.iter().any(|l| l.starts_with("info string hash table 16 MB, ")),
        "no word on how the table was allocated: {before:?}"
    );
    for option in
        ["Hash", "Threads", "Clear Hash", "MultiPV", "Move Overhead", "UCI_Chess960", "Ponder"]
    {
        assert!(
            before.iter().any(|l| l.starts_with(&format!("option name {option} type"))),
            "missing option {option}: {before:?}"
        );
    }
    assert!(e.sync().is_empty());
    assert!(e.quit(SLOW));
}

#[test]
fn plays_a_game_of_legal_moves() {
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for(SLOW, |l| l == "uciok");
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..40 {
        let position = format!("position startpos moves {}", moves.join(" "));
        e.send(&position);
        let fen = e.fen();
        let board = board::Board::from_fen(&fen).expect("valid FEN");
        if board.status() != board::GameStatus::Ongoing {
            break;
        }
        let go =
            if ply % 2 == 0 { "go depth 4" } else { "go wtime 3000 btime 3000 winc 10 binc 10" };
        e.send(go);
        let (mv, infos) = e.bestmove(SLOW);
        assert!(is_legal(&fen, &mv), "illegal bestmove {mv} in {fen}");
        assert!(infos.iter().any(|l| l.starts_with("info depth")), "no info lines before bestmove");
        moves.push(mv);
    }
    assert!(moves.len() >= 20, "the game ended after {} plies", moves.len());
    assert!(e.quit(SLOW));
}

#[test]
fn stop_is_answered_quickly_with_a_legal_move() {
    let mut e = Engine::start();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let mut latencies = Vec::new();
    for _ in 0..5 {
        e.send(&format!("position fen {fen}"));
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(150));
        let sent = Instant::now();
        e.send("stop");
        let (mv, _) = e.bestmove(SLOW);
        latencies.push(sent.elapsed());
        assert!(is_legal(fen, &mv), "illegal {mv}");
    }
    latencies.sort();
    let median = latencies[latencies.len() / 2];
    assert!(median < Duration::from_millis(50), "stop latencies {latencies:?}");
}

#[test]
fn isready_is_answered_during_an_infinite_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let before = e.sync();
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "search ended before stop: {before:?}"
    );
    e.send("stop");
    e.bestmove(SLOW);
}

#[test]
fn go_infinite_waits_for_stop_even_when_the_search_is_done() {
    let mut e = Engine::start();
    // Mate in one: the search finishes its work at once, but must not answer before `stop`.
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go infinite depth 3");
    assert!(e.next_line(Duration::from_millis(300)).is_none_or(|l| !l.starts_with("bestmove")));
    while let Some(l) = e.next_line(Duration::from_millis(50)) {
        assert!(!l.starts_with("bestmove"), "bestmove before stop");
    }
    e.send("stop");
    assert_eq!(e.bestmove(SLOW).0, "d1d8");
}

#[test]
fn finds_mates_with_mate_scores() {
    let cases = [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "d1d8"),
        // WAC.001: Qg6 mates in 2 (verified with Stockfish: ...fxg6 Nxg6#, ...gxf6 Qh7#).
        ("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1", 2, "g3g6"),
        // Nf6+ gxf6 Bxf7#.
        ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2, "d5f6"),
        // Black mates in one on the back rank.
        ("3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", 1, "d8d1"),
    ];
    let mut e = Engine::start();
    for (fen, n, expected) in cases {
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        e.send(&format!("go mate {n}"));
        let (mv, infos) = e.bestmove(SLOW);
        assert!(is_legal(fen, &mv), "{fen}: illegal {mv}");
        assert_eq!(mv, expected, "{fen}");
        let last =
            infos.iter().rev().find(|l| l.contains(" score ")).expect("an info line with a score");
        assert!(last.contains(&format!("score mate {n} ")), "{fen}: expected mate {n}, got {last}");
    }
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let mut e = Engine::start();
    e.send("uci");
    e.wait_for(SLOW, |l| l == "uciok");
    let start = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    e.send("position startpos moves e2e4");
    assert_eq!(e.fen(), start);
    let bad = [
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
        "position fen 8/8/8 w - - 0 1",
        "position fen",
        "position startpos moves e2e4 e7e5 e1e3",
        "position startpos moves e2e4 zz99",
        "position sideways",
        "setoption name Hash value 0",
        "setoption name Threads value 5000",
        "setoption name MultiPV value many",
        "setoption name Ponder value maybe",
        "setoption name Warp Speed value 9",
        "setoption value 3",
        "go perft 99",
        "xyzzy",
        "position fen 4k3/8/8/8/8/8/8/4K2R w Q - 0 1",
        "position fen ♔♕♖ w - - 0 1",
    ];
    for command in bad {
        e.send(command);
        let (line, _) = e.wait_for(SLOW, |_| true);
        assert!(line.starts_with("info string error: "), "{command}: {line}");
        let extra = e.sync();
        assert!(extra.is_empty(), "{command}: more than one reply: {extra:?}");
        assert_eq!(e.fen(), start, "{command} changed the position");
    }
    // Options kept their values: MultiPV still 1 gives one line per depth.
    e.send("go depth 3");
    let (_, infos) = e.bestmove(SLOW);
    assert!(infos.iter().all(|l| !l.contains("multipv 2")));
    assert!(e.quit(SLOW));
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 5");
    let (_, infos) = e.bestmove(SLOW);
    let depth5: Vec<&String> = infos.iter().filter(|l| l.starts_with("info depth 5 ")).collect();
    assert_eq!(depth5.len(), 3, "{depth5:?}");
    let firsts: std::collections::HashSet<&str> =
        depth5.iter().map(|l| info_field(l, "pv").unwrap_or("")).collect();
    assert_eq!(firsts.len(), 3);
}

#[test]
fn quit_during_a_search_exits_promptly() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    assert!(e.quit(Duration::from_secs(5)));
}

#[test]
fn go_perft_prints_the_divide() {
    let mut e = Engine::start();
    e.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    e.send("go perft 3");
    let (line, before) = e.wait_for(SLOW, |l| l.starts_with("Nodes searched"));
    assert_eq!(line, "Nodes searched: 97862");
    assert_eq!(before.iter().filter(|l| l.contains(": ")).count(), 48);
    assert!(before.iter().any(|l| l == "e1g1: 2059"), "standard castling notation");
    e.send("setoption name UCI_Chess960 value true");
    e.send("go perft 1");
    let (_, before) = e.wait_for(SLOW, |l| l.starts_with("Nodes searched"));
    assert!(before.iter().any(|l| l == "e1h1: 1"), "Chess960 castling notation: {before:?}");
}

/// A GUI that exits closes the engine's input: the `go infinite` under way is
/// stopped and answered with exactly one `bestmove`, and the process exits with 0.
#[test]
fn end_of_input_ends_a_search_with_one_bestmove_and_status_0() {
    let mut e = Engine::start();
    e.send_bytes(b"uci\nisready\ngo infinite\n");
    e.close_input();
    let status = e.wait_exit(SLOW);
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    let lines = e.lines_for(SLOW);
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{lines:?}");
}

/// Each table reports how its memory was obtained; a refusal of large pages
/// (Windows) is explained once, and only where the table has regular pages.
#[test]
fn the_table_says_its_pages_and_a_large_page_refusal_once() {
    let mut e = Engine::start();
    for command in ["uci", "setoption name Hash value 256", "setoption name Hash value 64", "uci"] {
        e.send(command);
    }
    let lines = e.sync();
    let tables: Vec<&String> =
        lines.iter().filter(|l| l.starts_with("info string hash table ")).collect();
    assert_eq!(tables.len(), 4, "{lines:?}");
    let refusals = lines.iter().filter(|l| l.starts_with("info string large pages not granted: "));
    // On Windows every one of these tables is big enough to ask for large pages.
    let refused = cfg!(windows) && tables.iter().any(|l| l.ends_with(", regular pages"));
    assert_eq!(refusals.count(), usize::from(refused), "{lines:?}");
    assert!(e.quit(SLOW));
}

/// A script that pipes `go perft N` and then `quit`, or just ends, gets the
/// divide and the total: `quit` and end of input wait for the count.
#[test]
fn a_piped_go_perft_is_counted_before_quit_or_end_of_input() {
    for end in ["quit\n", ""] {
        let mut e = Engine::start();
        e.send_bytes(format!("position startpos\ngo perft 5\n{end}").as_bytes());
        e.close_input();
        let status = e.wait_exit(SLOW);
        assert!(status.is_some_and(|s| s.success()), "{end:?}: {status:?}");
        let lines = e.lines_for(SLOW);
        let divide = lines.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes"));
        assert_eq!(divide.count(), 20, "{end:?}: {lines:?}");
        assert!(lines.iter().any(|l| l == "e2e4: 405385"), "{end:?}: {lines:?}");
        assert!(lines.iter().any(|l| l == "Nodes searched: 4865609"), "{end:?}: {lines:?}");
    }
}

/// `stop` still ends a count at once, printing nothing of it: a perft 9 of the
/// start position (2.4·10¹² leaves, days of counting) is stopped, `isready` is
/// answered, and `quit` ends the process.
#[test]
fn stop_ends_a_go_perft_at_once() {
    let mut e = Engine::start();
    e.send("go perft 9");
    e.send("stop");
    let before = e.sync();
    assert!(before.is_empty(), "{before:?}");
    e.send("quit");
    assert!(e.wait_exit(SLOW).is_some_and(|s| s.success()), "quit after stop");
    let after = e.lines_for(SLOW);
    assert!(after.iter().all(|l| !l.starts_with("Nodes searched")), "{after:?}");
}

/// `go ponder` answers only after `ponderhit` (or `stop`), even when its search
/// is done at once and its clock would have run out long before (issue 11: the
/// old test read one line within 200 ms, always `info depth 1`, so it could
/// not fail); after `ponderhit` it plays on the clock.
#[test]
fn ponder_waits_for_ponderhit_then_plays_on_the_clock() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    // Mate in one, and 200 ms on the clock: off the clock this is answered at once.
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go ponder wtime 200 btime 200");
    let before = e.lines_for(Duration::from_millis(1000));
    assert!(before.iter().any(|l| l.starts_with("info depth")), "no ponder search: {before:?}");
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "bestmove while pondering");
    e.send("ponderhit");
    let (mv, _) = e.bestmove(SLOW);
    assert_eq!(mv, "d1d8");
    // Pondering a move that is not the one played: `stop` ends it with a legal move.
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("go ponder wtime 2000 btime 2000");
    let before = e.lines_for(Duration::from_millis(300));
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "bestmove while pondering");
    e.send("stop");
    let (mv, _) = e.bestmove(SLOW);
    assert!(is_legal(fen, &mv), "{mv}");
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")), "one bestmove per go");
}

/// The clock does not run while pondering and starts on `ponderhit`: a ponder
/// longer than the whole hard limit still gets a search on the clock after the
/// hit, and the move comes within the time the clock gives (10 s, 30 ms kept in
/// reserve: about 240 ms planned, a hard limit of about 980 ms; never more than a
/// third of the clock).
#[test]
fn ponderhit_starts_the_clock_and_the_move_comes_within_its_hard_limit() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos");
    e.send("go ponder wtime 10000 btime 10000");
    let before = e.lines_for(Duration::from_millis(1500));
    assert!(!before.iter().any(|l| l.starts_with("bestmove")), "bestmove while pondering");
    let hit = Instant::now();
    e.send("ponderhit");
    let (mv, _) = e.bestmove(SLOW);
    let took = hit.elapsed();
    assert!(is_legal("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &mv), "{mv}");
    assert!(took < Duration::from_millis(10_000 / 3), "bestmove {took:?} after ponderhit");
    assert!(e.quit(SLOW));
}

/// With one legal move on the clock the engine plays it after the first
/// iteration and keeps its time; with a choice (or with a fixed `movetime`)
/// it searches on.
#[test]
fn a_forced_move_is_played_after_one_iteration() {
    let deepest = |e: &mut Engine, fen: &str, go: &str| {
        e.send(&format!("position fen {fen}"));
        e.send(go);
        let (mv, infos) = e.bestmove(SLOW);
        let depth = infos.iter().filter_map(|l| info_field(l, "depth")?.parse::<u32>().ok()).max();
        (mv, depth.expect("an info line with a depth"))
    };
    let mut e = Engine::start();
    // White in check from the rook on a1: the bishop covers h2, so Kh1 has only g2.
    let forced = "k7/8/8/8/8/6b1/8/r6K w - - 0 1";
    let clock = "go wtime 60000 btime 60000 winc 1000 binc 1000";
    assert_eq!(deepest(&mut e, forced, clock), ("h1g2".to_string(), 1));
    let (_, depth) = deepest(&mut e, forced, "go movetime 200");
    assert!(depth > 1, "movetime: depth {depth}");
    let choice = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let (_, depth) = deepest(&mut e, choice, "go wtime 2000 btime 2000");
    assert!(depth > 1, "a choice: depth {depth}");
}

#[test]
fn nodes_limit_is_respected() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go nodes 20000");
    let (_, infos) = e.bestmove(SLOW);
    let nodes: u64 = infos
        .iter()
        .filter_map(|l| info_field(l, "nodes")?.parse().ok())
        .max()
        .expect("an info line");
    assert!(nodes <= 20_000, "searched {nodes} nodes");
}

/// The last `info` line before `bestmove` describes the move played, with the
/// final node count. `go nodes` ends in the middle of an iteration, whose nodes no
/// iteration line has reported: one thread must report exactly the limit, and
/// several threads (the limit is on their total) at least the limit.
#[test]
fn last_info_line_reports_the_final_count_and_the_move_played() {
    const LIMIT: u64 = 50_000;
    for threads in [1, 2, 8] {
        let mut e = Engine::start();
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("position startpos moves e2e4 c7c5 g1f3");
        e.send(&format!("go nodes {LIMIT}"));
        let (best, infos) = e.bestmove(SLOW);
        let last = infos.iter().rev().find(|l| l.contains(" pv ")).expect("an info line with a pv");
        let nodes: u64 = info_field(last, "nodes").and_then(|n| n.parse().ok()).expect("nodes");
        if threads == 1 {
            assert_eq!(nodes, LIMIT, "{last}");
        } else {
            assert!(nodes >= LIMIT, "{threads} threads: {last}");
        }
        assert_eq!(info_field(last, "pv"), Some(best.as_str()), "{threads} threads: {last}");
    }
}

/// Quiescence knows the fifty-move rule, as the main search does: with the
/// halfmove clock at 99 and no capture or pawn move on the board, every move
/// reaches a drawn position, so even a queen up the search says 0.
#[test]
fn quiescence_scores_the_fifty_move_rule_a_draw() {
    let mut e = Engine::start();
    e.send("position fen 4k3/8/8/8/8/8/8/Q3K3 w - - 99 80");
    e.send("go depth 1");
    let (_, before) = e.bestmove(SLOW);
    let last = before.iter().rev().find(|l| l.starts_with("info depth 1 ")).expect("depth 1");
    assert_eq!(info_field(last, "score"), Some("cp"), "{last}");
    assert!(last.contains(" score cp 0 "), "{last}");
    e.send("position fen 4k3/8/8/8/8/8/8/Q3K3 w - - 90 80");
    e.send("go depth 1");
    let (_, before) = e.bestmove(SLOW);
    let last = before.iter().rev().find(|l| l.starts_with("info depth 1 ")).expect("depth 1");
    assert!(
        !last.contains(" score cp 0 "),
        "far from the rule, a queen is worth something: {last}"
    );
    assert!(e.quit(SLOW));
}
