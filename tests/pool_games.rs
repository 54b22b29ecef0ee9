//! `scripts/pool_games.py`, which pools a match played in chunks, on PGN files
//! written here: games out of order (two at a time end in either order), a
//! chunk cut between the two games of a pair, and a file of another match.
//! It needs python3.

use std::path::Path;
use std::process::Command;

/// One game's PGN: tags and a token move list.
fn game(round: u32, white: &str, black: &str, result: &str, fen: &str) -> String {
    format!(
        "[Event \"t\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
         [Result \"{result}\"]\n[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n1. e4 e5 {result}\n\n"
    )
}

fn pool(args: &[&Path], engine: Option<&str>) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/pool_games.py");
    let mut command = Command::new("python3");
    command.arg(script);
    if let Some(name) = engine {
        command.args(["--engine", name]);
    }
    let output = command.args(args).output().expect("run python3 scripts/pool_games.py");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[test]
fn chunks_pool_into_pairs_and_games() {
    let dir = std::env::temp_dir().join(format!("tessera-pool-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let (f1, f2) = ("fen one", "fen two");
    // Chunk 1: the two pairs' games end interleaved and out of order, as
    // two games at a time may (game 1, where a is White, the last: a is still
    // the engine named first, the default).
    let chunk1 = [
        game(2, "b", "a", "0-1", f1),
        game(3, "a", "b", "1-0", f2),
        game(4, "b", "a", "1/2-1/2", f2),
        game(1, "a", "b", "1/2-1/2", f1),
    ]
    .concat();
    // Chunk 2: one whole pair (a loses both) and the first game of a pair cut short.
    let chunk2 =
        [game(1, "a", "b", "0-1", f1), game(2, "b", "a", "1-0", f1), game(3, "a", "b", "1-0", f2)]
            .concat();
    let (p1, p2) = (dir.join("1.pgn"), dir.join("2.pgn"));
    std::fs::write(&p1, chunk1).unwrap();
    std::fs::write(&p2, chunk2).unwrap();

    let (ok, text) = pool(&[&p1, &p2], None);
    assert!(ok, "{text}");
    assert!(text.contains("a vs b: 7 games, W/D/L 3/2/2"), "{text}");
    // Pair scores for a: 1.5 (pair 1), 1.5 (pair 2), 0 (chunk 2's pair).
    assert!(text.contains("pairs 3 [1, 0, 0, 2, 0]"), "{text}");
    assert!(text.contains("1 game(s) without their pair"), "{text}");
    // The same games from b's side: the mirror image.
    let (ok, text) = pool(&[&p1, &p2], Some("b"));
    assert!(ok, "{text}");
    assert!(text.contains("b vs a: 7 games, W/D/L 2/2/3"), "{text}");
    assert!(text.contains("pairs 3 [0, 2, 0, 0, 1]"), "{text}");

    // A file of another match is refused, not pooled.
    let other = dir.join("other.pgn");
    std::fs::write(&other, game(1, "a", "c", "1-0", f1)).unwrap();
    let (ok, text) = pool(&[&p1, &other], None);
    assert!(!ok, "pooled games of two matches:\n{text}");
    assert!(text.contains("not one match"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}
