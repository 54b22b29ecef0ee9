//! The Lazy SMP thread pool.
//!
//! Threads are created once (and re-created only when `Threads` changes); they
//! park on a condition variable between searches. For each `go` every thread
//! searches the same root with its own [`Worker`]; they share the
//! transposition table, one stop flag and per-thread node counters in
//! cache-padded atomics. Thread 0 is the main thread: it alone watches the
//! clock, reports, stops the helpers and announces the best move.
//!
//! Locks are taken only between searches and once per completed iteration
//! (to publish a thread's result), never inside the search itself. The table
//! sits behind a `RwLock` that each thread read-locks once for a whole
//! search; resizing or clearing write-locks it while the pool is idle.
//!
//! A refused resource never takes the pool down: a new table is allocated
//! before the old one is freed, and a new set of threads is started before the
//! old set retires, so when the system says no the pool keeps what it had.

use crate::limits::{SearchLimits, TimeManager};
use crate::params::MAX_DEPTH;
use crate::report::{Reporter, SearchInfo, SearchOutcome};
use crate::worker::{INFINITY, SearchContext, Worker};
use board::{Move, Position};
use crossbeam_utils::CachePadded;
use parking_lot::{Condvar, Mutex, RwLock};
use std::cell::Cell;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tt::{Bound, MATE, MATE_BOUND, TranspositionTable};

/// A resource the system refused to the pool.
#[derive(Debug)]
pub enum PoolError {
    /// Memory for the transposition table.
    Memory(tt::AllocError),
    /// A search thread: `started` of `wanted` had started when thread creation failed.
    Threads {
        /// How many threads were asked for.
        wanted: usize,
        /// How many had started (they were stopped again).
        started: usize,
        /// What the system said.
        error: std::io::Error,
    },
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::Memory(e) => e.fmt(f),
            PoolError::Threads { wanted, started, error } => {
                write!(f, "the system refused search thread {} of {wanted} ({error})", started + 1)
            }
        }
    }
}

impl std::error::Error for PoolError {}

/// How the final move is chosen among the threads' results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BestMoveChoice {
    /// A vote: each thread's move gets `(score - worst + 10) * depth`.
    #[default]
    Vote,
    /// The move of the thread that completed the deepest iteration.
    Deepest,
    /// The main thread's move only.
    MainThread,
}

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

/// A thread's latest completed iteration (or the main thread's partial-iteration move).
#[derive(Debug, Clone, Default)]
struct ThreadResult {
    /// The iteration the line comes from.
    depth: i32,
    score: i32,
    /// `Exact` for a completed iteration, `Lower` for a move from an unfinished one.
    bound: Bound,
    /// The principal variation; empty before the first iteration completes.
    pv: Vec<Move>,
}

impl ThreadResult {
    fn best(&self) -> Option<Move> {
        self.pv.first().copied()
    }

    fn ponder(&self) -> Option<Move> {
        self.pv.get(1).copied()
    }

    /// The deepest iteration behind the line that was completed: a move from an
    /// unfinished iteration counts as the iteration before it.
    fn completed_depth(&self) -> i32 {
        if self.bound == Bound::Exact { self.depth } else { self.depth - 1 }
    }
}

struct Control {
    job: Option<Arc<SearchJob>>,
    /// Incremented for every command to the threads.
    epoch: u64,
    clear_histories: bool,
    /// Threads still working on the current command.
    active: usize,
}

struct Shared {
    tt: RwLock<TranspositionTable>,
    /// Read at every node by every thread: a cache line of its own, so that writes
    /// to the fields around it (locks, flags) never evict it from the readers' caches.
    stop: CachePadded<AtomicBool>,
    /// True while the search must not end on its own (`go infinite`, `go ponder`).
    hold: AtomicBool,
    /// Set by `ponderhit`: the main thread restarts its clock and releases the hold.
    ponderhit: AtomicBool,
    counters: RwLock<Arc<[CachePadded<AtomicU64>]>>,
    results: Mutex<Vec<ThreadResult>>,
    control: Mutex<Control>,
    wake: Condvar,
    idle: Condvar,
    reporter: Arc<dyn Reporter>,
    choice: Mutex<BestMoveChoice>,
    last_outcome: Mutex<Option<SearchOutcome>>,
}

