//! What `Hash` and `Threads` may ask for together where memory has a fixed
//! limit: in the WebAssembly build, the module's memory, whose largest size it
//! declares ([`crate::wasm_memory`]). The table, every search thread (its
//! stack and its worker, [`search::THREAD_MEMORY_BYTES`]) and the rest of the
//! program ([`PROGRAM_MB`]) must fit in it together, so a request that would
//! not fit is capped to what does, with an `info string`.
//!
//! Natively there is no such limit to know in advance: the system gives the
//! table its memory or refuses it (an error, and the previous table).

/// Room for the program besides the table and the search threads: its code's
/// data (the network is part of it), its own threads' stacks, the buffers.
pub const PROGRAM_MB: usize = 64;

/// The memory limit in MB that `Hash` and `Threads` share: the WebAssembly
/// module's, `None` natively.
pub fn limit_mb() -> Option<usize> {
    cfg!(target_family = "wasm").then_some(crate::wasm_memory::MODULE_MEMORY_MB)
}

/// The memory of one search thread, in MB.
pub fn thread_mb() -> usize {
    search::THREAD_MEMORY_BYTES.div_ceil(1 << 20)
}

/// The largest table in MB that fits in `limit_mb` beside `threads` threads
/// (at least 1).
pub fn hash_room(limit_mb: usize, threads: usize) -> usize {
    limit_mb.saturating_sub(PROGRAM_MB + threads * thread_mb()).max(1)
}

/// The most threads that fit in `limit_mb` beside a table of `hash_mb` MB (at
/// least 1).
pub fn thread_room(limit_mb: usize, hash_mb: usize) -> usize {
    (limit_mb.saturating_sub(PROGRAM_MB + hash_mb) / thread_mb()).max(1)
}

/// Why a request was capped, for its `info string`.
pub fn why(limit_mb: usize, threads: usize, hash_mb: usize) -> String {
    let s = if threads == 1 { "" } else { "s" };
    format!(
        "the WebAssembly module's {limit_mb} MB hold the table ({hash_mb} MB), \
         {threads} thread{s} ({} MB each) and the program ({PROGRAM_MB} MB)",
        thread_mb()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_and_the_threads_share_the_limit() {
        let t = thread_mb();
        assert_eq!(hash_room(2048, 1), 2048 - PROGRAM_MB - t);
        assert_eq!(hash_room(2048, 4), 2048 - PROGRAM_MB - 4 * t);
        assert_eq!(thread_room(2048, 16), (2048 - PROGRAM_MB - 16) / t);
        // What one allows, the other still fits.
        for threads in 1..=thread_room(2048, 1) {
            let hash = hash_room(2048, threads);
            assert!(thread_room(2048, hash) >= threads, "{threads} threads, {hash} MB");
        }
    }

    #[test]
    fn nothing_is_capped_below_one() {
        assert_eq!(hash_room(64, 100), 1);
        assert_eq!(thread_room(64, 4096), 1);
    }

    #[test]
    fn only_the_webassembly_build_has_a_limit() {
        assert_eq!(limit_mb().is_some(), cfg!(target_family = "wasm"));
    }
}
