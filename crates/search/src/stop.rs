//! When a search stops.
//!
//! [`Signals`] is what the pool's threads share about stopping: the stop flag
//! every thread reads at every node, and the hold of `go infinite` / `go ponder`
//! with the `ponderhit` that releases it. [`StopCheck`] is one thread's view for
//! one `go`, and the one place that decides when that search stops:
//!
//! | rule | checked | by |
//! |---|---|---|
//! | the stop flag (`stop`, `quit`, another thread reached a limit) | every node | every thread (the main thread from its second iteration) |
//! | `go nodes N`, one thread | every node (exact: at most N nodes) | the main thread |
//! | `go nodes N`, several threads: the total of all threads (each adds its chunk to one shared total) | every [`CHECK_INTERVAL`] nodes | every thread |
//! | the clock's hard limit (not while pondering) | every [`CHECK_INTERVAL`] nodes | every thread |
//! | the clock's soft limit, `go mate`, the soft node limit | after each iteration | the main thread |
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
//! A limit that is reached raises the stop flag, so every thread unwinds. The
//! best move is still held back while `go infinite` or `go ponder` holds: only
//! `stop` or `ponderhit` releases it ([`Signals::wait_for_release`]).
//!
//! Under `go nodes N` with several threads, a thread does not sum the others'
//! counts (with N threads that would be N reads of N lines per check, N² in
//! all): at each check it adds the [`CHECK_INTERVAL`] nodes it has just searched
//! to one shared total ([`Counters::spend`], one `fetch_add`) and stops the search
//! when that total reaches N. The total counts every finished chunk of every
//! thread exactly once, so the search stops after at least N nodes, and the
//! chunks the other threads have begun add less than [`CHECK_INTERVAL`] nodes
//! each: between N and N + threads × [`CHECK_INTERVAL`] (plus the node or two a
//! running thread searches before the stop flag reaches it).
//!
//! In a cluster ([`ClusterView`]) node counts include the other ranks', and
//! thread 0 of each rank polls the other ranks at the same every-[`CHECK_INTERVAL`]
//! check: the search itself drives the exchange, so no thread waits on the network.

use crate::cluster::Cluster;
use crate::counters::Counters;
use crate::limits::SearchLimits;
use crate::time::TimeManager;
use crossbeam_utils::CachePadded;
use parking_lot::{Condvar, Mutex};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tt::{MATE, MATE_BOUND, TranspositionTable};

/// How often (in nodes) a thread publishes its node count and checks the limits
/// that are not checked at every node.
pub(crate) const CHECK_INTERVAL: u64 = 1024;

/// What the pool's threads share about stopping.
pub(crate) struct Signals {
    /// Read at every node by every thread: a cache line of its own, so that writes
    /// to the fields around it (locks, flags) never evict it from the readers' caches.
    stop: CachePadded<AtomicBool>,
    /// True while the search must not end on its own (`go infinite`, `go ponder`).
    hold: AtomicBool,
    /// Set by `ponderhit`: the main thread restarts its clock and releases the hold.
    ponderhit: AtomicBool,
    /// The main thread waits out a hold on `released`; `stop` and `ponderhit` wake it.
    lock: Mutex<()>,
    released: Condvar,
    /// The hard limit of the running search, in nanoseconds after `origin`
    /// ([`NO_DEADLINE`] when there is none): written by the main thread, read by all.
    deadline: AtomicU64,
    /// The instant deadlines are counted from.
    origin: Instant,
}

/// [`Signals::deadline`] when the search has no hard limit (or is pondering).
const NO_DEADLINE: u64 = u64::MAX;

impl Signals {
    /// No search: not stopped, not held.
    pub fn new() -> Signals {
        Signals {
            stop: CachePadded::new(AtomicBool::new(false)),
            hold: AtomicBool::new(false),
            ponderhit: AtomicBool::new(false),
            lock: Mutex::new(()),
            released: Condvar::new(),
            deadline: AtomicU64::new(NO_DEADLINE),
            origin: Instant::now(),
        }
    }

