//! The float network `(768 → H) × 2 → 1` with SCReLU and B output buckets,
//! its loss and gradient.
//!
//! For a sample with features `F_us` (seen by the side to move) and `F_them`,
//! and `b` its output bucket (`eval::nnue::output_bucket` of its pieces, 0
//! with one bucket):
//!
//! ```text
//! acc_us   = b1 + Σ_{f ∈ F_us}   W1[f]        acc_them likewise
//! out      = w2[b]_us · screlu(acc_us) + w2[b]_them · screlu(acc_them) + b2[b]
//! loss     = (sigmoid(out) − target)²          screlu(x) = clamp(x, 0, 1)²
//! ```
//!
//! `out × SCALE` is the evaluation in centipawns. All parameters live in one
//! flat vector (see [`Layout`]), so the optimiser and the gradient reduction
//! treat them alike.
//!
//! With the factoriser on, each input feature also activates a virtual
//! feature whose weights `WF` several features share: `acc += W1[f] +
//! WF[virtual(f)]`. With king buckets it is the same piece on the same square
//! in any bucket (`f % 768`), so what a piece-square means whatever the
//! king's bucket is learned from every position, not bucket by bucket;
//! with one bucket it is the piece and colour wherever it stands (`f / 64`).
//! At quantisation `WF` is folded into `W1`, so the engine's net is unchanged.

use crate::sample::Sample;
use eval::nnue::{INPUTS, KING_BUCKETS, PIECE_SQUARES, output_bucket};

/// Where each parameter block sits in the flat parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Whether the 12 virtual piece features are trained (see the module docs).
    pub factorised: bool,
    /// Output buckets (1 to 32): sets of output weights, chosen by the pieces
    /// on the board. An engine reads the net when its `OUTPUT_BUCKETS` is this.
    pub output_buckets: usize,
}

/// Virtual (factoriser) features: one per piece-square feature with king
/// buckets, else one per colour (relative) and piece.
pub const VIRTUAL_FEATURES: usize =
    if KING_BUCKETS > 1 { PIECE_SQUARES } else { PIECE_SQUARES / 64 };

/// The virtual feature input feature `f` shares its factoriser weights with.
#[inline(always)]
pub const fn virtual_feature(f: usize) -> usize {
    if KING_BUCKETS > 1 { f % PIECE_SQUARES } else { f / 64 }
}

impl Layout {
    /// First-layer weights: `INPUTS × hidden`, feature-major.
    pub fn w1(&self) -> std::ops::Range<usize> {
        0..INPUTS * self.hidden
    }
    /// First-layer biases.
    pub fn b1(&self) -> std::ops::Range<usize> {
        let s = INPUTS * self.hidden;
        s..s + self.hidden
    }
    /// Output weights, bucket by bucket: each the side to move's `hidden`,
    /// then the other side's.
    pub fn w2(&self) -> std::ops::Range<usize> {
        let s = (INPUTS + 1) * self.hidden;
        s..s + self.output_buckets * 2 * self.hidden
    }
    /// The output weights of one bucket.
    pub fn w2_of(&self, bucket: usize) -> std::ops::Range<usize> {
        let s = self.w2().start + bucket * 2 * self.hidden;
        s..s + 2 * self.hidden
    }
    /// The output biases, one per bucket.
    pub fn b2(&self) -> std::ops::Range<usize> {
        let s = self.w2().end;
        s..s + self.output_buckets
    }
    /// The output bucket that evaluates `sample`.
    #[inline(always)]
    pub fn bucket_of(&self, sample: &Sample) -> usize {
        output_bucket(sample.piece_count(), self.output_buckets)
    }
    /// The factoriser's weights: `VIRTUAL_FEATURES × hidden` (empty when off).
    pub fn wf(&self) -> std::ops::Range<usize> {
        let s = self.b2().end;
        s..s + if self.factorised { VIRTUAL_FEATURES * self.hidden } else { 0 }
    }
    /// The number of parameters.
    pub fn len(&self) -> usize {
        self.wf().end
    }
    /// The effective first-layer weight `j` of input feature `f` (with the
    /// factoriser's share folded in).
    #[inline(always)]
    pub fn effective_w1(&self, params: &[f32], f: usize, j: usize) -> f32 {
        let own = params[f * self.hidden + j];
        if self.factorised {
            own + params[self.wf().start + virtual_feature(f) * self.hidden + j]
        } else {
            own
        }
    }
    /// Whether there are no parameters (never: for clippy's sake).
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// SCReLU.
#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// SCReLU's derivative.
#[inline(always)]
fn screlu_grad(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
}

#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Scratch space for one sample's forward and backward pass.
pub struct Scratch {
    acc_us: Vec<f32>,
    acc_them: Vec<f32>,
    features_us: [usize; 32],
    features_them: [usize; 32],
    count: usize,
    bucket: usize,
}

impl Scratch {
    /// Scratch space for a net of `layout`.
    pub fn new(layout: Layout) -> Scratch {
        Scratch {
            acc_us: vec![0.0; layout.hidden],
            acc_them: vec![0.0; layout.hidden],
            features_us: [0; 32],
            features_them: [0; 32],
            count: 0,
            bucket: 0,
        }
    }
}

/// The first layer as a forward pass adds it up: `INPUTS × hidden` weights,
/// feature-major. A plain net's are its own parameters; a factorised net's are
/// each feature's own row plus its virtual feature's row, summed here once
/// (after each optimiser step) rather than in every forward pass, so that the
/// factoriser costs a sample no more than a plain net does.
#[derive(Clone, Debug, Default)]
pub struct FirstLayer {
    /// The summed rows of a factorised net (empty for a plain one).
    folded: Vec<f32>,
}

impl FirstLayer {
    /// The first layer of `params`.
    pub fn of(layout: Layout, params: &[f32]) -> FirstLayer {
        let mut first = FirstLayer::default();
        first.refresh(layout, params);
        first
    }

