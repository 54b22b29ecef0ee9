//! NEON's primitives (AArch64 Advanced SIMD): [`Simd`] on 128-bit vectors of
//! 8 `i16` lanes, and the kernels compiled for NEON. NEON is part of every
//! AArch64 CPU, so an ARM build takes these kernels for both the update and
//! the output layer ([`super::UPDATE`], [`super::DOT`]).

use super::kernels;
use super::primitives::Simd;
use crate::nnue::layout::HIDDEN;
use std::arch::aarch64::{
    int16x8_t, vaddq_s16, vaddq_s32, vaddvq_s32, vdupq_n_s16, vget_low_s16, vld1q_s16, vmaxq_s16,
    vminq_s16, vmlal_high_s16, vmull_s16, vmulq_s16, vreinterpretq_s16_s32, vreinterpretq_s32_s16,
    vst1q_s16, vsubq_s16,
};

/// Whether this CPU has NEON, detected at run time (always so on the
/// AArch64 targets Rust builds by default).
pub(super) fn detected() -> bool {
    std::arch::is_aarch64_feature_detected!("neon")
}

/// [`kernels::update`] compiled for NEON (`add`, `sub` on `.8h`).
///
/// # Safety
///
/// The CPU must have NEON.
#[inline]
#[target_feature(enable = "neon")]
pub(super) unsafe fn update<const A: usize, const R: usize>(
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: [&[i16; HIDDEN]; 2],
    sub: [&[i16; HIDDEN]; 2],
) {
    kernels::update::<_, A, R>(Neon::new(), out, parent, add, sub);
}

/// [`kernels::screlu_dot`] compiled for NEON (`smax`, `smin`, `mul`,
/// `smull`, `smlal2`, `add`, `addv`).
///
/// # Safety
///
/// The CPU must have NEON.
#[inline]
#[target_feature(enable = "neon")]
pub(super) unsafe fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
    kernels::screlu_dot(Neon::new(), values, weights)
}

/// The proof that this CPU has NEON, and so the NEON [`Simd`].
#[derive(Clone, Copy)]
struct Neon {
    /// Keeps the type from being made anywhere but [`Neon::new`].
    _private: (),
}

impl Neon {
    /// The proof: callable only where NEON is enabled (in a function compiled
    /// for it, or through `unsafe` by a caller that has checked).
    #[inline]
    #[target_feature(enable = "neon")]
    fn new() -> Self {
        Neon { _private: () }
    }
}

/// The vectors hold `i16` lanes; the `i32` operations see the same 128 bits
/// as four `i32` lanes (a reinterpretation, no instruction).
impl Simd for Neon {
    type Vector = int16x8_t;

    const LANES: usize = 8;

    /// `ldr q`.
    #[inline(always)]
    fn load(self, src: &[i16]) -> int16x8_t {
        let lanes = &src[..Self::LANES];
        // SAFETY: `self` proves NEON; `lanes` is 8 readable `i16`, and
        // `vld1q_s16` needs only the alignment of `i16`.
        unsafe { vld1q_s16(lanes.as_ptr()) }
    }

    /// `str q`.
    #[inline(always)]
    fn store(self, dst: &mut [i16], v: int16x8_t) {
        let lanes = &mut dst[..Self::LANES];
        // SAFETY: `self` proves NEON; `lanes` is 8 writable `i16`, and
        // `vst1q_s16` needs only the alignment of `i16`.
        unsafe { vst1q_s16(lanes.as_mut_ptr(), v) }
    }

    /// `movi`.
    #[inline(always)]
    fn zero(self) -> int16x8_t {
        // SAFETY: `self` proves NEON.
        unsafe { vdupq_n_s16(0) }
    }

    /// `dup`.
    #[inline(always)]
    fn splat_i16(self, x: i16) -> int16x8_t {
        // SAFETY: `self` proves NEON.
        unsafe { vdupq_n_s16(x) }
    }

    /// `add .8h`.
    #[inline(always)]
    fn add_i16(self, a: int16x8_t, b: int16x8_t) -> int16x8_t {
        // SAFETY: `self` proves NEON.
        unsafe { vaddq_s16(a, b) }
    }

    /// `sub .8h`.
    #[inline(always)]
    fn sub_i16(self, a: int16x8_t, b: int16x8_t) -> int16x8_t {
        // SAFETY: `self` proves NEON.
        unsafe { vsubq_s16(a, b) }
    }

    /// `smax .8h`.
    #[inline(always)]
    fn max_i16(self, a: int16x8_t, b: int16x8_t) -> int16x8_t {
        // SAFETY: `self` proves NEON.
        unsafe { vmaxq_s16(a, b) }
    }

    /// `smin .8h`.
    #[inline(always)]
    fn min_i16(self, a: int16x8_t, b: int16x8_t) -> int16x8_t {
        // SAFETY: `self` proves NEON.
        unsafe { vminq_s16(a, b) }
    }

    /// `mul .8h`.
    #[inline(always)]
    fn mul_lo_i16(self, a: int16x8_t, b: int16x8_t) -> int16x8_t {
        // SAFETY: `self` proves NEON.
        unsafe { vmulq_s16(a, b) }
    }

    /// `smull` of the low four lanes, then `smlal2` adding the high four's
    /// products: `i32` lane `k` holds the products of lanes `k` and `k + 4`.
    #[inline(always)]
    fn madd_i16(self, a: int16x8_t, b: int16x8_t) -> int16x8_t {
        // SAFETY: `self` proves NEON.
        unsafe {
            let low = vmull_s16(vget_low_s16(a), vget_low_s16(b));
            vreinterpretq_s16_s32(vmlal_high_s16(low, a, b))
        }
    }

    /// `add .4s`.
    #[inline(always)]
    fn add_i32(self, a: int16x8_t, b: int16x8_t) -> int16x8_t {
        // SAFETY: `self` proves NEON.
        unsafe {
            let sum = vaddq_s32(vreinterpretq_s32_s16(a), vreinterpretq_s32_s16(b));
            vreinterpretq_s16_s32(sum)
        }
    }

    /// `addv .4s`.
    #[inline(always)]
    fn sum_i32(self, v: int16x8_t) -> i32 {
        // SAFETY: `self` proves NEON.
        unsafe { vaddvq_s32(vreinterpretq_s32_s16(v)) }
    }
}
