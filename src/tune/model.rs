//! The tuner's model: the engine's evaluation as a linear function of the
//! weights, a logistic map to an expected score, the mean squared error
//! against game results, its gradient, the scaling constant `K` and Adam.
//!
//! Parameters are a flat `f64` vector: `params[2 * i]` is weight `i`'s
//! middlegame half and `params[2 * i + 1]` its endgame half.

use super::data::{Dataset, Entry};

/// The expected score (0..1) for a White-POV evaluation in centipawns.
#[inline(always)]
pub fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval / 400.0).exp())
}

/// The evaluation of `entry` (White's point of view, centipawns, unrounded):
/// `Σ c·(mg·phase + eg·(24 − phase)·scale/64) / 24`.
#[inline(always)]
pub fn evaluate(data: &Dataset, entry: &Entry, params: &[f64]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in data.terms_of(entry) {
        let c = f64::from(c);
        mg += c * params[2 * i as usize];
        eg += c * params[2 * i as usize + 1];
    }
    mg * entry.mg_factor() + eg * entry.eg_factor()
}

/// Runs `f` on `threads` contiguous chunks of the entries (in parallel when
/// `threads > 1`) and returns the per-chunk results in order.
fn chunked<R: Send>(data: &Dataset, threads: usize, f: impl Fn(&[Entry]) -> R + Sync) -> Vec<R> {
    let threads = threads.max(1);
    if threads == 1 || data.entries.len() < 1024 {
        return vec![f(&data.entries)];
    }
    let size = data.entries.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = data.entries.chunks(size).map(|chunk| s.spawn(|| f(chunk))).collect();
        handles.into_iter().map(|h| h.join().expect("tuner thread panicked")).collect()
    })
}

/// Every position's evaluation under `params`.
pub fn evaluations(data: &Dataset, params: &[f64], threads: usize) -> Vec<f64> {
    chunked(data, threads, |chunk| {
        chunk.iter().map(|e| evaluate(data, e, params)).collect::<Vec<_>>()
    })
    .concat()
}

/// The mean squared error of the predictions from precomputed evaluations.
pub fn loss_of_evals(data: &Dataset, evals: &[f64], k: f64) -> f64 {
    if evals.is_empty() {
        return 0.0;
    }
    let sum: f64 = data
        .entries
        .iter()
        .zip(evals)
        .map(|(e, &v)| {
            let d = f64::from(e.result) - sigmoid(k, v);
            d * d
        })
        .sum();
    sum / evals.len() as f64
}

/// The mean squared error of the predictions under `params`.
pub fn loss(data: &Dataset, params: &[f64], k: f64, threads: usize) -> f64 {
    loss_of_evals(data, &evaluations(data, params, threads), k)
}

/// The loss and its gradient with respect to every parameter.
pub fn loss_and_gradient(
    data: &Dataset,
    params: &[f64],
    k: f64,
    threads: usize,
) -> (f64, Vec<f64>) {
    let n = data.entries.len().max(1) as f64;
    let parts = chunked(data, threads, |chunk| {
        let mut grad = vec![0.0; params.len()];
        let mut sum = 0.0;
        for e in chunk {
            let s = sigmoid(k, evaluate(data, e, params));
            let d = f64::from(e.result) - s;
            sum += d * d;
            // d/d eval of (r - s)^2 = -2 (r - s) s (1 - s) k / 400.
            let g = -2.0 * d * s * (1.0 - s) * k / 400.0;
            let (gm, ge) = (g * e.mg_factor(), g * e.eg_factor());
            for &(i, c) in data.terms_of(e) {
                let c = f64::from(c);
                grad[2 * i as usize] += gm * c;
                grad[2 * i as usize + 1] += ge * c;
            }
        }
        (sum, grad)
    });
    let mut total = 0.0;
    let mut grad = vec![0.0; params.len()];
    for (sum, g) in parts {
        total += sum;
        for (a, b) in grad.iter_mut().zip(g) {
            *a += b;
        }
    }
    grad.iter_mut().for_each(|g| *g /= n);
    (total / n, grad)
}

/// The `K` minimising the loss of fixed evaluations, by golden-section search
/// on `[lo, hi]` (the loss is unimodal in `K` for practical data).
pub fn fit_k(data: &Dataset, evals: &[f64], lo: f64, hi: f64) -> f64 {
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    let mut c = b - phi * (b - a);
    let mut d = a + phi * (b - a);
    let (mut fc, mut fd) = (loss_of_evals(data, evals, c), loss_of_evals(data, evals, d));
    while b - a > 1e-4 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = loss_of_evals(data, evals, c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = loss_of_evals(data, evals, d);
        }
    }
    (a + b) / 2.0
}

/// The Adam optimiser (Kingma & Ba) with per-step learning rate.
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
    /// Parameters never changed (e.g. the king's material).
    pub frozen: Vec<bool>,
}

impl Adam {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;

    /// An optimiser for `n` parameters, none frozen.
    pub fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], t: 0, frozen: vec![false; n] }
    }

    /// One step of size `lr` (in parameter units) against `grad`.
    pub fn step(&mut self, params: &mut [f64], grad: &[f64], lr: f64) {
        self.t += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.t);
        let c2 = 1.0 - Self::BETA2.powi(self.t);
        for i in 0..params.len() {
            if self.frozen[i] {
                continue;
            }
            let g = grad[i];
            self.m[i] = Self::BETA1 * self.m[i] + (1.0 - Self::BETA1) * g;
            self.v[i] = Self::BETA2 * self.v[i] + (1.0 - Self::BETA2) * g * g;
            let m = self.m[i] / c1;
            let v = self.v[i] / c2;
            params[i] -= lr * m / (v.sqrt() + Self::EPSILON);
        }
    }
}