    /// Before a search (the pool is idle): clears the stop flag and any old
    /// `ponderhit`; `hold` for `go infinite` and `go ponder`; `deadline` is the
    /// search's hard limit (`None`: none, or not yet: pondering).
    pub fn arm(&self, hold: bool, deadline: Option<Instant>) {
        self.set_deadline(deadline);
        self.stop.store(false, Ordering::SeqCst);
        self.ponderhit.store(false, Ordering::SeqCst);
        self.hold.store(hold, Ordering::SeqCst);
    }

    /// `stop`, `quit` or a new command: releases any hold and stops every thread.
    pub fn stop(&self) {
        self.hold.store(false, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
        self.wake();
    }

    /// The search itself is done (a limit was reached): stops every thread. A hold
    /// still delays the best move until `stop` or `ponderhit`.
    pub fn raise_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// `ponderhit`: the pondered move was played.
    pub fn ponderhit(&self) {
        self.ponderhit.store(true, Ordering::SeqCst);
        self.wake();
    }

    /// Whether the threads must stop now.
    #[inline(always)]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Publishes the hard limit of the running search (`None`: no limit).
    fn set_deadline(&self, deadline: Option<Instant>) {
        let nanos = deadline.map_or(NO_DEADLINE, |d| {
            let nanos = d.saturating_duration_since(self.origin).as_nanos();
            u64::try_from(nanos).unwrap_or(NO_DEADLINE - 1)
        });
        self.deadline.store(nanos, Ordering::Relaxed);
    }

    /// Whether the published hard limit has passed.
    pub fn deadline_passed(&self) -> bool {
        let deadline = self.deadline.load(Ordering::Relaxed);
        deadline != NO_DEADLINE && self.origin.elapsed().as_nanos() >= u128::from(deadline)
    }

    /// Whether the search must not end on its own.
    pub fn is_held(&self) -> bool {
        self.hold.load(Ordering::Relaxed)
    }

    /// Consumes a `ponderhit`, releasing the hold; `true` if there was one.
    fn take_ponderhit(&self) -> bool {
        // A plain load first: the swap takes the line exclusively.
        let hit =
            self.ponderhit.load(Ordering::Relaxed) && self.ponderhit.swap(false, Ordering::SeqCst);
        if hit {
            self.hold.store(false, Ordering::SeqCst);
        }
        hit
    }

    /// Blocks while the search is held, until `stop` or `ponderhit` (no polling:
    /// both wake this thread).
    pub fn wait_for_release(&self) {
        let mut guard = self.lock.lock();
        loop {
            self.take_ponderhit();
            if !self.hold.load(Ordering::SeqCst) {
                return;
            }
            self.released.wait(&mut guard);
        }
    }

    /// Wakes a thread in [`Signals::wait_for_release`]. The flag it rechecks was set
    /// before the lock is taken here, and it checks its flags while holding the
    /// lock, so the wake-up cannot fall between its check and its wait.
    fn wake(&self) {
        drop(self.lock.lock());
        self.released.notify_all();
    }
}

impl Default for Signals {
    fn default() -> Self {
        Signals::new()
    }
}

/// How a thread's stopping rules see the other ranks of a cluster.
pub(crate) struct ClusterView<'a> {
    pub cluster: &'a dyn Cluster,
    /// The other ranks' nodes in this search, as last heard (written by thread 0's polls).
    pub remote_nodes: &'a AtomicU64,
    /// Thread 0 polls and stores what the other ranks send into this table; other threads do not poll.
    pub poll_into: Option<&'a TranspositionTable>,
}

