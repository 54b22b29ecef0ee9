//! What the search threads count, and the totals.
//!
//! Each thread writes only its own [`ThreadCounts`], on a cache line of its own,
//! with plain stores; whoever wants a total (the reports, the stopping rules)
//! reads every thread's line and sums. So counting never makes two threads
//! write one line, with one exception, under `go nodes` with several threads:
//! the nodes are claimed from one shared total, a chunk of
//! [`CHECK_INTERVAL`](crate::budget::CHECK_INTERVAL) nodes at a time
//! ([`Counters::spend`]), one read-modify-write per thread per chunk (see
//! `budget.rs`).
//!
//! [`NodeCounts`] is one thread's view of the node counts of a search: where it
//! publishes its own count, and the totals it reads, which in a cluster include
//! the other ranks' nodes as last heard. The reports and `go nodes` read it; the
//! stop rules only consult it.

use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One thread's counts. Only that thread writes them.
#[derive(Debug, Default)]
pub(crate) struct ThreadCounts {
    /// Nodes searched in this `go`, as last published (every
    /// `CHECK_INTERVAL` nodes, after each iteration, and at the end).
    nodes: AtomicU64,
    /// Tablebase probes inside the search that answered, counted at each.
    tb_hits: AtomicU64,
}

impl ThreadCounts {
    /// Publishes this thread's node count.
    pub fn publish_nodes(&self, nodes: u64) {
        self.nodes.store(nodes, Relaxed);
    }

    /// Counts one tablebase hit. Only the owning thread writes the count, so a
    /// load and a store do what a locked `fetch_add` would, without the lock.
    pub fn tb_hit(&self) {
        self.tb_hits.store(self.tb_hits.load(Relaxed) + 1, Relaxed);
    }
}

/// Every thread's counts, and the node budget of `go nodes`.
#[derive(Debug)]
pub(crate) struct Counters {
    threads: Box<[CachePadded<ThreadCounts>]>,
    /// Under `go nodes` with several threads: the nodes every thread has
    /// searched, in whole chunks, all threads together.
    spent: CachePadded<AtomicU64>,
}

impl Counters {
    /// Zeroed counts for `threads` threads.
    pub fn new(threads: usize) -> Counters {
        Counters {
            threads: (0..threads).map(|_| CachePadded::new(ThreadCounts::default())).collect(),
            spent: CachePadded::new(AtomicU64::new(0)),
        }
    }

    /// The number of threads counted.
    pub fn len(&self) -> usize {
        self.threads.len()
    }

    /// Thread `id`'s counts.
    pub fn thread(&self, id: usize) -> &ThreadCounts {
        &self.threads[id]
    }

    /// Before a search (no thread is counting): everything back to zero.
    pub fn reset(&self) {
        for t in &*self.threads {
            t.nodes.store(0, Relaxed);
            t.tb_hits.store(0, Relaxed);
        }
        self.spent.store(0, Relaxed);
    }

    /// The nodes of every thread, as last published.
    pub fn nodes(&self) -> u64 {
        self.threads.iter().map(|t| t.nodes.load(Relaxed)).sum()
    }

    /// The tablebase hits of every thread.
    pub fn tb_hits(&self) -> u64 {
        self.threads.iter().map(|t| t.tb_hits.load(Relaxed)).sum()
    }

    /// Adds a chunk of `nodes` one thread has searched to the shared total, and
    /// returns the total with it: the chunks of all threads, each counted once.
    pub fn spend(&self, nodes: u64) -> u64 {
        self.spent.fetch_add(nodes, Relaxed) + nodes
    }
}

/// One thread's view of the node counts of a search (see the module
/// documentation): a thread, the counts of its process, and in a cluster the
/// other ranks' nodes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NodeCounts<'a> {
    counters: &'a Counters,
    /// The thread whose count [`NodeCounts::publish`] writes.
    me: usize,
    /// The other ranks' nodes in this search, as last heard (a cluster only).
    remote: Option<&'a AtomicU64>,
}

