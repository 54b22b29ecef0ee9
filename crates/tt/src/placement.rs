//! Who touches the table's memory first, and so where it lives.
//!
//! An operating system places a page of memory when it is first written: on a
//! machine with several NUMA nodes, on the node of the CPU that wrote it. The
//! table is first touched (and cleared) by the threads of a [`Placement`], each
//! writing one contiguous part of it, so whoever chooses those threads and their
//! CPUs chooses where the table lives. This crate never pins a thread itself: the
//! engine passes the function that does ([`Pin`]).

use std::fmt;

/// Pins the calling thread to a list of CPUs. An error leaves the thread where it
/// was, and the table is touched from there.
pub type Pin = fn(&[usize]) -> std::io::Result<()>;

/// The threads that first touch and clear the table: thread `i` writes the `i`-th
/// of [`threads`](Self::threads) equal, contiguous parts of it, after pinning
/// itself to its CPUs (if it has any).
///
/// Tables under 32 MiB are touched and cleared on the calling thread whatever the
/// placement says: starting threads would cost more than the work.
///
/// ```
/// use tt::Placement;
///
/// let unpinned = Placement::unpinned(8);
/// assert_eq!(unpinned.threads(), 8);
/// fn pin(_cpus: &[usize]) -> std::io::Result<()> { Ok(()) }
/// let pinned = Placement::pinned(vec![vec![0, 1], vec![2, 3]], pin);
/// assert_eq!(pinned.threads(), 2);
/// assert_ne!(pinned, unpinned);
/// ```
#[derive(Clone)]
pub struct Placement {
    /// One entry per thread: the CPUs it is pinned to (`None`: not pinned).
    cpus: Vec<Option<Vec<usize>>>,
    pin: Option<Pin>,
}

impl Placement {
    /// `threads` threads (at least one), not pinned: the system places them.
    #[must_use]
    pub fn unpinned(threads: usize) -> Placement {
        Placement { cpus: vec![None; threads.max(1)], pin: None }
    }

    /// One thread per entry of `cpus` (at least one), thread `i` pinned by `pin` to
    /// `cpus[i]`. An empty `cpus` is one unpinned thread.
    #[must_use]
    pub fn pinned(cpus: Vec<Vec<usize>>, pin: Pin) -> Placement {
        if cpus.is_empty() {
            return Placement::unpinned(1);
        }
        Placement { cpus: cpus.into_iter().map(Some).collect(), pin: Some(pin) }
    }

    /// One unpinned thread per CPU this process may use
    /// ([`std::thread::available_parallelism`]): what a new table starts with.
    #[must_use]
    pub fn every_cpu() -> Placement {
        Placement::unpinned(std::thread::available_parallelism().map_or(1, usize::from))
    }

    /// How many threads touch the memory.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.cpus.len()
    }

    /// Whether any thread is pinned.
    #[must_use]
    pub fn is_pinned(&self) -> bool {
        self.cpus.iter().any(Option::is_some)
    }

    /// Pins the calling thread as thread `i` of this placement (does nothing for
    /// an unpinned thread; a refused pinning leaves the thread as it was).
    #[cfg_attr(loom, allow(dead_code))]
    pub(crate) fn pin(&self, i: usize) {
        if let (Some(pin), Some(Some(cpus))) = (self.pin, self.cpus.get(i)) {
            let _ = pin(cpus);
        }
    }
}

impl Default for Placement {
    fn default() -> Self {
        Placement::every_cpu()
    }
}

/// Two placements are equal when they use the same threads on the same CPUs
/// (the pinning function is not compared).
impl PartialEq for Placement {
    fn eq(&self, other: &Self) -> bool {
        self.cpus == other.cpus
    }
}

impl Eq for Placement {}

impl fmt::Debug for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Placement").field("cpus", &self.cpus).finish_non_exhaustive()
    }
}
