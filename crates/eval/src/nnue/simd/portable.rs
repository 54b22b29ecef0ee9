//! The portable kernels: plain Rust over `i16` slices, which the compiler
//! vectorises with whatever the build's target allows (SSE2 by default,
//! AVX2 under `-C target-cpu=x86-64-v3`). They define the results every other
//! path must reproduce bit for bit, and compute the neurons a vector kernel
//! leaves over past its last whole vector ([`update_from`], [`chunk_sum`]).

use crate::nnue::layout::{DOT_CHUNK, HIDDEN, QA};

/// `out = parent + Σ add[..A] − Σ sub[..R]`, wrapping, in one fused pass.
#[inline(always)]
pub fn update<const A: usize, const R: usize>(
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: [&[i16; HIDDEN]; 2],
    sub: [&[i16; HIDDEN]; 2],
) {
    update_from::<A, R>(0, out, parent, add, sub);
}

/// [`update`] over the neurons from `start` on: all of them, or the tail a
/// vector path leaves when its lanes do not divide [`HIDDEN`].
#[inline(always)]
pub(super) fn update_from<const A: usize, const R: usize>(
    start: usize,
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: [&[i16; HIDDEN]; 2],
    sub: [&[i16; HIDDEN]; 2],
) {
    for j in start..HIDDEN {
        let mut v = parent[j];
        for row in &add[..A] {
            v = v.wrapping_add(row[j]);
        }
        for row in &sub[..R] {
            v = v.wrapping_sub(row[j]);
        }
        out[j] = v;
    }
}

/// `Σ clamp(x, 0, QA)² × w` over the first `min(len)` neurons, in units of
/// `QA² × QB`. `clamp(x) × w` is computed in i16 (it fits for clipped weights:
/// see [`crate::nnue::layout`]; it wraps otherwise), then widened and
/// multiplied by `clamp(x)`; each chunk of [`DOT_CHUNK`] neurons is summed in
/// i32 (which holds 256 products of an i16 and a value up to 255, whatever the
/// weights) and the chunks in i64.
#[inline(always)]
pub fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
    let mut total = 0i64;
    for (values, weights) in values.chunks(DOT_CHUNK).zip(weights.chunks(DOT_CHUNK)) {
        total += i64::from(chunk_sum(values, weights));
    }
    total
}

/// One chunk of [`screlu_dot`] (at most [`DOT_CHUNK`] neurons), in i32; also
/// the tail of a vector path's chunk.
#[inline(always)]
pub(super) fn chunk_sum(values: &[i16], weights: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in values.iter().zip(weights) {
        let clamped = x.clamp(0, QA as i16);
        sum += i32::from(clamped.wrapping_mul(w)) * i32::from(clamped);
    }
    sum
}
