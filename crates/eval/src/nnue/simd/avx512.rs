//! The AVX-512 kernels (AVX-512F and AVX-512BW): 32 `i16` lanes per
//! instruction. A build with AVX-512BW (`-C target-cpu=x86-64-v4`) updates
//! its accumulators with them ([`super::UPDATE`]); its output layer keeps the
//! AVX2 kernel ([`super::DOT`]). Tests and benchmarks call both at run time on
//! CPUs that have the two extensions.

use super::portable;
use crate::nnue::layout::{DOT_CHUNK, HIDDEN, QA};
use std::arch::x86_64::{
    __m512i, _mm512_add_epi16, _mm512_add_epi32, _mm512_loadu_si512, _mm512_madd_epi16,
    _mm512_max_epi16, _mm512_min_epi16, _mm512_mullo_epi16, _mm512_reduce_add_epi32,
    _mm512_set1_epi16, _mm512_setzero_si512, _mm512_storeu_si512, _mm512_sub_epi16,
};

/// `i16` lanes in one vector.
const LANES: usize = 32;

/// 32 lanes of `slice` from `at`.
///
/// # Safety
///
/// The CPU must have AVX-512F.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn load(slice: &[i16], at: usize) -> __m512i {
    let lanes = &slice[at..at + LANES];
    // SAFETY: `lanes` is 32 readable `i16`, 64 bytes; `loadu` needs no alignment.
    unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
}

/// [`portable::update`] on AVX-512: the same wrapping sums (`vpaddw`, `vpsubw`).
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512BW.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub unsafe fn update<const A: usize, const R: usize>(
    out: &mut [i16; HIDDEN],
    parent: &[i16; HIDDEN],
    add: [&[i16; HIDDEN]; 2],
    sub: [&[i16; HIDDEN]; 2],
) {
    let full = HIDDEN / LANES * LANES;
    for j in (0..full).step_by(LANES) {
        // SAFETY: the caller guarantees AVX-512F; `j + 32 <= HIDDEN`, in bounds.
        let mut v = unsafe { load(parent, j) };
        for row in &add[..A] {
            // SAFETY: as above.
            v = _mm512_add_epi16(v, unsafe { load(&row[..], j) });
        }
        for row in &sub[..R] {
            // SAFETY: as above.
            v = _mm512_sub_epi16(v, unsafe { load(&row[..], j) });
        }
        let to = &mut out[j..j + LANES];
        // SAFETY: `to` is 32 writable `i16`, 64 bytes; `storeu` needs no alignment.
        unsafe { _mm512_storeu_si512(to.as_mut_ptr().cast(), v) };
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

/// [`portable::screlu_dot`] on AVX-512, bit for bit, as the AVX2 kernel does
/// it ([`super::avx2::screlu_dot`]) on 32 lanes.
///
/// # Safety
///
/// The CPU must have AVX-512F and AVX-512BW.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
pub unsafe fn screlu_dot(values: &[i16], weights: &[i16]) -> i64 {
    let len = values.len().min(weights.len());
    let (values, weights) = (&values[..len], &weights[..len]);
    let zero = _mm512_setzero_si512();
    let qa = _mm512_set1_epi16(QA as i16);
    let mut total = 0i64;
    for start in (0..len).step_by(DOT_CHUNK) {
        let end = (start + DOT_CHUNK).min(len);
        let full = start + (end - start) / LANES * LANES;
        let mut sums = _mm512_setzero_si512();
        for j in (start..full).step_by(LANES) {
            // SAFETY: the caller guarantees AVX-512F; `j + 32 <= len`, in bounds of both.
            let (x, w) = unsafe { (load(values, j), load(weights, j)) };
            let clamped = _mm512_min_epi16(_mm512_max_epi16(x, zero), qa);
            let product = _mm512_mullo_epi16(clamped, w);
            sums = _mm512_add_epi32(sums, _mm512_madd_epi16(product, clamped));
        }
        let tail = portable::chunk_sum(&values[full..end], &weights[full..end]);
        total += i64::from(_mm512_reduce_add_epi32(sums) + tail);
    }
    total
}
