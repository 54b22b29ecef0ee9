//! Cache prefetch hint.

/// Asks the CPU to start loading the cache line at `line` into L1.
/// A hint only: no effect on program semantics, a no-op off x86-64.
#[inline(always)]
pub(crate) fn prefetch<T>(line: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: `prefetch` is a hint that never faults or changes memory, and
        // `line` is a valid reference anyway; SSE is part of the x86-64 baseline.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(line).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = line;
}
