//! What the pool's threads share, in one part per concern, each with its own
//! methods and lock:
//!
//! | part | what | locked |
//! |---|---|---|
//! | [`Signals`] (`signals.rs`) | the stop flag, the hold of `go infinite` / `go ponder`, `ponderhit`, the hard limit's deadline | never: atomics (a mutex only for the main thread's waits before it answers) |
//! | [`Commands`] (`control.rs`) | the command under way, the resources of the next search, each thread's mailbox | by the pool to issue a command; once per thread to finish it (a thread takes a command from its own mailbox, under that mailbox's lock) |
//! | [`Results`] | each thread's latest line and the last search's outcome | once per completed iteration, and at the end |
//! | [`NumaNodes`] (`numa.rs`) | the pinning policy, where each thread went, each node's copy of the network | when threads start, and by pinned threads when the network changes |
//! | the reporter | where the main thread's lines go | never |
//!
//! The node counts and the clock of a search are not here but in its command
//! (`Resources::counters`, `SearchRun::clock` in `control.rs`).

use crate::choice::ThreadResult;
use crate::control::Commands;
use crate::numa::NumaNodes;
use crate::report::{Reporter, SearchOutcome};
use crate::signals::Signals;
use crate::sync::Mutex;
use std::sync::Arc;

/// What the pool's threads share (see the module documentation).
pub(crate) struct Shared {
    /// The stop flag and the hold of `go infinite` / `go ponder`.
    pub signals: Signals,
    /// The command under way, the threads' mailboxes, and the pool's wait for the threads.
    pub commands: Commands,
    /// What the threads found.
    pub results: Results,
    /// The threads on the NUMA nodes, and the nodes' copies of the network.
    pub numa: NumaNodes,
    /// Receives the main thread's reports.
    pub reporter: Arc<dyn Reporter>,
}

/// What the threads found: each thread's latest result (see [`ThreadResult`]),
/// and the outcome of the last search (for [`crate::ThreadPool::search_sync`]).
#[derive(Default)]
pub(crate) struct Results {
    by_thread: Mutex<Vec<ThreadResult>>,
    outcome: Mutex<Option<SearchOutcome>>,
}

impl Results {
    /// Before a search, or for a new set of `threads` threads: no result yet.
    pub fn reset(&self, threads: usize) {
        let mut by_thread = self.by_thread.lock();
        by_thread.clear();
        by_thread.resize(threads, ThreadResult::default());
    }

    /// Publishes thread `id`'s latest result.
    pub fn publish(&self, id: usize, result: ThreadResult) {
        self.by_thread.lock()[id] = result;
    }

    /// Every thread's latest result, thread 0's first.
    pub fn by_thread(&self) -> Vec<ThreadResult> {
        self.by_thread.lock().clone()
    }

    /// Records the outcome of the search that just ended (`None`: forget the last one).
    pub fn set_outcome(&self, outcome: Option<SearchOutcome>) {
        *self.outcome.lock() = outcome;
    }

    /// The outcome of the last search, if it ended since [`Results::set_outcome`] forgot it.
    pub fn outcome(&self) -> Option<SearchOutcome> {
        self.outcome.lock().clone()
    }
}
