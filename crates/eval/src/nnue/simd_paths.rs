//! Every vector path against the portable one, on the same inputs: random
//! accumulators and weight rows (with values far beyond the clamp range,
//! negative ones and the extremes of `i16`, so that sums wrap and `clamp × w`
//! overflows), slices of any length and alignment, and the accumulators of a
//! search tree under a pseudo-random network. Results must be identical. A
//! path this CPU lacks is skipped (on x86-64, NEON's tests run under QEMU:
//! `docs/nnue.md`; `simd128`'s under node, `cargo test --target
//! wasm32-wasip1-threads`).

use super::simd::{self, Path};
use crate::nnue::accumulator::{Accumulator, MoveDelta};
use crate::nnue::layout::{DOT_CHUNK, HIDDEN};
use crate::nnue::network::Network;
use board::Board;

/// A small deterministic generator (PCG-style LCG, the high bits).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 32
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// A value from one of several ranges: anywhere in `i16`, around the
    /// clamp range, at its edges, or at the extremes.
    fn value(&mut self) -> i16 {
        const EDGES: [i16; 10] = [i16::MIN, i16::MIN + 1, -256, -1, 0, 1, 254, 255, 256, i16::MAX];
        match self.below(4) {
            0 => self.next() as i16,
            1 => (self.below(1200) as i16) - 400,
            2 => EDGES[self.below(EDGES.len() as u64) as usize],
            _ => (self.below(256) as i16).min(255),
        }
    }

    /// A weight: a clipped one (±127) or anywhere in `i16`.
    fn weight(&mut self) -> i16 {
        if self.below(2) == 0 { (self.below(255) as i16) - 127 } else { self.next() as i16 }
    }

    fn row(&mut self, mut f: impl FnMut(&mut Rng) -> i16) -> [i16; HIDDEN] {
        std::array::from_fn(|_| f(self))
    }
}

/// Whether `path` runs here; when not, says so and the test passes.
fn runs_here(path: Path) -> bool {
    let runs = path.is_available();
    if !runs {
        eprintln!("skipped: this CPU lacks the {} path", path.name());
    }
    runs
}

/// `path.update::<A, R>` and the portable one on the same rows.
fn same_update<const A: usize, const R: usize>(
    path: Path,
    parent: &[i16; HIDDEN],
    rows: &[[i16; HIDDEN]; 4],
) {
    let add = [&rows[0], &rows[1]];
    let sub = [&rows[2], &rows[3]];
    let (mut expected, mut got) = ([0; HIDDEN], [0; HIDDEN]);
    Path::Portable.update::<A, R>(&mut expected, parent, add, sub);
    path.update::<A, R>(&mut got, parent, add, sub);
    assert_eq!(got, expected, "{} update::<{A}, {R}>", path.name());
}

fn random_inputs_agree(path: Path) {
    let mut rng = Rng(0x5eed ^ path as u64);
    for _ in 0..2000 {
        let parent = rng.row(Rng::value);
        let rows = [(); 4].map(|_| rng.row(Rng::weight));
        same_update::<0, 0>(path, &parent, &rows);
        same_update::<1, 0>(path, &parent, &rows);
        same_update::<1, 1>(path, &parent, &rows);
        same_update::<1, 2>(path, &parent, &rows);
        same_update::<2, 1>(path, &parent, &rows);
        same_update::<2, 2>(path, &parent, &rows);

        // The engine's size, and the trainer's any size: lengths that are not
        // multiples of the lanes or of DOT_CHUNK, unequal lengths, and slices
        // that start off any alignment.
        let values: Vec<i16> = (0..3 * DOT_CHUNK + 64).map(|_| rng.value()).collect();
        let weights: Vec<i16> = (0..3 * DOT_CHUNK + 64).map(|_| rng.weight()).collect();
        let (at, len) = (rng.below(32) as usize, rng.below(3 * DOT_CHUNK as u64) as usize);
        let other = len.saturating_sub(rng.below(3) as usize * rng.below(40) as usize);
        for (v, w) in [
            (&values[..HIDDEN], &weights[..HIDDEN]),
            (&values[at..at + len], &weights[at..at + len]),
            (&values[at..at + len], &weights[..other]),
        ] {
            let expected = Path::Portable.screlu_dot(v, w);
            assert_eq!(
                path.screlu_dot(v, w),
                expected,
                "{} screlu_dot, {} and {}",
                path.name(),
                v.len(),
                w.len()
            );
        }
    }
    // The extremes: `clamp × w` at its most negative in every lane (255 ×
    // −32768 wraps to −32768), and saturated neurons at the largest weights.
    for (x, w) in
        [(i16::MAX, i16::MIN), (255, i16::MIN), (255, i16::MAX), (255, 127), (i16::MIN, i16::MIN)]
    {
        let (values, weights) = (vec![x; 3 * DOT_CHUNK], vec![w; 3 * DOT_CHUNK]);
        assert_eq!(
            path.screlu_dot(&values, &weights),
            Path::Portable.screlu_dot(&values, &weights)
        );
    }
}

