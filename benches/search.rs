//! Search speed: nodes per second of the Lazy SMP pool at 1, 2 and 4 threads
//! on fixed positions, each search a fixed wall time. Criterion reports the
//! throughput in nodes per second (higher is better); compare thread counts
//! side by side in one run.

use board::{Board, Position};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use search::{SearchJob, SearchLimits, Silent, ThreadPool};
use std::sync::Arc;
use std::time::{Duration, Instant};

const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "8/pp2r1k1/2p1p3/3pP2p/P2P1n2/2P2N1P/1P3PK1/4R3 w - - 0 1",
];

/// One timed search per position; returns the nodes searched in total.
fn search_all(pool: &ThreadPool, millis: u64) -> u64 {
    POSITIONS
        .iter()
        .map(|fen| {
            let board = Board::from_fen(fen).expect("valid bench FEN");
            let limits = SearchLimits {
                move_time: Some(Duration::from_millis(millis)),
                ..SearchLimits::default()
            };
            let job = SearchJob::new(Position::new(board), limits);
            pool.search_sync(job).map_or(0, |o| o.nodes)
        })
        .sum()
}

/// Criterion's throughput is elements per iteration time; each "element" here is
/// one of `REFERENCE_NODES`, and the reported time is scaled to the nodes actually
/// searched, so the throughput criterion prints is the measured nodes per second.
const REFERENCE_NODES: u64 = 1_000_000;

fn nps(c: &mut Criterion) {
    let mut group = c.benchmark_group("search_nps");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(REFERENCE_NODES));
    for threads in [1usize, 2, 4] {
        let mut pool = ThreadPool::new(threads, 64, Arc::new(Silent));
        group.bench_function(format!("{threads}_threads"), |b| {
            b.iter_custom(|iters| {
                let mut nodes = 0;
                let mut elapsed = Duration::ZERO;
                for _ in 0..iters {
                    pool.clear();
                    let start = Instant::now();
                    nodes += search_all(&pool, 100);
                    elapsed += start.elapsed();
                }
                // Per-iteration time such that REFERENCE_NODES / time = nodes / elapsed.
                elapsed.mul_f64(iters as f64 * REFERENCE_NODES as f64 / nodes.max(1) as f64)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, nps);
criterion_main!(benches);
