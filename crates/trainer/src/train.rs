//! The training loop: shuffled mini-batches split over threads, AdamW with a
//! cosine-decaying learning rate, a validation loss every epoch, checkpoints.

use crate::net::{
    FirstLayer, Layout, Scratch, add_factoriser_gradient, backward, forward, initial_params, loss,
};
use crate::optim::AdamW;
use crate::resume::Snapshot;
use crate::sample::Sample;
use eval::nnue::SCALE;
use rand_core::{RngCore, SeedableRng};
use std::sync::RwLock;
use std::time::Instant;

/// Training settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Whether to train the factoriser's virtual piece features (see [`crate::net`]).
    pub factorised: bool,
    /// Output buckets (see [`Layout::output_buckets`]).
    pub output_buckets: usize,
    /// Passes over the training data.
    pub epochs: usize,
    /// Samples per optimiser step.
    pub batch_size: usize,
    /// The initial learning rate.
    pub lr: f32,
    /// The final learning rate as a fraction of the first.
    pub final_lr_factor: f32,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f32,
    /// The decay of a factorised net's first-layer (bucket-specific) weights.
    pub bucket_weight_decay: f32,
    /// The weight of the game result in the target (the rest is the score;
    /// docs/nnue.md records how the default was chosen).
    pub lambda: f32,
    /// Worker threads.
    pub threads: usize,
    /// Seed of the initial weights and of the shuffles.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            hidden: eval::nnue::HIDDEN,
            factorised: false,
            output_buckets: eval::nnue::OUTPUT_BUCKETS,
            epochs: 30,
            batch_size: 16384,
            lr: 0.001,
            final_lr_factor: 0.01,
            weight_decay: 0.01,
            bucket_weight_decay: 0.01,
            lambda: 0.1,
            threads: 2,
            seed: 1,
        }
    }
}

impl Config {
    /// Where each parameter of a net of these settings sits.
    pub fn layout(&self) -> Layout {
        Layout {
            hidden: self.hidden,
            factorised: self.factorised,
            output_buckets: self.output_buckets,
        }
    }
}

/// What one epoch did.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// From 1.
    pub epoch: usize,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Mean loss on the held-out samples (NaN without any).
    pub validation_loss: f64,
    /// The learning rate at the epoch's end.
    pub lr: f32,
    /// Training speed.
    pub samples_per_second: f64,
}

/// The learning rate after `done` of `total` steps: cosine from `lr` to `lr × final_factor`.
pub fn learning_rate(config: &Config, done: usize, total: usize) -> f32 {
    let end = config.lr * config.final_lr_factor;
    let progress = done as f32 / total.max(1) as f32;
    end + (config.lr - end) * 0.5 * (1.0 + (std::f32::consts::PI * progress).cos())
}

/// The mean loss of `params` over `samples`, on `threads` threads.
pub fn mean_loss(
    layout: Layout,
    params: &[f32],
    samples: &[Sample],
    lambda: f32,
    threads: usize,
) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let first = &FirstLayer::of(layout, params);
    let total: f64 = std::thread::scope(|scope| {
        let handles: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut scratch = Scratch::new(layout);
                    part.iter()
                        .map(|s| {
                            let out = forward(layout, params, first, s, &mut scratch);
                            f64::from(loss(out, s.target(lambda, SCALE as f32)).0)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(f64::NAN)).sum()
    });
    total / samples.len() as f64
}

/// Shuffles `samples` in place (Fisher–Yates).
pub fn shuffle(samples: &mut [Sample], rng: &mut rand_pcg::Pcg64) {
    for i in (1..samples.len()).rev() {
        let j = ((rng.next_u64() as u128 * (i as u128 + 1)) >> 64) as usize;
        samples.swap(i, j);
    }
}

/// Zeroes `grad`, then adds the gradient of the mean loss over a batch of
/// `batch_len` samples contributed by `part` (one thread's share); returns the
/// summed loss of `part`.
fn part_gradient(
    layout: Layout,
    weights: &Weights,
    part: &[Sample],
    batch_len: usize,
    lambda: f32,
    grad: &mut [f32],
    scratch: &mut Scratch,
) -> f64 {
    grad.iter_mut().for_each(|g| *g = 0.0);
    let scale = 1.0 / batch_len as f32;
    let mut total = 0f64;
    let (params, first) = (&weights.params, &weights.first);
    for s in part {
        let out = forward(layout, params, first, s, scratch);
        let (l, d_out) = loss(out, s.target(lambda, SCALE as f32));
        total += f64::from(l);
        backward(layout, params, scratch, d_out * scale, grad);
    }
    add_factoriser_gradient(layout, grad);
    total
}