/// Walks every line a few plies deep from `board`, comparing at each node the
/// output layer's dot products, and for each move the incremental update.
fn walk(path: Path, net: &Network, board: &Board, acc: &Accumulator, depth: u32, nodes: &mut u64) {
    *nodes += 1;
    for values in &acc.values {
        for weights in net.output_weights.iter().flatten() {
            assert_eq!(
                path.screlu_dot(values, weights),
                Path::Portable.screlu_dot(values, weights),
                "{}",
                board.to_fen(true)
            );
        }
    }
    if depth == 0 {
        return;
    }
    for &mv in board.legal_moves().as_slice() {
        let delta = MoveDelta::new(board, mv);
        let (mut portable, mut on_path) = (*acc, *acc);
        acc.incremental_on(Path::Portable, net, &delta, &mut portable);
        acc.incremental_on(path, net, &delta, &mut on_path);
        assert_eq!(on_path, portable, "{mv:?} in {}", board.to_fen(true));
        let mut next = *board;
        next.play_unchecked(mv);
        let child = acc.apply(net, &delta, &next);
        walk(path, net, &next, &child, depth - 1, nodes);
    }
}

fn search_tree_agrees(path: Path) {
    let mut nodes = 0;
    for (seed, fen) in [
        (21, board::STARTPOS_FEN),
        (22, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        (23, "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
        (24, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
    ] {
        let net = Network::pseudo_random(seed);
        let board = Board::from_fen(fen).expect("valid FEN");
        walk(path, &net, &board, &Accumulator::new(&net, &board), 3, &mut nodes);
    }
    assert!(nodes > 50_000, "{nodes} nodes");
}

#[test]
fn avx2_agrees_with_portable() {
    if runs_here(Path::Avx2) {
        random_inputs_agree(Path::Avx2);
        search_tree_agrees(Path::Avx2);
    }
}

#[test]
fn avx512_agrees_with_portable() {
    if runs_here(Path::Avx512) {
        random_inputs_agree(Path::Avx512);
        search_tree_agrees(Path::Avx512);
    }
}

#[test]
fn neon_agrees_with_portable() {
    if runs_here(Path::Neon) {
        random_inputs_agree(Path::Neon);
        search_tree_agrees(Path::Neon);
    }
}

#[test]
fn simd128_agrees_with_portable() {
    if runs_here(Path::Simd128) {
        random_inputs_agree(Path::Simd128);
        search_tree_agrees(Path::Simd128);
    }
}

#[test]
fn the_builds_paths_run_here() {
    // A build's own paths are compiled in: the engine never checks at run time.
    assert!(simd::UPDATE.is_available() && simd::DOT.is_available());
    assert!(Path::available().next() == Some(Path::Portable));
    // NEON is in every AArch64 CPU: an ARM build runs it for both kernels.
    if cfg!(target_arch = "aarch64") {
        assert_eq!((simd::UPDATE, simd::DOT), (Path::Neon, Path::Neon));
    }
    // WebAssembly cannot detect simd128: a build has it for both kernels or
    // not at all.
    if cfg!(target_arch = "wasm32") {
        let simd128 = cfg!(target_feature = "simd128");
        assert_eq!(Path::Simd128.is_available(), simd128);
        let expected = if simd128 { Path::Simd128 } else { Path::Portable };
        assert_eq!((simd::UPDATE, simd::DOT), (expected, expected));
    }
}
