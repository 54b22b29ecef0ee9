//! What the search threads count: each thread's tablebase hits, and one node
//! total for the search.
//!
//! A thread counts its nodes in its own worker (`Worker::nodes`, a plain
//! integer) and publishes them ([`NodeBudget::publish`](crate::budget::NodeBudget::publish),
//! every [`CHECK_INTERVAL`](crate::budget::CHECK_INTERVAL) nodes, after each
//! iteration and at the end) by adding what it searched since it last did to
//! [`Counters::total`]: one `fetch_add` on a shared line per thread per 1024
//! nodes or so. So the total is one read for whoever wants it (the reports, the
//! node limits), whatever the number of threads, and in a cluster it holds the
//! other ranks' nodes too, as last heard ([`Counters::heard_from_other_ranks`]).
//!
//! The tablebase hits are counted at each hit, so each thread counts its own on
//! a cache line of its own ([`ThreadCounts`]), with plain stores, and the
//! reports sum them.
//!
//! Everything here is zeroed in one place, before each search ([`Counters::reset`]).

use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// One thread's counts. Only that thread writes them.
#[derive(Debug, Default)]
pub(crate) struct ThreadCounts {
    /// Tablebase probes inside the search that answered, counted at each.
    tb_hits: AtomicU64,
}

impl ThreadCounts {
    /// Counts one tablebase hit. Only the owning thread writes the count, so a
    /// load and a store do what a locked `fetch_add` would, without the lock.
    pub fn tb_hit(&self) {
        self.tb_hits.store(self.tb_hits.load(Relaxed) + 1, Relaxed);
    }
}

/// Every thread's counts, and the search's node total.
#[derive(Debug)]
pub(crate) struct Counters {
    threads: Box<[CachePadded<ThreadCounts>]>,
    /// The nodes of this search: every thread's, as last published, and in a
    /// cluster the other ranks', as last heard.
    total: CachePadded<AtomicU64>,
    /// The other ranks' nodes as last heard, already in `total` (a cluster
    /// only): written and read by thread 0 alone, which keeps the total in step.
    remote: AtomicU64,
}

impl Counters {
    /// Zeroed counts for `threads` threads.
    pub fn new(threads: usize) -> Counters {
        Counters {
            threads: (0..threads).map(|_| CachePadded::new(ThreadCounts::default())).collect(),
            total: CachePadded::new(AtomicU64::new(0)),
            remote: AtomicU64::new(0),
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
            t.tb_hits.store(0, Relaxed);
        }
        self.total.store(0, Relaxed);
        self.remote.store(0, Relaxed);
    }

    /// Adds `nodes` a thread has searched since it last published, and returns
    /// the total with them.
    pub fn add(&self, nodes: u64) -> u64 {
        self.total.fetch_add(nodes, Relaxed).wrapping_add(nodes)
    }

    /// The nodes of this search: every thread's as last published, and in a
    /// cluster the other ranks' as last heard.
    pub fn total(&self) -> u64 {
        self.total.load(Relaxed)
    }

    /// The nodes of this process's threads, as last published (thread 0 only,
    /// which alone hears the other ranks).
    pub fn local(&self) -> u64 {
        self.total().saturating_sub(self.remote.load(Relaxed))
    }

    /// Thread 0: the other ranks have searched `nodes` in this search, as a
    /// cluster exchange (or the end of the search) just heard; the total takes
    /// the difference. Nothing is written when the figure did not change, so
    /// that the readers' copies of the total stay valid between exchanges.
    pub fn heard_from_other_ranks(&self, nodes: u64) {
        let last = self.remote.load(Relaxed);
        if last != nodes {
            self.remote.store(nodes, Relaxed);
            self.add(nodes.wrapping_sub(last));
        }
    }

    /// The tablebase hits of every thread.
    pub fn tb_hits(&self) -> u64 {
        self.threads.iter().map(|t| t.tb_hits.load(Relaxed)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_counts_every_thread_and_rank_and_reset_clears_it() {
        let counters = Counters::new(3);
        assert_eq!((counters.add(1024), counters.add(2048)), (1024, 3072));
        for _ in 0..5 {
            counters.thread(1).tb_hit();
        }
        counters.thread(2).tb_hit();
        assert_eq!((counters.total(), counters.tb_hits()), (3072, 6));
        counters.heard_from_other_ranks(1000);
        assert_eq!((counters.total(), counters.local()), (4072, 3072));
        counters.heard_from_other_ranks(1500);
        counters.heard_from_other_ranks(1500);
        assert_eq!((counters.total(), counters.local()), (4572, 3072));
        counters.heard_from_other_ranks(1200);
        assert_eq!((counters.total(), counters.local()), (4272, 3072), "a lower final count");
        counters.reset();
        assert_eq!((counters.total(), counters.local(), counters.tb_hits()), (0, 0, 0));
    }

    #[test]
    fn each_thread_counts_on_a_line_of_its_own() {
        let counters = Counters::new(2);
        let (a, b) = (counters.thread(0) as *const _ as usize, counters.thread(1) as *const _);
        assert!(b as usize - a >= 64, "two threads' counts share a cache line");
    }
}
