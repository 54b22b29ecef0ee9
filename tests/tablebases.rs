//! Syzygy tablebases through UCI: the options, conversion of won endgames
//! within the fifty-move rule, `tbhits`, damaged files, and `UCI_ShowWDL`.
//! The tables are the repository's `data/syzygy` (every 3- and 4-piece table).

mod common;

use board::{Board, GameStatus, Position};
use common::{Engine, SLOW, info_field, is_legal};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn tables() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/syzygy")
}

/// An engine with `data/syzygy` loaded (checked by its report line).
fn engine_with_tables() -> Engine {
    let mut e = Engine::start();
    e.send(&format!("setoption name SyzygyPath value {}", tables().display()));
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.starts_with("info string Syzygy: 35 WDL and 35 DTZ tables found")),
        "no load report: {lines:?}"
    );
    e
}

/// Searches `fen` with `go` and returns the `info` lines and the move.
fn search(e: &mut Engine, fen: &str, go: &str) -> (Vec<String>, String) {
    e.send(&format!("position fen {fen}"));
    e.send(go);
    let (mv, lines) = e.bestmove(SLOW);
    assert!(is_legal(fen, &mv), "illegal {mv} in {fen}");
    (lines, mv)
}

fn last_score_line(lines: &[String]) -> &str {
    lines.iter().rev().find(|l| l.contains(" score ")).expect("an info line with a score")
}

fn tbhits(line: &str) -> u64 {
    info_field(line, "tbhits").and_then(|v| v.parse().ok()).expect("a tbhits field")
}

/// How a game ended, for the side that moved first.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// It mated, after this many plies.
    Won(usize),
    /// Drawn (the rule), after this many plies.
    Drawn(usize, &'static str),
    /// It was mated.
    Lost(usize),
}

/// Plays `fen` out: `first` moves first, `second` answers, each with `go`.
fn play(fen: &str, first: &mut Engine, second: &mut Engine, go: &str) -> Outcome {
    let mut position = Position::new(Board::from_fen(fen).expect("a valid FEN"));
    let mut moves: Vec<String> = Vec::new();
    for e in [&mut *first, &mut *second] {
        e.send("ucinewgame");
    }
    loop {
        let board = *position.board();
        let plies = moves.len();
        match board.status() {
            GameStatus::Checkmate if plies % 2 == 1 => return Outcome::Won(plies),
            GameStatus::Checkmate => return Outcome::Lost(plies),
            GameStatus::Stalemate => return Outcome::Drawn(plies, "stalemate"),
            GameStatus::InsufficientMaterial => return Outcome::Drawn(plies, "material"),
            GameStatus::FiftyMoveRule => return Outcome::Drawn(plies, "fifty-move rule"),
            GameStatus::Ongoing if position.repetitions() >= 2 => {
                return Outcome::Drawn(plies, "threefold repetition");
            }
            GameStatus::Ongoing => {}
        }
        let engine = if plies.is_multiple_of(2) { &mut *first } else { &mut *second };
        engine.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        engine.send(go);
        let (mv, _) = engine.bestmove(SLOW);
        let parsed = board.parse_uci_move(&mv, false).unwrap_or_else(|e| {
            panic!("illegal {mv} after {moves:?} from {fen}: {e:?}");
        });
        position.push(parsed);
        moves.push(mv);
    }
}

/// Won positions (side to move wins) with long distances to zeroing: each
/// takes the side with tables most of the fifty moves, so a ranking that does
/// not keep the win within the rule draws some of them.
const WON: &[(&str, &str)] = &[
    ("KQvKR, dtz 57", "K7/3r4/8/1k6/7Q/8/8/8 w - - 0 1"),
    ("KRvK, dtz 31", "K7/8/8/4k3/8/7R/8/8 w - - 0 1"),
    ("KBNvK, dtz 62", "N6K/8/8/8/8/2k5/8/3B4 w - - 0 1"),
    ("KPvK, dtz 19", "8/8/8/6k1/8/7K/1P6/8 w - - 0 1"),
    // From data/syzygy/endgame.epd (wdl 2), the longest of their material.
    ("KBNvK (black), dtz 56", "4k3/8/8/8/8/4b3/1K6/n7 b - - 0 1"),
    ("KBBvK (black), dtz 28", "4b3/6k1/8/8/8/8/7b/4K3 b - - 0 1"),
    ("KRNvK (black), dtz 21", "6r1/8/5K2/8/8/8/8/1k1n4 b - - 0 1"),
    ("KQvKB, dtz 15", "8/8/2Q5/8/8/1b6/7K/1k6 w - - 0 1"),
];

