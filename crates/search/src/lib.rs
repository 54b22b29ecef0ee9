//! The search of Tessera: iterative deepening with aspiration windows,
//! principal variation search and quiescence, a staged move picker, pruning
//! and reductions, time management, and the Lazy SMP thread pool that runs N
//! searches sharing one lock-free transposition table.
//!
//! Syzygy tablebases reach the search through one small interface
//! (`tablebase.rs`); without tables the search is the same.
//!
//! The crate never prints: reports go through a [`Reporter`].

#![warn(missing_docs)]
// `params::tunables!` sorts its entries one per step of recursion: more than 128.
#![recursion_limit = "256"]

mod budget;
mod choice;
mod cluster;
mod control;
mod correction;
mod counters;
mod deepening;
mod history;
mod limits;
mod multipv;
pub mod numa;
pub mod params;
mod picker;
mod pool;
mod processor_groups;
mod report;
mod root;
mod shared;
mod signals;
mod spread;
mod sync;
mod tablebase;
mod time;
pub mod wdl;
mod worker;

pub use choice::{BestMoveChoice, ThreadResult};
pub use cluster::{Alone, Cluster, Remote};
pub use limits::{SearchJob, SearchLimits};
pub use numa::NumaPolicy;
pub use pool::{PoolError, THREAD_MEMORY_BYTES, ThreadPool};
pub use report::{CurrentMove, Reporter, SearchInfo, SearchOutcome, Silent};
pub use tablebase::TablebaseOptions;
pub use time::TimeManager;
