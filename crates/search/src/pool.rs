//! The Lazy SMP thread pool.
//!
//! Threads are created once (and re-created only when `Threads` changes); they
//! park on a condition variable between searches. For each `go` every thread
//! searches the same root with its own [`Worker`]; they share the
//! transposition table, one stop flag and per-thread node counters in
//! cache-padded atomics. Thread 0 is the main thread: it alone watches the
//! clock, reports, waits for the helpers to stop and announces the best move.
//!
//! Locks are taken only between searches and once per completed iteration
//! (to publish a thread's result), never inside the search itself. The table
//! sits behind a `RwLock` that each thread read-locks once for a whole
//! search; resizing or clearing write-locks it while the pool is idle.
//!
//! In a cluster ([`ThreadPool::set_cluster`]) every rank runs a pool like this
//! one on its own table; on the ranks that follow, thread 0 searches like a
//! helper and hands its rank's lines to the leader (see `crate::cluster`).

use crate::choice::{BestMoveChoice, ThreadResult};
use crate::cluster::{Alone, Cluster};
use crate::deepening::{follower_search, helper_search, main_search};
use crate::limits::SearchLimits;
use crate::report::{Reporter, SearchOutcome};
use crate::stop::Signals;
use crate::worker::Worker;
use board::Position;
use crossbeam_utils::CachePadded;
use parking_lot::{Condvar, Mutex, RwLock};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tt::TranspositionTable;

/// One search request.
#[derive(Debug, Clone)]
pub struct SearchJob {
    /// The position with its game history.
    pub position: Position,
    /// What `go` asked for.
    pub limits: SearchLimits,
    /// How many principal variations to report.
    pub multipv: usize,
    /// Time kept in reserve per move for communication lag.
    pub move_overhead: Duration,
    /// When `go` arrived.
    pub start: Instant,
    /// Which search techniques are on.
    pub features: crate::Features,
}

/// What the threads are told to do: one command per epoch.
#[derive(Clone)]
enum Command {
    /// Search this job.
    Search(Arc<SearchJob>),
    /// Forget the histories (`ucinewgame`, `Clear Hash`).
    ClearHistories,
}

/// The pool's commands to its threads, under the pool's mutex.
///
/// A command is a value of its epoch, not a flag that someone resets: it is
/// replaced only by the next [`Control::issue`], when every thread has finished
/// it. A thread that wakes late (after the others have finished) therefore
/// still finds the command it woke for, and a `ClearHistories` is never missed.
struct Control {
    /// The latest command; `None` only before the first.
    command: Option<Command>,
    /// Incremented for every command.
    epoch: u64,
    quit: bool,
    /// Threads still working on the current command.
    active: usize,
}

impl Control {
    fn new() -> Control {
        Control { command: None, epoch: 0, quit: false, active: 0 }
    }

    /// Gives `threads` threads a new command (the pool must be idle).
    fn issue(&mut self, command: Command, threads: usize) {
        debug_assert_eq!(self.active, 0, "a command issued while the threads work");
        self.command = Some(command);
        self.epoch += 1;
        self.active = threads;
    }

    /// The command a thread that last ran epoch `seen` has not run yet, if any.
    fn take(&self, seen: &mut u64) -> Option<Command> {
        if self.epoch == *seen {
            return None;
        }
        *seen = self.epoch;
        debug_assert!(self.command.is_some(), "every epoch has its command");
        self.command.clone()
    }

    /// A thread has finished the current command. Returns whether to wake the
    /// waiters: at 1 the main thread, waiting for the last helper, may go on;
    /// at 0 the pool is idle.
    fn finish(&mut self) -> bool {
        self.active -= 1;
        self.active <= 1
    }
}

/// What the pool's threads share.
pub(crate) struct Shared {
    pub tt: RwLock<TranspositionTable>,
    /// The stop flag and the hold of `go infinite` / `go ponder`.
    pub signals: Signals,
    /// Each thread's published node count.
    pub counters: RwLock<Arc<[CachePadded<AtomicU64>]>>,
    /// Each thread's latest line (see [`ThreadResult`]).
    pub results: Mutex<Vec<ThreadResult>>,
    control: Mutex<Control>,
    wake: Condvar,
    idle: Condvar,
    pub reporter: Arc<dyn Reporter>,
    pub choice: Mutex<BestMoveChoice>,
    /// The evaluation network of the next searches (`None`: the hand-written evaluation).
    pub network: Mutex<Option<Arc<eval::nnue::Network>>>,
    pub last_outcome: Mutex<Option<SearchOutcome>>,
    /// The other ranks searching with this pool ([`Alone`] outside a cluster).
    cluster: Mutex<Arc<dyn Cluster>>,
    /// The other ranks' nodes in the current search, as last heard (in a cluster).
    pub remote_nodes: CachePadded<AtomicU64>,
}

