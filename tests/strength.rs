//! `UCI_LimitStrength` and `UCI_Elo`, driven over UCI: the options, legal
//! moves at every level, a choice that varies with the seed, a top level that
//! finds tactics more often than the bottom one, and the protocol (one
//! `bestmove` per `go`, `stop` and `quit` answered at once while the move is
//! held back for the clock).

mod common;

use common::{Engine, SLOW, is_legal};
use std::time::{Duration, Instant};

/// An engine playing at `elo` with the random choices seeded by `seed`.
fn limited(elo: u32, seed: u32) -> Engine {
    let mut e = Engine::start();
    e.send("setoption name UCI_LimitStrength value true");
    e.send(&format!("setoption name UCI_Elo value {elo}"));
    e.send(&format!("setoption name StrengthSeed value {seed}"));
    let before = e.sync();
    assert!(before.is_empty(), "{before:?}");
    e
}

/// The move played from `fen` after `go {go}`.
fn play(e: &mut Engine, fen: &str, go: &str) -> String {
    e.send(&format!("position fen {fen}"));
    e.send(&format!("go {go}"));
    let (mv, _) = e.bestmove(SLOW);
    assert!(is_legal(fen, &mv), "illegal {mv} in {fen}");
    mv
}

#[test]
fn options_are_declared_and_out_of_range_values_are_refused() {
    let mut e = Engine::start();
    e.send("uci");
    let (_, lines) = e.wait_for(SLOW, |l| l == "uciok");
    assert!(lines.contains(&"option name UCI_LimitStrength type check default false".into()));
    assert!(lines.contains(&"option name UCI_Elo type spin default 1350 min 1350 max 2850".into()));
    assert!(
        lines.contains(&"option name StrengthSeed type spin default 0 min 0 max 4294967295".into())
    );
    e.send("setoption name UCI_Elo value 2000");
    assert!(e.sync().is_empty());
    for bad in ["1349", "2851", "strong"] {
        e.send(&format!("setoption name UCI_Elo value {bad}"));
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("info string error: "), "{lines:?}");
    }
    e.send("setoption name UCI_LimitStrength value maybe");
    let lines = e.sync();
    assert!(lines.len() == 1 && lines[0].starts_with("info string error: "), "{lines:?}");
    assert!(e.quit(SLOW));
}

#[test]
fn every_level_plays_legal_moves_through_a_game() {
    for (elo, seed) in [(1350, 1), (2000, 2), (2850, 3)] {
        let mut e = limited(elo, seed);
        let mut moves: Vec<String> = Vec::new();
        for ply in 0..24 {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            let fen = e.fen();
            let go = match ply % 3 {
                0 => "go wtime 2000 btime 2000 winc 20 binc 20",
                1 => "go depth 6",
                _ => "go nodes 3000",
            };
            e.send(go);
            let (mv, _) = e.bestmove(SLOW);
            if mv == "0000" {
                break;
            }
            assert!(is_legal(&fen, &mv), "{elo}: illegal {mv} in {fen}");
            moves.push(mv);
        }
        assert!(e.quit(SLOW));
    }
}

#[test]
fn the_bottom_level_varies_its_move_with_the_seed_and_repeats_it_with_the_same_seed() {
    // An open middlegame with many playable moves.
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R1BQK2R w KQ - 0 8";
    let moves: Vec<String> =
        (1..=8).map(|seed| play(&mut limited(1350, seed), fen, "depth 30")).collect();
    let distinct: std::collections::HashSet<&String> = moves.iter().collect();
    assert!(distinct.len() >= 2, "the same move for every seed: {moves:?}");
    assert_eq!(play(&mut limited(1350, 5), fen, "depth 30"), moves[4], "seed 5 again");
}

