//! AVX2's primitives: [`Simd`] on 256-bit vectors of 16 `i16` lanes, and
//! the kernels compiled for AVX2. The engine uses them when built with AVX2
//! (`-C target-cpu=x86-64-v3`) where [`super::UPDATE`] and [`super::DOT`] say
//! so; tests and benchmarks call them at run time on CPUs that have AVX2.

use super::kernels;
use super::primitives::Simd;
use crate::nnue::layout::HIDDEN;
use std::arch::x86_64::{
    __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm_unpackhi_epi64,
    _mm256_add_epi16, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256,
    _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16,
    _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16,
};

/// Whether this CPU has AVX2, detected at run time.
pub(super) fn detected() -> bool {
    std::is_x86_feature_detected!("avx2")
}

/// [`kernels::update`] compiled for AVX2 (`vpaddw`, `vpsubw`).
///
/// # Safety
///
/// The CPU must have AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn update<const A: usize, const R: usize>(
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: [&[i16; HIDDEN]; 2],
    sub: [&[i16; HIDDEN]; 2],
) {
    kernels::update::<_, A, R>(Avx2::new(), out, parent, add, sub);
}

/// [`kernels::screlu_dot`] compiled for AVX2 (`vpmaxsw`, `vpminsw`,
/// `vpmullw`, `vpmaddwd`, `vpaddd`).
///
/// # Safety
///
/// The CPU must have AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
    kernels::screlu_dot(Avx2::new(), values, weights)
}

/// The proof that this CPU has AVX2, and so the AVX2 [`Simd`].
#[derive(Clone, Copy)]
struct Avx2 {
    /// Keeps the type from being made anywhere but [`Avx2::new`].
    _private: (),
}

impl Avx2 {
    /// The proof: callable only where AVX2 is enabled (in a function
    /// compiled for it, or through `unsafe` by a caller that has checked).
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new() -> Self {
        Avx2 { _private: () }
    }
}

impl Simd for Avx2 {
    type Vector = __m256i;

    const LANES: usize = 16;

    /// `vmovdqu`.
    #[inline(always)]
    fn load(self, src: &[i16]) -> __m256i {
        let lanes = &src[..Self::LANES];
        // SAFETY: `self` proves AVX2; `lanes` is 16 readable `i16`, 32 bytes,
        // and `loadu` needs no alignment.
        unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
    }

    /// `vmovdqu`.
    #[inline(always)]
    fn store(self, dst: &mut [i16], v: __m256i) {
        let lanes = &mut dst[..Self::LANES];
        // SAFETY: `self` proves AVX2; `lanes` is 16 writable `i16`, 32 bytes,
        // and `storeu` needs no alignment.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), v) }
    }

    /// `vpxor`.
    #[inline(always)]
    fn zero(self) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_setzero_si256() }
    }

    /// `vpbroadcastw`.
    #[inline(always)]
    fn splat_i16(self, x: i16) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_set1_epi16(x) }
    }

    /// `vpaddw`.
    #[inline(always)]
    fn add_i16(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_add_epi16(a, b) }
    }

    /// `vpsubw`.
    #[inline(always)]
    fn sub_i16(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_sub_epi16(a, b) }
    }

    /// `vpmaxsw`.
    #[inline(always)]
    fn max_i16(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_max_epi16(a, b) }
    }

    /// `vpminsw`.
    #[inline(always)]
    fn min_i16(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_min_epi16(a, b) }
    }

    /// `vpmullw`.
    #[inline(always)]
    fn mul_lo_i16(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_mullo_epi16(a, b) }
    }

    /// `vpmaddwd`: neighbouring products share a lane.
    #[inline(always)]
    fn madd_i16(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_madd_epi16(a, b) }
    }

    /// `vpaddd`.
    #[inline(always)]
    fn add_i32(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: `self` proves AVX2.
        unsafe { _mm256_add_epi32(a, b) }
    }

    /// The two 128-bit halves added, then their halves, then the last two
    /// lanes.
    #[inline(always)]
    fn sum_i32(self, v: __m256i) -> i32 {
        // SAFETY: `self` proves AVX2 (and so the SSE2 of the 128-bit steps).
        unsafe {
            let half = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            let quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
            let eighth = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b01>(quarter));
            _mm_cvtsi128_si32(eighth)
        }
    }
}
