//! When a search stops: [`StopCheck`], one thread's view for one `go`, is the
//! one place that decides it. What the threads share about stopping (the stop
//! flag, the hold of `go infinite` / `go ponder`, `ponderhit`, the published
//! deadline) is [`Signals`], in `signals.rs`; the clock's figures are the time
//! manager's (`time.rs`), the node counts [`NodeCounts`] (`counters.rs`).
//!
//! | rule | checked | by |
//! |---|---|---|
//! | the stop flag (`stop`, `quit`, another thread reached a limit) | every node | every thread (the main thread from its second iteration) |
//! | `go nodes N`, one thread | every node (exact: at most N nodes) | the main thread |
//! | `go nodes N`, several threads: the total of all threads (each adds its chunk to one shared total) | every [`CHECK_INTERVAL`] nodes | every thread |
//! | the clock's hard limit (not while pondering) | every [`CHECK_INTERVAL`] nodes | every thread |
//! | the clock's soft limit, `go mate`, the soft node limit | after each iteration | the main thread |
//!
//! Every [`CHECK_INTERVAL`] nodes a thread does, in this order, each as a call of
//! its own: it publishes its node count ([`NodeCounts::publish`]); thread 0 of a
//! cluster rank exchanges with the other ranks ([`Exchange::exchange`]); the main
//! thread follows a `ponderhit` (the time manager restarts the clock,
//! [`TimeManager::restart`], and the new deadline is published); then the rules
//! of that row above are applied.
//!
//! Only the main thread keeps the clock, but the hard limit's deadline is published
//! before the threads start ([`Signals::arm`]; after `ponderhit` the main thread
//! publishes the new one) and every helper reads it too: with more threads
//! than cores the main thread runs only now and then (with 64 threads on two cores
//! it waits tens of milliseconds for each time slice), and the first thread to run
//! after the deadline stops them all. The other threads then unwind at once, so the main thread runs
//! soon after to announce the move.
//!
//! The main thread finishes its first iteration whatever the flag says (depth
//! 1 takes well under a millisecond), so a `stop` right after `go`, or a clock
//! that ran out before the thread was scheduled, still gets a searched move
//! rather than the first legal one. Only `go nodes` on one thread cuts it short,
//! since it promises at most N nodes.
//!
//! A limit that is reached stops every thread ([`Signals::stop_threads`]). The
//! best move is still held back while `go infinite` or `go ponder` holds (only
//! `stop` or `ponderhit` releases it), and, when the search asked for one
//! ([`SearchLimits::min_time`]), until the clock's earliest answer: the main
//! thread waits for both in [`StopCheck::wait_to_answer`].
//!
//! Under `go nodes N` with several threads, a thread does not sum the others'
//! counts (with N threads that would be N reads of N lines per check, N² in
//! all): at each check it adds the [`CHECK_INTERVAL`] nodes it has just searched
//! to one shared total ([`NodeCounts::spend`], one `fetch_add`) and stops the search
//! when that total reaches N. The total counts every finished chunk of every
//! thread exactly once, so the search stops after at least N nodes, and the
//! chunks the other threads have begun add less than [`CHECK_INTERVAL`] nodes
//! each: between N and N + threads × [`CHECK_INTERVAL`] (plus the node or two a
//! running thread searches before the stop flag reaches it). In a cluster the
//! totals include the other ranks' nodes, as last heard, so even a lone thread
//! checks the total every [`CHECK_INTERVAL`] nodes.

use crate::cluster::Exchange;
use crate::counters::NodeCounts;
use crate::limits::SearchLimits;
use crate::signals::Signals;
use crate::time::TimeManager;
use std::cell::Cell;
use std::time::{Duration, Instant};
use tt::{MATE, MATE_BOUND};

/// How often (in nodes) a thread publishes its node count and checks the limits
/// that are not checked at every node.
pub(crate) const CHECK_INTERVAL: u64 = 1024;