/// A running search thread and the flag that tells it to exit.
struct SearchThread {
    handle: JoinHandle<()>,
    /// Set (under the control lock) to make the thread exit.
    retire: Arc<AtomicBool>,
}

/// The pool of search threads.
pub struct ThreadPool {
    shared: Arc<Shared>,
    handles: Vec<SearchThread>,
}

impl ThreadPool {
    /// A pool of `threads` search threads sharing a table of `hash_mb` megabytes.
    /// Panics if the system refuses the memory or a thread; see [`Self::try_new`].
    pub fn new(threads: usize, hash_mb: usize, reporter: Arc<dyn Reporter>) -> ThreadPool {
        Self::try_new(threads, hash_mb, reporter).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`Self::new`], but a refused table or thread is an error.
    pub fn try_new(
        threads: usize,
        hash_mb: usize,
        reporter: Arc<dyn Reporter>,
    ) -> Result<ThreadPool, PoolError> {
        let mut tt = TranspositionTable::try_new(hash_mb).map_err(PoolError::Memory)?;
        tt.set_threads(threads.max(1));
        let shared = Arc::new(Shared {
            tt: RwLock::new(tt),
            stop: CachePadded::new(AtomicBool::new(false)),
            hold: AtomicBool::new(false),
            ponderhit: AtomicBool::new(false),
            counters: RwLock::new(Arc::from(Vec::new())),
            results: Mutex::new(Vec::new()),
            control: Mutex::new(Control { job: None, epoch: 0, clear_histories: false, active: 0 }),
            wake: Condvar::new(),
            idle: Condvar::new(),
            reporter,
            choice: Mutex::new(BestMoveChoice::default()),
            last_outcome: Mutex::new(None),
        });
        let handles = spawn(&shared, threads.max(1))?;
        let mut pool = ThreadPool { shared, handles: Vec::new() };
        pool.install(handles);
        Ok(pool)
    }

    /// Makes `handles` the pool's threads (the pool must be idle): the old set
    /// retires, and the per-thread counters and results are sized for the new one.
    fn install(&mut self, handles: Vec<SearchThread>) {
        retire(&self.shared, std::mem::replace(&mut self.handles, handles));
        let threads = self.handles.len();
        *self.shared.counters.write() =
            (0..threads).map(|_| CachePadded::new(AtomicU64::new(0))).collect();
        *self.shared.results.lock() = vec![ThreadResult::default(); threads];
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.handles.len()
    }