impl Shared {
    /// Publishes thread `id`'s latest line.
    pub fn publish(&self, id: usize, result: ThreadResult) {
        self.results.lock()[id] = result;
    }

    /// The cluster this pool searches in ([`Alone`] outside one).
    pub fn cluster(&self) -> Arc<dyn Cluster> {
        Arc::clone(&self.cluster.lock())
    }

    /// The nodes of this process's threads, as last published.
    pub fn local_nodes(&self) -> u64 {
        self.counters.read().iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }

    /// Blocks the main thread until every helper has finished the current command.
    pub fn wait_for_helpers(&self) {
        // Each thread decrements `active` and notifies under this lock when it is done.
        let mut c = self.control.lock();
        while c.active > 1 {
            self.idle.wait(&mut c);
        }
    }
}

/// The pool of search threads.
pub struct ThreadPool {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
}

impl ThreadPool {
    /// A pool of `threads` search threads sharing a table of `hash_mb` megabytes.
    pub fn new(threads: usize, hash_mb: usize, reporter: Arc<dyn Reporter>) -> ThreadPool {
        let mut tt = TranspositionTable::new(hash_mb);
        tt.set_threads(threads.max(1));
        let shared = Arc::new(Shared {
            tt: RwLock::new(tt),
            signals: Signals::new(),
            counters: RwLock::new(Arc::from(Vec::new())),
            results: Mutex::new(Vec::new()),
            control: Mutex::new(Control::new()),
            wake: Condvar::new(),
            idle: Condvar::new(),
            reporter,
            choice: Mutex::new(BestMoveChoice::default()),
            network: Mutex::new(None),
            last_outcome: Mutex::new(None),
            cluster: Mutex::new(Arc::new(Alone)),
            remote_nodes: CachePadded::new(AtomicU64::new(0)),
        });
        let mut pool = ThreadPool { shared, handles: Vec::new() };
        pool.spawn(threads);
        pool
    }

    fn spawn(&mut self, threads: usize) {
        let threads = threads.max(1);
        *self.shared.counters.write() =
            (0..threads).map(|_| CachePadded::new(AtomicU64::new(0))).collect();
        *self.shared.results.lock() = vec![ThreadResult::default(); threads];
        let epoch = self.shared.control.lock().epoch;
        for id in 0..threads {
            let shared = Arc::clone(&self.shared);
            let handle = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(16 << 20)
                .spawn(move || thread_main(&shared, id, epoch))
                .expect("the OS refused to start a search thread");
            self.handles.push(handle);
        }
    }

    fn join_all(&mut self) {
        self.stop();
        self.wait_idle();
        {
            let mut c = self.shared.control.lock();
            c.quit = true;
            self.shared.wake.notify_all();
        }
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
        let mut c = self.shared.control.lock();
        c.quit = false;
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.handles.len()
    }

    /// Changes the number of threads (waits for any search to finish first).
    pub fn set_threads(&mut self, threads: usize) {
        if threads.max(1) == self.threads() {
            return;
        }
        self.join_all();
        self.spawn(threads);
        self.shared.tt.write().set_threads(threads.max(1));
    }

    /// Starts a search; returns at once. The reporter receives the best move
    /// when it ends. A search already running is stopped first.
    pub fn start(&self, job: SearchJob) {
        self.stop();
        self.wait_idle();
        self.shared.signals.arm(job.limits.infinite || job.limits.ponder);
        for c in self.shared.counters.read().iter() {
            c.store(0, Ordering::Relaxed);
        }
        self.shared.remote_nodes.store(0, Ordering::Relaxed);
        for r in self.shared.results.lock().iter_mut() {
            *r = ThreadResult::default();
        }
        self.shared.tt.read().new_search();
        let mut c = self.shared.control.lock();
        c.issue(Command::Search(Arc::new(job)), self.handles.len());
        self.shared.wake.notify_all();
    }

    /// Asks the running search (if any) to stop; the best move follows shortly.
    pub fn stop(&self) {
        self.shared.signals.stop();
    }

    /// `ponderhit`: the pondered move was played; the search continues on the clock.
    pub fn ponderhit(&self) {
        self.shared.signals.ponderhit();
    }