/// One thread's stopping rules for one search (see the module documentation).
pub(crate) struct StopCheck<'a> {
    signals: &'a Signals,
    /// This thread's node counts and the totals.
    nodes: NodeCounts<'a>,
    limits: &'a SearchLimits,
    /// `go nodes` when this thread searches alone: checked at every node.
    exact_node_limit: Option<u64>,
    /// `go nodes` with several threads (or ranks): their total (the chunks
    /// spent), checked every [`CHECK_INTERVAL`] nodes.
    total_node_limit: Option<u64>,
    /// The main thread's clock (helpers have none). Only this thread reads or restarts it.
    clock: Option<Cell<TimeManager>>,
    /// Thread 0's exchange with the other ranks, in a cluster.
    exchange: Option<Exchange<'a>>,
    /// The main thread until its first iteration is complete: the stop flag
    /// waits for it (see the module documentation).
    finishing_first_iteration: Cell<bool>,
}

impl<'a> StopCheck<'a> {
    /// The rules of the thread that counts in `nodes`; `clock` for the main thread only.
    pub fn new(
        signals: &'a Signals,
        nodes: NodeCounts<'a>,
        limits: &'a SearchLimits,
        clock: Option<TimeManager>,
    ) -> StopCheck<'a> {
        let alone = nodes.threads() == 1 && !nodes.in_cluster();
        StopCheck {
            signals,
            nodes,
            limits,
            exact_node_limit: if alone { limits.nodes } else { None },
            total_node_limit: if alone { None } else { limits.nodes },
            clock: clock.map(Cell::new),
            exchange: None,
            finishing_first_iteration: Cell::new(false),
        }
    }

    /// The main thread's rules: its first iteration is finished whatever the
    /// stop flag says, until [`StopCheck::first_iteration_done`].
    pub fn finishing_first_iteration(self) -> StopCheck<'a> {
        self.finishing_first_iteration.set(true);
        self
    }

    /// Thread 0 of a cluster rank: its periodic check also makes the `exchange`
    /// with the other ranks.
    pub fn with_exchange(self, exchange: Exchange<'a>) -> StopCheck<'a> {
        StopCheck { exchange: Some(exchange), ..self }
    }

    /// Called before each node: `true` means stop now. Otherwise the node is
    /// counted in `nodes` (so `go nodes N` searches at most N nodes on one thread).
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
        if nodes.is_multiple_of(CHECK_INTERVAL) {
            self.every_check_interval(*nodes);
        }
        false
    }

    /// What a thread does every [`CHECK_INTERVAL`] nodes, having searched
    /// `nodes`, one step each: publish the count, make the cluster's exchange
    /// (thread 0 of a rank), follow a `ponderhit` (the main thread), then apply
    /// the periodic limits (a chunk of `go nodes` is spent here, once per check).
    fn every_check_interval(&self, nodes: u64) {
        self.nodes.publish(nodes);
        if let Some(exchange) = &self.exchange {
            exchange.exchange(&self.nodes);
        }
        self.follow_ponderhit();
        let spent = self.total_node_limit.map(|_| self.nodes.spend(CHECK_INTERVAL));
        if self.periodic_limit_reached(spent) {
            self.signals.stop_threads();
        }
    }

    /// The limits checked every [`CHECK_INTERVAL`] nodes: the clock (the main
    /// thread's own, the deadline it published for the others) and, under `go
    /// nodes` with several threads, the nodes all have `spent`.
    fn periodic_limit_reached(&self, spent: Option<u64>) -> bool {
        let out_of_time = match &self.clock {
            // While pondering the clock does not run: only `ponderhit` starts it.
            Some(clock) => {
                !(self.limits.ponder && self.signals.is_held()) && clock.get().hard_expired()
            }
            None => self.signals.deadline_passed(),
        };
        out_of_time || spent.zip(self.total_node_limit).is_some_and(|(spent, n)| spent >= n)
    }

    /// The main thread, on a `ponderhit` (if one came): the hold is released, the
    /// time manager restarts the clock and the new hard deadline is published.
    fn follow_ponderhit(&self) {
        if self.clock.is_some() && self.signals.take_ponderhit() {
            self.restart_clock();
        }
    }

    /// The pondered move was played: the clock counts from now.
    fn restart_clock(&self) {
        if let Some(clock) = &self.clock {
            let mut restarted = clock.get();
            self.signals.set_deadline(restarted.restart(Instant::now()));
            clock.set(restarted);
        }
    }

    /// The main thread's first iteration is over: from now on the stop flag
    /// stops it at the next node.
    pub fn first_iteration_done(&self) {
        self.finishing_first_iteration.set(false);
    }

    /// After a completed iteration of the main thread, with its best `score`:
    /// whether to start no other. `scale` stretches the soft time limit (see
    /// [`crate::time::Stability`]), `next` is the next iteration's predicted
    /// length; `nodes` is this thread's count.
    pub fn stop_deepening(&self, score: i32, scale: f64, next: Duration, nodes: u64) -> bool {
        let mate_found =
            self.limits.mate.is_some_and(|m| score >= MATE_BOUND && MATE - score <= 2 * m as i32);
        let soft_time = !self.signals.is_held()
            && self.clock.as_ref().is_some_and(|c| c.get().soft_expired(scale, next));
        let soft_nodes = self.limits.soft_nodes.is_some_and(|n| self.nodes.total().max(nodes) >= n);
        mate_found || soft_time || soft_nodes
    }

    /// The main thread's search is over; before its best move is announced:
    /// waits out the hold of `go infinite` / `go ponder` (until `stop` or
    /// `ponderhit`; the other threads search on meanwhile), stops every thread,
    /// then holds the move back until the clock's earliest answer (counted from
    /// the ponder hit, if there was one), unless `stop` comes first.
    pub fn wait_to_answer(&self) {
        if self.signals.wait_for_release() {
            self.restart_clock();
        }
        self.signals.stop_threads();
        if let Some(at) = self.clock.as_ref().and_then(|c| c.get().earliest_answer()) {
            self.signals.wait_until(at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counters::Counters;
    use std::time::Duration;

    fn counters(n: usize) -> Counters {
        Counters::new(n)
    }

    /// Thread `me`'s rules, counting in `counters`.
    fn check<'a>(
        signals: &'a Signals,
        counters: &'a Counters,
        me: usize,
        limits: &'a SearchLimits,
        clock: Option<TimeManager>,
    ) -> StopCheck<'a> {
        StopCheck::new(signals, NodeCounts::new(counters, me), limits, clock)
    }

    /// Enters nodes until told to stop; returns the nodes counted.
    fn run(check: &StopCheck, max: u64) -> u64 {
        let mut nodes = 0;
        while nodes < max && !check.enter_node(&mut nodes) {}
        nodes
    }

    #[test]
    fn one_thread_searches_exactly_the_node_limit() {
        let signals = Signals::new();
        let counters = counters(1);
        let limits = SearchLimits { nodes: Some(3000), ..SearchLimits::default() };
        let check = check(&signals, &counters, 0, &limits, None);
        assert_eq!(run(&check, 10_000), 3000);
        assert!(signals.is_stopped());
    }

    #[test]
    fn the_main_thread_finishes_its_first_iteration_after_a_stop() {
        let signals = Signals::new();
        let counters = counters(1);
        let limits = SearchLimits::default();
        let main = check(&signals, &counters, 0, &limits, None).finishing_first_iteration();
        signals.interrupt();
        assert_eq!(run(&main, 3 * CHECK_INTERVAL), 3 * CHECK_INTERVAL, "depth 1 was cut short");
        main.first_iteration_done();
        assert_eq!(run(&main, 3 * CHECK_INTERVAL), 0, "the second iteration ignored the stop");
        let helper = check(&signals, &counters, 0, &limits, None);
        assert_eq!(run(&helper, 3 * CHECK_INTERVAL), 0, "a helper waited for its first iteration");
    }

    #[test]
    fn several_threads_stop_on_their_total() {
        let signals = Signals::new();
        let counters = counters(2);
        let limits = SearchLimits { nodes: Some(5000), ..SearchLimits::default() };
        let helper = check(&signals, &counters, 1, &limits, None);
        // The other thread has spent three chunks (3072 nodes): this one stops at
        // its first check past a total of 5000 (3072 + 1024 is not enough, 3072 +
        // 2048 is).
        counters.spend(3 * CHECK_INTERVAL);
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
                    .map(|me| {
                        let (signals, counters, limits) = (&signals, &counters, &limits);
                        let start = &start;
                        s.spawn(move || {
                            let check = check(signals, counters, me, limits, None);
                            start.wait();
                            // Some work per node, as a search does, so that the
                            // threads' time slices interleave through the search.
                            let mut nodes = 0;
                            while !check.enter_node(&mut nodes) {
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

    #[test]
    fn the_clock_does_not_run_while_pondering() {
        let signals = Signals::new();
        let counters = counters(1);
        let limits = SearchLimits {
            move_time: Some(Duration::from_millis(1)),
            ponder: true,
            ..SearchLimits::default()
        };
        let clock =
            TimeManager::new(&limits, &board::Board::startpos(), Duration::ZERO, Instant::now());
        std::thread::sleep(Duration::from_millis(5));
        assert!(clock.hard_expired());
        signals.arm(true, None);
        let check = check(&signals, &counters, 0, &limits, Some(clock));
        assert_eq!(run(&check, 4 * CHECK_INTERVAL), 4 * CHECK_INTERVAL, "stopped while pondering");
        // Without the hold (as after `ponderhit`) the expired clock stops the search.
        signals.arm(false, None);
        assert_eq!(run(&check, 4 * CHECK_INTERVAL), CHECK_INTERVAL);
    }

    /// The main thread's clock for `limits`, started now.
    fn clock_of(limits: &SearchLimits) -> TimeManager {
        TimeManager::new(limits, &board::Board::startpos(), Duration::ZERO, Instant::now())
    }

    #[test]
    fn a_helper_stops_on_the_deadline_while_the_main_thread_does_not_run() {
        let signals = Signals::new();
        let counters = counters(2);
        let limits =
            SearchLimits { move_time: Some(Duration::from_millis(1)), ..SearchLimits::default() };
        // The main thread gets no CPU at all: the deadline was published before.
        signals.arm(false, clock_of(&limits).hard_deadline());
        let helper = check(&signals, &counters, 1, &limits, None);
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(
            run(&helper, 4 * CHECK_INTERVAL),
            CHECK_INTERVAL,
            "the helper ran past the hard limit"
        );
        assert!(signals.is_stopped());
        // The next search, with no limit, has no deadline.
        signals.arm(false, None);
        assert!(!signals.deadline_passed(), "a deadline outlived its search");
        assert_eq!(run(&helper, 4 * CHECK_INTERVAL), 4 * CHECK_INTERVAL, "stopped with no limit");
    }

    #[test]
    fn a_helper_does_not_stop_on_the_clock_while_pondering_but_does_after_ponderhit() {
        let signals = Signals::new();
        let counters = counters(2);
        let limits = SearchLimits {
            move_time: Some(Duration::from_millis(1)),
            ponder: true,
            ..SearchLimits::default()
        };
        signals.arm(true, None);
        let main = check(&signals, &counters, 0, &limits, Some(clock_of(&limits)));
        let helper = check(&signals, &counters, 1, &limits, None);
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(run(&helper, 4 * CHECK_INTERVAL), 4 * CHECK_INTERVAL, "stopped while pondering");
        // `ponderhit`: the main thread restarts its clock at its next check and
        // publishes the new deadline, which the helper then obeys.
        signals.ponderhit();
        assert_eq!(run(&main, CHECK_INTERVAL), CHECK_INTERVAL);
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(run(&helper, 4 * CHECK_INTERVAL), CHECK_INTERVAL, "no stop after ponderhit");
    }

    #[test]
    fn the_move_waits_for_the_least_time_counted_from_the_ponderhit() {
        let signals = Signals::new();
        let counters = counters(1);
        let least = Duration::from_millis(40);
        let limits =
            SearchLimits { min_time: Some(least), ponder: true, ..SearchLimits::default() };
        // Started long ago: the least time has passed, but not since the ponder hit.
        let long_ago = Instant::now() - Duration::from_secs(1);
        let clock = TimeManager::new(&limits, &board::Board::startpos(), Duration::ZERO, long_ago);
        signals.arm(true, None);
        let main = check(&signals, &counters, 0, &limits, Some(clock));
        let before = Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(10));
                signals.ponderhit();
            });
            main.wait_to_answer();
        });
        assert!(before.elapsed() >= Duration::from_millis(10) + least, "{:?}", before.elapsed());
        assert!(signals.is_stopped() && !signals.is_held());
        // `stop` ends the wait at once.
        let limits =
            SearchLimits { min_time: Some(Duration::from_secs(600)), ..SearchLimits::default() };
        let clock = clock_of(&limits);
        signals.arm(false, clock.hard_deadline());
        let main = check(&signals, &counters, 0, &limits, Some(clock));
        let before = Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(10));
                signals.interrupt();
            });
            main.wait_to_answer();
        });
        assert!(before.elapsed() < Duration::from_secs(60), "stop did not end the wait");
    }
}
