//! The Lazy SMP thread pool.
//!
//! Threads are created once (and re-created only when `Threads` changes); each
//! waits on a mailbox of its own between searches. For each `go` every thread
//! searches the same root with its own [`Worker`]; they share the
//! transposition table, one stop flag and per-thread counters on cache lines
//! of their own, and one clock. Thread 0 is the main thread: it keeps the clock
//! (follows `ponderhit`; every thread reads the hard limit's deadline, which the
//! clock publishes when the search starts), reports, stops the helpers and
//! announces the best move.
//!
//! A `go` is one command ([`crate::control`]): the job and every resource the
//! search uses (table, tablebases, counters, cluster, network), put into every
//! thread's mailbox. A thread takes its own mailbox's lock to take the command
//! and then finds everything in it: the threads start together, none queued
//! behind another for a lock. After that, locks are taken only once per
//! completed iteration (to publish a thread's result) and at the end, never
//! inside the search itself. Between searches the pool owns the table and the
//! tablebases alone and changes them in place.
//!
//! A refused resource never takes the pool down: a new set of threads is
//! started before the old set retires, so when the system refuses a thread the
//! pool keeps what it had; a resized table frees the old memory first (so that
//! the peak is the larger size, not the sum), and when the system refuses the
//! new size the table is allocated again at the old one.
//!
//! On Windows with more than one processor group (over 64 logical
//! processors), the threads are spread over the groups as they start
//! ([`crate::processor_groups`]).
//!
//! The table is first touched by the threads of a [`tt::Placement`] that
//! follows the NUMA policy and the thread count ([`crate::numa::table_placement`]):
//! when either changes, the table is placed anew.
//!
//! In a cluster ([`ThreadPool::set_cluster`]) every rank runs a pool like this
//! one on its own table; on the ranks that follow, thread 0 searches like a
//! helper and hands its rank's thread results to the leader (see `crate::cluster`).

use crate::choice::BestMoveChoice;
use crate::cluster::{Alone, Cluster};
use crate::control::{Command, Commands, Control, Mailbox, Resources, SearchRun};
use crate::counters::Counters;
use crate::deepening::{follower_search, helper_search, main_search};
use crate::limits::SearchJob;
use crate::numa::{NumaNodes, NumaPolicy};
use crate::params;
use crate::processor_groups;
use crate::report::{Reporter, SearchOutcome};
use crate::shared::{Results, Shared};
use crate::signals::Signals;
use crate::sync::MutexGuard;
use crate::tablebase::TablebaseOptions;
use crate::time::Clock;
use crate::worker::Worker;
use std::fmt;
use std::sync::Arc;
use std::thread::JoinHandle;
use syzygy::{LoadError, LoadReport};
use tt::TranspositionTable;

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