impl<'a> NodeCounts<'a> {
    /// Thread `me`'s view of `counters`, for a process searching alone.
    pub fn new(counters: &'a Counters, me: usize) -> NodeCounts<'a> {
        NodeCounts { counters, me, remote: None }
    }

    /// The same view in a cluster: the totals include the other ranks' nodes,
    /// as last heard in `remote` (written by [`NodeCounts::heard_from_other_ranks`]).
    pub fn with_other_ranks(self, remote: &'a AtomicU64) -> NodeCounts<'a> {
        NodeCounts { remote: Some(remote), ..self }
    }

    /// Whether the totals count other ranks too.
    pub fn in_cluster(&self) -> bool {
        self.remote.is_some()
    }

    /// How many threads of this process count.
    pub fn threads(&self) -> usize {
        self.counters.len()
    }

    /// Publishes this thread's node count (for reports and the node limits).
    pub fn publish(&self, nodes: u64) {
        self.counters.thread(self.me).publish_nodes(nodes);
    }

    /// The nodes of all threads (of every rank, in a cluster), as last published.
    pub fn total(&self) -> u64 {
        self.local() + self.remote()
    }

    /// The nodes of this process's threads, as last published.
    pub fn local(&self) -> u64 {
        self.counters.nodes()
    }

    /// The other ranks' nodes in this search, as last heard (0 outside a cluster).
    pub fn remote(&self) -> u64 {
        self.remote.map_or(0, |r| r.load(Relaxed))
    }

    /// Records the other ranks' nodes, as a cluster exchange just heard them
    /// (ignored outside a cluster). The line is written only when the figure
    /// changed, so that the readers' copies stay valid between exchanges.
    pub fn heard_from_other_ranks(&self, nodes: u64) {
        if let Some(remote) = self.remote
            && remote.load(Relaxed) != nodes
        {
            remote.store(nodes, Relaxed);
        }
    }

    /// Under `go nodes` with several threads (or ranks): adds the `chunk` this
    /// thread has just searched to the shared total and returns what all have
    /// spent, the other ranks' nodes included.
    pub fn spend(&self, chunk: u64) -> u64 {
        self.counters.spend(chunk) + self.remote()
    }

    /// The tablebase hits of every thread of this process.
    pub fn tb_hits(&self) -> u64 {
        self.counters.tb_hits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_sum_every_thread_and_reset_clears_them() {
        let counters = Counters::new(3);
        counters.thread(0).publish_nodes(1024);
        counters.thread(2).publish_nodes(2048);
        for _ in 0..5 {
            counters.thread(1).tb_hit();
        }
        counters.thread(2).tb_hit();
        assert_eq!((counters.nodes(), counters.tb_hits()), (3072, 6));
        assert_eq!((counters.spend(1024), counters.spend(1024)), (1024, 2048));
        counters.reset();
        assert_eq!((counters.nodes(), counters.tb_hits(), counters.spend(1)), (0, 0, 1));
    }

    #[test]
    fn each_thread_counts_on_a_line_of_its_own() {
        let counters = Counters::new(2);
        let (a, b) = (counters.thread(0) as *const _ as usize, counters.thread(1) as *const _);
        assert!(b as usize - a >= 64, "two threads' counts share a cache line");
    }

    #[test]
    fn a_view_publishes_its_own_count_and_reads_every_rank() {
        let counters = Counters::new(2);
        let remote = AtomicU64::new(0);
        let alone = NodeCounts::new(&counters, 1);
        let clustered = NodeCounts::new(&counters, 0).with_other_ranks(&remote);
        alone.publish(100);
        clustered.publish(50);
        assert_eq!((alone.total(), alone.remote(), alone.in_cluster()), (150, 0, false));
        clustered.heard_from_other_ranks(1000);
        alone.heard_from_other_ranks(7);
        assert_eq!((clustered.local(), clustered.total()), (150, 1150));
        assert_eq!(alone.total(), 150, "a view outside the cluster heard other ranks");
        assert_eq!(clustered.spend(1024), 2024);
        assert_eq!(alone.spend(1024), 2048);
    }
}
