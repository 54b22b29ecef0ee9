//! The AVX2 kernels: 16 `i16` lanes per instruction. The engine uses them when
//! built with AVX2 (`-C target-cpu=x86-64-v3`) where [`super::Path`] says so;
//! tests and benchmarks call them at run time on CPUs that have AVX2.

use super::portable;
use crate::nnue::layout::{DOT_CHUNK, HIDDEN, QA};
use std::arch::x86_64::{
    __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm_unpackhi_epi64,
    _mm256_add_epi16, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256,
    _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_mullo_epi16,
    _mm256_set1_epi16, _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16,
};

/// `i16` lanes in one vector.
const LANES: usize = 16;

/// 16 lanes of `slice` from `at`.
///
/// # Safety
///
/// The CPU must have AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load(slice: &[i16], at: usize) -> __m256i {
    let lanes = &slice[at..at + LANES];
    // SAFETY: `lanes` is 16 readable `i16`, 32 bytes; `loadu` needs no alignment.
    unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
}

/// [`portable::update`] on AVX2: the same wrapping sums (`vpaddw`, `vpsubw`).
///
/// # Safety
///
/// The CPU must have AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub unsafe fn update<const A: usize, const R: usize>(
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: [&[i16; HIDDEN]; 2],
    sub: [&[i16; HIDDEN]; 2],
) {
    let full = HIDDEN / LANES * LANES;
    for j in (0..full).step_by(LANES) {
        // SAFETY: the caller guarantees AVX2; `j + 16 <= HIDDEN`, in bounds.
        let mut v = unsafe { load(parent, j) };
        for row in &add[..A] {
            // SAFETY: as above.
            v = _mm256_add_epi16(v, unsafe { load(&row[..], j) });
        }
        for row in &sub[..R] {
            // SAFETY: as above.
            v = _mm256_sub_epi16(v, unsafe { load(&row[..], j) });
        }
        let to = &mut out[j..j + LANES];
        // SAFETY: `to` is 16 writable `i16`, 32 bytes; `storeu` needs no alignment.
        unsafe { _mm256_storeu_si256(to.as_mut_ptr().cast(), v) };
    }
    for j in full..HIDDEN {
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

/// [`portable::screlu_dot`] on AVX2, bit for bit: per 16 lanes, clamp
/// (`vpmaxsw`, `vpminsw`), `clamp × w` in i16 (`vpmullw`, wrapping as
/// `wrapping_mul` does), then `vpmaddwd` of that and the clamped values, which
/// widens each product to i32 and adds neighbouring pairs; each chunk of
/// [`DOT_CHUNK`] neurons is summed in i32 lanes and the chunks in i64. Every
/// partial sum fits its type, so the order of the additions does not matter.
///
/// # Safety
///
/// The CPU must have AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub unsafe fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
    let len = values.len().min(weights.len());
    let (values, weights) = (&values[..len], &weights[..len]);
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut total = 0i64;
    for start in (0..len).step_by(DOT_CHUNK) {
        let end = (start + DOT_CHUNK).min(len);
        let full = start + (end - start) / LANES * LANES;
        let mut sums = _mm256_setzero_si256();
        for j in (start..full).step_by(LANES) {
            // SAFETY: the caller guarantees AVX2; `j + 16 <= len`, in bounds of both.
            let (x, w) = unsafe { (load(values, j), load(weights, j)) };
            let clamped = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
            let product = _mm256_mullo_epi16(clamped, w);
            sums = _mm256_add_epi32(sums, _mm256_madd_epi16(product, clamped));
        }
        let tail = portable::chunk_sum(&values[full..end], &weights[full..end]);
        total += i64::from(horizontal_sum(sums) + tail);
    }
    total
}

/// The sum of the eight i32 lanes of `v`.
#[inline]
#[target_feature(enable = "avx2")]
fn horizontal_sum(v: __m256i) -> i32 {
    let half = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    let quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
    let eighth = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b01>(quarter));
    _mm_cvtsi128_si32(eighth)
}
