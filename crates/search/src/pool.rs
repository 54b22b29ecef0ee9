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

use crate::limits::SearchLimits;
use crate::params::MAX_DEPTH;
use crate::report::{Reporter, SearchInfo, SearchOutcome};
use crate::stop::{Signals, StopCheck};
use crate::time::TimeManager;
use crate::worker::{INFINITY, SearchContext, Worker};
use board::{Move, Position};
use crossbeam_utils::CachePadded;
use parking_lot::{Condvar, Mutex, RwLock};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tt::{Bound, TranspositionTable};

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
    quit: bool,
    /// Threads still working on the current command.
    active: usize,
}

struct Shared {
    tt: RwLock<TranspositionTable>,
    /// The stop flag and the hold of `go infinite` / `go ponder`.
    signals: Signals,
    counters: RwLock<Arc<[CachePadded<AtomicU64>]>>,
    results: Mutex<Vec<ThreadResult>>,
    control: Mutex<Control>,
    wake: Condvar,
    idle: Condvar,
    reporter: Arc<dyn Reporter>,
    choice: Mutex<BestMoveChoice>,
    last_outcome: Mutex<Option<SearchOutcome>>,
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
            control: Mutex::new(Control {
                job: None,
                epoch: 0,
                clear_histories: false,
                quit: false,
                active: 0,
            }),
            wake: Condvar::new(),
            idle: Condvar::new(),
            reporter,
            choice: Mutex::new(BestMoveChoice::default()),
            last_outcome: Mutex::new(None),
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
        c.job = None;
        c.clear_histories = true;
        c.epoch += 1;
        c.active = self.handles.len();
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
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.join_all();
    }
}

fn thread_main(shared: &Shared, id: usize, mut seen: u64) {
    let mut worker = Worker::new();
    loop {
        let (job, clear) = {
            let mut c = shared.control.lock();
            while c.epoch == seen && !c.quit {
                shared.wake.wait(&mut c);
            }
            if c.quit {
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
                main_search(shared, &mut worker, &job);
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

/// A helper: iterative deepening with no output and no clock, until the stop flag.
/// Odd helpers skip a depth now and then so threads spread over neighbouring depths
/// (feature `helperskip`, on by default).
fn helper_search(shared: &Shared, worker: &mut Worker, job: &SearchJob, id: usize) {
    let tt = shared.tt.read();
    let counters = Arc::clone(&shared.counters.read());
    let ctx = SearchContext {
        tt: &tt,
        stop: StopCheck::new(&shared.signals, &counters, id, &job.limits, None),
        features: job.features,
    };
    worker.prepare(&job.position, &job.limits.search_moves);
    // Under `go depth N` a helper keeps searching past N until the main thread stops
    // (its deeper entries still help the main thread; an idle helper is a wasted core),
    // but only its iterations up to N take part in the choice of the move.
    let max_depth = job.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut score = 0;
    let mut depth = 1;
    while depth <= MAX_DEPTH && !shared.signals.is_stopped() {
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
    ctx.stop.publish(worker.nodes);
}

/// The main thread: iterative deepening with MultiPV, reports, the clock, then the
/// wait for helpers and the best move.
fn main_search(shared: &Shared, worker: &mut Worker, job: &SearchJob) {
    let tt = shared.tt.read();
    let counters = Arc::clone(&shared.counters.read());
    let root = *job.position.board();
    let limits = &job.limits;
    let clock = TimeManager::new(limits, root.side_to_move(), job.move_overhead, job.start);
    let ctx = SearchContext {
        tt: &tt,
        stop: StopCheck::new(&shared.signals, &counters, 0, limits, Some(clock)),
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
                nodes: ctx.stop.total_nodes().max(w.nodes),
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
                        ctx.stop.publish(w.nodes);
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
            ctx.stop.publish(worker.nodes);
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

            let factor = 1.4 - 0.15 * f64::from(stable_iterations.min(5));
            if ctx.stop.stop_deepening(*score, factor, worker.nodes) {
                break;
            }
        }
    }

    let interrupted = worker.was_stopped();

    // `go infinite` and `go ponder` never end on their own: wait for `stop` or `ponderhit`.
    shared.signals.wait_for_release();
    shared.signals.raise_stop();
    ctx.stop.publish(worker.nodes);
    {
        // Each helper decrements `active` and notifies under this lock when it is done.
        let mut c = shared.control.lock();
        while c.active > 1 {
            shared.idle.wait(&mut c);
        }
    }
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
        nodes: ctx.stop.total_nodes(),
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
