//! Transposition-table micro-benchmarks: probe hit / probe miss / store on a
//! 16 MiB (fits the 32 MiB L3 of the reference machine) and a 1 GiB table, on one
//! and two threads, plus clearing 1 GiB and 8 GiB tables on one and two threads.
//!
//! Keys come from a precomputed array of random keys (xorshift), walked in order,
//! so table accesses are random while the key stream itself is cache friendly.
//! "dependent" probes make each key depend on the previous probe's result, which
//! serialises them and shows the latency a search sees; the plain variants let
//! the CPU overlap independent probes and show throughput.
//!
//! Two-thread variants: each thread performs the requested number of operations
//! on the shared table; the reported time is wall time divided by the per-thread
//! count, i.e. time per operation per thread.
//!
//! Run: `CARGO_TARGET_DIR=target-tt cargo bench --bench tt` (about 3 minutes).

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Barrier;
use std::time::{Duration, Instant};
use tt::{Bound, Record, TranspositionTable};

/// Length of every key array (a power of two, so indices wrap with a mask).
const KEY_COUNT: usize = 1 << 20;

fn random_keys(mut state: u64, n: usize) -> Vec<u64> {
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        })
        .collect()
}

fn record(key: u64) -> Record {
    Record {
        mv: key as u16 | 1,
        score: (key >> 16) as i16 as i32 / 4,
        eval: (key >> 32) as i16 as i32 / 4,
        depth: (key % 30) as i32,
        bound: Bound::Lower,
        pv: false,
    }
}

/// A filled table and the key sets to drive it.
struct Fixture {
    tt: TranspositionTable,
    /// Keys known to be present (a power-of-two count).
    hits: Vec<u64>,
    /// Keys never stored: their buckets are populated, so a miss scans 4 entries.
    misses: Vec<u64>,
    /// Fresh keys for stores.
    stores: Vec<u64>,
}

impl Fixture {
    fn new(mb: usize) -> Self {
        let tt = TranspositionTable::new(mb);
        let stored = random_keys(0x9E37_79B9_7F4A_7C15, KEY_COUNT);
        for &key in &stored {
            tt.store(key, &record(key));
        }
        let mut hits: Vec<u64> = stored.into_iter().filter(|&k| tt.probe(k).is_some()).collect();
        // Round down to a power of two for masking (a 16 MiB table keeps ~60%).
        hits.truncate(1 << hits.len().ilog2());
        eprintln!(
            "{mb} MiB table: {}, {} resident hit keys, hashfull {}, {}",
            tt.backing(),
            hits.len(),
            tt.hashfull(),
            anon_huge_pages()
        );
        Self {
            tt,
            hits,
            misses: random_keys(0xD1B5_4A32_D192_ED03, KEY_COUNT),
            stores: random_keys(0x2545_F491_4F6C_DD1D, KEY_COUNT),
        }
    }
}

/// `AnonHugePages` of this process, to show whether the kernel granted huge pages.
fn anon_huge_pages() -> String {
    std::fs::read_to_string("/proc/self/smaps_rollup")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("AnonHugePages")).map(str::to_owned))
        .map_or_else(
            || "AnonHugePages: n/a".to_owned(),
            |l| l.split_whitespace().collect::<Vec<_>>().join(" "),
        )
}

/// Runs `iters` operations on each of `threads` threads, each thread walking
/// `keys` from its own offset, and returns the slowest thread's time.
fn run<F>(threads: usize, iters: u64, keys: &[u64], op: F) -> Duration
where
    F: Fn(u64) -> u64 + Sync,
{
    let mask = keys.len() - 1;
    let work = |offset: usize| {
        let start = Instant::now();
        let mut acc = 0_u64;
        for i in 0..iters as usize {
            acc = acc.wrapping_add(op(keys[(offset + i) & mask]));
        }
        black_box(acc);
        start.elapsed()
    };
    if threads == 1 {
        return work(0);
    }
    let barrier = Barrier::new(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (barrier, work) = (&barrier, &work);
                s.spawn(move || {
                    barrier.wait();
                    work(t * keys.len() / threads)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).max().unwrap_or_default()
    })
}