/// The learning rate at `epoch` (0-based) of `epochs`: a cosine decay from
/// `lr` to `lr / 10`, so the last steps are small enough for rounding.
pub fn scheduled_lr(lr: f64, epoch: usize, epochs: usize) -> f64 {
    let progress = epoch as f64 / epochs.max(1) as f64;
    lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use eval::layout::{BISHOP_PAIR, NUM_WEIGHTS, TEMPO};

    /// Positions whose evaluation is `c1·w[BISHOP_PAIR] + c2·w[TEMPO]` with
    /// soft labels from the true weights, so the optimum is known exactly.
    fn synthetic(truth: &[f64], k: f64) -> Dataset {
        let mut data = Dataset::default();
        let mut n = 0i32;
        for phase in [0u8, 6, 12, 18, 24] {
            for scale in [8u8, 64] {
                for c1 in -2i16..=2 {
                    for c2 in [-1i16, 1] {
                        n += 1;
                        let terms = [(BISHOP_PAIR as u16, c1), (TEMPO as u16, c2)];
                        let mut tmp = Dataset::default();
                        tmp.push(&terms, phase, scale, 0.0);
                        let v = evaluate(&tmp, &tmp.entries[0], truth);
                        data.push(&terms, phase, scale, sigmoid(k, v) as f32);
                    }
                }
            }
        }
        assert_eq!(n, 100);
        data
    }

    fn truth() -> Vec<f64> {
        let mut p = vec![0.0; 2 * NUM_WEIGHTS];
        p[2 * BISHOP_PAIR] = 120.0;
        p[2 * BISHOP_PAIR + 1] = 60.0;
        p[2 * TEMPO] = 30.0;
        p[2 * TEMPO + 1] = -20.0;
        p
    }

    #[test]
    fn sigmoid_is_a_symmetric_probability() {
        assert_eq!(sigmoid(1.0, 0.0), 0.5);
        assert!((sigmoid(1.5, 300.0) + sigmoid(1.5, -300.0) - 1.0).abs() < 1e-12);
        assert!(sigmoid(1.0, 8000.0) > 0.99999);
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let data = synthetic(&truth(), 1.3);
        let mut params = vec![0.0; 2 * NUM_WEIGHTS];
        params[2 * BISHOP_PAIR] = 40.0;
        params[2 * TEMPO + 1] = 10.0;
        let (l, grad) = loss_and_gradient(&data, &params, 1.3, 1);
        assert!((l - loss(&data, &params, 1.3, 1)).abs() < 1e-15);
        for i in [2 * BISHOP_PAIR, 2 * BISHOP_PAIR + 1, 2 * TEMPO, 2 * TEMPO + 1, 0] {
            let h = 1e-3;
            let mut p = params.clone();
            p[i] += h;
            let up = loss(&data, &p, 1.3, 1);
            p[i] -= 2.0 * h;
            let down = loss(&data, &p, 1.3, 1);
            let numeric = (up - down) / (2.0 * h);
            assert!(
                (numeric - grad[i]).abs() < 1e-9 + 1e-5 * numeric.abs(),
                "{i}: {numeric} vs {}",
                grad[i]
            );
        }
    }

    #[test]
    fn k_fit_recovers_the_generating_k() {
        let truth = truth();
        let data = synthetic(&truth, 1.7);
        let evals = evaluations(&data, &truth, 1);
        let k = fit_k(&data, &evals, 0.05, 10.0);
        assert!((k - 1.7).abs() < 1e-3, "{k}");
    }

    #[test]
    fn adam_reduces_the_loss_and_recovers_the_weights() {
        let truth = truth();
        let data = synthetic(&truth, 1.0);
        let mut params = vec![0.0; 2 * NUM_WEIGHTS];
        params[2 * TEMPO + 1] = -20.0;
        let mut adam = Adam::new(params.len());
        adam.frozen[2 * TEMPO + 1] = true;
        let start = loss(&data, &params, 1.0, 1);
        let epochs = 3000;
        for epoch in 0..epochs {
            let (_, grad) = loss_and_gradient(&data, &params, 1.0, 1);
            adam.step(&mut params, &grad, scheduled_lr(2.0, epoch, epochs));
        }
        let end = loss(&data, &params, 1.0, 1);
        assert!(end < start / 10.0, "{start} -> {end}");
        assert!((params[2 * BISHOP_PAIR] - 120.0).abs() < 2.0, "{}", params[2 * BISHOP_PAIR]);
        assert!(
            (params[2 * BISHOP_PAIR + 1] - 60.0).abs() < 2.0,
            "{}",
            params[2 * BISHOP_PAIR + 1]
        );
        assert!((params[2 * TEMPO] - 30.0).abs() < 2.0, "{}", params[2 * TEMPO]);
        assert_eq!(params[2 * TEMPO + 1], -20.0, "frozen");
        // Untouched weights (no coefficients) stay at zero.
        assert_eq!(params[0], 0.0);
    }

    #[test]
    fn threads_do_not_change_the_result() {
        let truth = truth();
        let mut data = Dataset::default();
        for _ in 0..30 {
            data.append(synthetic(&truth, 1.0));
        }
        let params = vec![1.0; 2 * NUM_WEIGHTS];
        let (l1, g1) = loss_and_gradient(&data, &params, 1.0, 1);
        let (l3, g3) = loss_and_gradient(&data, &params, 1.0, 3);
        assert!((l1 - l3).abs() < 1e-12);
        assert!(g1.iter().zip(&g3).all(|(a, b)| (a - b).abs() < 1e-12));
    }
}