/// The parameters and their first layer as a forward pass reads it, kept in
/// step: the first layer is refreshed after every change of the parameters.
struct Weights {
    params: Vec<f32>,
    first: FirstLayer,
}

impl Weights {
    fn new(layout: Layout, params: Vec<f32>) -> Weights {
        Weights { first: FirstLayer::of(layout, &params), params }
    }
}

/// One batch's share for a helper thread: its samples, the batch's size and
/// the gradient buffer to fill (handed back with the share's loss).
struct Share<'a> {
    part: &'a [Sample],
    batch_len: usize,
    grad: Vec<f32>,
}

/// A helper thread that lives through an epoch: it takes shares of batches
/// over `shares` and answers each with its gradient and loss over `done`.
/// Threads that sleep between batches, rather than threads spawned for each,
/// keep the training's share of the CPU beside a low-priority process (a new
/// thread waits for the running one's time slice; a woken one takes the core).
struct Helper<'a> {
    shares: std::sync::mpsc::Sender<Share<'a>>,
    done: std::sync::mpsc::Receiver<(Vec<f32>, f64)>,
}

impl<'a> Helper<'a> {
    fn spawn(
        scope: &'a std::thread::Scope<'a, '_>,
        layout: Layout,
        weights: &'a RwLock<Weights>,
        lambda: f32,
    ) -> Helper<'a> {
        let (shares, inbox) = std::sync::mpsc::channel::<Share<'a>>();
        let (outbox, done) = std::sync::mpsc::channel();
        scope.spawn(move || {
            let mut scratch = Scratch::new(layout);
            for mut share in inbox {
                let weights = weights.read().unwrap_or_else(|e| e.into_inner());
                let total = part_gradient(
                    layout,
                    &weights,
                    share.part,
                    share.batch_len,
                    lambda,
                    &mut share.grad,
                    &mut scratch,
                );
                drop(weights);
                if outbox.send((share.grad, total)).is_err() {
                    break;
                }
            }
        });
        Helper { shares, done }
    }
}

/// Where a training run begins.
#[derive(Clone, Debug)]
pub enum Start {
    /// Fresh weights from the seed.
    Fresh,
    /// The given weights, with a fresh optimiser and the whole schedule ahead.
    Weights(Vec<f32>),
    /// Where an earlier run of the same settings on the same samples stood
    /// after its last finished epoch: the run goes on from there and ends
    /// with the parameters an uninterrupted run would have.
    Resume(Snapshot),
}

/// The optimiser `config` asks for, for `len` parameters.
pub fn optimiser(config: &Config, len: usize) -> AdamW {
    let mut adam = AdamW::new(len, config.weight_decay);
    adam.bucket_weight_decay = config.bucket_weight_decay;
    adam
}

