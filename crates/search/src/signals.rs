//! What the pool's threads share about stopping and answering: the stop flag
//! every thread reads at every node, the hold of `go infinite` / `go ponder`
//! with the `ponderhit` that releases it, and the waits of the main thread
//! before it announces the best move. The hard limit's deadline is the clock's
//! (`Clock` in `time.rs`).
//!
//! Two ways to stop, named for who stops and what they end:
//!
//! | call | by | stops the threads | ends the hold and the least time to answer | ordering |
//! |---|---|---|---|---|
//! | [`Signals::interrupt`] | `stop`, `quit`, the pool (a new `go`, a changed option) | yes | yes | `SeqCst`, and the waiting main thread is woken |
//! | [`Signals::stop_threads`] | a search thread that reached a limit | yes | no | `Relaxed` |
//!
//! The limits themselves are the node budget's (`NodeBudget` in `budget.rs`)
//! and the clock's (`Clock` in `time.rs`); the search's periodic check applies
//! both (`SearchContext::enter_node` in `worker.rs`).

use crate::sync::{Condvar, Mutex};
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What the pool's threads share about stopping (see the module documentation).
pub(crate) struct Signals {
    /// Read at every node by every thread: a cache line of its own, so that writes
    /// to the fields around it (locks, flags) never evict it from the readers' caches.
    stop: CachePadded<AtomicBool>,
    /// True while the search must not end on its own (`go infinite`, `go ponder`).
    hold: AtomicBool,
    /// Set by [`Signals::interrupt`]: the best move is due at once, whatever holds it.
    interrupted: AtomicBool,
    /// Set by `ponderhit`: the main thread restarts its clock and releases the hold.
    ponderhit: AtomicBool,
    /// The main thread waits on `released` (out a hold, or for the least time to
    /// answer); `interrupt` and `ponderhit` wake it.
    lock: Mutex<()>,
    released: Condvar,
}

impl Signals {
    /// No search: not stopped, not held.
    pub fn new() -> Signals {
        Signals {
            stop: CachePadded::new(AtomicBool::new(false)),
            hold: AtomicBool::new(false),
            interrupted: AtomicBool::new(false),
            ponderhit: AtomicBool::new(false),
            lock: Mutex::new(()),
            released: Condvar::new(),
        }
    }

    /// Before a search (the pool is idle): clears the stop flag, an old
    /// interrupt and any old `ponderhit`; `hold` for `go infinite` and `go ponder`.
    pub fn arm(&self, hold: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.interrupted.store(false, Ordering::SeqCst);
        self.ponderhit.store(false, Ordering::SeqCst);
        self.hold.store(hold, Ordering::SeqCst);
    }