/// Nodes per move: few enough that without tables KBNvK is not mated in time.
const GAME_GO: &str = "go nodes 2000";

#[test]
fn won_endgames_are_converted_within_the_fifty_move_rule() {
    let mut with_tables = engine_with_tables();
    let mut without = Engine::start();
    let mut failures = Vec::new();
    for (name, fen) in WON {
        let outcome = play(fen, &mut with_tables, &mut without, GAME_GO);
        // Won: mate came before the fifty-move rule or a repetition could draw.
        if !matches!(outcome, Outcome::Won(_)) {
            failures.push(format!("{name} ({fen}): {outcome:?}"));
        }
    }
    assert!(failures.is_empty(), "not converted with tables:\n{}", failures.join("\n"));
}

/// Every position of `endgame.epd` that the side to move wins (58, 3 and 4
/// pieces, most of them short) is won against the engine without tables.
#[test]
fn every_won_position_of_endgame_epd_is_converted() {
    let text = std::fs::read_to_string(tables().join("endgame.epd")).expect("endgame.epd");
    let won: Vec<String> = text
        .lines()
        .filter(|l| l.contains("; wdl 2;"))
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" ") + " 0 1")
        .collect();
    assert_eq!(won.len(), 58);
    let mut with_tables = engine_with_tables();
    let mut without = Engine::start();
    let failures: Vec<String> = won
        .iter()
        .filter_map(|fen| match play(fen, &mut with_tables, &mut without, GAME_GO) {
            Outcome::Won(_) => None,
            other => Some(format!("{fen}: {other:?}")),
        })
        .collect();
    assert!(failures.is_empty(), "not converted with tables:\n{}", failures.join("\n"));
}

/// The control: the same positions, the same nodes, no tables on either side.
/// Some are not won, so the conversion test above can tell a ranking that
/// keeps the win from one that does not.
#[test]
fn without_tables_some_of_these_endgames_are_not_won() {
    let mut first = Engine::start();
    let mut second = Engine::start();
    let not_won: Vec<_> = WON
        .iter()
        .filter(|(_, fen)| !matches!(play(fen, &mut first, &mut second, GAME_GO), Outcome::Won(_)))
        .map(|(name, _)| *name)
        .collect();
    assert!(not_won.len() >= 2, "the positions no longer test the tables: {not_won:?}");
}

#[test]
fn tables_change_nothing_outside_them() {
    // The start position never reaches 4 pieces at depth 8: the same search.
    let mut plain = Engine::start();
    let mut with_tables = engine_with_tables();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let (a, mv_a) = search(&mut plain, fen, "go depth 8");
    let (b, mv_b) = search(&mut with_tables, fen, "go depth 8");
    let (a, b) = (last_score_line(&a), last_score_line(&b));
    assert_eq!(info_field(a, "nodes"), info_field(b, "nodes"), "{a}\n{b}");
    assert_eq!(mv_a, mv_b);
    assert_eq!((tbhits(a), tbhits(b)), (0, 0));
}

