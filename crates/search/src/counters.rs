//! What the search threads count, and the totals.
//!
//! Each thread writes only its own [`ThreadCounts`], on a cache line of its own,
//! with plain stores; whoever wants a total (the reports, the stopping rules)
//! reads every thread's line and sums. So counting never makes two threads
//! write one line, with one exception, under `go nodes` with several threads:
//! the nodes are claimed from one shared total, a chunk of
//! [`CHECK_INTERVAL`](crate::stop::CHECK_INTERVAL) nodes at a time
//! ([`Counters::spend`]), one read-modify-write per thread per chunk (see
//! `stop.rs`).

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
}