    /// Changes the number of threads (stops any search first). The new threads
    /// start before the old ones retire: if the system refuses one, the pool
    /// keeps its old threads and says why.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), PoolError> {
        let threads = threads.max(1);
        if threads == self.threads() {
            return Ok(());
        }
        self.stop();
        self.wait_idle();
        let handles = spawn(&self.shared, threads)?;
        self.install(handles);
        self.shared.tt.write().set_threads(threads);
        Ok(())
    }

    /// Starts a search; returns at once. The reporter receives the best move
    /// when it ends. A search already running is stopped first.
    pub fn start(&self, job: SearchJob) {
        self.stop();
        self.wait_idle();
        self.shared.stop.store(false, Ordering::SeqCst);
        self.shared.ponderhit.store(false, Ordering::SeqCst);
        self.shared.hold.store(job.limits.infinite || job.limits.ponder, Ordering::SeqCst);
        for c in self.shared.counters.read().iter() {
            c.store(0, Ordering::Relaxed);
        }
        for r in self.shared.results.lock().iter_mut() {
            *r = ThreadResult::default();
        }
        self.shared.tt.read().new_search();
        let mut c = self.shared.control.lock();
        c.job = Some(Arc::new(job));
        c.epoch += 1;
        c.active = self.handles.len();
        self.shared.wake.notify_all();
    }

    /// Asks the running search (if any) to stop; the best move follows shortly.
    pub fn stop(&self) {
        self.shared.hold.store(false, Ordering::SeqCst);
        self.shared.stop.store(true, Ordering::SeqCst);
    }

    /// `ponderhit`: the pondered move was played; the search continues on the clock.
    /// Only a `go ponder` search listens: `go infinite` ends on `stop` alone.
    pub fn ponderhit(&self) {
        let pondering = self.shared.control.lock().job.as_ref().is_some_and(|job| {
            let limits = &job.limits;
            limits.ponder && !limits.infinite
        });
        if pondering {
            self.shared.ponderhit.store(true, Ordering::SeqCst);
        }
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.shared.control.lock().active > 0
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
        c.job = None;
        c.clear_histories = true;
        c.epoch += 1;
        c.active = self.handles.len();
        self.shared.wake.notify_all();
        drop(c);
        self.wait_idle();
    }

    /// Resizes the table (stops any search first). The new table is allocated
    /// before the old one is freed: if the system refuses the memory, the old
    /// table stays, entries and all.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), tt::AllocError> {
        self.stop();
        self.wait_idle();
        self.shared.tt.write().try_resize(mb)
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
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.stop();
        self.wait_idle();
        retire(&self.shared, std::mem::take(&mut self.handles));
    }
}

/// The stack of a search thread.
const STACK_BYTES: usize = 16 << 20;
/// What a starting thread needs besides its stack (its `Worker`, the signal
/// stack std gives every thread, malloc's bookkeeping), with room to spare.
const THREAD_MARGIN_BYTES: usize = 64 << 20;

/// Whether the system would give one more thread its memory now: reserves
/// (without touching) and frees a thread's stack and margin. Without this a
/// thread whose stack fits but whose first allocations do not would abort the
/// process (std aborts when it cannot map a new thread's signal stack).
fn room_for_a_thread() -> bool {
    Vec::<u8>::new().try_reserve_exact(STACK_BYTES + THREAD_MARGIN_BYTES).is_ok()
}

/// Starts `threads` idle search threads, one at a time, each having allocated
/// its `Worker` before the next is asked for. If the system refuses one (or
/// has no room for it), those already started are retired and the error says
/// how far it got.
fn spawn(shared: &Arc<Shared>, threads: usize) -> Result<Vec<SearchThread>, PoolError> {
    let epoch = shared.control.lock().epoch;
    let mut handles = Vec::with_capacity(threads);
    let (ready, started) = std::sync::mpsc::channel::<()>();
    for id in 0..threads {
        let retire_flag = Arc::new(AtomicBool::new(false));
        let (thread_shared, flag, ready) =
            (Arc::clone(shared), Arc::clone(&retire_flag), ready.clone());
        let spawned = if room_for_a_thread() {
            std::thread::Builder::new().name(format!("search-{id}")).stack_size(STACK_BYTES).spawn(
                move || {
                    let worker = Worker::new();
                    let _ = ready.send(());
                    thread_main(&thread_shared, &flag, worker, id, threads, epoch);
                },
            )
        } else {
            Err(std::io::Error::new(
                std::io::ErrorKind::OutOfMemory,
                "not enough memory for another thread",
            ))
        };
        match spawned {
            Ok(handle) => {
                let _ = started.recv();
                handles.push(SearchThread { handle, retire: retire_flag });
            }
            Err(error) => {
                retire(shared, handles);
                return Err(PoolError::Threads { wanted: threads, started: id, error });
            }
        }
    }
    Ok(handles)
}

/// Tells idle `threads` to exit and waits for them.
fn retire(shared: &Shared, threads: Vec<SearchThread>) {
    {
        // Under the lock, so a thread cannot check its flag and then miss the wake-up.
        let _c = shared.control.lock();
        for t in &threads {
            t.retire.store(true, Ordering::SeqCst);
        }
        shared.wake.notify_all();
    }
    for t in threads {
        let _ = t.handle.join();
    }
}

