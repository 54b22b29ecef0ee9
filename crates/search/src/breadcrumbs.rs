//! Breadcrumbs (feature `breadcrumbs`): which thread is searching which node
//! near the root, so that a thread arriving at a node another thread is
//! already in can reduce its late moves one ply more and leave that subtree to
//! the thread that got there first. This is the idea of ABDADA's "someone is
//! searching this node" flag, reduced to a hint: nothing waits or is deferred,
//! and a wrong answer costs only a reduction.
//!
//! The table is small and fixed: [`SLOTS`] slots, indexed by the low bits of
//! the position's key. A thread entering a node within [`MAX_PLY`] plies of the
//! root claims the node's slot if it is free (writing its id and the key) and
//! frees it when it leaves the node ([`Crumb`]'s `Drop`); if the slot is held
//! by another thread for the same key, the node is *marked*. Every access is a
//! relaxed load or store: a race (two threads claiming one slot, or a key read
//! beside another thread's owner) can only give a wrong hint, never a wrong
//! search result, and leaves the slot either free or owned by a thread that
//! frees it when it leaves its node.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Slots in the table (a power of two).
pub(crate) const SLOTS: usize = 1024;
/// Nodes at fewer plies from the root than this leave breadcrumbs; deeper nodes
/// are too many and too short-lived for the table to say anything.
pub(crate) const MAX_PLY: usize = 8;

/// No thread holds the slot.
const FREE: usize = 0;

/// One slot: the thread holding it (its id plus one; [`FREE`] if none) and the
/// key of the node it is in.
#[derive(Default)]
struct Slot {
    owner: AtomicUsize,
    key: AtomicU64,
}

/// The pool's breadcrumbs, shared by every thread.
pub(crate) struct Breadcrumbs {
    slots: Box<[Slot]>,
}

impl Default for Breadcrumbs {
    fn default() -> Self {
        Breadcrumbs { slots: (0..SLOTS).map(|_| Slot::default()).collect() }
    }
}

impl Breadcrumbs {
    /// Thread `thread` enters the node with key `key`: claims its slot if free,
    /// and says whether another thread is in the same node.
    pub fn enter(&self, thread: usize, key: u64) -> Crumb<'_> {
        let slot = &self.slots[key as usize & (SLOTS - 1)];
        let me = thread + 1;
        let owner = slot.owner.load(Ordering::Relaxed);
        if owner == FREE {
            slot.owner.store(me, Ordering::Relaxed);
            slot.key.store(key, Ordering::Relaxed);
            Crumb { slot: Some(slot), marked: false }
        } else {
            let marked = owner != me && slot.key.load(Ordering::Relaxed) == key;
            Crumb { slot: None, marked }
        }
    }

    /// Whether no slot is held (every thread has left every node it claimed).
    #[cfg(test)]
    pub fn is_clear(&self) -> bool {
        self.slots.iter().all(|s| s.owner.load(Ordering::Relaxed) == FREE)
    }
}

/// A thread's stay in one node: frees the slot it claimed, if any, when dropped.
pub(crate) struct Crumb<'a> {
    slot: Option<&'a Slot>,
    /// Another thread was in this node when this thread entered it.
    pub marked: bool,
}

impl Crumb<'_> {
    /// A node that leaves no breadcrumb (too deep, or the feature off).
    pub const NONE: Crumb<'static> = Crumb { slot: None, marked: false };
}

impl Drop for Crumb<'_> {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            slot.owner.store(FREE, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_marked_only_for_another_thread_in_it() {
        let crumbs = Breadcrumbs::default();
        let key = 0x1234_5678_9abc_def0;
        let first = crumbs.enter(0, key);
        assert!(!first.marked, "the first thread in a node is not marked");
        // The same thread again (a transposition along its own line): not marked.
        assert!(!crumbs.enter(0, key).marked);
        // Another thread in the same node: marked.
        assert!(crumbs.enter(1, key).marked);
        // Another thread in another node of the same slot: not marked.
        assert!(!crumbs.enter(1, key ^ (1 << 40)).marked);
        drop(first);
        assert!(crumbs.is_clear(), "leaving the node freed its slot");
        // Once the first thread has left, the second one claims the node.
        let second = crumbs.enter(1, key);
        assert!(!second.marked);
        assert!(crumbs.enter(0, key).marked);
        drop(second);
        assert!(crumbs.is_clear());
    }
}
