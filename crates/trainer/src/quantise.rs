//! The float net as a quantised network file of its own shape (see
//! `eval::nnue::layout` for the quantisation), and the float evaluation it
//! approximates. A net of the engine's shape is then the engine's
//! [`Network`](eval::nnue::Network); one of another shape is what an engine
//! built with that `HIDDEN` and `OUTPUT_BUCKETS` reads.

use crate::net::{FirstLayer, Layout, Scratch, forward};
use crate::netfile::NetworkFile;
use crate::sample::Sample;
use eval::nnue::{QA, QB, SCALE};

/// The quantised network of float parameters (of any shape).
pub fn quantise(layout: Layout, params: &[f32]) -> NetworkFile {
    let q = |w: f32, factor: i32| (w * factor as f32).round().clamp(-32767.0, 32767.0) as i16;
    let h = layout.hidden;
    let mut net = NetworkFile::zeroed(h, layout.output_buckets);
    for (f, row) in net.feature_weights.chunks_exact_mut(h).enumerate() {
        for (j, w) in row.iter_mut().enumerate() {
            *w = q(layout.effective_w1(params, f, j), QA);
        }
    }
    for (w, &p) in net.feature_biases.iter_mut().zip(&params[layout.b1()]) {
        *w = q(p, QA);
    }
    for (w, &p) in net.output_weights.iter_mut().zip(&params[layout.w2()]) {
        *w = q(p, QB);
    }
    for (b, &p) in net.output_bias.iter_mut().zip(&params[layout.b2()]) {
        *b = (p * (QA * QB) as f32).round() as i32;
    }
    net
}

/// The integer evaluation of `sample` by `net`, in centipawns for the side to move.
pub fn integer_eval(net: &NetworkFile, sample: &Sample) -> i32 {
    let (mut ours, mut theirs) = (Vec::with_capacity(32), Vec::with_capacity(32));
    sample.for_each_feature(|us, them| {
        ours.push(us);
        theirs.push(them);
    });
    net.evaluate(&ours, &theirs, sample.piece_count())
}

/// The fewest positions from which an output bucket's own bias correction is
/// taken; a bucket with fewer takes the correction of all positions.
pub const MIN_BUCKET_SAMPLES: usize = 200;

/// [`quantise`], then each output bias corrected by the mean difference
/// between the float and the integer evaluation over `samples` (up to 20,000
/// of them): with output buckets, each bucket by its own positions where it
/// has at least [`MIN_BUCKET_SAMPLES`], otherwise by all of them.
///
/// Rounding each output weight to a multiple of 1/QB errs by up to 1/128; for
/// neurons that are active in most positions these errors add up to a constant
/// offset of several centipawns, specific to the net (and to each bucket's
/// output layer). Measuring it on real positions and moving it into the bias
/// removes that part; what remains is the position-dependent part.
pub fn quantise_corrected(layout: Layout, params: &[f32], samples: &[Sample]) -> NetworkFile {
    let mut net = quantise(layout, params);
    let used = &samples[..samples.len().min(20_000)];
    if used.is_empty() {
        return net;
    }
    let (mut scratch, first) = (Scratch::new(layout), FirstLayer::of(layout, params));
    let mut sums = vec![(0f64, 0usize); layout.output_buckets];
    for s in used {
        let float = forward(layout, params, &first, s, &mut scratch) * SCALE as f32;
        let sum = &mut sums[layout.bucket_of(s)];
        sum.0 += f64::from(float) - f64::from(integer_eval(&net, s));
        sum.1 += 1;
    }
    let overall = sums.iter().map(|s| s.0).sum::<f64>() / used.len() as f64;
    for (bias, &(sum, count)) in net.output_bias.iter_mut().zip(&sums) {
        let own = layout.output_buckets > 1 && count >= MIN_BUCKET_SAMPLES;
        let mean_cp = if own { sum / count as f64 } else { overall };
        *bias += (mean_cp * f64::from(QA * QB) / f64::from(SCALE)).round() as i32;
    }
    net
}

/// The mean and the largest |float − integer| evaluation over `samples`, in centipawns.
pub fn quantisation_error(
    layout: Layout,
    params: &[f32],
    net: &NetworkFile,
    samples: &[Sample],
) -> (f64, f64) {
    let (mut scratch, first) = (Scratch::new(layout), FirstLayer::of(layout, params));
    let (mut total, mut worst) = (0f64, 0f64);
    for s in samples {
        let float = f64::from(forward(layout, params, &first, s, &mut scratch)) * f64::from(SCALE);
        let diff = (float - f64::from(integer_eval(net, s))).abs();
        total += diff;
        worst = worst.max(diff);
    }
    (total / samples.len().max(1) as f64, worst)
}