fn thread_main(
    shared: &Shared,
    retire: &AtomicBool,
    mut worker: Worker,
    id: usize,
    threads: usize,
    mut seen: u64,
) {
    loop {
        let (job, clear) = {
            let mut c = shared.control.lock();
            while c.epoch == seen && !retire.load(Ordering::SeqCst) {
                shared.wake.wait(&mut c);
            }
            if retire.load(Ordering::SeqCst) {
                return;
            }
            seen = c.epoch;
            (c.job.clone(), c.clear_histories)
        };
        if clear {
            worker.clear();
        }
        if let Some(job) = job {
            if id == 0 {
                main_search(shared, &mut worker, &job, threads);
            } else {
                helper_search(shared, &mut worker, &job, id);
            }
        }
        let mut c = shared.control.lock();
        c.active -= 1;
        if id == 0 {
            c.clear_histories = false;
        }
        if c.active == 0 {
            c.clear_histories = false;
        }
        // At 1 the main thread, waiting for the last helper, may go on; at 0 the pool is idle.
        if c.active <= 1 {
            shared.idle.notify_all();
        }
    }
}

/// Whether helper `id`, having completed `depth`, skips `depth + 1`.
fn skips_next_depth(id: usize, depth: i32) -> bool {
    id % 2 == 1 && depth >= 4 && (depth + id as i32) % 3 == 0
}

fn total_nodes(shared: &Shared) -> u64 {
    sum(&shared.counters.read())
}

fn sum(counters: &[CachePadded<AtomicU64>]) -> u64 {
    counters.iter().map(|c| c.load(Ordering::Relaxed)).sum()
}

/// Whether a `go nodes` limit on the total of all threads is reached. Every thread
/// checks it every 1024 of its own nodes, so the total overshoots by at most about
/// 2 × 1024 nodes a thread however the threads are scheduled.
fn over_node_limit(limit: Option<u64>, counters: &[CachePadded<AtomicU64>]) -> bool {
    limit.is_some_and(|n| sum(counters) >= n)
}

/// A helper: iterative deepening with no output and no clock, until the stop flag.
/// Odd helpers skip a depth now and then so threads spread over neighbouring depths
/// (feature `helperskip`, on by default).
fn helper_search(shared: &Shared, worker: &mut Worker, job: &SearchJob, id: usize) {
    let tt = shared.tt.read();
    let counters = Arc::clone(&shared.counters.read());
    let node_limit = job.limits.nodes;
    let should_stop = |_: u64| over_node_limit(node_limit, &counters);
    let ctx = SearchContext {
        tt: &tt,
        stop: &shared.stop,
        node_counter: &counters[id],
        should_stop: &should_stop,
        node_limit: None,
        features: job.features,
    };
    worker.prepare(&job.position, &job.limits.search_moves);
    // Under `go depth N` a helper keeps searching past N until the main thread stops
    // (its deeper entries still help the main thread; an idle helper is a wasted core),
    // but only its iterations up to N take part in the choice of the move.
    let max_depth = job.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut score = 0;
    let mut depth = 1;
    while depth <= MAX_DEPTH && !shared.stop.load(Ordering::Relaxed) {
        score = worker.aspiration(&ctx, depth, score, |_, _, _| {});
        if worker.was_stopped() {
            break;
        }
        let pv = worker.root_pv();
        if depth <= max_depth {
            shared.results.lock()[id] =
                ThreadResult { depth, score, bound: Bound::Exact, pv: pv.to_vec() };
        }
        depth += if job.features.helper_skip && skips_next_depth(id, depth) { 2 } else { 1 };
    }
    counters[id].store(worker.nodes, Ordering::Relaxed);
}

