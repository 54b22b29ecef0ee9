//! The two kernels, written once over the primitive layer ([`Simd`]): the
//! fused accumulator update and the SCReLU dot product of the output layer.
//! Each instruction set's file compiles them for itself, in a function with
//! its target features enabled; both give the portable kernels' results bit
//! for bit.

use super::portable;
use super::primitives::Simd;
use crate::nnue::layout::{DOT_CHUNK, HIDDEN, QA};

/// [`portable::update`] on `simd`'s vectors: the same wrapping sums, a vector
/// of lanes at a time; the lanes past the last whole vector (none when the
/// lanes divide [`HIDDEN`]) go through the portable code.
#[inline(always)]
pub(super) fn update<S: Simd, const A: usize, const R: usize>(
    simd: S,
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: [&[i16; HIDDEN]; 2],
    sub: [&[i16; HIDDEN]; 2],
) {
    let vectors = HIDDEN / S::LANES;
    for at in (0..vectors).map(|i| i * S::LANES) {
        let mut v = simd.load(&parent[at..]);
        for row in &add[..A] {
            v = simd.add_i16(v, simd.load(&row[at..]));
        }
        for row in &sub[..R] {
            v = simd.sub_i16(v, simd.load(&row[at..]));
        }
        simd.store(&mut out[at..], v);
    }
    portable::update_from::<A, R>(vectors * S::LANES, out, parent, add, sub);
}

/// [`portable::screlu_dot`] on `simd`'s vectors, bit for bit: per vector,
/// clamp the values to `0..=QA` (`max`, `min`), multiply `clamp × w` in i16
/// (wrapping, as `wrapping_mul` does), then multiply-add that with the clamped
/// values, which widens each product to i32 and sums them in pairs. Each chunk
/// of [`DOT_CHUNK`] neurons is summed in i32 lanes, its tail (past the last
/// whole vector) by [`portable::chunk_sum`], and the chunks in i64. Every
/// partial sum fits its type, so the order of the additions does not matter.
#[inline(always)]
pub(super) fn screlu_dot<S: Simd>(simd: S, values: &[i16], weights: &[i16]) -> i64 {
    let len = values.len().min(weights.len());
    let (values, weights) = (&values[..len], &weights[..len]);
    let zero = simd.zero();
    let qa = simd.splat_i16(QA as i16);
    let mut total = 0i64;
    for (values, weights) in values.chunks(DOT_CHUNK).zip(weights.chunks(DOT_CHUNK)) {
        let whole = values.len() / S::LANES * S::LANES;
        let mut sums = simd.zero();
        for at in (0..whole / S::LANES).map(|i| i * S::LANES) {
            let x = simd.load(&values[at..]);
            let w = simd.load(&weights[at..]);
            let clamped = simd.min_i16(simd.max_i16(x, zero), qa);
            let product = simd.mul_lo_i16(clamped, w);
            sums = simd.add_i32(sums, simd.madd_i16(product, clamped));
        }
        let tail = portable::chunk_sum(&values[whole..], &weights[whole..]);
        total += i64::from(simd.sum_i32(sums) + tail);
    }
    total
}