#[test]
fn the_top_level_finds_tactics_more_often_than_the_bottom_one() {
    // Each position has one best move, by 0.7 to 3.4 pawns (Stockfish 15.1, depth 14).
    let cases = [
        // The knight on d5 hangs.
        ("r1bqkb1r/pppp1ppp/2n5/3np3/2B5/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5", "c4d5"),
        // So does the pawn on e5.
        ("rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2", "d4e5"),
        // Back-rank mate in one.
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"),
        // Develop with tempo on the queen.
        ("rnb1kbnr/pppp1ppp/8/4p3/4P2q/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3", "g1f3"),
        // Nxe5 takes a pawn.
        ("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/3P1N2/PPP2PPP/RNBQKB1R w KQkq - 1 4", "f3e5"),
    ];
    let hits = |elo| {
        let mut hits = 0;
        for seed in 1..=6 {
            let mut e = limited(elo, seed);
            for (fen, best) in cases {
                hits += usize::from(play(&mut e, fen, "nodes 20000") == best);
            }
        }
        hits
    };
    let (bottom, top) = (hits(1350), hits(2850));
    assert!(top > bottom, "top level {top} hits, bottom level {bottom}");
    assert!(top >= 24, "the top level finds these nearly always: {top} of 30");
}

#[test]
fn one_bestmove_per_go_and_stop_and_quit_are_answered_at_once() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let mut e = limited(1500, 9);
    e.send(&format!("position fen {fen}"));
    // On a long clock the small budget is searched at once, but the move is held back...
    let sent = Instant::now();
    e.send("go wtime 40000 btime 40000 winc 400 binc 400");
    let (mv, _) = e.bestmove(SLOW);
    let took = sent.elapsed();
    assert!(is_legal(fen, &mv));
    assert!(took >= Duration::from_millis(250), "answered in {took:?}: too fast for the clock");
    // ... and `stop` releases it at once.
    for _ in 0..3 {
        e.send("go wtime 600000 btime 600000");
        std::thread::sleep(Duration::from_millis(100));
        let sent = Instant::now();
        e.send("stop");
        let (mv, _) = e.bestmove(SLOW);
        assert!(sent.elapsed() < Duration::from_millis(500), "stop took {:?}", sent.elapsed());
        assert!(is_legal(fen, &mv));
    }
    // A `go` while one waits: one `bestmove` each.
    e.send("go wtime 600000 btime 600000");
    e.send("go depth 3");
    let (_, _) = e.bestmove(SLOW);
    let (_, _) = e.bestmove(SLOW);
    let after = e.sync();
    assert!(!after.iter().any(|l| l.starts_with("bestmove")), "{after:?}");
    // `go infinite` answers only after `stop`, and `ponderhit` plays on the clock.
    e.send("go infinite");
    assert!(e.next_line(Duration::from_millis(300)).is_none_or(|l| !l.starts_with("bestmove")));
    while let Some(l) = e.next_line(Duration::from_millis(50)) {
        assert!(!l.starts_with("bestmove"), "bestmove before stop");
    }
    e.send("stop");
    e.bestmove(SLOW);
    e.send("go ponder wtime 4000 btime 4000");
    std::thread::sleep(Duration::from_millis(200));
    assert!(!e.sync().iter().any(|l| l.starts_with("bestmove")), "bestmove before ponderhit");
    e.send("ponderhit");
    e.bestmove(SLOW);
    // `quit` while a move is held back exits at once.
    e.send("go wtime 600000 btime 600000");
    std::thread::sleep(Duration::from_millis(100));
    let sent = Instant::now();
    assert!(e.quit(SLOW));
    assert!(sent.elapsed() < Duration::from_secs(2), "quit took {:?}", sent.elapsed());
}

#[test]
fn info_lines_show_multipv_lines_only_as_asked() {
    let mut e = limited(2000, 4);
    e.send("position startpos");
    e.send("go depth 30");
    let (_, lines) = e.bestmove(SLOW);
    assert!(lines.iter().any(|l| l.contains(" multipv 1 ")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
}