/// The main thread: iterative deepening with MultiPV, reports, the clock, then the
/// vote among the threads and the best move.
fn main_search(shared: &Shared, worker: &mut Worker, job: &SearchJob, threads: usize) {
    let tt = shared.tt.read();
    let counters = Arc::clone(&shared.counters.read());
    let root = *job.position.board();
    let limits = &job.limits;
    // Only this thread reads or restarts its clock: a `Cell`, no lock in the search.
    let clock =
        Cell::new(TimeManager::new(limits, root.side_to_move(), job.move_overhead, job.start));
    let node_limit = limits.nodes;
    let should_stop = |_: u64| {
        // A plain load first: the swap takes the line exclusively, every 1024 nodes.
        if shared.ponderhit.load(Ordering::Relaxed)
            && shared.ponderhit.swap(false, Ordering::SeqCst)
        {
            let mut restarted = clock.get();
            restarted.restart(Instant::now());
            clock.set(restarted);
            shared.hold.store(false, Ordering::SeqCst);
        }
        if limits.ponder && shared.hold.load(Ordering::Relaxed) {
            return false;
        }
        clock.get().hard_expired() || (threads > 1 && over_node_limit(node_limit, &counters))
    };
    let ctx = SearchContext {
        tt: &tt,
        stop: &shared.stop,
        node_counter: &counters[0],
        should_stop: &should_stop,
        node_limit: if threads == 1 { node_limit } else { None },
        features: job.features,
    };
    worker.prepare(&job.position, &limits.search_moves);
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let lines = job.multipv.clamp(1, worker.root_moves.len().max(1));
    let mut scores = vec![0; lines];
    let mut last_best = None;
    let mut stable_iterations = 0;
    let report =
        |w: &Worker, depth: i32, multipv: usize, score: i32, bound: Bound, pv: Vec<Move>| {
            shared.reporter.info(&SearchInfo {
                root,
                depth,
                seldepth: w.seldepth,
                multipv,
                score,
                bound,
                nodes: total_nodes(shared).max(w.nodes),
                elapsed: job.start.elapsed(),
                hashfull: tt.hashfull(),
                pv,
            });
        };

    if !worker.root_moves.is_empty() {
        for depth in 1..=max_depth {
            let mut completed: Vec<(i32, Vec<Move>)> = Vec::with_capacity(lines);
            worker.excluded_root.clear();
            for (line, previous) in scores.iter_mut().enumerate() {
                let score = worker.aspiration(&ctx, depth, *previous, |w, s, bound| {
                    if job.start.elapsed() > Duration::from_secs(2) && lines == 1 {
                        counters[0].store(w.nodes, Ordering::Relaxed);
                        report(w, depth, line + 1, s, bound, w.root_pv().to_vec());
                    }
                });
                if worker.was_stopped() {
                    // Cut short: a root move that beat the previous best at this depth
                    // (searched in full, or failing high) is better informed than the
                    // last completed iteration, so it becomes the answer (reported by
                    // the final `info` line below, as a lower bound).
                    if let Some(p) = worker.partial_root()
                        && lines == 1
                        && depth > 1
                        && last_best != Some(p.best)
                    {
                        let pv = worker.root_pv();
                        let pv = if pv.first() == Some(&p.best) {
                            pv.to_vec()
                        } else {
                            std::iter::once(p.best).chain(p.ponder).collect()
                        };
                        shared.results.lock()[0] =
                            ThreadResult { depth, score: p.score, bound: Bound::Lower, pv };
                    }
                    break;
                }
                *previous = score;
                let pv = worker.root_pv().to_vec();
                if let Some(&first) = pv.first() {
                    worker.excluded_root.push(first);
                }
                completed.push((score, pv));
            }
            if completed.len() < lines {
                break;
            }
            counters[0].store(worker.nodes, Ordering::Relaxed);
            completed.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
            for (i, (score, pv)) in completed.iter().enumerate() {
                report(worker, depth, i + 1, *score, Bound::Exact, pv.clone());
            }
            let (score, pv) = &completed[0];
            let best = pv.first().copied();
            shared.results.lock()[0] =
                ThreadResult { depth, score: *score, bound: Bound::Exact, pv: pv.clone() };
            stable_iterations = if best == last_best { stable_iterations + 1 } else { 0 };
            last_best = best;

            if let Some(m) = limits.mate
                && *score >= MATE_BOUND
                && MATE - *score <= 2 * m as i32
            {
                break;
            }
            let factor = 1.4 - 0.15 * f64::from(stable_iterations.min(5));
            if !shared.hold.load(Ordering::Relaxed) && clock.get().soft_expired(factor) {
                break;
            }
            if limits.soft_nodes.is_some_and(|n| total_nodes(shared).max(worker.nodes) >= n) {
                break;
            }
        }
    }

    let interrupted = worker.was_stopped();

    // `go infinite` and `go ponder` never end on their own: wait for `stop` or `ponderhit`.
    while shared.hold.load(Ordering::SeqCst) && !shared.stop.load(Ordering::SeqCst) {
        if shared.ponderhit.swap(false, Ordering::SeqCst) {
            shared.hold.store(false, Ordering::SeqCst);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    shared.stop.store(true, Ordering::SeqCst);
    counters[0].store(worker.nodes, Ordering::Relaxed);
    // The move is announced without waiting for the helpers to wind down: a helper
    // publishes only completed iterations, so waiting adds nothing to the choice, and
    // with more threads than cores (or a loaded machine) a helper may not run again
    // for tens of milliseconds. The pool is idle (and `start` may go on) only when
    // every thread is done.
    let results = shared.results.lock().clone();
    let choice = *shared.choice.lock();
    let chosen_thread = choose(&results, choice);
    let chosen = results.get(chosen_thread).cloned().unwrap_or_default();
    // The last `info` line describes the move played, with the final node count and
    // time: after an unfinished iteration (whose nodes no line has reported yet), or
    // when another thread's line won the vote, one more line is due.
    if lines == 1 && chosen.best().is_some() && (interrupted || chosen_thread != 0) {
        report(worker, chosen.depth, 1, chosen.score, chosen.bound, chosen.pv.clone());
    }
    let best = chosen.best().or_else(|| worker.root_moves.first().copied());
    let ponder = if chosen.best().is_some() { chosen.ponder() } else { None };
    let ponder = ponder.filter(|&p| {
        best.is_some_and(|b| {
            let mut after = root;
            after.play_unchecked(b);
            after.is_legal(p)
        })
    });
    let outcome = SearchOutcome {
        root,
        best,
        ponder,
        score: chosen.score,
        depth: chosen.completed_depth(),
        nodes: total_nodes(shared),
        elapsed: job.start.elapsed(),
    };
    *shared.last_outcome.lock() = Some(outcome.clone());
    shared.reporter.best_move(&outcome);
}

/// Picks the thread whose line is played (an index into `results`; 0 is the main thread).
fn choose(results: &[ThreadResult], choice: BestMoveChoice) -> usize {
    let done = || results.iter().enumerate().filter(|(_, r)| r.best().is_some());
    if done().next().is_none() || choice == BestMoveChoice::MainThread {
        return 0;
    }
    // Among the threads that chose `mv`, the deepest one's line.
    let deepest_with = |mv: Option<Move>| {
        done()
            .filter(|(_, r)| mv.is_none() || r.best() == mv)
            .max_by_key(|(_, r)| (r.completed_depth(), r.score))
            .map_or(0, |(i, _)| i)
    };
    match choice {
        BestMoveChoice::Deepest => deepest_with(None),
        _ => {
            let worst = done().map(|(_, r)| r.score).min().unwrap_or(-INFINITY);
            let mut votes: Vec<(Move, i64)> = Vec::new();
            for (_, r) in done() {
                let Some(mv) = r.best() else { continue };
                let weight = i64::from(r.score - worst + 10) * i64::from(r.completed_depth());
                match votes.iter_mut().find(|(m, _)| *m == mv) {
                    Some((_, v)) => *v += weight,
                    None => votes.push((mv, weight)),
                }
            }
            votes
                .iter()
                .max_by_key(|(_, v)| *v)
                .map_or(0, |&(winner, _)| deepest_with(Some(winner)))
        }
    }
}