/// A running search thread and the mailbox it takes its commands from.
struct SearchThread {
    handle: JoinHandle<()>,
    mailbox: Arc<Mailbox>,
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
        let tt = TranspositionTable::try_new(hash_mb).map_err(PoolError::Memory)?;
        let resources = Resources {
            tt: Arc::new(tt),
            tablebase: Arc::default(),
            counters: Arc::new(Counters::new(0)),
            cluster: Arc::new(Alone),
            network: eval::nnue::embedded(),
            choice: BestMoveChoice::default(),
        };
        let shared = Arc::new(Shared {
            signals: Signals::new(),
            commands: Commands::new(resources),
            results: Results::default(),
            numa: NumaNodes::default(),
            reporter,
        });
        let handles = spawn(&shared, threads.max(1))?;
        let mut pool = ThreadPool { shared, handles: Vec::new() };
        pool.install(handles);
        pool.place_table();
        Ok(pool)
    }

    /// Places the table for the current threads and NUMA policy (the pool must be
    /// idle); nothing happens when that placement is the table's already.
    fn place_table(&self) {
        let placement =
            crate::numa::table_placement(self.shared.numa.topology().as_ref(), self.threads());
        self.shared.commands.lock().resources.tt_mut().set_placement(placement);
    }

    /// Makes `handles` the pool's threads (the pool must be idle): the old set
    /// retires, and the per-thread counters and results are sized for the new one.
    fn install(&mut self, handles: Vec<SearchThread>) {
        retire(std::mem::replace(&mut self.handles, handles));
        let threads = self.handles.len();
        let mut c = self.shared.commands.lock();
        c.mailboxes = self.handles.iter().map(|t| Arc::clone(&t.mailbox)).collect();
        c.resources.counters = Arc::new(Counters::new(threads));
        drop(c);
        self.shared.results.reset(threads);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.handles.len()
    }

    /// Changes the number of threads (stops any search first). The new threads
    /// start before the old ones retire: if the system refuses one, the pool
    /// keeps its old threads and says why. Where the threads are pinned to NUMA
    /// nodes and the new ones use other nodes, the table is placed anew (and
    /// emptied).
    pub fn set_threads(&mut self, threads: usize) -> Result<(), PoolError> {
        let threads = threads.max(1);
        if threads == self.threads() {
            return Ok(());
        }
        self.stop_and_wait();
        let handles = spawn(&self.shared, threads)?;
        self.install(handles);
        self.place_table();
        Ok(())
    }

    /// Starts a search; returns at once. The reporter receives the best move
    /// when it ends. A search already running is stopped first.
    ///
    /// Everything is prepared under the pool's lock, on this thread, while the
    /// pool is idle; then one command carries the job and the resources to every
    /// thread.
    pub fn start(&self, job: SearchJob) {
        let mut c = self.stopped();
        // The clock is planned once, here, and its hard limit's deadline is
        // published before any thread runs, so that every thread can stop the
        // search on time however they are scheduled (crate::time). No deadline
        // while pondering (`ponderhit` sets it), and none on the ranks that
        // follow a cluster's leader (the leader's stop ends theirs).
        let lead = c.resources.cluster.rank() == 0;
        let board = job.position.board();
        let clock = Clock::new(&job.limits, board, job.move_overhead, job.start, lead);
        self.shared.signals.arm(job.limits.infinite || job.limits.ponder);
        c.resources.counters.reset();
        self.shared.results.reset(self.handles.len());
        let tt = c.resources.tt_mut();
        tt.set_replacement(params::replacement());
        tt.new_search();
        // At the root, before any thread searches: rank the moves by the tablebases.
        c.resources.tablebase_mut().prepare(&job.position, &job.limits.search_moves);
        let run = SearchRun { job, resources: c.resources.clone(), clock };
        self.shared.commands.issue(c, Command::Search(Arc::new(run)));
    }

    /// Asks the running search (if any) to stop; the best move follows shortly,
    /// whatever held it back (`go infinite`, `go ponder`, the least time to answer).
    pub fn stop(&self) {
        self.shared.signals.interrupt();
    }

    /// `ponderhit`: the pondered move was played; the search continues on the clock.
    /// Only a `go ponder` search listens: `go infinite` ends on `stop` alone.
    pub fn ponderhit(&self) {
        let pondering = matches!(
            &self.shared.commands.lock().command,
            Some(Command::Search(run)) if run.job.limits.ponder && !run.job.limits.infinite
        );
        if pondering {
            self.shared.signals.ponderhit();
        }
    }

    /// Blocks until no search is running (a search that ends by itself is let finish).
    pub fn wait_idle(&self) {
        drop(self.shared.commands.idle());
    }

    /// Stops the search under way, if any, and blocks until every thread is
    /// idle: its best move has been announced by then.
    pub fn stop_and_wait(&self) {
        drop(self.stopped());
    }

    /// Stops any search and returns the pool's lock once every thread is idle,
    /// so that nothing can start before the caller is done.
    fn stopped(&self) -> MutexGuard<'_, Control> {
        self.stop();
        self.shared.commands.idle()
    }

    /// Runs a search to the end and returns its outcome (for bench and tests),
    /// with every node of every thread in its count: the move is announced
    /// before the helpers wind down, so the count announced with it misses the
    /// nodes they searched since they last published (up to 1024 each); once every
    /// thread is idle, each has published its last.
    pub fn search_sync(&self, job: SearchJob) -> Option<SearchOutcome> {
        self.shared.results.set_outcome(None);
        self.start(job);
        let idle = self.shared.commands.idle();
        let mut outcome = self.shared.results.outcome()?;
        outcome.nodes = idle.resources.counters.total();
        Some(outcome)
    }

    /// Forgets everything learned: clears the table (in parallel) and every thread's histories.
    pub fn clear(&mut self) {
        let mut c = self.stopped();
        c.resources.tt_mut().clear();
        self.shared.commands.issue(c, Command::ClearHistories);
        self.wait_idle();
    }

    /// Resizes the table (stops any search first). The old table is freed first:
    /// if the system refuses the new size, the table is allocated again at the
    /// old one (empty; see [`TranspositionTable::try_resize`]), and
    /// [`Self::hash_info`] says what it has.
    pub fn resize_hash(&mut self, mb: usize) -> Result<(), tt::AllocError> {
        self.stopped().resources.tt_mut().try_resize(mb)
    }

    /// How the table's memory was obtained, and its size in MB.
    pub fn hash_info(&self) -> (tt::Backing, usize) {
        let tt = &self.shared.commands.lock().resources.tt;
        (tt.backing(), tt.size_mb())
    }

    /// Why the table asked for large pages and did not get them (Windows; see
    /// [`TranspositionTable::large_page_refusal`]).
    pub fn large_page_refusal(&self) -> Option<tt::LargePageRefusal> {
        self.shared.commands.lock().resources.tt.large_page_refusal()
    }

    /// Chooses how the final move is picked among threads (from the next search on).
    pub fn set_best_move_choice(&self, choice: BestMoveChoice) {
        self.shared.commands.lock().resources.choice = choice;
    }

    /// Makes this pool one rank of a cluster (waits for any search to finish first).
    /// A pool searches [`Alone`] until this is called.
    pub fn set_cluster(&self, cluster: Arc<dyn Cluster>) {
        self.stopped().resources.cluster = cluster;
    }

    /// Chooses the evaluation network of the next searches (a pool starts with
    /// the embedded one).
    pub fn set_network(&self, network: Arc<eval::nnue::Network>) {
        self.shared.commands.lock().resources.network = network;
        // The nodes' copies of the old network: made anew when next asked for.
        self.shared.numa.forget_copies();
    }

    /// Sets how threads are pinned to NUMA nodes, and restarts the threads so
    /// that they are pinned (or not) accordingly, and places the table anew
    /// where that changes where it is touched. If the system refuses a new
    /// thread, the old threads and policy stay.
    pub fn set_numa_policy(&mut self, policy: NumaPolicy) -> Result<(), PoolError> {
        self.stop_and_wait();
        let old = self.shared.numa.set_policy(policy);
        match spawn(&self.shared, self.threads()) {
            Ok(handles) => {
                self.install(handles);
                self.place_table();
                Ok(())
            }
            Err(e) => {
                self.shared.numa.set_policy(old);
                Err(e)
            }
        }
    }

    /// The NUMA node each thread is pinned to (`None`: not pinned).
    pub fn pinned_nodes(&self) -> Vec<Option<usize>> {
        self.shared.numa.pinned()
    }

    /// Loads the Syzygy tables of `path` (folders separated by `:` or `;`;
    /// empty or `<empty>`: no tables), replacing the current ones; waits for
    /// any search to finish first. Every file is checked before the prober may
    /// see it, and the report lists what was skipped. When nothing usable is
    /// found, the tables loaded before stay loaded.
    pub fn load_tablebases(&self, path: &str) -> Result<LoadReport, LoadError> {
        self.stopped().resources.tablebase_mut().load(path)
    }

    /// Whether Syzygy tables are loaded.
    pub fn tablebases_loaded(&self) -> bool {
        self.shared.commands.lock().resources.tablebase.is_loaded()
    }

    /// Sets how the next searches use the tables.
    pub fn set_tablebase_options(&self, options: TablebaseOptions) {
        self.stopped().resources.tablebase_mut().set_options(options);
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.stop_and_wait();
        retire(std::mem::take(&mut self.handles));
    }
}

