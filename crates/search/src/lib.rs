//! The search of Tessera: iterative deepening with aspiration windows,
//! principal variation search and quiescence, a staged move picker, pruning
//! and reductions, time management, and the Lazy SMP thread pool that runs N
//! searches sharing one lock-free transposition table.
//!
//! The crate never prints: reports go through a [`Reporter`].

#![warn(missing_docs)]

mod features;
mod history;
mod limits;
pub mod params;
mod picker;
mod pool;
mod report;
mod worker;

pub use features::Features;
pub use limits::{SearchLimits, TimeManager};
pub use pool::{BestMoveChoice, PoolError, SearchJob, ThreadPool};
pub use report::{Reporter, SearchInfo, SearchOutcome, Silent};
pub use worker::INFINITY;