/// One thread's view of the stopping rules for one `go` (see the module documentation).
pub(crate) struct StopCheck<'a> {
    signals: &'a Signals,
    /// Every thread's counts; this thread's are `counters.thread(me)`.
    counters: &'a Counters,
    me: usize,
    limits: &'a SearchLimits,
    /// `go nodes` when this thread searches alone: checked at every node.
    exact_node_limit: Option<u64>,
    /// `go nodes` with several threads: their total (the chunks spent), checked
    /// every [`CHECK_INTERVAL`] nodes.
    total_node_limit: Option<u64>,
    /// The main thread's clock (helpers have none). Only this thread reads or restarts it.
    clock: Option<Cell<TimeManager>>,
    /// The other ranks, in a cluster.
    cluster: Option<ClusterView<'a>>,
    /// The main thread until its first iteration is complete: the stop flag
    /// waits for it (see the module documentation).
    finishing_first_iteration: Cell<bool>,
}

impl<'a> StopCheck<'a> {
    /// Thread `me` of `counters.len()` threads; `clock` for the main thread only.
    pub fn new(
        signals: &'a Signals,
        counters: &'a Counters,
        me: usize,
        limits: &'a SearchLimits,
        clock: Option<TimeManager>,
    ) -> StopCheck<'a> {
        let alone = counters.len() == 1;
        StopCheck {
            signals,
            counters,
            me,
            limits,
            exact_node_limit: if alone { limits.nodes } else { None },
            total_node_limit: if alone { None } else { limits.nodes },
            clock: clock.map(Cell::new),
            cluster: None,
            finishing_first_iteration: Cell::new(false),
        }
    }

    /// The main thread's rules: its first iteration is finished whatever the
    /// stop flag says, until [`StopCheck::first_iteration_done`].
    pub fn finishing_first_iteration(self) -> StopCheck<'a> {
        self.finishing_first_iteration.set(true);
        self
    }

    /// The same rules in a cluster: `go nodes` counts every rank's nodes (so even a
    /// lone thread checks the total every [`CHECK_INTERVAL`] nodes), and thread 0 polls.
    pub fn with_cluster(mut self, view: ClusterView<'a>) -> StopCheck<'a> {
        self.total_node_limit = self.limits.nodes;
        self.exact_node_limit = None;
        self.cluster = Some(view);
        self
    }

    /// Called before each node: `true` means stop now. Otherwise the node is
    /// counted in `nodes` (so `go nodes N` searches at most N nodes on one thread).
    #[inline(always)]
    pub fn enter_node(&self, nodes: &mut u64) -> bool {
        if self.exact_node_limit.is_some_and(|n| *nodes >= n) {
            self.signals.raise_stop();
            return true;
        }
        if self.signals.is_stopped() && !self.finishing_first_iteration.get() {
            return true;
        }
        *nodes += 1;
        if nodes.is_multiple_of(CHECK_INTERVAL) {
            self.publish(*nodes);
            if self.periodic_limit_reached() {
                self.signals.raise_stop();
            }
        }
        false
    }

    /// The limits checked every [`CHECK_INTERVAL`] nodes: the clock (the main thread's
    /// own, the deadline it published for the others) and the total node count
    /// (several threads: this thread's chunk is spent here, once per check).
    fn periodic_limit_reached(&self) -> bool {
        if let Some(view) = &self.cluster
            && let Some(tt) = view.poll_into
        {
            let remote = view.cluster.poll(tt, self.local_nodes());
            if view.remote_nodes.load(Ordering::Relaxed) != remote {
                view.remote_nodes.store(remote, Ordering::Relaxed);
            }
        }
        if let Some(clock) = &self.clock {
            if self.signals.take_ponderhit() {
                let mut restarted = clock.get();
                restarted.restart(Instant::now());
                clock.set(restarted);
                self.signals.set_deadline(restarted.hard_deadline());
            }
            // While pondering the clock does not run: only `ponderhit` starts it.
            if !(self.limits.ponder && self.signals.is_held()) && clock.get().hard_expired() {
                return true;
            }
        } else if self.signals.deadline_passed() {
            return true;
        }
        self.total_node_limit
            .is_some_and(|n| self.counters.spend(CHECK_INTERVAL) + self.remote_nodes() >= n)
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
        let soft_nodes = self.limits.soft_nodes.is_some_and(|n| self.total_nodes().max(nodes) >= n);
        mate_found || soft_time || soft_nodes
    }

    /// Publishes this thread's node count (for reports and the soft node limit).
    pub fn publish(&self, nodes: u64) {
        self.counters.thread(self.me).publish_nodes(nodes);
    }

    /// The nodes of all threads (of every rank, in a cluster), as last published.
    pub fn total_nodes(&self) -> u64 {
        self.local_nodes() + self.remote_nodes()
    }

    /// The nodes of this process's threads, as last published.
    pub fn local_nodes(&self) -> u64 {
        self.counters.nodes()
    }

    /// The other ranks' nodes in this search, as last heard (0 outside a cluster).
    fn remote_nodes(&self) -> u64 {
        self.cluster.as_ref().map_or(0, |v| v.remote_nodes.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn counters(n: usize) -> Counters {
        Counters::new(n)
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
        let check = StopCheck::new(&signals, &counters, 0, &limits, None);
        assert_eq!(run(&check, 10_000), 3000);
        assert!(signals.is_stopped());
    }

    #[test]
    fn the_main_thread_finishes_its_first_iteration_after_a_stop() {
        let signals = Signals::new();
        let counters = counters(1);
        let limits = SearchLimits::default();
        let main =
            StopCheck::new(&signals, &counters, 0, &limits, None).finishing_first_iteration();
        signals.stop();
        assert_eq!(run(&main, 3 * CHECK_INTERVAL), 3 * CHECK_INTERVAL, "depth 1 was cut short");
        main.first_iteration_done();
        assert_eq!(run(&main, 3 * CHECK_INTERVAL), 0, "the second iteration ignored the stop");
        let helper = StopCheck::new(&signals, &counters, 0, &limits, None);
        assert_eq!(run(&helper, 3 * CHECK_INTERVAL), 0, "a helper waited for its first iteration");
    }

    #[test]
    fn several_threads_stop_on_their_total() {
        let signals = Signals::new();
        let counters = counters(2);
        let limits = SearchLimits { nodes: Some(5000), ..SearchLimits::default() };
        let helper = StopCheck::new(&signals, &counters, 1, &limits, None);
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
                            let check = StopCheck::new(signals, counters, me, limits, None);
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
        let check = StopCheck::new(&signals, &counters, 0, &limits, Some(clock));
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
        let helper = StopCheck::new(&signals, &counters, 1, &limits, None);
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
        let main = StopCheck::new(&signals, &counters, 0, &limits, Some(clock_of(&limits)));
        let helper = StopCheck::new(&signals, &counters, 1, &limits, None);
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
    fn a_limit_stops_the_threads_but_not_the_hold() {
        let signals = Signals::new();
        signals.arm(true, None);
        signals.raise_stop();
        assert!(signals.is_stopped());
        assert!(signals.is_held(), "a reached limit released `go infinite`/`go ponder`");
        signals.ponderhit();
        signals.wait_for_release();
        assert!(!signals.is_held());
        signals.arm(true, None);
        signals.stop();
        signals.wait_for_release();
        assert!(!signals.is_held() && signals.is_stopped());
    }

    #[test]
    fn a_waiting_thread_is_woken_by_stop_and_by_ponderhit_and_only_by_them() {
        for by_stop in [true, false] {
            let signals = std::sync::Arc::new(Signals::new());
            signals.arm(true, None);
            let (done, returned) = std::sync::mpsc::channel();
            // Not a scoped thread: if the waiter is never woken, the test fails
            // instead of hanging on the join.
            let waiter = std::sync::Arc::clone(&signals);
            std::thread::spawn(move || {
                waiter.wait_for_release();
                let _ = done.send(());
            });
            // A reached limit stops the threads, but the best move waits for the GUI.
            signals.raise_stop();
            assert!(
                returned.recv_timeout(Duration::from_millis(50)).is_err(),
                "released by a limit"
            );
            if by_stop {
                signals.stop()
            } else {
                signals.ponderhit()
            }
            assert!(
                returned.recv_timeout(Duration::from_secs(10)).is_ok(),
                "not woken (by_stop: {by_stop})"
            );
        }
    }
}