    /// Sums the rows again after `params` changed.
    pub fn refresh(&mut self, layout: Layout, params: &[f32]) {
        if !layout.factorised {
            self.folded.clear();
            return;
        }
        let (h, wf) = (layout.hidden, layout.wf().start);
        self.folded.resize(INPUTS * h, 0.0);
        for (f, row) in self.folded.chunks_exact_mut(h).enumerate() {
            let own = &params[f * h..][..h];
            let shared = &params[wf + virtual_feature(f) * h..][..h];
            for ((w, &o), &s) in row.iter_mut().zip(own).zip(shared) {
                *w = o + s;
            }
        }
    }

    /// The weights, feature-major: `params`' own first layer for a plain net.
    #[inline(always)]
    pub fn weights<'a>(&'a self, layout: Layout, params: &'a [f32]) -> &'a [f32] {
        if layout.factorised { &self.folded } else { &params[layout.w1()] }
    }
}

/// Accumulator floats held in registers while every active row is added to
/// them (eight AVX-512 or sixteen AVX2 registers).
const BLOCK: usize = 128;

/// `acc += table[f]` for every row `f` in `features` (rows of `acc.len()`
/// floats), a block of `acc` at a time, so that the block stays in registers
/// while all the rows are added to it rather than going to memory and back
/// after each row. Each float gets the same sums in the same order as row by
/// row, so the result is the same to the bit.
#[inline(always)]
fn add_rows(acc: &mut [f32], table: &[f32], features: &[usize]) {
    let h = acc.len();
    let mut start = 0;
    for block in acc.chunks_mut(BLOCK) {
        match <&mut [f32; BLOCK]>::try_from(&mut *block) {
            Ok(full) => {
                let mut sum = *full;
                for &f in features {
                    let row: &[f32; BLOCK] =
                        table[f * h + start..][..BLOCK].try_into().expect("a full block");
                    sum.iter_mut().zip(row).for_each(|(a, w)| *a += w);
                }
                *full = sum;
            }
            Err(_) => {
                for &f in features {
                    let row = &table[f * h + start..][..block.len()];
                    block.iter_mut().zip(row).for_each(|(a, w)| *a += w);
                }
            }
        }
        start += block.len();
    }
}

/// The network's raw output for `sample` (`× SCALE` = centipawns); leaves the
/// accumulators in `scratch` for [`backward`]. `first` is `params`' first
/// layer ([`FirstLayer::of`] them).
pub fn forward(
    layout: Layout,
    params: &[f32],
    first: &FirstLayer,
    sample: &Sample,
    scratch: &mut Scratch,
) -> f32 {
    let h = layout.hidden;
    let w1 = first.weights(layout, params);
    let b1 = &params[layout.b1()];
    scratch.acc_us.copy_from_slice(b1);
    scratch.acc_them.copy_from_slice(b1);
    scratch.count = 0;
    sample.for_each_feature(|us, them| {
        if scratch.count < 32 {
            scratch.features_us[scratch.count] = us;
            scratch.features_them[scratch.count] = them;
            scratch.count += 1;
        }
    });
    add_rows(&mut scratch.acc_us, w1, &scratch.features_us[..scratch.count]);
    add_rows(&mut scratch.acc_them, w1, &scratch.features_them[..scratch.count]);
    scratch.bucket = layout.bucket_of(sample);
    let w2 = &params[layout.w2_of(scratch.bucket)];
    let (w_us, w_them) = w2.split_at(h);
    let mut out = params[layout.b2().start + scratch.bucket];
    out += scratch.acc_us.iter().zip(w_us).map(|(&a, &w)| screlu(a) * w).sum::<f32>();
    out += scratch.acc_them.iter().zip(w_them).map(|(&a, &w)| screlu(a) * w).sum::<f32>();
    out
}

/// The loss of output `out` against `target`, and its derivative by `out`.
#[inline]
pub fn loss(out: f32, target: f32) -> (f32, f32) {
    let p = sigmoid(out);
    let error = p - target;
    (error * error, 2.0 * error * p * (1.0 - p))
}

/// Adds `d_out ×` the gradient of the output by every parameter to `grad`,
/// using the accumulators [`forward`] left in `scratch`, except the
/// factoriser's: [`add_factoriser_gradient`] adds that once for a whole batch.
pub fn backward(layout: Layout, params: &[f32], scratch: &Scratch, d_out: f32, grad: &mut [f32]) {
    let h = layout.hidden;
    let w2 = &params[layout.w2_of(scratch.bucket)];
    grad[layout.b2().start + scratch.bucket] += d_out;
    let w2_start = layout.w2_of(scratch.bucket).start;
    for j in 0..h {
        grad[w2_start + j] += d_out * screlu(scratch.acc_us[j]);
        grad[w2_start + h + j] += d_out * screlu(scratch.acc_them[j]);
    }
    // The accumulators' gradients, reused for the biases and each active feature row.
    let mut d_us = [0f32; 1024];
    let mut d_them = [0f32; 1024];
    assert!(h <= 1024, "hidden layers above 1024 neurons are not supported");
    for j in 0..h {
        d_us[j] = d_out * w2[j] * screlu_grad(scratch.acc_us[j]);
        d_them[j] = d_out * w2[h + j] * screlu_grad(scratch.acc_them[j]);
    }
    let b1_start = layout.b1().start;
    for j in 0..h {
        grad[b1_start + j] += d_us[j] + d_them[j];
    }
    for i in 0..scratch.count {
        let row = &mut grad[scratch.features_us[i] * h..][..h];
        row.iter_mut().zip(&d_us[..h]).for_each(|(g, d)| *g += d);
        let row = &mut grad[scratch.features_them[i] * h..][..h];
        row.iter_mut().zip(&d_them[..h]).for_each(|(g, d)| *g += d);
    }
}

/// Adds the factoriser's gradient to `grad` from the first-layer rows that
/// [`backward`] filled: a virtual feature's row moves every feature that
/// shares it, so its gradient is the sum of theirs. Called once on a batch's
/// gradient, after all its samples' backward passes: summing the rows once
/// costs less than adding each sample's features twice.
pub fn add_factoriser_gradient(layout: Layout, grad: &mut [f32]) {
    if !layout.factorised {
        return;
    }
    let h = layout.hidden;
    let (rows, rest) = grad.split_at_mut(layout.wf().start);
    let shared = &mut rest[..VIRTUAL_FEATURES * h];
    for (f, row) in rows[layout.w1()].chunks_exact(h).enumerate() {
        let target = &mut shared[virtual_feature(f) * h..][..h];
        target.iter_mut().zip(row).for_each(|(g, d)| *g += d);
    }
}

/// Keeps every effective first-layer weight (own plus factoriser share)
/// within ±`limit`, by moving the feature's own weight, so that quantisation
/// stays as safe as without the factoriser.
pub fn clip_effective(layout: Layout, params: &mut [f32], limit: f32) {
    if !layout.factorised {
        return;
    }
    let (h, wf) = (layout.hidden, layout.wf().start);
    for f in 0..INPUTS {
        for j in 0..h {
            let shared = params[wf + virtual_feature(f) * h + j];
            let own = &mut params[f * h + j];
            *own = (*own + shared).clamp(-limit, limit) - shared;
        }
    }
}

/// Initial parameters: uniform in ±1/√fan-in for the weights, zero biases.
pub fn initial_params(layout: Layout, seed: u64) -> Vec<f32> {
    use rand_core::{RngCore, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut uniform = |limit: f32| {
        let unit = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
        (2.0 * unit - 1.0) * limit
    };
    let mut params = vec![0.0; layout.len()];
    let w1_limit = 1.0 / (PIECE_SQUARES as f32).sqrt();
    params[layout.w1()].iter_mut().for_each(|w| *w = uniform(w1_limit));
    let w2_limit = 1.0 / ((2 * layout.hidden) as f32).sqrt();
    params[layout.w2()].iter_mut().for_each(|w| *w = uniform(w2_limit));
    params
}

#[cfg(test)]
mod factoriser_tests {
    use super::*;

    #[test]
    fn effective_weights_are_clipped_and_folded() {
        let layout = Layout { hidden: 2, factorised: true, output_buckets: 1 };
        let mut params = vec![0.0; layout.len()];
        params[0] = 1.5; // feature 0 (a white pawn on a1 from White's view), neuron 0
        params[layout.wf().start] = 1.0; // feature 0's virtual feature, neuron 0
        assert_eq!(layout.effective_w1(&params, 0, 0), 2.5);
        clip_effective(layout, &mut params, 1.98);
        assert!((layout.effective_w1(&params, 0, 0) - 1.98).abs() < 1e-6);
        assert_eq!(params[layout.wf().start], 1.0, "the shared weight is left alone");
        // Features that share the virtual row see its weight; others do not.
        let (sharing, other) = if KING_BUCKETS > 1 { (PIECE_SQUARES, 1) } else { (63, 64) };
        assert_eq!(layout.effective_w1(&params, sharing, 0), 1.0);
        assert_eq!(layout.effective_w1(&params, other, 0), 0.0);
    }

    #[test]
    fn the_folded_first_layer_is_the_effective_weights() {
        let layout = Layout { hidden: 3, factorised: true, output_buckets: 1 };
        let mut params = initial_params(layout, 7);
        params[layout.wf()].iter_mut().enumerate().for_each(|(i, w)| *w = i as f32 * 1e-3);
        let first = FirstLayer::of(layout, &params);
        let weights = first.weights(layout, &params);
        for f in 0..INPUTS {
            for j in 0..layout.hidden {
                assert_eq!(weights[f * layout.hidden + j], layout.effective_w1(&params, f, j));
            }
        }
        let plain = Layout { factorised: false, ..layout };
        let params = initial_params(plain, 7);
        assert_eq!(FirstLayer::of(plain, &params).weights(plain, &params), &params[plain.w1()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Board;

    fn samples() -> Vec<Sample> {
        [
            ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 50, 2),
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1", -120, 0),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 15, 1),
            ("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", -700, 0),
        ]
        .iter()
        .map(|&(fen, score, result)| {
            Sample::new(&Board::from_fen(fen).expect("valid FEN"), score, result)
        })
        .collect()
    }

    /// The mean loss of `params` over `samples`, in f64.
    fn mean_loss(layout: Layout, params: &[f32], samples: &[Sample]) -> f64 {
        let (mut scratch, first) = (Scratch::new(layout), FirstLayer::of(layout, params));
        let total: f64 = samples
            .iter()
            .map(|s| {
                let out = forward(layout, params, &first, s, &mut scratch);
                f64::from(loss(out, s.target(0.3, 400.0)).0)
            })
            .sum();
        total / samples.len() as f64
    }

    fn analytic_gradient(layout: Layout, params: &[f32], samples: &[Sample]) -> Vec<f32> {
        let (mut scratch, first) = (Scratch::new(layout), FirstLayer::of(layout, params));
        let mut grad = vec![0.0; layout.len()];
        for s in samples {
            let out = forward(layout, params, &first, s, &mut scratch);
            let (_, d_out) = loss(out, s.target(0.3, 400.0));
            backward(layout, params, &scratch, d_out / samples.len() as f32, &mut grad);
        }
        add_factoriser_gradient(layout, &mut grad);
        grad
    }

    /// The largest disagreement between `grad` and central differences, over
    /// every parameter whose gradient is not negligible, relative to the
    /// larger of the two (or an absolute floor).
    fn worst_disagreement(layout: Layout, params: &[f32], samples: &[Sample], grad: &[f32]) -> f64 {
        let eps = 1e-3f32;
        let mut worst = 0f64;
        let mut checked = 0;
        for i in 0..params.len() {
            let mut p = params.to_vec();
            p[i] += eps;
            let up = mean_loss(layout, &p, samples);
            p[i] -= 2.0 * eps;
            let down = mean_loss(layout, &p, samples);
            let numeric = (up - down) / (2.0 * f64::from(eps));
            let analytic = f64::from(grad[i]);
            if numeric.abs().max(analytic.abs()) < 1e-5 {
                continue;
            }
            checked += 1;
            let err = (numeric - analytic).abs() / numeric.abs().max(analytic.abs()).max(1e-3);
            worst = worst.max(err);
        }
        assert!(checked > 50, "only {checked} parameters with a gradient");
        worst
    }

    /// A tiny net whose accumulators all sit well inside (0, 1), away from
    /// SCReLU's kinks, so central differences are exact up to rounding.
    fn tiny_net() -> (Layout, Vec<f32>) {
        let layout = Layout { hidden: 4, factorised: true, output_buckets: 8 };
        let mut params = initial_params(layout, 1);
        params[layout.w1()].iter_mut().for_each(|w| *w *= 0.2);
        params[layout.wf()].iter_mut().for_each(|w| *w *= 0.1);
        params[layout.b1()].iter_mut().enumerate().for_each(|(j, b)| *b = 0.3 + 0.1 * j as f32);
        params[layout.w2()].iter_mut().for_each(|w| *w *= 8.0);
        let (mut scratch, first) = (Scratch::new(layout), FirstLayer::of(layout, &params));
        for s in samples() {
            forward(layout, &params, &first, &s, &mut scratch);
            for &a in scratch.acc_us.iter().chain(&scratch.acc_them) {
                assert!(a > 0.02 && a < 0.98, "accumulator {a} too near a kink");
            }
        }
        (layout, params)
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let (layout, params) = tiny_net();
        let samples = samples();
        let grad = analytic_gradient(layout, &params, &samples);
        let worst = worst_disagreement(layout, &params, &samples, &grad);
        assert!(worst < 0.02, "worst relative disagreement {worst}");
    }

    #[test]
    fn the_samples_span_several_buckets() {
        let (layout, _) = tiny_net();
        let buckets: std::collections::BTreeSet<_> =
            samples().iter().map(|s| layout.bucket_of(s)).collect();
        assert!(buckets.len() >= 3, "buckets {buckets:?}");
    }

    #[test]
    fn the_gradient_check_catches_a_gradient_in_the_wrong_bucket() {
        // What training every sample's output layer as bucket 0's would do.
        let (layout, params) = tiny_net();
        let samples = samples();
        let mut grad = analytic_gradient(layout, &params, &samples);
        for bucket in 1..layout.output_buckets {
            for (to, from) in layout.w2_of(0).zip(layout.w2_of(bucket)) {
                grad[to] += grad[from];
                grad[from] = 0.0;
            }
            grad[layout.b2().start] += grad[layout.b2().start + bucket];
            grad[layout.b2().start + bucket] = 0.0;
        }
        let worst = worst_disagreement(layout, &params, &samples, &grad);
        assert!(worst > 0.3, "a gradient in the wrong bucket went unnoticed ({worst})");
    }

    #[test]
    fn the_gradient_check_catches_a_wrong_gradient() {
        // What forgetting SCReLU's factor 2 would do: every first-layer gradient halved.
        let (layout, params) = tiny_net();
        let samples = samples();
        let mut grad = analytic_gradient(layout, &params, &samples);
        let first_layer = layout.w1().start..layout.b1().end;
        grad[first_layer].iter_mut().for_each(|g| *g *= 0.5);
        grad[layout.wf()].iter_mut().for_each(|g| *g *= 0.5);
        let worst = worst_disagreement(layout, &params, &samples, &grad);
        assert!(worst > 0.3, "a halved gradient went unnoticed ({worst})");
    }
}
