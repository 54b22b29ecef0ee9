//! How many nodes a thread may search: [`NodeBudget`], one thread's view for
//! one `go`, counts its nodes, publishes the count, makes the cluster's
//! exchange (thread 0 of a rank) and applies `go nodes` and the stop flag. The
//! clock is another part (`Clock` in `time.rs`); the search's periodic check
//! asks both (`SearchContext::enter_node` in `worker.rs`), and what the threads
//! share about stopping is [`Signals`] (`signals.rs`).
//!
//! | rule | checked | by |
//! |---|---|---|
//! | the stop flag (`stop`, `quit`, another thread reached a limit) | every node | every thread (the main thread from its second iteration) |
//! | `go nodes N`, one thread | every node (exact: at most N nodes) | the main thread |
//! | `go nodes N`, several threads (or ranks): the search's total | every [`CHECK_INTERVAL`] nodes | every thread |
//! | the clock's hard limit (the deadline; not while pondering) | every [`CHECK_INTERVAL`] nodes | every thread ([`Clock::out_of_time`](crate::time::Clock::out_of_time)) |
//! | the clock's soft limit, `go mate`, the soft node limit | after each iteration | the main thread (`deepening.rs`) |
//!
//! Every [`CHECK_INTERVAL`] nodes a thread does, in this order, each as a call of
//! its own: it publishes its node count ([`NodeBudget::publish`]); thread 0 of a
//! cluster rank exchanges with the other ranks ([`Exchange::exchange`]); under
//! `go nodes` with several threads it compares the total with the limit
//! ([`NodeBudget::check`]); then the clock's part: the main thread follows a
//! `ponderhit`, and every thread reads the deadline.
//!
//! The main thread finishes its first iteration whatever the flag says (depth
//! 1 takes well under a millisecond), so a `stop` right after `go`, or a clock
//! that ran out before the thread was scheduled, still gets a searched move
//! rather than the first legal one. Only `go nodes` on one thread cuts it short,
//! since it promises at most N nodes.
//!
//! A limit that is reached stops every thread ([`Signals::stop_threads`]). The
//! best move is still held back while `go infinite` or `go ponder` holds, and
//! until the clock's earliest answer (`Clock::wait_to_answer`).
//!
//! A thread's count is its worker's (`Worker::nodes`); publishing it adds what
//! the thread searched since it last published to the search's one total
//! ([`Counters::add`], one `fetch_add`), so no thread sums the others' counts.
//! Under `go nodes N` with several threads, a thread stops the search when, at
//! its check, that total reaches N. The total counts every published node of
//! every thread exactly once, so the search stops after at least N nodes, and
//! the other threads have searched less than [`CHECK_INTERVAL`] nodes each that
//! the total does not hold yet: between N and N + threads × [`CHECK_INTERVAL`]
//! (plus the node or two a running thread searches before the stop flag
//! reaches it). In a cluster the total includes the other ranks' nodes, as last
//! heard, so even a lone thread checks the total every [`CHECK_INTERVAL`] nodes.

use crate::cluster::Exchange;
use crate::counters::Counters;
use crate::limits::SearchLimits;
use crate::signals::Signals;
use std::cell::Cell;

/// How often (in nodes) a thread publishes its node count and checks the limits
/// that are not checked at every node.
pub(crate) const CHECK_INTERVAL: u64 = 1024;

/// One thread's node budget for one search (see the module documentation).
pub(crate) struct NodeBudget<'a> {
    signals: &'a Signals,
    /// The search's counts: the node total this thread publishes to.
    counters: &'a Counters,
    /// This thread's count as last published (added to the total).
    published: Cell<u64>,
    /// `go nodes` when this thread searches alone: checked at every node.
    exact_node_limit: Option<u64>,
    /// `go nodes` with several threads (or ranks): the search's total,
    /// checked every [`CHECK_INTERVAL`] nodes.
    total_node_limit: Option<u64>,
    /// Thread 0's exchange with the other ranks, in a cluster.
    exchange: Option<Exchange<'a>>,
    /// The main thread until its first iteration is complete: the stop flag
    /// waits for it (see the module documentation).
    finishing_first_iteration: Cell<bool>,
}