/// The stack of a search thread.
const STACK_BYTES: usize = 16 << 20;
/// What a starting thread needs besides its stack (its `Worker`, the signal
/// stack std gives every thread, malloc's bookkeeping), with room to spare.
const THREAD_MARGIN_BYTES: usize = 64 << 20;
/// The memory a search thread is given room for: its stack and the margin
/// (a new thread starts only where this much could be reserved).
pub const THREAD_MEMORY_BYTES: usize = STACK_BYTES + THREAD_MARGIN_BYTES;

/// Whether the system would give one more thread its memory now: reserves
/// (without touching) and frees a thread's stack and margin. Without this a
/// thread whose stack fits but whose first allocations do not would abort the
/// process (std aborts when it cannot map a new thread's signal stack).
fn room_for_a_thread() -> bool {
    Vec::<u8>::new().try_reserve_exact(THREAD_MEMORY_BYTES).is_ok()
}

/// Starts `threads` idle search threads, one at a time, each having allocated
/// its `Worker` before the next is asked for. If the system refuses one (or
/// has no room for it), those already started are retired and the error says
/// how far it got.
///
/// Under a NUMA policy that pins, each thread pins itself to its node's CPUs
/// before it allocates its `Worker` (so the worker's memory is the node's),
/// and the pool records where each thread went (see [`ThreadPool::pinned_nodes`]).
/// On a Windows machine with several processor groups, a thread that is not
/// pinned binds itself to one group instead, so that the threads reach every
/// group ([`crate::processor_groups`]).
fn spawn(shared: &Arc<Shared>, threads: usize) -> Result<Vec<SearchThread>, PoolError> {
    let network = Arc::clone(&shared.commands.lock().resources.network);
    let topology = shared.numa.topology();
    let nodes = topology.as_ref().map(|t| t.assign(threads));
    let groups = processor_groups::assign(&processor_groups::active_groups(), threads);
    let mut handles = Vec::with_capacity(threads);
    let mut pinned = Vec::with_capacity(threads);
    let (ready, started) = std::sync::mpsc::channel::<Option<usize>>();
    for id in 0..threads {
        let mailbox = Arc::new(Mailbox::default());
        let (thread_shared, inbox, ready, network) =
            (Arc::clone(shared), Arc::clone(&mailbox), ready.clone(), Arc::clone(&network));
        let place = topology.as_ref().zip(nodes.as_ref()).map(|(t, nodes)| {
            let node = nodes[id];
            (node, t.cpus(node).to_vec())
        });
        let group = groups.as_ref().map(|groups| groups[id]);
        let spawned = if room_for_a_thread() {
            std::thread::Builder::new().name(format!("search-{id}")).stack_size(STACK_BYTES).spawn(
                move || {
                    // A refused pinning leaves the thread where the system puts it.
                    let node = place.and_then(|(node, cpus)| {
                        crate::numa::bind_current_thread(&cpus).ok().map(|()| node)
                    });
                    if node.is_none()
                        && let Some(group) = group
                    {
                        // Refused, the thread stays in the group it started in.
                        let _ = group.bind_current_thread();
                    }
                    let mut copy = None;
                    let mut worker =
                        Worker::new(thread_shared.numa.network_for(&network, node, &mut copy));
                    worker.numa_node = node;
                    worker.node_network = copy;
                    let _ = ready.send(node);
                    thread_main(&thread_shared, &inbox, worker, id);
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
                pinned.push(started.recv().ok().flatten());
                handles.push(SearchThread { handle, mailbox });
            }
            Err(error) => {
                retire(handles);
                return Err(PoolError::Threads { wanted: threads, started: id, error });
            }
        }
    }
    shared.numa.set_pinned(pinned);
    Ok(handles)
}

/// Tells idle `threads` to exit and waits for them.
fn retire(threads: Vec<SearchThread>) {
    for t in &threads {
        t.mailbox.retire();
    }
    for t in threads {
        let _ = t.handle.join();
    }
}

/// A search thread: runs each command it is given, until it is retired.
fn thread_main(shared: &Shared, mailbox: &Mailbox, mut worker: Worker, id: usize) {
    while let Some(command) = mailbox.next() {
        match command {
            Command::Search(run) if id == 0 && run.resources.cluster.rank() > 0 => {
                follower_search(shared, &mut worker, &run)
            }
            Command::Search(run) if id == 0 => main_search(shared, &mut worker, &run),
            Command::Search(run) => helper_search(shared, &mut worker, &run, id),
            Command::ClearHistories => worker.clear(),
        }
        // The thread's copy of the command is gone: once the last thread is
        // here, the pool owns its resources alone again.
        shared.commands.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::SearchLimits;
    use board::{Board, Position};
    use std::time::{Duration, Instant};

    fn job() -> Arc<SearchJob> {
        Arc::new(SearchJob::new(Position::new(Board::startpos()), SearchLimits::default()))
    }

    #[test]
    fn a_finished_search_counts_every_thread_s_last_nodes() {
        // The helpers publish their last nodes after the main thread announced the
        // move: the outcome must count them all the same.
        let pool = ThreadPool::new(4, 16, Arc::new(crate::Silent));
        let limits = SearchLimits { depth: Some(9), ..SearchLimits::default() };
        for _ in 0..3 {
            let outcome =
                pool.search_sync(SearchJob { limits: limits.clone(), ..(*job()).clone() });
            let announced = outcome.expect("a move").nodes;
            let total = pool.shared.commands.lock().resources.counters.total();
            assert_eq!(announced, total, "nodes published after the move was announced");
        }
    }

    #[test]
    fn a_stop_right_after_go_still_plays_a_searched_move() {
        // The queen hangs; the first legal move in generation order does not take it.
        let board = Board::from_fen("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1").expect("valid FEN");
        let capture = board.parse_uci_move("d1d5", false).expect("legal");
        let pool = ThreadPool::new(2, 1, Arc::new(crate::Silent));
        for _ in 0..20 {
            let job = SearchJob { position: Position::new(board), ..(*job()).clone() };
            pool.start(job);
            pool.stop_and_wait();
            let outcome = pool.shared.results.outcome().expect("a best move");
            assert_eq!(outcome.best, Some(capture), "stopped before depth 1 was searched");
        }
    }

    #[test]
    fn the_search_holds_its_move_for_the_least_time_and_stop_releases_it() {
        let pool = ThreadPool::new(1, 1, Arc::new(crate::Silent));
        let least = Duration::from_millis(150);
        let limits =
            SearchLimits { depth: Some(1), min_time: Some(least), ..SearchLimits::default() };
        let start = Instant::now();
        let outcome =
            pool.search_sync(SearchJob { limits: limits.clone(), start, ..(*job()).clone() });
        assert!(outcome.and_then(|o| o.best).is_some(), "no move");
        assert!(start.elapsed() >= least, "answered after {:?}", start.elapsed());
        let limits = SearchLimits { min_time: Some(Duration::from_secs(600)), ..limits };
        let start = Instant::now();
        pool.start(SearchJob { limits, start, ..(*job()).clone() });
        std::thread::sleep(Duration::from_millis(20));
        pool.stop_and_wait();
        assert!(start.elapsed() < Duration::from_secs(60), "stop did not release the move");
        assert!(pool.shared.results.outcome().and_then(|o| o.best).is_some());
    }
}
