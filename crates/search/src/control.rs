//! What the pool tells its threads: one command per epoch, and for a search,
//! everything the threads need in that one command.
//!
//! The pool keeps the resources of the next search ([`Resources`]: the table, the
//! tablebases, the counters, the cluster, the network, the move choice) in its
//! [`Control`], under the one mutex its threads park on. A `go` copies them (a
//! handful of `Arc` clones) into a [`SearchRun`] with the job and issues it; a thread
//! that wakes takes the command under that same lock and then finds all it needs
//! in it, so the start of a search takes one lock per thread, not one per
//! resource. The threads hold the `Arc`s only while they search; once the pool is
//! idle the command is dropped, and the pool is again the only owner of the table
//! and the tablebases, which it changes in place ([`Resources::tt_mut`]).
//!
//! [`Commands`] is that mutex with its two condition variables: the threads
//! wait on one for a new command, the pool on the other for them to finish it.

use crate::choice::BestMoveChoice;
use crate::cluster::Cluster;
use crate::counters::Counters;
use crate::limits::SearchJob;
use crate::sync::{Condvar, Mutex, MutexGuard};
use crate::tablebase::Tablebase;
use crate::time::Clock;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tt::TranspositionTable;

/// What a search uses besides its job, owned by the pool between searches.
#[derive(Clone)]
pub(crate) struct Resources {
    /// The shared transposition table.
    pub tt: Arc<TranspositionTable>,
    /// The Syzygy tables and this search's root ranking.
    pub tablebase: Arc<Tablebase>,
    /// Each thread's counts and the node budget, sized for the pool's threads.
    pub counters: Arc<Counters>,
    /// The other ranks searching with this pool ([`crate::Alone`] outside a cluster).
    pub cluster: Arc<dyn Cluster>,
    /// The evaluation network (pinned threads use their node's copy of it).
    pub network: Arc<eval::nnue::Network>,
    /// How the move is chosen among the threads.
    pub choice: BestMoveChoice,
}

impl Resources {
    /// The table, to change it. Only while the pool is idle: then no search, and
    /// so no command, holds a clone of it.
    pub fn tt_mut(&mut self) -> &mut TranspositionTable {
        Arc::get_mut(&mut self.tt).expect("the pool is idle: no search holds the table")
    }

    /// The tablebases, to change them (only while the pool is idle, as [`Self::tt_mut`]).
    pub fn tablebase_mut(&mut self) -> &mut Tablebase {
        Arc::get_mut(&mut self.tablebase).expect("the pool is idle: no search holds the tables")
    }
}

/// One search: the job, what it searches with, and its clock.
pub(crate) struct SearchRun {
    pub job: SearchJob,
    pub resources: Resources,
    /// The search's clock, planned once when the search was issued: the main
    /// thread restarts it on `ponderhit`, every thread reads its deadline.
    pub clock: Clock,
}

/// What the threads are told to do: one command per epoch.
#[derive(Clone)]
pub(crate) enum Command {
    /// Search this job.
    Search(Arc<SearchRun>),
    /// Forget the histories (`ucinewgame`, `Clear Hash`).
    ClearHistories,
}

/// The pool's state under its mutex: the resources of the next search and the
/// command of the current epoch.
///
/// A command is a value of its epoch, not a flag that someone resets: it stays
/// until every thread has finished it (it is dropped then, so that the pool owns
/// the resources alone again), and the next [`Control::issue`] starts a new
/// epoch. A thread that wakes late (after the others have finished) therefore
/// still finds the command it woke for, and a `ClearHistories` is never missed.
pub(crate) struct Control {
    /// The current command; `None` before the first and once every thread has
    /// finished it.
    pub command: Option<Command>,
    /// Incremented for every command.
    pub epoch: u64,
    /// Threads still working on the current command.
    pub active: usize,
    /// What the next search gets (changed only while no thread is active).
    pub resources: Resources,
}

impl Control {
    /// No command yet.
    pub fn new(resources: Resources) -> Control {
        Control { command: None, epoch: 0, active: 0, resources }
    }

    /// Gives `threads` threads a new command (the pool must be idle).
    pub fn issue(&mut self, command: Command, threads: usize) {
        debug_assert_eq!(self.active, 0, "a command issued while the threads work");
        self.command = Some(command);
        self.epoch += 1;
        self.active = threads;
    }

    /// The command a thread that last ran epoch `seen` has not run yet, if any.
    pub fn take(&self, seen: &mut u64) -> Option<Command> {
        if self.epoch == *seen {
            return None;
        }
        *seen = self.epoch;
        debug_assert!(self.command.is_some(), "every epoch has its command");
        self.command.clone()
    }

