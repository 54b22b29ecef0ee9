//! The MPI transport (feature `mpi`, on the system's MPI through the `mpi`
//! crate): buffered sends (`MPI_Bsend`: the message is copied into a buffer
//! attached once, and the call returns without waiting for the receiver) and
//! matched probes (`MPI_Improbe`: a message is received only once it is there).
//! No call waits on another rank, so a rank never spins inside MPI; the search
//! drives the exchange (see `search::Cluster::poll`).
//!
//! Every MPI call goes through one lock, so MPI needs only
//! `MPI_THREAD_SERIALIZED`.

use crate::rank::{DEFAULT_INTERVAL, INTERVAL_VARIABLE, Rank, Say, describe};
use crate::transport::{Tag, Transport};
use mpi::Threading;
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::{Communicator, CommunicatorCollectives, Destination, MatchedReceiveVec, Source};
use parking_lot::Mutex;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// The buffer `MPI_Bsend` copies messages into. A rank has at most
/// [`WINDOW`](crate::rank::WINDOW) batches of at most 4 KiB in flight to each
/// other rank, plus the odd command and report: 8 MiB covers 256 ranks with room to spare.
const SEND_BUFFER_BYTES: usize = 8 << 20;
/// Bytes of a host name in the start-up exchange of names.
const HOST_BYTES: usize = 256;

/// Environment variables that MPI launchers set (Open MPI's `mpirun`, MPICH's
/// Hydra, PMIx-based launchers such as `srun --mpi=pmix`).
const LAUNCHER_VARIABLES: [&str; 3] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"];

/// Whether an MPI launcher started this process. Without one the engine does not
/// touch MPI at all, so the cluster build started on its own is the normal engine.
pub fn launched() -> bool {
    LAUNCHER_VARIABLES.iter().any(|v| std::env::var_os(v).is_some())
}

/// Why the cluster could not start.
#[derive(Debug)]
pub enum StartError {
    /// MPI was initialised already (by someone else in this process).
    AlreadyInitialised,
    /// The MPI library cannot serialise calls from several threads.
    ThreadSupport(Threading),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::AlreadyInitialised => write!(f, "MPI was initialised already"),
            StartError::ThreadSupport(level) => write!(
                f,
                "the MPI library offers thread support {level:?}, and the cluster needs Serialized"
            ),
        }
    }
}

impl std::error::Error for StartError {}

/// MPI for the life of the process: finalised when dropped (after the pools stopped).
pub struct Session {
    _universe: Universe,
}

/// Messages over `MPI_COMM_WORLD`.
pub struct MpiTransport {
    rank: usize,
    ranks: usize,
    /// Serialises every MPI call (`MPI_THREAD_SERIALIZED`).
    lock: Mutex<()>,
}

impl Transport for MpiTransport {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.ranks
    }

    fn send(&self, to: usize, tag: Tag, bytes: &[u8]) {
        let _serial = self.lock.lock();
        let world = SimpleCommunicator::world();
        world.process_at_rank(to as i32).buffered_send_with_tag(bytes, tag as i32);
    }

    fn try_receive(&self, tag: Tag) -> Option<(usize, Vec<u8>)> {
        let _serial = self.lock.lock();
        let world = SimpleCommunicator::world();
        let (message, status) = world.any_process().immediate_matched_probe_with_tag(tag as i32)?;
        let (bytes, _) = (message, status).matched_receive_vec::<u8>();
        Some((status.source_rank() as usize, bytes))
    }
}

/// Initialises MPI and this process's rank, which says things through the `Say`
/// that `say` makes for its rank. The leader names the ranks and their hosts (when
/// there are several). The exchange interval is [`DEFAULT_INTERVAL`] unless
/// [`INTERVAL_VARIABLE`] sets another (1 to 1000 ms).
pub fn start(
    say: impl FnOnce(usize) -> Say,
) -> Result<(Session, Arc<Rank<MpiTransport>>), StartError> {
    let (mut universe, threading) = mpi::initialize_with_threading(Threading::Serialized)
        .ok_or(StartError::AlreadyInitialised)?;
    if threading < Threading::Serialized {
        return Err(StartError::ThreadSupport(threading));
    }
    universe.set_buffer_size(SEND_BUFFER_BYTES);
    let world = universe.world();
    let (rank, ranks) = (world.rank() as usize, world.size() as usize);
    let hosts = host_names(&world);
    let say = say(rank);
    let interval = match std::env::var(INTERVAL_VARIABLE) {
        Err(_) => DEFAULT_INTERVAL,
        Ok(text) => match text.trim().parse::<u64>() {
            Ok(ms @ 1..=1000) => Duration::from_millis(ms),
            _ => {
                if rank == 0 {
                    say(&format!(
                        "info string error: {INTERVAL_VARIABLE} takes 1 to 1000 (ms), not '{text}'; using {} ms",
                        DEFAULT_INTERVAL.as_millis()
                    ));
                }
                DEFAULT_INTERVAL
            }
        },
    };
    if rank == 0 && ranks > 1 {
        say(&describe(&hosts));
    }
    let transport = MpiTransport { rank, ranks, lock: Mutex::new(()) };
    Ok((Session { _universe: universe }, Arc::new(Rank::new(transport, interval, say))))
}

/// Every rank's host name, in rank order (a collective call: every rank makes it at start-up).
fn host_names(world: &SimpleCommunicator) -> Vec<String> {
    let name = mpi::environment::processor_name().unwrap_or_else(|_| "an unnamed host".into());
    let mut mine = [0u8; HOST_BYTES];
    let n = name.len().min(HOST_BYTES);
    mine[..n].copy_from_slice(&name.as_bytes()[..n]);
    let mut all = vec![0u8; HOST_BYTES * world.size() as usize];
    world.all_gather_into(&mine[..], &mut all[..]);
    all.chunks(HOST_BYTES)
        .map(|c| {
            let end = c.iter().position(|&b| b == 0).unwrap_or(c.len());
            String::from_utf8_lossy(&c[..end]).into_owned()
        })
        .collect()
}
