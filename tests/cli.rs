//! The testers' contract on the command line: `tessera bench` is deterministic
//! and ends with `N nodes M nps`; other arguments run in order as UCI commands
//! (`tessera "genfens 10 seed 1 book None" quit`, as OpenBench sends).

use std::process::Command;

fn run(args: &[&str]) -> Vec<String> {
    let out =
        Command::new(env!("CARGO_BIN_EXE_tessera")).args(args).output().expect("the engine runs");
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8").lines().map(str::to_string).collect()
}

#[test]
fn bench_ends_with_nodes_and_nps_and_repeats_its_node_count() {
    let nodes = |lines: &[String]| {
        let last = lines.last().expect("output");
        let words: Vec<&str> = last.split_whitespace().collect();
        assert!(
            matches!(words.as_slice(), [n, "nodes", m, "nps"]
                if n.parse::<u64>().is_ok() && m.parse::<u64>().is_ok()),
            "last line: {last}"
        );
        words[0].parse::<u64>().unwrap()
    };
    let first = nodes(&run(&["bench", "5"]));
    assert!(first > 1000);
    assert_eq!(first, nodes(&run(&["bench", "5"])));
}

#[test]
fn genfens_prints_the_same_n_positions_for_the_same_seed() {
    let lines = run(&["genfens 6 seed 11 book None", "quit"]);
    assert_eq!(lines.len(), 6, "{lines:?}");
    for line in &lines {
        let fen = line.strip_prefix("info string genfens ").expect("the genfens prefix");
        assert!(board::Board::from_fen(fen).is_ok(), "{fen}");
    }
    assert_eq!(lines, run(&["genfens 6 seed 11 book None", "quit"]));
    assert_ne!(lines, run(&["genfens 6 seed 12 book None", "quit"]));
    let bad = run(&["genfens 6 seed 11 book /nonexistent.epd", "quit"]);
    assert_eq!(bad.len(), 1);
    assert!(bad[0].starts_with("info string error: "), "{bad:?}");
}

#[test]
fn arguments_run_in_order_as_uci_commands() {
    let lines = run(&["position startpos moves e2e4 e7e5", "d", "position startpos", "d", "quit"]);
    let fens: Vec<&String> = lines.iter().filter(|l| l.starts_with("Fen: ")).collect();
    assert_eq!(fens.len(), 2, "{lines:?}");
    assert!(fens[0].contains("4p3/4P3"), "{}", fens[0]);
    assert!(
        fens[1].starts_with("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
        "{}",
        fens[1]
    );
}
