//! Atomics facade.
//!
//! Every atomic in the crate is imported from here, so that building with
//! `RUSTFLAGS="--cfg loom"` swaps them for [loom]'s model-checked atomics without
//! touching the rest of the code. Nothing else in the crate may name
//! `std::sync::atomic` directly.
//!
//! [loom]: https://docs.rs/loom

#[cfg(not(loom))]
pub(crate) use std::sync::atomic;

#[cfg(loom)]
pub(crate) use loom::sync::atomic;