impl<'a> NodeBudget<'a> {
    /// The budget of a thread that publishes to `counters`, under `limits`.
    pub fn new(
        signals: &'a Signals,
        counters: &'a Counters,
        limits: &SearchLimits,
    ) -> NodeBudget<'a> {
        let alone = counters.len() == 1;
        NodeBudget {
            signals,
            counters,
            published: Cell::new(0),
            exact_node_limit: if alone { limits.nodes } else { None },
            total_node_limit: if alone { None } else { limits.nodes },
            exchange: None,
            finishing_first_iteration: Cell::new(false),
        }
    }

    /// The main thread's budget: its first iteration is finished whatever the
    /// stop flag says, until [`NodeBudget::first_iteration_done`].
    pub fn finishing_first_iteration(self) -> NodeBudget<'a> {
        self.finishing_first_iteration.set(true);
        self
    }

    /// Thread 0 of a cluster rank: its periodic check also makes the `exchange`
    /// with the other ranks, and `go nodes` counts the total of every rank.
    pub fn with_exchange(self, exchange: Exchange<'a>) -> NodeBudget<'a> {
        let total_node_limit = self.total_node_limit.or(self.exact_node_limit);
        NodeBudget { exchange: Some(exchange), exact_node_limit: None, total_node_limit, ..self }
    }

    /// Publishes this thread's count, `nodes`: what it searched since it last
    /// did goes to the search's total.
    pub fn publish(&self, nodes: u64) {
        let new = nodes.saturating_sub(self.published.get());
        if new > 0 {
            self.counters.add(new);
            self.published.set(nodes);
        }
    }

    /// Called before each node: `true` means stop now. Otherwise the node is
    /// counted in `nodes` (so `go nodes N` searches at most N nodes on one
    /// thread); the caller then makes the periodic check when `nodes` is a
    /// multiple of [`CHECK_INTERVAL`].
    #[inline(always)]
    pub fn enter_node(&self, nodes: &mut u64) -> bool {
        if self.exact_node_limit.is_some_and(|n| *nodes >= n) {
            self.signals.stop_threads();
            return true;
        }
        if self.signals.is_stopped() && !self.finishing_first_iteration.get() {
            return true;
        }
        *nodes += 1;
        false
    }

    /// The budget's part of the periodic check, having searched `nodes`, one
    /// step each: publish the count, make the cluster's exchange (thread 0 of a
    /// rank), then compare the total with `go nodes` (several threads or
    /// ranks). Returns whether the total reached the limit.
    pub fn check(&self, nodes: u64) -> bool {
        self.publish(nodes);
        if let Some(exchange) = &self.exchange {
            exchange.exchange(self.counters);
        }
        self.total_node_limit.is_some_and(|n| self.counters.total() >= n)
    }

    /// The main thread's first iteration is over: from now on the stop flag
    /// stops it at the next node.
    pub fn first_iteration_done(&self) {
        self.finishing_first_iteration.set(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counters(n: usize) -> Counters {
        Counters::new(n)
    }

    /// A thread's budget, publishing to `counters`.
    fn check<'a>(
        signals: &'a Signals,
        counters: &'a Counters,
        limits: &'a SearchLimits,
    ) -> NodeBudget<'a> {
        NodeBudget::new(signals, counters, limits)
    }

    /// Enters a node as the search does (with the budget's part of the
    /// periodic check); `true`: stop.
    fn enter(check: &NodeBudget, nodes: &mut u64) -> bool {
        if check.enter_node(nodes) {
            return true;
        }
        if nodes.is_multiple_of(CHECK_INTERVAL) && check.check(*nodes) {
            check.signals.stop_threads();
        }
        false
    }

    /// Enters nodes until told to stop; returns the nodes counted.
    fn run(check: &NodeBudget, max: u64) -> u64 {
        let mut nodes = 0;
        while nodes < max && !enter(check, &mut nodes) {}
        nodes
    }

    #[test]
    fn one_thread_searches_exactly_the_node_limit() {
        let signals = Signals::new();
        let counters = counters(1);
        let limits = SearchLimits { nodes: Some(3000), ..SearchLimits::default() };
        let check = check(&signals, &counters, &limits);
        assert_eq!(run(&check, 10_000), 3000);
        assert!(signals.is_stopped());
    }

    #[test]
    fn the_main_thread_finishes_its_first_iteration_after_a_stop() {
        let signals = Signals::new();
        let counters = counters(1);
        let limits = SearchLimits::default();
        let main = check(&signals, &counters, &limits).finishing_first_iteration();
        signals.interrupt();
        assert_eq!(run(&main, 3 * CHECK_INTERVAL), 3 * CHECK_INTERVAL, "depth 1 was cut short");
        main.first_iteration_done();
        assert_eq!(run(&main, 3 * CHECK_INTERVAL), 0, "the second iteration ignored the stop");
        let helper = check(&signals, &counters, &limits);
        assert_eq!(run(&helper, 3 * CHECK_INTERVAL), 0, "a helper waited for its first iteration");
    }

    #[test]
    fn several_threads_stop_on_their_total() {
        let signals = Signals::new();
        let counters = counters(2);
        let limits = SearchLimits { nodes: Some(5000), ..SearchLimits::default() };
        let helper = check(&signals, &counters, &limits);
        // The other thread has published 3072 nodes: this one stops at its first
        // check past a total of 5000 (3072 + 1024 is not enough, 3072 + 2048 is).
        counters.add(3 * CHECK_INTERVAL);
        assert_eq!(run(&helper, 10_000), 2 * CHECK_INTERVAL);
        assert!(signals.is_stopped());
    }

    #[test]
    fn many_threads_stop_between_the_node_limit_and_a_chunk_a_thread_past_it() {
        const THREADS: usize = 8;
        const LIMIT: u64 = 100_000;
        for _ in 0..20 {
            let signals = Signals::new();
            let counters = counters(THREADS);
            let limits = SearchLimits { nodes: Some(LIMIT), ..SearchLimits::default() };
            let start = std::sync::Barrier::new(THREADS);
            let total: u64 = std::thread::scope(|s| {
                let threads: Vec<_> = (0..THREADS)
                    .map(|_| {
                        let (signals, counters, limits) = (&signals, &counters, &limits);
                        let start = &start;
                        s.spawn(move || {
                            let check = check(signals, counters, limits);
                            start.wait();
                            // Some work per node, as a search does, so that the
                            // threads' time slices interleave through the search.
                            let mut nodes = 0;
                            while !enter(&check, &mut nodes) {
                                (0..64u64).for_each(|i| {
                                    std::hint::black_box(i);
                                });
                            }
                            nodes
                        })
                    })
                    .collect();
                threads.into_iter().map(|t| t.join().expect("a searching thread")).sum()
            });
            // A chunk a thread, and one more for the nodes a running thread
            // searches before the stop flag reaches it.
            let most = LIMIT + (THREADS as u64 + 1) * CHECK_INTERVAL;
            assert!((LIMIT..=most).contains(&total), "{total} nodes for go nodes {LIMIT}");
        }
    }
}