/// Probes whose key index depends on the previous result: a latency chain.
fn run_dependent(tt: &TranspositionTable, iters: u64, keys: &[u64]) -> Duration {
    let mask = keys.len() - 1;
    let start = Instant::now();
    let mut index = 0_usize;
    for _ in 0..iters {
        let hit = tt.probe(keys[index & mask]);
        // `mv | 1` is odd, so `& 1` is always 1, but the compiler cannot know it.
        index += hit.map_or(1, |h| usize::from(h.mv) & 1);
    }
    black_box(index);
    start.elapsed()
}

fn table_ops(g: &mut BenchmarkGroup<'_, WallTime>, label: &str, fx: &Fixture) {
    let tt = &fx.tt;
    for threads in [1, 2] {
        g.bench_function(format!("probe_hit/{label}/{threads}t"), |b| {
            b.iter_custom(|n| {
                run(threads, n, &fx.hits, |k| tt.probe(k).map_or(0, |h| u64::from(h.mv)))
            });
        });
        g.bench_function(format!("probe_miss/{label}/{threads}t"), |b| {
            b.iter_custom(|n| run(threads, n, &fx.misses, |k| u64::from(tt.probe(k).is_some())));
        });
        g.bench_function(format!("store/{label}/{threads}t"), |b| {
            b.iter_custom(|n| {
                run(threads, n, &fx.stores, |k| {
                    tt.store(k, &record(k));
                    0
                })
            });
        });
    }
    g.bench_function(format!("probe_hit_dependent/{label}/1t"), |b| {
        b.iter_custom(|n| run_dependent(tt, n, &fx.hits));
    });
}

/// Baseline for "one cache miss": a dependent chain of random 8-byte loads over a
/// plain `Vec` of `bytes` (ordinary 4 KiB pages, so this includes page walks).
fn chase(iters: u64, buf: &[u64]) -> Duration {
    let mask = buf.len() - 1;
    let start = Instant::now();
    let mut index = 0_usize;
    for i in 0..iters {
        let v = buf[index];
        index = ((v ^ i).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20) as usize & mask;
    }
    black_box(index);
    start.elapsed()
}

fn bench_ops(c: &mut Criterion) {
    let mut g = c.benchmark_group("tt");
    g.warm_up_time(Duration::from_millis(700)).measurement_time(Duration::from_secs(2));
    g.sample_size(30);
    // An L2-resident table, for the latency of a probe that hits in cache.
    let small = Fixture::new(1);
    g.bench_function("probe_hit_dependent/1MB/1t", |b| {
        b.iter_custom(|n| run_dependent(&small.tt, n, &small.hits));
    });
    drop(small);
    for (mb, label) in [(16, "16MB"), (1024, "1GB")] {
        let fx = Fixture::new(mb);
        table_ops(&mut g, label, &fx);
    }
    for (mb, label) in [(16, "16MB"), (1024, "1GB")] {
        let buf = vec![1_u64; (mb << 20) / 8];
        g.bench_function(format!("baseline_dependent_load_4k_pages/{label}/1t"), |b| {
            b.iter_custom(|n| chase(n, &buf));
        });
    }
    g.finish();
}

fn bench_alloc(c: &mut Criterion) {
    let mut g = c.benchmark_group("tt_new");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(4));
    // Allocation, huge-page advice and parallel first touch, on the default
    // `available_parallelism()` threads, plus freeing.
    g.bench_function("1GB/default_threads", |b| b.iter(|| TranspositionTable::new(1024)));
    g.finish();
}

fn bench_clear(c: &mut Criterion) {
    let mut g = c.benchmark_group("tt_clear");
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g.warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(4));
    for (mb, label) in [(1024, "1GB"), (8192, "8GB")] {
        let mut tt = TranspositionTable::new(mb);
        eprintln!("{label} table: {}, {}", tt.backing(), anon_huge_pages());
        for threads in [1, 2] {
            tt.set_placement(tt::Placement::unpinned(threads));
            g.bench_function(format!("{label}/{threads}t"), |b| b.iter(|| tt.clear()));
        }
    }
    g.finish();
}

criterion_group!(benches, bench_ops, bench_clear, bench_alloc);
criterion_main!(benches);
