//! AVX-512's primitives (AVX-512F and AVX-512BW): [`Simd`] on 512-bit
//! vectors of 32 `i16` lanes, and the kernels compiled for them. A build with
//! AVX-512BW (`-C target-cpu=x86-64-v4`) updates its accumulators with them
//! ([`super::UPDATE`]); its output layer keeps the AVX2 kernel
//! ([`super::DOT`]). Tests and benchmarks call both at run time on CPUs that
//! have the two extensions.

use super::kernels;
use super::primitives::Simd;
use crate::nnue::layout::HIDDEN;
use std::arch::x86_64::{
    __m512i, _mm512_add_epi16, _mm512_add_epi32, _mm512_loadu_si512, _mm512_madd_epi16,
    _mm512_max_epi16, _mm512_min_epi16, _mm512_mullo_epi16, _mm512_reduce_add_epi32,
    _mm512_set1_epi16, _mm512_setzero_si512, _mm512_storeu_si512, _mm512_sub_epi16,
};

/// Whether this CPU has AVX-512F and AVX-512BW, detected at run time.
pub(super) fn detected() -> bool {
    std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw")
}

/// [`kernels::update`] compiled for AVX-512 (`vpaddw`, `vpsubw`).
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512BW.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn update<const A: usize, const R: usize>(
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: [&[i16; HIDDEN]; 2],
    sub: [&[i16; HIDDEN]; 2],
) {
    kernels::update::<_, A, R>(Avx512::new(), out, parent, add, sub);
}

/// [`kernels::screlu_dot`] compiled for AVX-512 (`vpmaxsw`, `vpminsw`,
/// `vpmullw`, `vpmaddwd`, `vpaddd`).
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512BW.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
    kernels::screlu_dot(Avx512::new(), values, weights)
}

/// The proof that this CPU has AVX-512F and AVX-512BW, and so the AVX-512
/// [`Simd`].
#[derive(Clone, Copy)]
struct Avx512 {
    /// Keeps the type from being made anywhere but [`Avx512::new`].
    _private: (),
}

impl Avx512 {
    /// The proof: callable only where AVX-512F and AVX-512BW are enabled (in
    /// a function compiled for them, or through `unsafe` by a caller that has
    /// checked).
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn new() -> Self {
        Avx512 { _private: () }
    }
}

impl Simd for Avx512 {
    type Vector = __m512i;

    const LANES: usize = 32;

    /// `vmovdqu64`.
    #[inline(always)]
    fn load(self, src: &[i16]) -> __m512i {
        let lanes = &src[..Self::LANES];
        // SAFETY: `self` proves AVX-512F; `lanes` is 32 readable `i16`, 64
        // bytes, and `loadu` needs no alignment.
        unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
    }

    /// `vmovdqu64`.
    #[inline(always)]
    fn store(self, dst: &mut [i16], v: __m512i) {
        let lanes = &mut dst[..Self::LANES];
        // SAFETY: `self` proves AVX-512F; `lanes` is 32 writable `i16`, 64
        // bytes, and `storeu` needs no alignment.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), v) }
    }

    /// `vpxord`.
    #[inline(always)]
    fn zero(self) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_setzero_si512() }
    }

    /// `vpbroadcastw`.
    #[inline(always)]
    fn splat_i16(self, x: i16) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_set1_epi16(x) }
    }

    /// `vpaddw`.
    #[inline(always)]
    fn add_i16(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512BW.
        unsafe { _mm512_add_epi16(a, b) }
    }

    /// `vpsubw`.
    #[inline(always)]
    fn sub_i16(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512BW.
        unsafe { _mm512_sub_epi16(a, b) }
    }

    /// `vpmaxsw`.
    #[inline(always)]
    fn max_i16(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512BW.
        unsafe { _mm512_max_epi16(a, b) }
    }

    /// `vpminsw`.
    #[inline(always)]
    fn min_i16(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512BW.
        unsafe { _mm512_min_epi16(a, b) }
    }

    /// `vpmullw`.
    #[inline(always)]
    fn mul_lo_i16(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512BW.
        unsafe { _mm512_mullo_epi16(a, b) }
    }

    /// `vpmaddwd`: neighbouring products share a lane.
    #[inline(always)]
    fn madd_i16(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512BW.
        unsafe { _mm512_madd_epi16(a, b) }
    }

    /// `vpaddd`.
    #[inline(always)]
    fn add_i32(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_add_epi32(a, b) }
    }

    /// The halves added down to one lane (`_mm512_reduce_add_epi32`).
    #[inline(always)]
    fn sum_i32(self, v: __m512i) -> i32 {
        // SAFETY: `self` proves AVX-512F.
        unsafe { _mm512_reduce_add_epi32(v) }
    }
}
