//! Splitting a large slice across a few threads for clearing and first touch.

/// Slices smaller than this are processed on the calling thread: spawning a pool
/// costs more than clearing them.
#[cfg(not(loom))]
pub(crate) const PARALLEL_MIN_BYTES: usize = 32 << 20;

/// Calls `f` on disjoint chunks covering `items`, on up to `threads` threads.
///
/// Uses a private rayon pool of exactly `threads` threads, built for the call
/// and dropped after it, so the engine's search threads and rayon's global pool
/// are not involved. Runs serially when `threads <= 1`, when `items` is small,
/// when the pool cannot be built, and always under loom.
pub(crate) fn for_each_chunk<T: Send>(
    items: &mut [T],
    threads: usize,
    f: impl Fn(&mut [T]) + Sync + Send,
) {
    #[cfg(not(loom))]
    if threads > 1 && size_of_val(items) >= PARALLEL_MIN_BYTES {
        use rayon::prelude::*;
        if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            // A few chunks per thread lets rayon even out uneven progress while
            // keeping each thread's pages contiguous.
            let chunk = items.len().div_ceil(threads * 4).max(1);
            pool.install(|| items.par_chunks_mut(chunk).for_each(&f));
            return;
        }
    }
    let _ = threads;
    f(items);
}
