//! The largest memory of the WebAssembly build, declared once: build.rs gives
//! it to the linker (`--max-memory`), so the module declares it, and the UCI
//! options bound `Hash` and `Threads` by it (`uci::memory_budget`).
//!
//! 2 GiB: four times the largest table web engines offer today, and a
//! reservation every 64-bit browser makes (a shared memory is reserved at its
//! largest size when it is made, since it can never move).

/// The largest size of the WebAssembly module's memory, in MB.
pub const MODULE_MEMORY_MB: usize = 2048;