    /// A thread has finished the current command (and dropped its copy of it).
    /// Returns whether to wake the waiters: at 1 the main thread, waiting for
    /// the last helper, may go on; at 0 the pool is idle, and the command is
    /// dropped: every thread has run it.
    pub fn finish(&mut self) -> bool {
        self.active -= 1;
        if self.active == 0 {
            self.command = None;
        }
        self.active <= 1
    }
}

/// The pool's [`Control`] under its one mutex, and the waits on it: threads
/// wait for a command ([`Commands::next`]), the pool for the threads to finish
/// it ([`Commands::idle`]).
pub(crate) struct Commands {
    control: Mutex<Control>,
    /// Signalled when a command is issued or threads must retire.
    wake: Condvar,
    /// Signalled when the main thread may go on, or the pool is idle.
    idle: Condvar,
}

impl Commands {
    /// No command yet; `resources` for the first search.
    pub fn new(resources: Resources) -> Commands {
        Commands {
            control: Mutex::new(Control::new(resources)),
            wake: Condvar::new(),
            idle: Condvar::new(),
        }
    }

    /// The pool's state, locked (whether or not the threads are working).
    pub fn lock(&self) -> MutexGuard<'_, Control> {
        self.control.lock()
    }

    /// Waits until no thread is working and returns the lock, so that nothing
    /// can start before the caller is done.
    pub fn idle(&self) -> MutexGuard<'_, Control> {
        let mut c = self.control.lock();
        while c.active > 0 {
            c = self.idle.wait(c);
        }
        c
    }

    /// Issues `command` to `threads` threads and wakes them; `control` is the
    /// lock [`Commands::idle`] returned.
    pub fn issue(&self, mut control: MutexGuard<'_, Control>, command: Command, threads: usize) {
        control.issue(command, threads);
        self.wake.notify_all();
    }

    /// A thread that last ran epoch `seen` waits for its next command; `None`
    /// once `retire` is set (see [`Commands::retire`]).
    pub fn next(&self, retire: &AtomicBool, seen: &mut u64) -> Option<Command> {
        let mut c = self.control.lock();
        loop {
            if retire.load(Ordering::SeqCst) {
                return None;
            }
            if let Some(command) = c.take(seen) {
                return Some(command);
            }
            c = self.wake.wait(c);
        }
    }

    /// A thread has finished its command (and dropped its copy of it).
    pub fn finish(&self) {
        if self.control.lock().finish() {
            self.idle.notify_all();
        }
    }

    /// Tells the threads of `flags` to exit. The flags are set under the lock,
    /// so a thread cannot check its flag and then miss the wake-up.
    pub fn retire<'a>(&self, flags: impl IntoIterator<Item = &'a AtomicBool>) {
        let _c = self.control.lock();
        for flag in flags {
            flag.store(true, Ordering::SeqCst);
        }
        self.wake.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::SearchLimits;
    use board::{Board, Position};

    fn resources() -> Resources {
        Resources {
            tt: Arc::new(TranspositionTable::with_buckets(1)),
            tablebase: Arc::default(),
            counters: Arc::new(Counters::new(2)),
            cluster: Arc::new(crate::Alone),
            network: eval::nnue::embedded(),
            choice: BestMoveChoice::default(),
        }
    }

    /// A search with `resources`.
    fn search(resources: &Resources) -> Command {
        let job = SearchJob::new(Position::new(Board::startpos()), SearchLimits::default());
        let clock =
            Clock::new(&job.limits, job.position.board(), job.move_overhead, job.start, true);
        Command::Search(Arc::new(SearchRun { job, resources: resources.clone(), clock }))
    }

    #[test]
    fn a_thread_that_wakes_late_still_gets_the_clear() {
        // Two threads; `seen` is each one's last epoch. Either may wake last.
        for late in [0, 1] {
            let mut c = Control::new(resources());
            let mut seen = [0u64; 2];
            c.issue(search(&c.resources), 2);
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
            c.issue(search(&c.resources), 2);
            for s in &mut seen {
                assert!(matches!(c.take(s), Some(Command::Search(_))));
            }
        }
    }

    #[test]
    fn once_every_thread_has_searched_the_pool_owns_its_table_again() {
        let mut c = Control::new(resources());
        c.issue(search(&c.resources), 2);
        let mut seen = [0u64; 2];
        let taken: Vec<_> = seen.iter_mut().map(|s| c.take(s).expect("a command")).collect();
        for command in taken {
            assert!(Arc::get_mut(&mut c.resources.tt).is_none(), "a search holds the table");
            drop(command);
            c.finish();
        }
        assert!(c.command.is_none(), "the finished command is kept");
        c.resources.tt_mut().clear();
        c.resources.tablebase_mut().set_options(crate::TablebaseOptions::default());
    }
}
