//! What the pool tells its threads: one command per search (or clear), and
//! for a search everything the threads need in that one command.
//!
//! The pool keeps the resources of the next search ([`Resources`]: the table, the
//! tablebases, the counters, the cluster, the network, the move choice) in its
//! [`Control`], under its mutex. A `go` copies them (a handful of `Arc` clones)
//! into a [`SearchRun`] with the job and issues it: the pool puts a copy of the
//! command into each thread's [`Mailbox`] and rings it. Each thread waits on a
//! mailbox of its own, under a lock of its own, so a `go` wakes every thread at
//! once: none queues behind the others for a shared lock before it can start
//! (as threads woken together on one mutex would, one after another). A thread
//! then finds all it needs in the command. The threads hold the `Arc`s only
//! while they search; once the pool is idle the command is dropped, and the pool
//! is again the only owner of the table and the tablebases, which it changes in
//! place ([`Resources::tt_mut`]).
//!
//! [`Commands`] is the pool's mutex with the condition variable the pool waits
//! on for the threads to finish a command.

use crate::choice::BestMoveChoice;
use crate::cluster::Cluster;
use crate::counters::Counters;
use crate::limits::SearchJob;
use crate::sync::{Condvar, Mutex, MutexGuard};
use crate::tablebase::Tablebase;
use crate::time::Clock;
use std::sync::Arc;
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

/// What the threads are told to do.
#[derive(Clone)]
pub(crate) enum Command {
    /// Search this job.
    Search(Arc<SearchRun>),
    /// Forget the histories (`ucinewgame`, `Clear Hash`).
    ClearHistories,
}

/// The pool's state under its mutex: the resources of the next search, the
/// threads' mailboxes, and the command under way.
///
/// A command stays until every thread has finished it (it is dropped then, so
/// that the pool owns the resources alone again); a new one is issued only when
/// the pool is idle, so a mailbox never holds more than one command.
pub(crate) struct Control {
    /// The current command; `None` before the first and once every thread has
    /// finished it.
    pub command: Option<Command>,
    /// Threads still working on the current command.
    pub active: usize,
    /// What the next search gets (changed only while no thread is active).
    pub resources: Resources,
    /// One mailbox per thread, thread 0's first.
    pub mailboxes: Vec<Arc<Mailbox>>,
}

impl Control {
    /// No command yet, and no thread.
    pub fn new(resources: Resources) -> Control {
        Control { command: None, active: 0, resources, mailboxes: Vec::new() }
    }

