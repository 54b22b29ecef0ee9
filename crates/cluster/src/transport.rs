//! How messages travel between ranks: [`Transport`] is all the cluster needs
//! from MPI — a send that never waits for the receiver, and a receive that only
//! takes a message that is already there. `crate::mpi` implements it over MPI;
//! [`Loopback`] connects ranks that are threads of one process, for tests.

use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::Arc;

/// What a message is; messages of one tag from one sender arrive in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    /// A UCI line (or part of one) from the leader.
    Command = 1,
    /// Table entries and a node count, between every pair of ranks.
    Batch = 2,
    /// A follower's thread results and final node count for one search.
    Report = 3,
}

/// Messages between ranks.
pub trait Transport: Send + Sync {
    /// This process's rank.
    fn rank(&self) -> usize;
    /// How many ranks there are.
    fn ranks(&self) -> usize;
    /// Sends `bytes` to rank `to`; returns without waiting for `to` to receive them.
    fn send(&self, to: usize, tag: Tag, bytes: &[u8]);
    /// The oldest message with `tag` that has arrived, with its sender; `None` at once if there is none.
    fn try_receive(&self, tag: Tag) -> Option<(usize, Vec<u8>)>;
}

type Mailbox = Mutex<VecDeque<(usize, Tag, Vec<u8>)>>;

/// Ranks that are threads of one process (for tests): each has a mailbox.
pub struct Loopback {
    rank: usize,
    boxes: Arc<Vec<Mailbox>>,
}

impl Loopback {
    /// `ranks` connected transports, one per rank.
    pub fn connected(ranks: usize) -> Vec<Loopback> {
        let boxes: Arc<Vec<Mailbox>> = Arc::new((0..ranks).map(|_| Mutex::default()).collect());
        (0..ranks).map(|rank| Loopback { rank, boxes: Arc::clone(&boxes) }).collect()
    }
}

impl Transport for Loopback {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.boxes.len()
    }

    fn send(&self, to: usize, tag: Tag, bytes: &[u8]) {
        self.boxes[to].lock().push_back((self.rank, tag, bytes.to_vec()));
    }

    fn try_receive(&self, tag: Tag) -> Option<(usize, Vec<u8>)> {
        let mut mailbox = self.boxes[self.rank].lock();
        let at = mailbox.iter().position(|(_, t, _)| *t == tag)?;
        mailbox.remove(at).map(|(from, _, bytes)| (from, bytes))
    }
}
