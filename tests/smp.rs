//! Lazy SMP under oversubscription: many more search threads than cores.
//! These run on debug builds too (all assertions on).

mod common;

use common::{Engine, SLOW, info_field, is_legal};
use std::time::Duration;

fn bestmove_count(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

/// Rapid `go`/`stop` cycles: every `go` gets exactly one `bestmove`, never a hang.
fn go_stop_cycles(threads: usize, cycles: usize) {
    let mut e = Engine::start();
    e.send(&format!("setoption name Threads value {threads}"));
    e.send("setoption name Hash value 8");
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    e.send(&format!("position fen {fen}"));
    let setup = e.sync();
    assert!(setup.iter().all(|l| !l.contains("error")), "{setup:?}");
    for i in 0..cycles {
        e.send(if i % 3 == 0 { "go infinite" } else { "go depth 30" });
        if i % 7 == 0 {
            std::thread::sleep(Duration::from_millis(2));
        }
        e.send("stop");
        let (mv, before) = e.bestmove(SLOW);
        assert_eq!(bestmove_count(&before), 0, "cycle {i}: two bestmoves");
        assert!(is_legal(fen, &mv), "cycle {i}: illegal {mv}");
    }
    // Nothing more may arrive: no late second bestmove.
    let tail = e.sync();
    assert_eq!(bestmove_count(&tail), 0, "a late bestmove: {tail:?}");
    assert!(e.quit(SLOW));
}

#[test]
fn thousand_go_stop_cycles_with_8_threads() {
    go_stop_cycles(8, 1000);
}

#[test]
fn go_stop_cycles_with_64_threads() {
    go_stop_cycles(64, 200);
}

#[test]
fn plays_legal_moves_through_a_game_with_8_threads() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 8");
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..60 {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let fen = e.fen();
        let board = board::Board::from_fen(&fen).expect("valid FEN");
        if board.status() != board::GameStatus::Ongoing {
            break;
        }
        e.send("go movetime 20");
        let (mv, _) = e.bestmove(SLOW);
        assert!(is_legal(&fen, &mv), "illegal {mv} in {fen}");
        moves.push(mv);
    }
    assert!(moves.len() >= 30);
}

#[test]
fn finds_mates_with_many_threads() {
    let mut e = Engine::start();
    for threads in [8, 64] {
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("ucinewgame");
        e.send("position fen r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1");
        e.send("go depth 8");
        let (mv, infos) = e.bestmove(SLOW);
        assert_eq!(mv, "d5f6", "{threads} threads");
        let last = infos.iter().rev().find(|l| l.contains(" score ")).expect("info with a score");
        assert!(last.contains("score mate 2 "), "{threads} threads: {last}");
    }
}

#[test]
fn threads_change_between_searches() {
    let mut e = Engine::start();
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    e.send(&format!("position fen {fen}"));
    for (i, threads) in [1, 8, 2, 64, 3, 1, 16, 5, 1, 32, 4, 8].iter().cycle().take(40).enumerate()
    {
        e.send(&format!("setoption name Threads value {threads}"));
        e.send(if i % 2 == 0 { "go depth 4" } else { "go nodes 3000" });
        let (mv, _) = e.bestmove(SLOW);
        assert!(is_legal(fen, &mv), "{threads} threads: illegal {mv}");
    }
    assert!(e.quit(SLOW));
}

#[test]
fn node_counts_add_up() {
    let mut e = Engine::start();
    e.send("setoption name Threads value 8");
    e.send("position startpos");
    e.send("go nodes 200000");
    let (_, infos) = e.bestmove(SLOW);
    let nodes: Vec<u64> = infos
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .filter_map(|l| info_field(l, "nodes")?.parse().ok())
        .collect();
    assert!(!nodes.is_empty());
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "node counts went backwards: {nodes:?}");
    // The limit is on the total of all threads: each adds its chunks of 1024 nodes
    // to one shared total, and the search stops when it reaches the limit, so the
    // threads stop past it by less than a chunk each (one more for the nodes a
    // thread searches before the stop flag reaches it).
    let last = *nodes.last().unwrap_or(&0);
    assert!((200_000..=200_000 + 9 * 1024).contains(&last), "{last} nodes for a 200000 limit");
}

/// The CPUs this process may run on, as Linux lists them.
#[cfg(target_os = "linux")]
fn allowed_cpus() -> Vec<usize> {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line =
        status.lines().find_map(|l| l.strip_prefix("Cpus_allowed_list:")).expect("a CPU list");
    search::numa::parse_cpu_list(line).expect("a CPU list as Linux writes it")
}

/// The nodes searched by `go depth 9` from the start of a new game.
#[cfg(target_os = "linux")]
fn nodes_to_depth_9(e: &mut Engine) -> u64 {
    e.send("ucinewgame");
    e.send("position startpos");
    e.send("go depth 9");
    let (_, infos) = e.bestmove(SLOW);
    infos
        .iter()
        .rev()
        .find_map(|l| info_field(l, "nodes")?.parse().ok())
        .expect("an info line with nodes")
}

/// `NumaPolicy` with the nodes written out pins the threads (two "nodes" of
/// this machine's CPUs stand in for a NUMA machine) and says where they went;
/// pinned threads search as before, and a thread on a node evaluates with
/// the node's copy of the network exactly as with the shared one. A bad
/// value is refused and changes nothing.
#[cfg(target_os = "linux")]
#[test]
fn a_numa_policy_pins_the_threads_and_the_search_is_unchanged() {
    let cpus = allowed_cpus();
    let (a, b) = (cpus[0], *cpus.last().unwrap());
    let mut e = Engine::start();
    e.send("setoption name Hash value 8");
    let free = nodes_to_depth_9(&mut e);
    e.send(&format!("setoption name NumaPolicy value {a}:{b}"));
    let (line, _) = e.wait_for(SLOW, |l| l.starts_with("info string"));
    assert_eq!(line, "info string 1 thread pinned to NUMA nodes 0");
    assert_eq!(
        nodes_to_depth_9(&mut e),
        free,
        "the node's copy of the network evaluates differently"
    );

    e.send("setoption name Threads value 4");
    e.send("setoption name NumaPolicy value none");
    let (line, _) = e.wait_for(SLOW, |l| l.starts_with("info string"));
    assert_eq!(line, "info string 4 threads, not pinned");
    e.send(&format!("setoption name NumaPolicy value {a}:{b}"));
    let (line, _) = e.wait_for(SLOW, |l| l.starts_with("info string"));
    assert_eq!(line, "info string 4 threads pinned to NUMA nodes 0,1,0,1");
    e.send("position startpos");
    e.send("go depth 10");
    let (mv, _) = e.bestmove(SLOW);
    assert!(is_legal(board::STARTPOS_FEN, &mv), "illegal {mv}");

    e.send("setoption name NumaPolicy value 0-");
    let (line, _) = e.wait_for(SLOW, |l| l.starts_with("info string"));
    assert!(line.starts_with("info string error"), "{line}");
    e.send("setoption name Threads value 2");
    e.send("position startpos");
    e.send("go depth 8");
    let (mv, before) = e.bestmove(SLOW);
    assert!(is_legal(board::STARTPOS_FEN, &mv), "illegal {mv}");
    assert!(before.iter().all(|l| !l.contains("error")), "{before:?}");
    assert!(e.quit(SLOW));
}