/// The float net's evaluation in centipawns for the side to move.
pub fn float_eval(layout: Layout, params: &[f32], sample: &Sample) -> f32 {
    let first = FirstLayer::of(layout, params);
    forward(layout, params, &first, sample, &mut Scratch::new(layout)) * SCALE as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::synthetic;
    use crate::train::{Config, Start, train};
    use eval::nnue::{Accumulator, HIDDEN, Network};

    #[test]
    fn quantised_and_float_evaluations_agree() {
        // A net of the engine's size trained briefly (so its activations look
        // like a trained net's), compared on positions it was not trained on.
        let mut data = synthetic(24_000);
        let held_out = data.split_off(20_000);
        let config = Config {
            epochs: 4,
            batch_size: 1024,
            lr: 0.01,
            lambda: 0.0,
            factorised: true,
            ..Config::default()
        };
        let layout = config.layout();
        let params = train(&config, &mut data, &[], Start::Fresh, |_, _| {}, |_, _, _, _| {});
        let file = quantise_corrected(layout, &params, &data);
        let net = Network::from_bytes_boxed(&file.to_bytes()).expect("the engine's size");
        let (mut worst, mut total, mut spread) = (0f32, 0f32, 0f32);
        for sample in &held_out {
            let board = sample.board();
            let float = float_eval(layout, &params, sample);
            let int = net.evaluate(&Accumulator::new(&net, &board), &board);
            assert_eq!(int, integer_eval(&file, sample), "the file's evaluation is the engine's");
            let diff = (float - int as f32).abs();
            worst = worst.max(diff);
            total += diff;
            spread += float.abs();
        }
        let n = held_out.len() as f32;
        let mean = total / n;
        let (mean2, worst2) = quantisation_error(layout, &params, &file, &held_out);
        assert!((f64::from(mean) - mean2).abs() < 1e-3 && (f64::from(worst) - worst2).abs() < 1e-3);
        assert!(spread / n > 100.0, "a net that says nothing ({} cp on average)", spread / n);
        // Rounding the output weights to 1/64 dominates what is left (about 5 cp
        // here; a wrong scale, bias or perspective would be off by far more).
        assert!(mean < 8.0 && worst < 40.0, "mean {mean} cp, worst {worst} cp");
    }

    #[test]
    fn a_net_of_another_size_is_quantised_at_its_size() {
        let mut data = synthetic(3_000);
        let held_out = data.split_off(2_000);
        let config = Config {
            hidden: HIDDEN + 128,
            epochs: 2,
            batch_size: 1024,
            lr: 0.01,
            lambda: 0.0,
            factorised: true,
            ..Config::default()
        };
        let layout = config.layout();
        let params = train(&config, &mut data, &[], Start::Fresh, |_, _| {}, |_, _, _, _| {});
        let file = quantise_corrected(layout, &params, &data);
        assert_eq!(file.hidden, layout.hidden);
        assert!(Network::from_bytes_boxed(&file.to_bytes()).is_err(), "not this engine's size");
        let (mean, worst) = quantisation_error(layout, &params, &file, &held_out);
        assert!(mean < 8.0 && worst < 40.0, "mean {mean} cp, worst {worst} cp");
    }

    #[test]
    fn a_net_with_output_buckets_is_quantised_bucket_by_bucket() {
        // Eight output layers, each trained on its own positions and each
        // bias corrected on them: the integer evaluation follows the float one
        // in every bucket the data reaches.
        let mut data = synthetic(6_000);
        let held_out = data.split_off(5_000);
        let config = Config {
            hidden: 64,
            output_buckets: 8,
            epochs: 4,
            batch_size: 512,
            lr: 0.01,
            lambda: 0.0,
            ..Config::default()
        };
        let layout = config.layout();
        let params = train(&config, &mut data, &[], Start::Fresh, |_, _| {}, |_, _, _, _| {});
        let file = quantise_corrected(layout, &params, &data);
        assert_eq!((file.output_buckets, file.output_bias.len()), (8, 8));
        let mut reached = std::collections::BTreeSet::new();
        for bucket in 0..8 {
            let own: Vec<_> =
                held_out.iter().filter(|s| layout.bucket_of(s) == bucket).copied().collect();
            if own.len() < 50 {
                continue;
            }
            reached.insert(bucket);
            let (mean, worst) = quantisation_error(layout, &params, &file, &own);
            assert!(
                mean < 8.0 && worst < 40.0,
                "bucket {bucket}: mean {mean} cp, worst {worst} cp"
            );
        }
        assert!(reached.len() >= 3, "the data reach buckets {reached:?}");
    }
}
