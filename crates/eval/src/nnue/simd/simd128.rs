//! WebAssembly's primitives (the `simd128` proposal, part of the standard
//! since WebAssembly 2.0): [`Simd`] on 128-bit vectors of 8 `i16` lanes, and
//! the kernels compiled with them.
//!
//! WebAssembly has no run-time feature detection: a module that uses these
//! instructions is rejected whole by an engine without them, so it cannot
//! pick a path as it runs. This file is therefore compiled only into builds
//! whose target features include `simd128` (`-C target-feature=+simd128`, as
//! `.cargo/config.toml` sets for `wasm32-wasip1-threads`), where every
//! function is compiled for it; such a build takes these kernels for both the
//! update and the output layer ([`super::UPDATE`], [`super::DOT`]).

use super::kernels;
use super::primitives::Simd;
use crate::nnue::layout::HIDDEN;
use core::arch::wasm32::{
    i16x8_add, i16x8_max, i16x8_min, i16x8_mul, i16x8_splat, i16x8_sub, i32x4_add, i32x4_dot_i16x8,
    i32x4_extract_lane, v128, v128_load, v128_store,
};

/// Whether the engine running the module has `simd128`: always so, since the
/// module would not have been accepted otherwise.
pub(super) fn detected() -> bool {
    true
}

/// [`kernels::update`] with `simd128` (`i16x8.add`, `i16x8.sub`).
#[inline]
pub(super) fn update<const A: usize, const R: usize>(
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: [&[i16; HIDDEN]; 2],
    sub: [&[i16; HIDDEN]; 2],
) {
    kernels::update::<_, A, R>(Simd128::new(), out, parent, add, sub);
}

/// [`kernels::screlu_dot`] with `simd128` (`i16x8.max_s`, `i16x8.min_s`,
/// `i16x8.mul`, `i32x4.dot_i16x8_s`, `i32x4.add`).
#[inline]
pub(super) fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
    kernels::screlu_dot(Simd128::new(), values, weights)
}

/// The proof that the module runs with `simd128`, and so the `simd128`
/// [`Simd`]. The whole file is compiled only for builds that have it, so
/// making one needs no check.
#[derive(Clone, Copy)]
struct Simd128 {
    /// Keeps the type from being made anywhere but [`Simd128::new`].
    _private: (),
}

impl Simd128 {
    /// The proof.
    #[inline(always)]
    fn new() -> Self {
        Simd128 { _private: () }
    }
}

/// The vectors are `v128`, untyped: the `i16x8` operations see them as 8
/// `i16` lanes, the `i32x4` ones as 4 `i32` lanes.
impl Simd for Simd128 {
    type Vector = v128;

    const LANES: usize = 8;

    /// `v128.load`.
    #[inline(always)]
    fn load(self, src: &[i16]) -> v128 {
        let lanes = &src[..Self::LANES];
        // SAFETY: `lanes` is 8 readable `i16`, 16 bytes, and `v128_load`
        // needs no alignment (it loads with an alignment of 1).
        unsafe { v128_load(lanes.as_ptr().cast()) }
    }

    /// `v128.store`.
    #[inline(always)]
    fn store(self, dst: &mut [i16], v: v128) {
        let lanes = &mut dst[..Self::LANES];
        // SAFETY: `lanes` is 8 writable `i16`, 16 bytes, and `v128_store`
        // needs no alignment (it stores with an alignment of 1).
        unsafe { v128_store(lanes.as_mut_ptr().cast(), v) }
    }

    /// `v128.const 0`.
    #[inline(always)]
    fn zero(self) -> v128 {
        i16x8_splat(0)
    }

    /// `i16x8.splat`.
    #[inline(always)]
    fn splat_i16(self, x: i16) -> v128 {
        i16x8_splat(x)
    }

    /// `i16x8.add` (wrapping; the saturating one is `i16x8.add_sat_s`).
    #[inline(always)]
    fn add_i16(self, a: v128, b: v128) -> v128 {
        i16x8_add(a, b)
    }

    /// `i16x8.sub` (wrapping).
    #[inline(always)]
    fn sub_i16(self, a: v128, b: v128) -> v128 {
        i16x8_sub(a, b)
    }

    /// `i16x8.max_s`.
    #[inline(always)]
    fn max_i16(self, a: v128, b: v128) -> v128 {
        i16x8_max(a, b)
    }

    /// `i16x8.min_s`.
    #[inline(always)]
    fn min_i16(self, a: v128, b: v128) -> v128 {
        i16x8_min(a, b)
    }

    /// `i16x8.mul`.
    #[inline(always)]
    fn mul_lo_i16(self, a: v128, b: v128) -> v128 {
        i16x8_mul(a, b)
    }

    /// `i32x4.dot_i16x8_s`: neighbouring products share a lane, as with
    /// `vpmaddwd` (and the one sum that overflows, `2 × (−32768)²`, wraps
    /// as it does).
    #[inline(always)]
    fn madd_i16(self, a: v128, b: v128) -> v128 {
        i32x4_dot_i16x8(a, b)
    }

    /// `i32x4.add`.
    #[inline(always)]
    fn add_i32(self, a: v128, b: v128) -> v128 {
        i32x4_add(a, b)
    }

    /// The four `i32x4.extract_lane`s, added.
    #[inline(always)]
    fn sum_i32(self, v: v128) -> i32 {
        i32x4_extract_lane::<0>(v)
            .wrapping_add(i32x4_extract_lane::<1>(v))
            .wrapping_add(i32x4_extract_lane::<2>(v))
            .wrapping_add(i32x4_extract_lane::<3>(v))
    }
}
