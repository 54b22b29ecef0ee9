//! Perft speed: Tessera's `board::perft` side by side with cozy-chess, same
//! build flags (the workspace's `-C target-cpu=native`, `profile.bench` with fat
//! LTO and one codegen unit), single threaded.
//!
//! Both count the last ply in bulk (the number of legal moves, by popcount of
//! each piece's destination set), as cozy-chess's own `perft` example does. The
//! `no-bulk` group plays every leaf move too, which weighs make-move more.
//!
//! Times are the benchmark thread's CPU time (`benches/support/thread_cpu_time.rs`),
//! so a busy machine slows the run down but does not skew the figures much;
//! set `BENCH_WALL=1` for wall time.
//!
//! Run: `CARGO_TARGET_DIR=target-board cargo bench --bench perft` (about 3
//! minutes). cozy-chess uses magic bitboards unless its `pext` feature is on:
//! `cargo bench --bench perft --features cozy-chess/pext` compares against its
//! PEXT build (Tessera uses PEXT whenever the target has BMI2).

#[path = "support/thread_cpu_time.rs"]
mod thread_cpu_time;

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use std::hint::black_box;
use std::time::Duration;
use thread_cpu_time::ThreadCpuTime;

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// cozy-chess perft with bulk counting at depth 1 (its `examples/perft.rs`).
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

/// cozy-chess perft that plays every move, leaves included.
fn cozy_perft_no_bulk(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            nodes += cozy_perft_no_bulk(&child, depth - 1);
        }
        false
    });
    nodes
}

/// Tessera perft that plays every move, leaves included.
fn tessera_perft_no_bulk(board: &board::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for &mv in board.legal_moves().iter() {
        let mut child = *board;
        child.play_unchecked(mv);
        nodes += tessera_perft_no_bulk(&child, depth - 1);
    }
    nodes
}

fn boards(fen: &str) -> (board::Board, cozy_chess::Board) {
    let ours = board::Board::from_fen(fen).expect("valid FEN");
    let cozy = cozy_chess::Board::from_fen(fen, false).expect("valid FEN");
    (ours, cozy)
}

fn perft_bulk(c: &mut Criterion<ThreadCpuTime>) {
    let mut group = c.benchmark_group("perft");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(2));
    group.measurement_time(Duration::from_secs(8));
    for (name, fen, depth, nodes) in [
        ("startpos", STARTPOS, 5, 4_865_609),
        ("startpos", STARTPOS, 6, 119_060_324),
        ("kiwipete", KIWIPETE, 4, 4_085_603),
        ("kiwipete", KIWIPETE, 5, 193_690_690),
    ] {
        let (ours, cozy) = boards(fen);
        assert_eq!(board::perft(&ours, depth), nodes, "tessera {name} {depth}");
        assert_eq!(cozy_perft(&cozy, depth), nodes, "cozy-chess {name} {depth}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(
            BenchmarkId::new(format!("tessera/{name}"), depth),
            &depth,
            |b, &d| b.iter(|| board::perft(black_box(&ours), d)),
        );
        group.bench_with_input(
            BenchmarkId::new(format!("cozy-chess/{name}"), depth),
            &depth,
            |b, &d| b.iter(|| cozy_perft(black_box(&cozy), d)),
        );
    }
    group.finish();
}

fn perft_no_bulk(c: &mut Criterion<ThreadCpuTime>) {
    let mut group = c.benchmark_group("perft-no-bulk");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_secs(2));
    group.measurement_time(Duration::from_secs(6));
    for (name, fen, depth, nodes) in
        [("startpos", STARTPOS, 5, 4_865_609), ("kiwipete", KIWIPETE, 4, 4_085_603)]
    {
        let (ours, cozy) = boards(fen);
        assert_eq!(tessera_perft_no_bulk(&ours, depth), nodes, "tessera {name} {depth}");
        assert_eq!(cozy_perft_no_bulk(&cozy, depth), nodes, "cozy-chess {name} {depth}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(
            BenchmarkId::new(format!("tessera/{name}"), depth),
            &depth,
            |b, &d| b.iter(|| tessera_perft_no_bulk(black_box(&ours), d)),
        );
        group.bench_with_input(
            BenchmarkId::new(format!("cozy-chess/{name}"), depth),
            &depth,
            |b, &d| b.iter(|| cozy_perft_no_bulk(black_box(&cozy), d)),
        );
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpuTime::new("perft"));
    targets = perft_bulk, perft_no_bulk
}
criterion_main!(benches);
