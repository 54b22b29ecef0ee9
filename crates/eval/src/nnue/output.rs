//! The output layer: the evaluation in centipawns from the first layer's
//! outputs, for a network of this engine on its [`Accumulator`]
//! ([`Network::evaluate`]) and of any size on two slices ([`output_layer`],
//! which the trainer's integer evaluation uses too).

use super::accumulator::Accumulator;
use super::layout::{OUTPUT_BUCKETS, QA, QB, SCALE, output_bucket};
use super::network::Network;
use super::simd;
use board::{Board, Color};

/// The largest static evaluation, in centipawns: [`Network::evaluate`] clamps
/// to ±`MAX_EVAL`, below the tablebase and mate score ranges.
pub const MAX_EVAL: i32 = 20_000;

impl Network {
    /// The evaluation in centipawns for the side to move of `board`, whose
    /// accumulator `acc` is, clamped to ±[`MAX_EVAL`] (below
    /// the tablebase and mate score ranges).
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, board: &Board) -> i32 {
        self.evaluate_for(acc, board.side_to_move(), board.occupied().count())
    }

    /// The evaluation in centipawns for `side_to_move` of a position with
    /// `pieces` pieces (kings included: they choose the output bucket) whose
    /// accumulator `acc` is.
    #[inline]
    pub fn evaluate_for(&self, acc: &Accumulator, side_to_move: Color, pieces: u32) -> i32 {
        let us = &acc.values[side_to_move as usize];
        let them = &acc.values[!side_to_move as usize];
        let bucket = output_bucket(pieces, OUTPUT_BUCKETS);
        let [ours, theirs] = &self.output_weights[bucket];
        output_layer(us, them, [ours, theirs], self.output_bias[bucket])
    }
}

/// The output layer of a network of any size: the evaluation in centipawns,
/// clamped to ±[`MAX_EVAL`], from the first layer's outputs
/// `us` (the side to move's perspective) and `them`, the output `weights`
/// (`[0]` for `us`, `[1]` for `them`, each as long as the layer) and the
/// output `bias`. [`Network::evaluate`] is this on an [`Accumulator`]; the
/// trainer computes its integer evaluation with it at any size.
#[inline(always)]
pub fn output_layer(us: &[i16], them: &[i16], weights: [&[i16]; 2], bias: i32) -> i32 {
    output(screlu_dot(us, weights[0]) + screlu_dot(them, weights[1]), bias)
}

/// `Σ clamp(x, 0, QA)² × w`, in units of `QA² × QB`, on this build's path
/// ([`simd::DOT`]): `clamp(x) × w` in i16 (it fits: see [`super::layout`]),
/// then widened and multiplied by `clamp(x)`; each chunk of
/// [`DOT_CHUNK`](super::layout::DOT_CHUNK) neurons is summed in i32 (it fits)
/// and the chunks in i64.
#[inline(always)]
fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
    simd::DOT.screlu_dot(values, weights)
}

/// The evaluation in centipawns from the output layer's `sum` (both
/// perspectives' [`screlu_dot`]) and the output bias, clamped to
/// ±[`MAX_EVAL`].
#[inline(always)]
fn output(sum: i64, output_bias: i32) -> i32 {
    let out =
        (sum / i64::from(QA) + i64::from(output_bias)) * i64::from(SCALE) / i64::from(QA * QB);
    out.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::layout::HIDDEN;

    #[test]
    fn a_net_of_one_output_bucket_evaluates_as_trained() {
        // Its one output layer in every bucket (as a one-bucket file loads,
        // network.rs checks): every position, whatever its bucket, gets the
        // evaluation the net was trained for.
        let net = Network::pseudo_random(11);
        let mut single = net.boxed_copy();
        single.output_weights = [net.output_weights[0]; OUTPUT_BUCKETS];
        single.output_bias = [net.output_bias[0]; OUTPUT_BUCKETS];
        for fen in ["4k3/8/8/8/8/8/8/4K3 w - - 0 1", board::STARTPOS_FEN] {
            let board = Board::from_fen(fen).expect("valid FEN");
            let acc = Accumulator::new(&single, &board);
            let us = board.side_to_move();
            let [ours, theirs] = &net.output_weights[0];
            let expected = output_layer(
                &acc.values[us as usize],
                &acc.values[!us as usize],
                [ours, theirs],
                net.output_bias[0],
            );
            assert_eq!(single.evaluate(&acc, &board), expected, "{fen}");
        }
    }

    #[test]
    fn each_position_is_evaluated_by_its_own_bucket() {
        // Bucket b's bias alone is b × 100 cp: the evaluation names the bucket used.
        let mut net = Network::pseudo_random(9);
        net.output_weights = [[[0; HIDDEN]; 2]; OUTPUT_BUCKETS];
        for (b, bias) in net.output_bias.iter_mut().enumerate() {
            *bias = b as i32 * 100 * QA * QB / SCALE;
        }
        for (fen, pieces) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 2),
            ("4k3/8/8/3q4/8/8/2R5/4K3 b - - 0 1", 4),
            ("r3k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1", 8),
            (board::STARTPOS_FEN, 32),
        ] {
            let board = Board::from_fen(fen).expect("valid FEN");
            let acc = Accumulator::new(&net, &board);
            let expected = output_bucket(pieces, OUTPUT_BUCKETS) as i32 * 100;
            assert_eq!(net.evaluate(&acc, &board), expected, "{fen}");
            let us = board.side_to_move();
            assert_eq!(net.evaluate_for(&acc, us, pieces), expected, "{fen}");
        }
    }

    #[test]
    fn the_largest_output_does_not_overflow() {
        // Every neuron of both perspectives saturated, every output weight at its
        // largest: each perspective's sum nearly fills an i32, so adding the two
        // in i32 would wrap (and a winning position would read as lost).
        for (weight, expected) in [(127i16, MAX_EVAL), (-127, -MAX_EVAL)] {
            let mut net = Network::pseudo_random(5);
            net.output_weights = [[[weight; HIDDEN]; 2]; OUTPUT_BUCKETS];
            net.output_bias = [0; OUTPUT_BUCKETS];
            let acc = Accumulator { values: [[QA as i16; HIDDEN]; 2] };
            assert_eq!(net.evaluate(&acc, &Board::startpos()), expected);
        }
    }

    #[test]
    fn screlu_dot_matches_the_formula() {
        let mut values = [0i16; HIDDEN];
        let mut weights = [0i16; HIDDEN];
        values[0] = 300; // clamped to 255
        weights[0] = 126;
        values[1] = -5; // clamped to 0
        weights[1] = 100;
        values[2] = 17;
        weights[2] = -126;
        let expected = 255 * 255 * 126 + 17 * 17 * -126;
        assert_eq!(screlu_dot(&values, &weights), expected);
        // Every neuron saturated at the largest weight: more than an i32 holds.
        let saturated = [QA as i16; HIDDEN];
        let largest = [127i16; HIDDEN];
        let expected = HIDDEN as i64 * 255 * 255 * 127;
        assert!(expected > i64::from(i32::MAX));
        assert_eq!(screlu_dot(&saturated, &largest), expected);
    }
}