    /// Gives every thread a new command (the pool must be idle): a copy into
    /// each mailbox, which wakes its thread.
    pub fn issue(&mut self, command: Command) {
        debug_assert_eq!(self.active, 0, "a command issued while the threads work");
        self.active = self.mailboxes.len();
        for mailbox in &self.mailboxes {
            mailbox.deliver(command.clone());
        }
        self.command = Some(command);
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

/// Where one thread waits for its commands: a slot under a lock of its own,
/// and a condition variable that only its thread waits on.
#[derive(Default)]
pub(crate) struct Mailbox {
    letter: Mutex<Letter>,
    ring: Condvar,
}

/// What a mailbox holds.
#[derive(Default)]
struct Letter {
    /// A command the thread has not taken yet.
    command: Option<Command>,
    /// The thread is to exit (set only while the pool is idle).
    retire: bool,
}

impl Mailbox {
    /// Leaves `command` for the thread and wakes it.
    fn deliver(&self, command: Command) {
        let mut letter = self.letter.lock();
        debug_assert!(letter.command.is_none(), "a thread had not taken its last command");
        letter.command = Some(command);
        drop(letter);
        self.ring.notify_one();
    }

    /// Tells the thread to exit once it has no command left.
    pub fn retire(&self) {
        self.letter.lock().retire = true;
        self.ring.notify_one();
    }

    /// Waits for the thread's next command; `None` once it is retired.
    pub fn next(&self) -> Option<Command> {
        let mut letter = self.letter.lock();
        loop {
            if let Some(command) = letter.command.take() {
                return Some(command);
            }
            if letter.retire {
                return None;
            }
            letter = self.ring.wait(letter);
        }
    }
}

/// The pool's [`Control`] under its mutex, and the pool's wait on it for the
/// threads to finish a command ([`Commands::idle`]).
pub(crate) struct Commands {
    control: Mutex<Control>,
    /// Signalled when the main thread may go on, or the pool is idle.
    idle: Condvar,
}

impl Commands {
    /// No command yet; `resources` for the first search.
    pub fn new(resources: Resources) -> Commands {
        Commands { control: Mutex::new(Control::new(resources)), idle: Condvar::new() }
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

    /// Issues `command` to every thread; `control` is the lock
    /// [`Commands::idle`] returned.
    pub fn issue(&self, mut control: MutexGuard<'_, Control>, command: Command) {
        control.issue(command);
    }

    /// A thread has finished its command (and dropped its copy of it).
    pub fn finish(&self) {
        if self.control.lock().finish() {
            self.idle.notify_all();
        }
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

    /// A pool's state with `threads` mailboxes.
    fn control(threads: usize) -> Control {
        let mut c = Control::new(resources());
        c.mailboxes = (0..threads).map(|_| Arc::new(Mailbox::default())).collect();
        c
    }

    #[test]
    fn a_thread_that_wakes_late_still_gets_each_command_once() {
        // Either thread may be the late one: the other takes and finishes each
        // command before the late one looks at its mailbox.
        for late in [0, 1] {
            let early = 1 - late;
            let mut c = control(2);
            c.issue(search(&c.resources));
            assert!(matches!(c.mailboxes[early].next(), Some(Command::Search(_))));
            assert!(c.finish(), "one thread left: the main thread may go on");
            assert!(matches!(c.mailboxes[late].next(), Some(Command::Search(_))));
            assert!(c.finish());
            assert_eq!(c.active, 0);
            c.issue(Command::ClearHistories);
            assert!(matches!(c.mailboxes[early].next(), Some(Command::ClearHistories)));
            c.finish();
            assert!(
                matches!(c.mailboxes[late].next(), Some(Command::ClearHistories)),
                "thread {late} woke after thread {early} had finished and missed the clear"
            );
            c.finish();
            // The next search is a search for both, not a second clear.
            c.issue(search(&c.resources));
            for mailbox in &c.mailboxes {
                assert!(matches!(mailbox.next(), Some(Command::Search(_))));
            }
        }
    }

    #[test]
    fn one_issue_wakes_every_waiting_thread_and_a_retired_one_exits() {
        let mut c = control(4);
        let waiting: Vec<_> = c
            .mailboxes
            .iter()
            .map(|mailbox| {
                let mailbox = Arc::clone(mailbox);
                std::thread::spawn(move || {
                    let mut searches = 0;
                    while let Some(command) = mailbox.next() {
                        searches += usize::from(matches!(command, Command::Search(_)));
                    }
                    searches
                })
            })
            .collect();
        for _ in 0..3 {
            c.issue(search(&c.resources));
            // No thread finishes here: each got its copy all the same, so the
            // pool reads the count down by hand before the next command.
            c.active = 0;
            c.command = None;
            // A mailbox holds one command: wait until every thread took its own.
            while c.mailboxes.iter().any(|m| m.letter.lock().command.is_some()) {
                std::thread::yield_now();
            }
        }
        for mailbox in &c.mailboxes {
            mailbox.retire();
        }
        let searches: Vec<usize> =
            waiting.into_iter().map(|t| t.join().expect("a thread")).collect();
        assert_eq!(searches, [3, 3, 3, 3]);
    }

    #[test]
    fn once_every_thread_has_searched_the_pool_owns_its_table_again() {
        let mut c = control(2);
        c.issue(search(&c.resources));
        let taken: Vec<_> = c.mailboxes.iter().map(|m| m.next().expect("a command")).collect();
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