#[test]
fn tbhits_are_reported_and_tablebase_scores_are_consistent() {
    let mut e = engine_with_tables();
    // A 4-piece root: every root move is ranked (23 legal moves), the win is reported.
    let (lines, _) = search(&mut e, "8/8/8/4k3/8/8/2Q1r3/K7 w - - 0 1", "go depth 6");
    let line = last_score_line(&lines);
    assert!(tbhits(line) >= 23, "{line}");
    assert!(line.contains(" score cp 20000 ") || line.contains(" score mate "), "{line}");
    // A 5-piece root (beyond the tables): the probes are in the search, after captures.
    let (lines, mv) = search(&mut e, "4k3/8/8/8/8/8/2R5/K2Q3r w - - 0 1", "go depth 6");
    let line = last_score_line(&lines);
    assert!(tbhits(line) > 0, "{line}");
    let score: i32 = info_field(line, "cp").and_then(|v| v.parse().ok()).unwrap_or(20_000);
    assert!(score > 19_000 || line.contains(" score mate "), "Qxh1 wins: {line}");
    assert_eq!(mv, "d1h1");
    // A drawn 4-piece root (KRvKR): a draw, exactly.
    let (lines, _) = search(&mut e, "8/8/2k5/8/6r1/8/3R4/3K4 w - - 0 1", "go depth 6");
    assert!(last_score_line(&lines).contains(" score cp 0 "), "{lines:?}");
    // Without tables: no hits.
    let mut plain = Engine::start();
    let (lines, _) = search(&mut plain, "8/8/8/4k3/8/8/2Q1r3/K7 w - - 0 1", "go depth 6");
    assert_eq!(tbhits(last_score_line(&lines)), 0);
}

/// A folder of links to every table of `data/syzygy` but `damaged`, which is
/// a copy cut to `keep` bytes.
fn folder_with_damaged(name: &str, damaged: &str, keep: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tessera-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    for entry in std::fs::read_dir(tables()).expect("data/syzygy") {
        let path = entry.expect("an entry").path();
        let file = path.file_name().expect("a file name").to_string_lossy().to_string();
        if file == damaged {
            let bytes = std::fs::read(&path).expect("a table");
            std::fs::write(dir.join(&file), &bytes[..keep.min(bytes.len())]).expect("a copy");
        } else if file.ends_with(".rtbw") || file.ends_with(".rtbz") {
            std::fs::copy(&path, dir.join(&file)).expect("a copy");
        }
    }
    dir
}

