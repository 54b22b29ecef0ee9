//! The search's view of a cluster: other processes (ranks) searching the same
//! position on other machines, each with its own Lazy SMP pool and table.
//!
//! The search calls [`Cluster`] at a few fixed points and reads the same with or
//! without one: on its own a pool uses [`Alone`], whose methods do nothing, and
//! every cluster path is skipped (`ranks() == 1`). The `cluster` crate implements
//! the trait over MPI (see docs/cluster.md).
//!
//! | when | who | call |
//! |---|---|---|
//! | a state-changing UCI command arrives (leader) | the UCI layer | [`Cluster::forward`] |
//! | a search starts | thread 0 of every rank | [`Cluster::begin`] |
//! | a store at least [`Cluster::share_depth`] deep | any search thread | [`Cluster::offer`] |
//! | every [`CHECK_INTERVAL`](crate::budget::CHECK_INTERVAL) nodes | thread 0 of every rank, from its periodic check ([`Exchange`]) | [`Cluster::poll`] |
//! | the rank's threads have all stopped | thread 0 of every rank | [`Cluster::finish`] |
//!
//! Rank 0 *leads*: it speaks UCI, owns the clock and chooses the move. The other
//! ranks *follow*: every thread of theirs searches like a helper (no clock, no
//! output) until the leader's stop, then their results go to the leader's vote.

use crate::choice::ThreadResult;
use crate::counters::Counters;
use std::time::Duration;
use tt::{Record, TranspositionTable};

/// Other processes searching the same position (see the module documentation).
/// Every method has a do-nothing default: [`Alone`] is this trait with nothing added.
pub trait Cluster: Send + Sync {
    /// This process's rank: 0 leads, the others follow.
    fn rank(&self) -> usize {
        0
    }

    /// How many ranks search together (1: this process alone).
    fn ranks(&self) -> usize {
        1
    }

    /// On the leader, the UCI layer passes on every command that changes state
    /// (`position`, `go`, `stop`, `ponderhit`, `setoption`, `ucinewgame`, `quit`),
    /// before applying it. Followers ignore it.
    fn forward(&self, _command: &str) {}

    /// Stores at least this deep are [offered](Cluster::offer) to the other ranks.
    fn share_depth(&self) -> i32 {
        i32::MAX
    }

    /// Search thread `thread` stored `record` under `key`, at least
    /// [`share_depth`](Cluster::share_depth) deep: a candidate for the other ranks' tables.
    fn offer(&self, _thread: usize, _key: u64, _record: &Record) {}

    /// A search starts on this rank (thread 0, before any other call for it).
    fn begin(&self) {}

    /// Thread 0, every `budget::CHECK_INTERVAL` nodes:
    /// exchange entries with the other ranks when an exchange is due (storing
    /// what arrived into `tt` through the normal store), having searched `nodes`
    /// on this rank. Returns the other ranks' nodes in this search, as last heard.
    fn poll(&self, _tt: &TranspositionTable, _nodes: u64) -> u64 {
        0
    }

    /// Every thread of this rank has stopped, with `results` (one per thread) and
    /// `nodes`. The leader stops the other ranks and returns their results and
    /// final node counts, waiting for them at most `patience` (`None`: as long as
    /// the cluster allows; a search on the clock has only its reserve to spend);
    /// a follower sends its own to the leader.
    fn finish(
        &self,
        _results: &[ThreadResult],
        _nodes: u64,
        _patience: Option<Duration>,
    ) -> Remote {
        Remote::default()
    }
}

/// One process searching alone: the default of every pool.
pub struct Alone;

impl Cluster for Alone {}

/// What the other ranks searched, as the leader collects it at the end of a search.
#[derive(Debug, Clone, Default)]
pub struct Remote {
    /// Every thread's last completed iteration on every other rank.
    pub results: Vec<ThreadResult>,
    /// Their nodes, in total.
    pub nodes: u64,
}

/// Thread 0's part in the exchange with the other ranks: the search's periodic
/// check (every [`CHECK_INTERVAL`](crate::budget::CHECK_INTERVAL) nodes) calls
/// [`Exchange::exchange`], so the search itself drives the exchange and no
/// thread waits on the network.
pub(crate) struct Exchange<'a> {
    cluster: &'a dyn Cluster,
    /// Where the entries the other ranks send are stored.
    tt: &'a TranspositionTable,
}

impl<'a> Exchange<'a> {
    /// Thread 0's exchange with the other ranks of `cluster`, into `tt`.
    pub fn new(cluster: &'a dyn Cluster, tt: &'a TranspositionTable) -> Exchange<'a> {
        Exchange { cluster, tt }
    }

    /// Polls the other ranks ([`Cluster::poll`]): entries are exchanged when an
    /// exchange is due, and the other ranks' nodes, as last heard, go into the
    /// search's total in `counters`.
    pub fn exchange(&self, counters: &Counters) {
        counters.heard_from_other_ranks(self.cluster.poll(self.tt, counters.local()));
    }
}
