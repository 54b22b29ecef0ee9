//! Another platform's build playing this one: games between the Windows build
//! (under wine) and the Linux build, refereed here move by move. Each engine
//! must answer every `go` with one legal `bestmove` in time and end each game
//! running; the games end by the rules (mate, stalemate, threefold
//! repetition, the fifty-move rule, insufficient material) or are adjudicated
//! a draw after [`MAX_PLIES`].
//!
//! It needs the Windows build and wine, so it is `--ignored`;
//! `scripts/check_platforms.sh` runs it with `TESSERA_WINDOWS_EXE` naming the
//! build:
//!
//! ```sh
//! TESSERA_WINDOWS_EXE=dist/tessera-0.8.0-windows-x86-64-avx2.exe \
//!     cargo test --test platforms -- --ignored
//! ```

mod common;

use board::{Board, GameStatus};
use common::{Engine, SLOW};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

/// Plies after which a game is adjudicated a draw.
const MAX_PLIES: usize = 200;
/// Nodes a move: quick games that still reach the middle game and the ending.
const NODES: u32 = 3_000;
/// Openings played, each with both colours.
const OPENINGS: usize = 2;

/// How a game ended.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// The side named won (`true`: the Windows build).
    Won {
        windows: bool,
    },
    Draw(&'static str),
}

#[test]
#[ignore = "needs the Windows build and wine: scripts/check_platforms.sh runs it"]
fn the_windows_build_plays_the_linux_build_without_a_fault() {
    let exe = std::env::var_os("TESSERA_WINDOWS_EXE")
        .map(PathBuf::from)
        .expect("TESSERA_WINDOWS_EXE names the Windows build to play");
    let wine = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/wine/run");
    let openings = openings();
    let mut outcomes = Vec::new();
    for fen in &openings {
        for windows_white in [true, false] {
            let mut windows = Command::new(&wine);
            windows.arg(&exe);
            let mut windows = start(Engine::spawn_keeping_stderr(windows));
            let mut linux = start(Engine::start());
            let outcome = if windows_white {
                play(fen, [&mut windows, &mut linux], true)
            } else {
                play(fen, [&mut linux, &mut windows], false)
            };
            println!(
                "{fen} (Windows {}): {outcome:?}",
                if windows_white { "white" } else { "black" }
            );
            for (name, engine) in [("Windows", windows), ("Linux", linux)] {
                assert!(engine.quit(SLOW), "the {name} build did not quit after `quit`");
            }
            outcomes.push(outcome);
        }
    }
    assert_eq!(outcomes.len(), 2 * OPENINGS);
}

/// The first [`OPENINGS`] positions of `data/openings.epd`, as FENs.
fn openings() -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/openings.epd");
    let text = std::fs::read_to_string(&path).expect("data/openings.epd");
    text.lines()
        .take(OPENINGS)
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            format!("{} 0 1", fields.join(" "))
        })
        .collect()
}

/// `engine` after `uci` and `isready`, with a new game.
fn start(mut engine: Engine) -> Engine {
    engine.send("uci");
    engine.wait_for(SLOW, |l| l == "uciok");
    engine.send("ucinewgame");
    engine.sync();
    engine
}

/// One game from `fen`, `engines[0]` playing white; `windows_white` says which
/// of them is the Windows build, for the outcome.
fn play(fen: &str, engines: [&mut Engine; 2], windows_white: bool) -> Outcome {
    let mut board = Board::from_fen(fen).expect("an opening's FEN");
    let mut moves: Vec<String> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::from([(board.key(), 1)]);
    loop {
        match board.status() {
            GameStatus::Checkmate => {
                // The side to move lost: white lost if it is white's move.
                let white_lost = moves.len().is_multiple_of(2);
                return Outcome::Won { windows: windows_white != white_lost };
            }
            GameStatus::Stalemate => return Outcome::Draw("stalemate"),
            GameStatus::InsufficientMaterial => return Outcome::Draw("insufficient material"),
            GameStatus::FiftyMoveRule => return Outcome::Draw("fifty moves"),
            GameStatus::Ongoing => {}
        }
        if seen[&board.key()] >= 3 {
            return Outcome::Draw("threefold repetition");
        }
        if moves.len() >= MAX_PLIES {
            return Outcome::Draw("adjudicated");
        }
        let engine = &mut *engines[moves.len() % 2];
        let position = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        engine.send(&position);
        engine.send(&format!("go nodes {NODES}"));
        let (best, _) = engine.bestmove(SLOW);
        let mv = board
            .parse_uci_move(&best, false)
            .unwrap_or_else(|e| panic!("{position}: bestmove {best} is not legal: {e:?}"));
        board.play(mv);
        *seen.entry(board.key()).or_insert(0) += 1;
        moves.push(best);
    }
}