    /// From outside the search (`stop`, `quit`, or the pool, which needs its
    /// threads idle): stops every thread and ends every wait of the main thread
    /// (the hold of `go infinite` / `go ponder` and the least time to answer),
    /// so the best move follows at once. Sequentially consistent stores, then
    /// the waiting thread is woken.
    pub fn interrupt(&self) {
        self.interrupted.store(true, Ordering::SeqCst);
        self.hold.store(false, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
        self.wake();
    }

    /// From inside the search, which reached a limit (the clock, `go nodes`, the
    /// end of the main thread's iterations): stops every thread at its next
    /// node, but a hold and the least time to answer still delay the best move.
    /// One relaxed store: the flag carries no data with it (the threads publish
    /// their results under a lock), and every thread reads it at every node.
    pub fn stop_threads(&self) {
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

    /// Whether the search must not end on its own.
    pub fn is_held(&self) -> bool {
        self.hold.load(Ordering::Relaxed)
    }

    /// Consumes a `ponderhit`, releasing the hold; `true` if there was one.
    pub fn take_ponderhit(&self) -> bool {
        // A plain load first: the swap takes the line exclusively.
        let hit =
            self.ponderhit.load(Ordering::Relaxed) && self.ponderhit.swap(false, Ordering::SeqCst);
        if hit {
            self.hold.store(false, Ordering::SeqCst);
        }
        hit
    }

    /// Blocks while the search is held, until `interrupt` or `ponderhit` (no
    /// polling: both wake this thread). Returns whether a `ponderhit` that came
    /// meanwhile was consumed here (the clock then restarts from now).
    pub fn wait_for_release(&self) -> bool {
        let mut guard = self.lock.lock();
        let mut hit = false;
        loop {
            hit |= self.take_ponderhit();
            if !self.hold.load(Ordering::SeqCst) {
                return hit;
            }
            guard = self.released.wait(guard);
        }
    }

    /// Blocks until `until`, or until an `interrupt` (no polling: it wakes this
    /// thread), whichever comes first.
    pub fn wait_until(&self, until: Instant) {
        let mut guard = self.lock.lock();
        while !self.interrupted.load(Ordering::SeqCst) {
            let timed_out;
            (guard, timed_out) = self.released.wait_until(guard, until);
            if timed_out {
                return;
            }
        }
    }

    /// Wakes a thread in [`Signals::wait_for_release`] or [`Signals::wait_until`].
    /// The flag it rechecks was set before the lock is taken here, and it checks
    /// its flags while holding the lock, so the wake-up cannot fall between its
    /// check and its wait.
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_limit_stops_the_threads_but_not_the_hold() {
        let signals = Signals::new();
        signals.arm(true);
        signals.stop_threads();
        assert!(signals.is_stopped());
        assert!(signals.is_held(), "a reached limit released `go infinite`/`go ponder`");
        signals.ponderhit();
        assert!(signals.wait_for_release(), "the ponderhit was not reported");
        assert!(!signals.is_held());
        signals.arm(true);
        signals.interrupt();
        assert!(!signals.wait_for_release());
        assert!(!signals.is_held() && signals.is_stopped());
    }

    #[test]
    fn a_waiting_thread_is_woken_by_an_interrupt_and_by_ponderhit_and_only_by_them() {
        for by_interrupt in [true, false] {
            let signals = std::sync::Arc::new(Signals::new());
            signals.arm(true);
            let (done, returned) = std::sync::mpsc::channel();
            // Not a scoped thread: if the waiter is never woken, the test fails
            // instead of hanging on the join.
            let waiter = std::sync::Arc::clone(&signals);
            std::thread::spawn(move || {
                waiter.wait_for_release();
                let _ = done.send(());
            });
            // A reached limit stops the threads, but the best move waits for the GUI.
            signals.stop_threads();
            assert!(
                returned.recv_timeout(Duration::from_millis(50)).is_err(),
                "released by a limit"
            );
            if by_interrupt {
                signals.interrupt()
            } else {
                signals.ponderhit()
            }
            assert!(
                returned.recv_timeout(Duration::from_secs(10)).is_ok(),
                "not woken (by_interrupt: {by_interrupt})"
            );
        }
    }

    #[test]
    fn the_least_time_is_waited_out_unless_an_interrupt_ends_it() {
        let signals = std::sync::Arc::new(Signals::new());
        signals.arm(false);
        let start = Instant::now();
        signals.stop_threads();
        signals.wait_until(start + Duration::from_millis(30));
        assert!(start.elapsed() >= Duration::from_millis(30), "a limit ended the wait");
        let (done, returned) = std::sync::mpsc::channel();
        let waiter = std::sync::Arc::clone(&signals);
        std::thread::spawn(move || {
            waiter.wait_until(Instant::now() + Duration::from_secs(600));
            let _ = done.send(());
        });
        assert!(returned.recv_timeout(Duration::from_millis(50)).is_err(), "ended early");
        signals.interrupt();
        assert!(returned.recv_timeout(Duration::from_secs(10)).is_ok(), "not woken by `stop`");
        // The next search starts without the interrupt.
        signals.arm(false);
        let start = Instant::now();
        signals.wait_until(start + Duration::from_millis(10));
        assert!(start.elapsed() >= Duration::from_millis(10), "an old interrupt ended the wait");
    }
}
