//! The cluster build on two MPI ranks of this machine (`mpirun -np 2`), driven
//! over UCI as a GUI would drive it: legal moves, exactly one `bestmove` per
//! `go`, `stop` within 100 ms, node counts that add up over the ranks, and
//! `quit` (or the end of input) ending every rank. Needs the `cluster` feature;
//! a machine without `mpirun` skips it with a message (docs/cluster.md).
#![cfg(feature = "cluster")]

mod common;

use common::{Engine, SLOW, info_field, is_legal};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// `mpirun`, if it is on the PATH.
fn mpirun() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join("mpirun")).find(|p| p.is_file())
}

fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|status| {
        status
            .lines()
            .find(|l| l.starts_with("Uid:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .is_some_and(|uid| uid == "0")
    })
}

/// Starts two ranks of the engine under `mpirun` (the engine talks to rank 0,
/// stderr kept for failure messages), or says why not and returns `None`.
fn start_ranks() -> Option<Engine> {
    let Some(mpirun) = mpirun() else {
        eprintln!(
            "SKIPPED: the cluster test needs mpirun (apt-get install openmpi-bin libopenmpi-dev)"
        );
        return None;
    };
    let version = Command::new(&mpirun).arg("--version").output().ok()?;
    let open_mpi = String::from_utf8_lossy(&version.stdout).contains("Open MPI");
    let mut command = Command::new(mpirun);
    command.args(["-np", "2"]);
    if open_mpi {
        // Two ranks on however many cores this machine has, neither pinned to one core.
        command.args(["--oversubscribe", "--bind-to", "none"]);
        if running_as_root() {
            command.arg("--allow-run-as-root");
        }
    }
    command.arg(env!("CARGO_BIN_EXE_tessera"));
    Some(Engine::spawn_keeping_stderr(command))
}

/// Waits for the end of the search: the move, the lines before `bestmove`, and
/// (after an `isready`) proof that no second `bestmove` follows.
fn bestmove_once(ranks: &mut Engine, timeout: Duration) -> (String, Vec<String>) {
    let (mv, before) = ranks.bestmove(timeout);
    let after = ranks.sync();
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "a second bestmove for one go: {mv} then {after:?}"
    );
    (mv, before)
}

/// Whether mpirun (and so every rank) exits successfully within `timeout`.
fn exits_within(ranks: &mut Engine, timeout: Duration) -> bool {
    ranks.wait_exit(timeout).is_some_and(|status| status.success())
}

/// The per-rank node counts of the search's `info string cluster nodes T = a + b ...`
/// line: checks that they add up to `T` and returns them.
fn rank_nodes(lines: &[String]) -> Vec<u64> {
    let summary = lines
        .iter()
        .rfind(|l| l.starts_with("info string cluster nodes "))
        .unwrap_or_else(|| panic!("no cluster summary before bestmove: {lines:?}"));
    let counts = summary["info string cluster nodes ".len()..].split(" (").next().unwrap_or("");
    let (total, ranks) = counts.split_once(" = ").expect("'T = a + b'");
    let total: u64 = total.parse().expect("a total");
    let ranks: Vec<u64> = ranks.split(" + ").map(|n| n.parse().expect("a count")).collect();
    assert_eq!(ranks.iter().sum::<u64>(), total, "rank counts do not add up: {summary}");
    ranks
}

/// The `nodes` of the last `info depth` line (the figure a GUI shows last).
fn last_info_nodes(lines: &[String]) -> u64 {
    let last = lines.iter().rfind(|l| l.starts_with("info depth")).expect("an info line");
    info_field(last, "nodes").and_then(|n| n.parse().ok()).expect("nodes in the info line")
}

