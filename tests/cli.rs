//! The binary's command line, the testers' contract: `tessera bench` is
//! deterministic and ends with `N nodes M nps`; other arguments run in order
//! as UCI commands (`tessera "genfens 10 seed 1 book None" quit`, as OpenBench
//! sends), and a `go` among them runs to its limit, as Stockfish's does;
//! `--version` and the UCI command `compiler` say what the build is.

mod common;

use common::{Engine, SLOW, binary};
use std::process::Command;

/// The lines the binary prints for `args`, once it has exited by itself.
fn run(args: &[&str]) -> Vec<String> {
    let out = Command::new(binary()).args(args).output().expect("the engine runs");
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

#[test]
fn a_go_given_as_an_argument_runs_to_its_limit() {
    for args in [&["position startpos", "go depth 8"][..], &["go depth 8", "quit"]] {
        let lines = run(args);
        let depth8 = lines.iter().position(|l| l.starts_with("info depth 8 "));
        let best = lines.iter().position(|l| l.starts_with("bestmove "));
        assert!(depth8.is_some() && best > depth8, "{args:?}: {lines:?}");
        assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 1);
    }
}

/// A search that only `stop` could end is stopped when the arguments run out.
#[test]
fn an_infinite_go_given_as_an_argument_ends_with_the_arguments() {
    let lines = run(&["go infinite"]);
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{lines:?}");
}

#[test]
fn printing_to_a_reader_that_has_gone_ends_quietly() {
    // `tessera --version | head -1`: the reader closes the pipe before the
    // engine writes; the engine stops printing without a panic.
    // `bench` and `perft` report on stderr as they go, so only their status
    // and the absence of a panic are asked of them; `speedtest` stops at its
    // first line.
    let speedtest = &["speedtest", "1", "16", "0.01"][..];
    for args in [&["--version"][..], &["--help"], &["bench", "1"], &["perft", "1"], speedtest] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out =
            Command::new(binary()).args(args).stdout(writer).output().expect("the engine runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        if args[0].starts_with("--") {
            assert!(stderr.is_empty(), "{args:?}: {stderr}");
        }
    }
}

#[test]
fn printing_to_a_full_disk_fails_the_command() {
    // `tessera perft 6 > /dev/full`: an output that cannot be written is an
    // error, said on stderr, not a success with nothing printed.
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let speedtest = &["speedtest", "1", "16", "0.01"][..];
    for args in [&["--version"][..], &["--help"], &["bench", "1"], &["perft", "1"], speedtest] {
        let full = full.try_clone().expect("the file again");
        let out = Command::new(binary()).args(args).stdout(full).output().expect("the engine runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded: {stderr}");
        assert!(stderr.contains("cannot write to stdout"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

/// `git` in the repository, where it is one of its own.
fn git(args: &[&str]) -> Option<String> {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("git").arg("-C").arg(root).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn version_and_compiler_say_what_the_build_is() {
    let version = run(&["--version"]);
    let mut e = Engine::start();
    e.send("compiler");
    e.send("isready");
    let (_, compiler) = e.wait_for(SLOW, |l| l == "readyok");
    assert_eq!(compiler, version, "`compiler` and `--version` differ");

    let field = |name: &str| -> String {
        let prefix = format!("{name}: ");
        let line = version.iter().find(|l| l.starts_with(&prefix));
        line.unwrap_or_else(|| panic!("no {name} in {version:?}"))[prefix.len()..].to_string()
    };
    let root = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).unwrap();
    let own = git(&["rev-parse", "--show-toplevel"])
        .is_some_and(|top| std::fs::canonicalize(top).ok() == Some(root));
    match own.then(|| git(&["rev-parse", "--short", "HEAD"])).flatten() {
        Some(commit) => {
            let sources = ["src", "crates", "build.rs", "Cargo.toml", "Cargo.lock"];
            let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
            status.extend(sources);
            let modified = !git(&status).unwrap_or_default().is_empty();
            let expected = if modified {
                format!("{commit}, with uncommitted changes")
            } else {
                commit.clone()
            };
            assert_eq!(field("commit"), expected);
            assert_eq!(version[0], format!("Tessera {} {commit}", env!("CARGO_PKG_VERSION")));
        }
        None => assert!(field("commit").starts_with("unknown"), "{version:?}"),
    }
    let cpu = field("cpu");
    assert!(cpu.starts_with("x86-64") || !cfg!(target_arch = "x86_64"), "{cpu}");
    assert!(cpu.contains("built with target-cpu "), "{cpu}");
    let pext = cfg!(all(target_arch = "x86_64", target_feature = "bmi2"));
    assert_eq!(field("slider attacks"), if pext { "PEXT (BMI2)" } else { "magic bitboards" });
    let avx2 = cfg!(target_feature = "avx2") && !cfg!(target_feature = "avx512bw");
    assert_eq!(field("network code").starts_with("256-bit vectors (AVX2)"), avx2);
    assert_eq!(
        field("network"),
        format!(
            "{}, sha256 {}, {}",
            eval::nnue::EMBEDDED_NAME,
            &eval::nnue::EMBEDDED_SHA256[..12],
            eval::nnue::summary()
        )
    );
    let rustc = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(field("compiler"), String::from_utf8_lossy(&rustc.stdout).trim());
    assert!(e.quit(SLOW));
}

/// `eval` shows the board with what each piece adds, then the evaluation.
#[test]
fn eval_explains_itself_piece_by_piece() {
    let lines = run(&["position startpos", "eval"]);
    let last = lines.last().unwrap();
    assert!(last.starts_with("info string static eval "), "{lines:?}");
    // Under each rank of pieces, a value for each piece but the king.
    let rank1 = lines.iter().position(|l| l.starts_with(" |   R   |   N   |")).unwrap();
    let values: Vec<&str> =
        lines[rank1 + 1].split('|').map(str::trim).filter(|s| !s.is_empty()).collect();
    assert_eq!(values.len(), 7, "{}", lines[rank1 + 1]);
    assert!(values.iter().all(|v| v.parse::<i32>().unwrap() > 0), "{values:?}");
    let rank8 = lines.iter().position(|l| l.starts_with(" |   r   |   n   |")).unwrap();
    assert!(
        lines[rank8 + 1].split('|').filter_map(|v| v.trim().parse::<i32>().ok()).all(|v| v < 0)
    );
}