/// Trains on `train` (shuffled in place every epoch) from `start`; calls
/// `on_epoch` after every epoch with its report and where the run stands,
/// and `on_progress` now and then within an epoch with (epoch, fraction of
/// training done, samples/s, running loss). Returns the final parameters.
///
/// Each batch is split into `threads` equal shares: the calling thread
/// computes the first and helper threads the others; their gradients are
/// summed in share order, so the result does not depend on timing.
pub fn train(
    config: &Config,
    train: &mut [Sample],
    validation: &[Sample],
    start: Start,
    mut on_epoch: impl FnMut(&EpochReport, &Snapshot),
    mut on_progress: impl FnMut(usize, f64, f64, f64),
) -> Vec<f32> {
    let layout = config.layout();
    let (params, mut adam, epochs_done) = match start {
        Start::Fresh => (initial_params(layout, config.seed), optimiser(config, layout.len()), 0),
        Start::Weights(params) => (params, optimiser(config, layout.len()), 0),
        Start::Resume(s) => (s.params, s.optimiser, s.epochs_done.min(config.epochs)),
    };
    assert_eq!(params.len(), layout.len(), "initial parameters of another shape");
    assert_eq!(adam.moments().0.len(), layout.len(), "an optimiser of another shape");
    let weights = RwLock::new(Weights::new(layout, params));
    let threads = config.threads.max(1);
    let mut grads: Vec<Vec<f32>> = vec![vec![0.0; layout.len()]; threads];
    let mut scratch = Scratch::new(layout);
    let batch_size = config.batch_size.max(1);
    let batches_per_epoch = train.len().div_ceil(batch_size);
    let total_steps = batches_per_epoch * config.epochs;
    let lambda = config.lambda;
    let mut rng = rand_pcg::Pcg64::seed_from_u64(config.seed ^ 0x5EED);
    // The finished epochs' shuffles again: each epoch shuffles the order the
    // one before left, so this puts the samples where the interrupted run had them.
    for _ in 0..epochs_done {
        shuffle(train, &mut rng);
    }
    let mut step = batches_per_epoch * epochs_done;
    let start = Instant::now();
    let mut samples_done = 0u64;
    for epoch in epochs_done + 1..=config.epochs {
        shuffle(train, &mut rng);
        let train: &[Sample] = train;
        let epoch_start = Instant::now();
        let mut epoch_loss = 0f64;
        let mut last_progress = Instant::now();
        std::thread::scope(|scope| {
            let helpers: Vec<Helper> =
                (1..threads).map(|_| Helper::spawn(scope, layout, &weights, lambda)).collect();
            for (b, batch) in train.chunks(batch_size).enumerate() {
                let chunk = batch.len().div_ceil(threads);
                let parts: Vec<&[Sample]> = batch.chunks(chunk).collect();
                for (helper, (part, grad)) in
                    helpers.iter().zip(parts.iter().zip(grads.iter_mut()).skip(1))
                {
                    let share = Share { part, batch_len: batch.len(), grad: std::mem::take(grad) };
                    helper.shares.send(share).expect("a training helper stopped");
                }
                let mut losses = vec![0f64; parts.len()];
                losses[0] = part_gradient(
                    layout,
                    &weights.read().unwrap_or_else(|e| e.into_inner()),
                    parts[0],
                    batch.len(),
                    lambda,
                    &mut grads[0],
                    &mut scratch,
                );
                for (i, helper) in helpers.iter().enumerate().take(parts.len() - 1) {
                    let (grad, total) = helper.done.recv().expect("a training helper stopped");
                    grads[i + 1] = grad;
                    losses[i + 1] = total;
                }
                let (first, rest) = grads.split_at_mut(1);
                for other in &rest[..parts.len() - 1] {
                    first[0].iter_mut().zip(other).for_each(|(a, b)| *a += b);
                }
                let lr = learning_rate(config, step, total_steps);
                let mut weights = weights.write().unwrap_or_else(|e| e.into_inner());
                adam.step(layout, &mut weights.params, &first[0], lr);
                let Weights { params, first: layer } = &mut *weights;
                layer.refresh(layout, params);
                drop(weights);
                step += 1;
                epoch_loss += losses.iter().sum::<f64>();
                samples_done += batch.len() as u64;
                if last_progress.elapsed().as_secs_f64() >= 10.0 {
                    last_progress = Instant::now();
                    let rate = samples_done as f64 / start.elapsed().as_secs_f64();
                    let seen = ((b + 1) * batch_size).min(train.len());
                    on_progress(
                        epoch,
                        step as f64 / total_steps as f64,
                        rate,
                        epoch_loss / seen as f64,
                    );
                }
            }
        });
        let params = &weights.read().unwrap_or_else(|e| e.into_inner()).params;
        let report = EpochReport {
            epoch,
            train_loss: epoch_loss / train.len().max(1) as f64,
            validation_loss: mean_loss(layout, params, validation, config.lambda, threads),
            lr: learning_rate(config, step, total_steps),
            samples_per_second: train.len() as f64 / epoch_start.elapsed().as_secs_f64(),
        };
        let snapshot =
            Snapshot { epochs_done: epoch, params: params.clone(), optimiser: adam.clone() };
        on_epoch(&report, &snapshot);
    }
    weights.into_inner().unwrap_or_else(|e| e.into_inner()).params
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::synthetic;

    #[test]
    fn loss_falls_when_fitting_a_small_set() {
        let mut data = synthetic(24000);
        let validation = data.split_off(20000);
        let config = Config {
            hidden: 8,
            epochs: 8,
            batch_size: 512,
            lr: 0.01,
            lambda: 0.0,
            threads: 2,
            ..Config::default()
        };
        let layout = Layout { factorised: true, ..config.layout() };
        let before = mean_loss(layout, &initial_params(layout, config.seed), &validation, 0.0, 2);
        let mut reports = Vec::new();
        train(
            &config,
            &mut data,
            &validation,
            Start::Fresh,
            |r, _| reports.push(r.clone()),
            |_, _, _, _| {},
        );
        let first = &reports[0];
        let last = &reports[reports.len() - 1];
        assert!(last.train_loss < first.train_loss * 0.7, "{first:?} -> {last:?}");
        assert!(last.validation_loss < before * 0.5, "validation {before} -> {last:?}");
    }

    #[test]
    fn a_factorised_run_trains_the_shared_rows() {
        // The factoriser's rows start at zero and learn only from the gradient
        // that `add_factoriser_gradient` sums: without it they would stay zero.
        let mut data = synthetic(4000);
        let config = Config {
            hidden: 8,
            factorised: true,
            epochs: 1,
            batch_size: 512,
            lr: 0.01,
            threads: 2,
            ..Config::default()
        };
        let layout = config.layout();
        let params = train(&config, &mut data, &[], Start::Fresh, |_, _| {}, |_, _, _, _| {});
        let moved = params[layout.wf()].iter().filter(|w| w.abs() > 1e-4).count();
        assert!(
            moved > layout.wf().len() / 2,
            "{moved} of {} shared weights moved",
            layout.wf().len()
        );
    }

    #[test]
    fn a_batch_split_over_threads_learns_what_one_thread_learns() {
        let data = synthetic(6000);
        let trained = |threads: usize| {
            let config = Config {
                hidden: 8,
                epochs: 2,
                batch_size: 500,
                lr: 0.01,
                threads,
                ..Config::default()
            };
            train(&config, &mut data.clone(), &[], Start::Fresh, |_, _| {}, |_, _, _, _| {})
        };
        let one = trained(1);
        for threads in [2, 3, 7] {
            let split = trained(threads);
            let worst = one.iter().zip(&split).map(|(a, b)| (a - b).abs()).fold(0f32, f32::max);
            // Only the order of a few float additions differs.
            assert!(worst < 1e-4, "{threads} threads: a parameter differs by {worst}");
            assert_eq!(split, trained(threads), "{threads} threads: not reproducible");
        }
    }

    #[test]
    fn a_resumed_run_ends_with_the_bytes_of_an_uninterrupted_one() {
        let data = synthetic(3000);
        let config = Config {
            hidden: 8,
            output_buckets: 8,
            epochs: 3,
            batch_size: 256,
            lr: 0.01,
            threads: 2,
            ..Config::default()
        };
        let mut snapshots = Vec::new();
        let whole = train(
            &config,
            &mut data.clone(),
            &[],
            Start::Fresh,
            |_, s| snapshots.push(s.clone()),
            |_, _, _, _| {},
        );
        assert_eq!(snapshots.len(), 3);
        assert_eq!(snapshots[2].params, whole);
        for after in [1, 2] {
            let mut reports = Vec::new();
            let resumed = train(
                &config,
                &mut data.clone(),
                &[],
                Start::Resume(snapshots[after - 1].clone()),
                |r, _| reports.push(r.epoch),
                |_, _, _, _| {},
            );
            assert_eq!(reports, (after + 1..=3).collect::<Vec<_>>());
            assert!(resumed == whole, "resumed after epoch {after}: other parameters");
        }
        // Resuming from the finished run trains nothing more.
        let done = train(
            &config,
            &mut data.clone(),
            &[],
            Start::Resume(snapshots[2].clone()),
            |_, _| panic!("an epoch past the last"),
            |_, _, _, _| {},
        );
        assert_eq!(done, whole);
    }

    #[test]
    fn the_schedule_decays_from_lr_to_its_floor() {
        let config = Config { lr: 0.001, final_lr_factor: 0.1, ..Config::default() };
        assert!((learning_rate(&config, 0, 100) - 0.001).abs() < 1e-9);
        assert!((learning_rate(&config, 100, 100) - 0.0001).abs() < 1e-9);
        assert!(learning_rate(&config, 50, 100) < 0.001);
    }

    #[test]
    fn shuffling_permutes() {
        let mut data = synthetic(500);
        let before = data.clone();
        shuffle(&mut data, &mut rand_pcg::Pcg64::seed_from_u64(1));
        assert_ne!(data, before);
        let key = |s: &Sample| format!("{s:?}");
        let mut a: Vec<String> = before.iter().map(key).collect();
        let mut b: Vec<String> = data.iter().map(key).collect();
        a.sort();
        b.sort();
        assert_eq!(a, b);
    }
}