#[test]
fn two_ranks_play_legal_moves_with_one_bestmove_per_go_and_count_every_ranks_nodes() {
    let Some(mut ranks) = start_ranks() else { return };
    let (_, startup) = ranks.wait_for(SLOW, |l| l.starts_with("info string cluster of"));
    assert!(startup.is_empty(), "rank 0 printed before naming the ranks: {startup:?}");
    ranks.send("uci");
    let (_, before) = ranks.wait_for(SLOW, |l| l == "uciok");
    assert!(before.iter().any(|l| l.starts_with("id name Tessera")), "{before:?}");
    ranks.send("setoption name Hash value 8");
    ranks.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    // (limits, whether the search lasts long enough that rank 1 should have searched:
    // a fast `go depth` can end before rank 1 has read its `go`).
    let (mut long_searches, mut rank_1_searched) = (0, 0);
    let goes = [
        ("go depth 9", false),
        ("go nodes 150000", false),
        ("go movetime 300", true),
        ("go wtime 4000 btime 4000 winc 50 binc 50", true),
    ];
    for (ply, &(go, long)) in goes.iter().cycle().take(8).enumerate() {
        ranks.send(&format!("position startpos moves {}", moves.join(" ")));
        ranks.send("d");
        let (fen, _) = ranks.wait_for(SLOW, |l| l.starts_with("Fen: "));
        let fen = fen["Fen: ".len()..].to_string();
        ranks.sync();
        ranks.send(go);
        let (mv, lines) = bestmove_once(&mut ranks, SLOW);
        assert!(is_legal(&fen, &mv), "ply {ply}: illegal bestmove {mv} in {fen} after {go}");
        let per_rank = rank_nodes(&lines);
        assert_eq!(per_rank.len(), 2, "{lines:?}");
        if long {
            long_searches += 1;
            rank_1_searched += usize::from(per_rank[1] > 0);
        }
        let total: u64 = per_rank.iter().sum();
        assert_eq!(last_info_nodes(&lines), total, "the last info line is not the cluster's total");
        if go == "go nodes 150000" {
            assert!(total >= 150_000, "stopped at {total} nodes of 150000");
        }
        moves.push(mv);
    }
    // On a loaded machine rank 1 may get no CPU before a search ends; not most of the time.
    assert!(
        2 * rank_1_searched > long_searches,
        "rank 1 searched in {rank_1_searched} of {long_searches} timed searches"
    );
    ranks.send("quit");
    assert!(
        exits_within(&mut ranks, SLOW),
        "quit did not end every rank\nstderr:\n{}",
        ranks.stderr()
    );
}

#[test]
fn stop_ends_every_ranks_search_within_100_ms() {
    let Some(mut ranks) = start_ranks() else { return };
    ranks.wait_for(SLOW, |l| l.starts_with("info string cluster of"));
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let (mut latencies, mut rank_1_searched) = (Vec::new(), 0);
    for _ in 0..5 {
        ranks.send(&format!("position fen {fen}"));
        ranks.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let sent = Instant::now();
        ranks.send("stop");
        let (line, lines) = ranks.wait_for(SLOW, |l| l.starts_with("bestmove"));
        latencies.push(sent.elapsed());
        let mv = line.split_whitespace().nth(1).unwrap_or("");
        assert!(is_legal(fen, mv), "illegal {mv}");
        let per_rank = rank_nodes(&lines);
        rank_1_searched += usize::from(per_rank[1] > 0);
        assert!(
            !ranks.sync().iter().any(|l| l.starts_with("bestmove")),
            "a second bestmove after stop"
        );
    }
    assert!(rank_1_searched >= 3, "rank 1 searched in {rank_1_searched} of 5 searches");
    latencies.sort();
    let median = latencies[latencies.len() / 2];
    assert!(median < Duration::from_millis(100), "stop latencies {latencies:?}");
    // The end of input, without `quit`, ends every rank too.
    ranks.close_input();
    assert!(
        exits_within(&mut ranks, SLOW),
        "closing rank 0's input did not end every rank\nstderr:\n{}",
        ranks.stderr()
    );
}