    /// Blocks until no search is running.
    pub fn wait_idle(&self) {
        let mut c = self.shared.control.lock();
        while c.active > 0 {
            self.shared.idle.wait(&mut c);
        }
    }

    /// Runs a search to the end and returns its outcome (for bench and tests).
    pub fn search_sync(&self, job: SearchJob) -> Option<SearchOutcome> {
        *self.shared.last_outcome.lock() = None;
        self.start(job);
        self.wait_idle();
        self.shared.last_outcome.lock().clone()
    }

    /// Forgets everything learned: clears the table (in parallel) and every thread's histories.
    pub fn clear(&mut self) {
        self.stop();
        self.wait_idle();
        self.shared.tt.write().clear();
        let mut c = self.shared.control.lock();
        c.issue(Command::ClearHistories, self.handles.len());
        self.shared.wake.notify_all();
        drop(c);
        self.wait_idle();
    }

    /// Resizes the table (waits for any search to finish first).
    pub fn resize_hash(&mut self, mb: usize) {
        self.stop();
        self.wait_idle();
        self.shared.tt.write().resize(mb);
    }

    /// Whether the table got huge pages, and its size in MB.
    pub fn hash_info(&self) -> (bool, usize) {
        let tt = self.shared.tt.read();
        (tt.huge_pages(), tt.size_mb())
    }

    /// Chooses how the final move is picked among threads.
    pub fn set_best_move_choice(&self, choice: BestMoveChoice) {
        *self.shared.choice.lock() = choice;
    }

    /// Makes this pool one rank of a cluster (waits for any search to finish first).
    /// A pool searches [`Alone`] until this is called.
    pub fn set_cluster(&self, cluster: Arc<dyn Cluster>) {
        self.stop();
        self.wait_idle();
        *self.shared.cluster.lock() = cluster;
    }

    /// Chooses the evaluation of the next searches: a network, or `None` for the
    /// hand-written evaluation (the default while the network is being proven).
    pub fn set_network(&self, network: Option<Arc<eval::nnue::Network>>) {
        *self.shared.network.lock() = network;
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.join_all();
    }
}

fn thread_main(shared: &Shared, id: usize, mut seen: u64) {
    let mut worker = Worker::new();
    loop {
        let command = {
            let mut c = shared.control.lock();
            loop {
                if c.quit {
                    return;
                }
                if let Some(command) = c.take(&mut seen) {
                    break command;
                }
                shared.wake.wait(&mut c);
            }
        };
        match command {
            Command::Search(job) if id == 0 && shared.cluster().rank() > 0 => {
                follower_search(shared, &mut worker, &job)
            }
            Command::Search(job) if id == 0 => main_search(shared, &mut worker, &job),
            Command::Search(job) => helper_search(shared, &mut worker, &job, id),
            Command::ClearHistories => worker.clear(),
        }
        if shared.control.lock().finish() {
            shared.idle.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Board;

    fn job() -> Arc<SearchJob> {
        Arc::new(SearchJob {
            position: Position::new(Board::startpos()),
            limits: SearchLimits::default(),
            multipv: 1,
            move_overhead: Duration::ZERO,
            start: Instant::now(),
            features: crate::Features::default(),
        })
    }

    #[test]
    fn a_thread_that_wakes_late_still_gets_the_clear() {
        // Two threads; `seen` is each one's last epoch. Either may wake last.
        for late in [0, 1] {
            let mut c = Control::new();
            let mut seen = [0u64; 2];
            c.issue(Command::Search(job()), 2);
            for s in &mut seen {
                assert!(matches!(c.take(s), Some(Command::Search(_))));
                c.finish();
            }
            c.issue(Command::ClearHistories, 2);
            // The other thread takes the command and finishes before `late` wakes.
            let early = 1 - late;
            assert!(matches!(c.take(&mut seen[early]), Some(Command::ClearHistories)));
            assert!(c.finish(), "one thread left: the main thread may go on");
            assert!(c.take(&mut seen[early]).is_none(), "a command runs once per thread");
            assert!(
                matches!(c.take(&mut seen[late]), Some(Command::ClearHistories)),
                "thread {late} woke after thread {early} had finished and missed the clear"
            );
            assert!(c.finish());
            assert_eq!(c.active, 0);
            // The next search is a search for both, not a second clear.
            c.issue(Command::Search(job()), 2);
            for s in &mut seen {
                assert!(matches!(c.take(s), Some(Command::Search(_))));
            }
        }
    }
}
