//! Probe speed: WDL probes (what the search makes) and root probes (one per
//! `go`) over the 200 positions of `data/syzygy/endgame.epd`.
//!
//! `cargo bench -p syzygy`; figures in docs/tablebases.md.

use board::Board;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use syzygy::{RootOptions, Tablebases, Verify};

fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy")
}

fn positions() -> Vec<Board> {
    let text = std::fs::read_to_string(data().join("endgame.epd")).expect("endgame.epd");
    text.lines()
        .map(|line| {
            let fen = line.split(" wdl_table").next().expect("a FEN");
            Board::from_fen(fen).expect("a valid FEN")
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let list = data();
    let list = list.to_str().expect("UTF-8 path");
    // Loading (scan, checks, links, prober set-up), then dropping: the prober
    // allows one instance at a time, so this comes before the probe benches.
    let mut group = c.benchmark_group("syzygy_load_4.4MB");
    group.sample_size(10);
    for (name, verify) in [("checksum", Verify::Checksum), ("header", Verify::Header)] {
        group.bench_function(name, |b| {
            b.iter(|| drop(Tablebases::load(list, verify).expect("the tables load")))
        });
    }
    group.finish();

    let (tb, _) = Tablebases::load(list, Verify::Checksum).expect("the tables load");
    let boards = positions();
    let mut group = c.benchmark_group("syzygy");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("wdl_200_positions", |b| {
        b.iter(|| {
            for board in &boards {
                black_box(tb.probe_wdl(black_box(board)));
            }
        })
    });
    group.sample_size(10);
    group.bench_function("root_200_positions", |b| {
        b.iter(|| {
            for board in &boards {
                black_box(tb.probe_root(black_box(board), RootOptions::default()));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