#[test]
fn a_damaged_table_is_reported_and_the_engine_keeps_working() {
    let dir = folder_with_damaged("damaged", "KQvKR.rtbw", 1000);
    let mut e = Engine::start();
    e.send(&format!("setoption name SyzygyPath value {}", dir.display()));
    let lines = e.sync();
    let report = lines.iter().find(|l| l.starts_with("info string")).expect("a report");
    assert!(report.contains("34 WDL and 35 DTZ tables"), "{report}");
    assert!(report.contains("KQvKR.rtbw"), "the damaged file is not named: {report}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("info string")).count(), 1, "{lines:?}");
    // KQvKR is searched without its table; the other tables are used.
    let (lines, _) = search(&mut e, "K7/3r4/8/1k6/7Q/8/8/8 w - - 0 1", "go depth 5");
    assert!(!last_score_line(&lines).contains(" score cp 20000 "), "{lines:?}");
    let (lines, _) = search(&mut e, "K7/8/8/4k3/8/7R/8/8 w - - 0 1", "go depth 5");
    assert!(last_score_line(&lines).contains(" score cp 20000 "), "{lines:?}");
    assert!(tbhits(last_score_line(&lines)) > 0);
    assert!(e.quit(SLOW));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_path_is_an_error_and_the_loaded_tables_stay() {
    let mut e = engine_with_tables();
    let missing = std::env::temp_dir().join("tessera-no-such-folder");
    e.send(&format!("setoption name SyzygyPath value {}", missing.display()));
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string error: SyzygyPath "), "{lines:?}");
    assert!(lines[0].contains("cannot read folder"), "{lines:?}");
    assert!(lines[0].contains("keeping SyzygyPath"), "{lines:?}");
    let (lines, _) = search(&mut e, "K7/8/8/4k3/8/7R/8/8 w - - 0 1", "go depth 4");
    assert!(tbhits(last_score_line(&lines)) > 0, "the tables loaded before were lost");
    // `<empty>` turns them off.
    e.send("setoption name SyzygyPath value <empty>");
    assert_eq!(e.sync(), ["info string Syzygy: no path, tablebases off"]);
    let (lines, _) = search(&mut e, "K7/8/8/4k3/8/7R/8/8 w - - 0 1", "go depth 4");
    assert_eq!(tbhits(last_score_line(&lines)), 0);
    // Two folders, `;` as Windows GUIs send them: the second holds the tables.
    e.send(&format!(
        "setoption name SyzygyPath value {};{}",
        missing.display(),
        tables().display()
    ));
    let lines = e.sync();
    assert!(lines[0].contains("35 WDL and 35 DTZ tables found in 2 folder(s)"), "{lines:?}");
    assert!(e.quit(SLOW));
}

/// Every `info` line with a score, and whether each carries a `wdl` summing to 1000.
fn wdl_lines(lines: &[String]) -> Vec<(String, Option<[u32; 3]>)> {
    lines
        .iter()
        .filter(|l| l.starts_with("info") && l.contains(" score "))
        .map(|l| {
            let wdl = l.split(" wdl ").nth(1).map(|rest| {
                let v: Vec<u32> =
                    rest.split(' ').take(3).map(|x| x.parse().expect("a number")).collect();
                [v[0], v[1], v[2]]
            });
            (l.clone(), wdl)
        })
        .collect()
}

#[test]
fn show_wdl_puts_wdl_on_every_score_line_and_only_then() {
    let mut e = engine_with_tables();
    let positions = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "8/8/8/4k3/8/8/2Q1r3/K7 w - - 0 1",
        "8/8/2k5/8/6r1/8/3R4/3K4 w - - 0 1",
    ];
    for fen in positions {
        let (lines, _) = search(&mut e, fen, "go depth 7");
        assert!(wdl_lines(&lines).iter().all(|(_, wdl)| wdl.is_none()), "{lines:?}");
    }
    e.send("setoption name UCI_ShowWDL value true");
    e.send("setoption name MultiPV value 3");
    let mut exact = Vec::new();
    for fen in positions {
        let (lines, _) = search(&mut e, fen, "go depth 7");
        let scored = wdl_lines(&lines);
        assert!(!scored.is_empty());
        for (line, wdl) in &scored {
            let wdl = wdl.unwrap_or_else(|| panic!("no wdl: {line}"));
            assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
        }
        exact.push(scored.last().and_then(|(_, wdl)| *wdl));
    }
    // The tablebase positions report their exact result: a win, a draw.
    assert_eq!(exact[1], Some([1000, 0, 0]));
    assert_eq!(exact[2], Some([0, 1000, 0]));
}

#[test]
fn currmove_is_reported_after_a_second_and_not_before() {
    let mut e = Engine::start();
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let (lines, _) = search(&mut e, fen, "go movetime 500");
    assert!(!lines.iter().any(|l| l.contains("currmove")), "{lines:?}");
    // The second search runs at least 2.5 s and until a report has come: on a
    // loaded machine one root move can outlast a fixed window.
    e.send(&format!("position fen {fen}"));
    let start = Instant::now();
    e.send("go infinite");
    let mut lines = Vec::new();
    while start.elapsed() < Duration::from_millis(2500)
        || !lines.iter().any(|l: &String| l.starts_with("info currmove "))
    {
        assert!(start.elapsed() < SLOW, "no currmove in {SLOW:?}: {lines:?}");
        lines.extend(e.next_line(Duration::from_millis(50)));
    }
    e.send("stop");
    let (mv, rest) = e.bestmove(SLOW);
    assert!(is_legal(fen, &mv), "illegal {mv}");
    lines.extend(rest);
    // One report at most every 100 ms after the first second (and one for
    // the line that may arrive after `stop`).
    let reporting = start.elapsed().saturating_sub(Duration::from_secs(1));
    let allowed = 2 + reporting.as_millis() as usize / 100;
    let current: Vec<_> = lines.iter().filter(|l| l.starts_with("info currmove ")).collect();
    assert!(current.len() <= allowed, "not throttled: {} lines in {reporting:?}", current.len());
    for line in current {
        let mv = info_field(line, "currmove").expect("a move");
        let n: usize = line.rsplit(' ').next().and_then(|n| n.parse().ok()).expect("a number");
        assert!(is_legal(fen, mv) && (1..=40).contains(&n), "{line}");
        assert!(line.contains(" currmovenumber "), "{line}");
    }
}
