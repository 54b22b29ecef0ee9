//! The network's kernels on each path this CPU has, side by side in one run:
//! the fused accumulator update (a quiet move: one row added, one removed; a
//! capture: one added, two removed) and the output layer (both perspectives'
//! SCReLU dot products), with a network of the engine's size.
//!
//! "portable" is the Rust the compiler vectorises for the build's target:
//! build with `RUSTFLAGS="-C target-cpu=x86-64-v3"` to compare the explicit
//! AVX2 kernels with what the compiler makes of the same loops under AVX2.
//! In a build without AVX2 the vector paths run through run-time detection
//! and are not inlined into the benchmark loop. On AArch64 the paths are the
//! portable code and NEON.
//!
//! Times are the benchmark thread's CPU time (the workspace's
//! `benches/support/thread_cpu_time.rs`), so a loaded machine slows the run
//! but skews the figures less; wall time when `BENCH_WALL` is set. Read the
//! ratios between paths, not the absolute times.
//!
//! Run: `RUSTFLAGS="-C target-cpu=x86-64-v3" CARGO_TARGET_DIR=target-v3 cargo
//! bench -p eval --bench nnue` (about a minute).

#[path = "../../../benches/support/thread_cpu_time.rs"]
mod thread_cpu_time;

use criterion::{Criterion, criterion_group, criterion_main};
use eval::nnue::simd::Path;
use eval::nnue::{HIDDEN, Network};
use std::hint::black_box;
use std::time::Duration;
use thread_cpu_time::ThreadCpuTime;

/// First-layer values as a search sees them: the biases plus the rows of a
/// middlegame's thirty pieces, some below zero and some beyond the clamp.
fn accumulator(net: &Network, first_row: usize) -> [i16; HIDDEN] {
    let mut values = net.feature_biases;
    for row in net.feature_weights.iter().skip(first_row).step_by(23).take(30) {
        for (x, &w) in values.iter_mut().zip(row) {
            *x = x.wrapping_add(w);
        }
    }
    values
}

fn kernels(c: &mut Criterion<ThreadCpuTime>) {
    let net = Network::pseudo_random(1);
    let rows = &net.feature_weights;
    let parent = accumulator(&net, 0);
    let them = accumulator(&net, 5);
    let paths: Vec<Path> = Path::available().collect();

    for (name, removed) in [("update_quiet", 1), ("update_capture", 2)] {
        let mut group = c.benchmark_group(name);
        group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
        for &path in &paths {
            let mut out = [0i16; HIDDEN];
            group.bench_function(path.name(), |b| {
                b.iter(|| {
                    let add = black_box([&rows[100], &rows[200]]);
                    let sub = black_box([&rows[300], &rows[400]]);
                    if removed == 1 {
                        path.update::<1, 1>(&mut out, black_box(&parent), add, sub);
                    } else {
                        path.update::<1, 2>(&mut out, black_box(&parent), add, sub);
                    }
                    black_box(&out);
                })
            });
        }
        group.finish();
    }

    let mut group = c.benchmark_group("output_layer");
    group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    for &path in &paths {
        group.bench_function(path.name(), |b| {
            b.iter(|| {
                let [ours, theirs] = &net.output_weights[0];
                let us = black_box(&parent);
                path.screlu_dot(us, ours) + path.screlu_dot(black_box(&them), theirs)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(ThreadCpuTime::new("nnue"));
    targets = kernels
}
criterion_main!(benches);
