//! Tessera on several machines: one search over MPI ranks.
//!
//! Rank 0 *leads*: it speaks UCI, owns the clock and chooses the move, and
//! forwards every command that changes state to the other ranks, which *follow*:
//! each runs its own Lazy SMP pool on its own table. While they search, the ranks
//! exchange their deepest recent table entries, with full keys, and their node
//! counts; at the end the leader stops the followers and takes every rank's and
//! thread's last completed iteration into the vote. See docs/cluster.md.
//!
//! The search sees all of this through one small interface, `search::Cluster`,
//! which [`Rank`] implements over any [`Transport`]. The MPI transport is the
//! `mpi` feature; without it the crate is the protocol alone, tested over
//! [`Loopback`] (ranks as threads of one process).
//!
//! | module | concern |
//! |---|---|
//! | `wire` | the messages' byte layouts |
//! | `collector` | which stores are worth sending |
//! | `transport` | sending and receiving ([`Transport`], [`Loopback`]) |
//! | `rank` | one rank: forwarding, commands, the exchange, the end of a search |
//! | `reader` | a follower's commands as the input of the UCI loop |
//! | `mpi` | the MPI transport and start-up (feature `mpi`) |
//! | `binding` | whether MPI pinned this process to fewer CPUs than its machine has |

#![warn(missing_docs)]

mod binding;
mod collector;
#[cfg(feature = "mpi")]
pub mod mpi;
mod rank;
mod reader;
mod transport;
pub mod wire;

pub use binding::bound_cpus;
pub use collector::{Collector, PER_THREAD, SHARE_DEPTH};
pub use rank::{DEFAULT_INTERVAL, INTERVAL_VARIABLE, REPORT_TIMEOUT, Rank, Say, WINDOW, describe};
pub use reader::LeaderInput;
pub use transport::{Loopback, Tag, Transport};
