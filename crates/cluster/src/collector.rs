//! The stores worth sending: each search thread keeps the deepest entries it
//! stored since the last exchange, and the exchange takes the deepest of all.
//!
//! A thread offers only stores at least [`SHARE_DEPTH`] deep (the search checks
//! that before it calls), a few thousand a second, so one small lock per thread
//! (taken by its owner on each offer, and by thread 0 once per exchange) costs
//! nothing measurable and is never contended in practice.

use crate::wire::Entry;
use parking_lot::Mutex;
use tt::Record;

/// Stores at least this deep are offered for sharing: shallower entries are
/// cheap to recompute and would crowd out the ones that save real work.
pub const SHARE_DEPTH: i32 = 6;
/// Entries a thread keeps between two exchanges (the deepest it stored).
pub const PER_THREAD: usize = 32;
/// Threads map onto this many slots (thread `t` uses slot `t % SLOTS`).
const SLOTS: usize = 64;

/// The deepest recent stores of every thread.
pub struct Collector {
    slots: Box<[Mutex<Vec<Entry>>]>,
}

impl Default for Collector {
    fn default() -> Self {
        Collector::new()
    }
}

impl Collector {
    /// An empty collector.
    pub fn new() -> Collector {
        Collector {
            slots: (0..SLOTS).map(|_| Mutex::new(Vec::with_capacity(PER_THREAD))).collect(),
        }
    }

    /// Thread `thread` stored `record` under `key`: kept if it is among the
    /// thread's [`PER_THREAD`] deepest since the last [`Collector::take`]. A key
    /// already kept is updated in place (iterative deepening re-stores the same
    /// positions deeper), so no entry is sent twice in one batch.
    pub fn offer(&self, thread: usize, key: u64, record: &Record) {
        let mut kept = self.slots[thread % SLOTS].lock();
        let entry = Entry { key, record: *record };
        if let Some(same) = kept.iter_mut().find(|e| e.key == key) {
            if record.depth >= same.record.depth {
                *same = entry;
            }
        } else if kept.len() < PER_THREAD {
            kept.push(entry);
        } else if let Some(shallowest) = kept.iter_mut().min_by_key(|e| e.record.depth)
            && shallowest.record.depth < record.depth
        {
            *shallowest = entry;
        }
    }

    /// Empties every thread's entries and returns the deepest `max` of them, deepest first.
    pub fn take(&self, max: usize) -> Vec<Entry> {
        let mut all = Vec::new();
        for slot in self.slots.iter() {
            all.append(&mut slot.lock());
        }
        all.sort_by_key(|e| std::cmp::Reverse(e.record.depth));
        all.truncate(max);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tt::Bound;

    fn record(depth: i32) -> Record {
        Record { mv: 1, score: 0, eval: 0, depth, bound: Bound::Lower, pv: false }
    }

    #[test]
    fn a_thread_keeps_its_deepest_stores() {
        let c = Collector::new();
        let depth = |key: u64| (key * 37 % 50) as i32;
        let keys = 0..(PER_THREAD as u64 * 3);
        for key in keys.clone() {
            c.offer(0, key, &record(depth(key)));
        }
        let mut expected: Vec<i32> = keys.map(depth).collect();
        expected.sort_by_key(|&d| std::cmp::Reverse(d));
        expected.truncate(PER_THREAD);
        let taken: Vec<i32> = c.take(usize::MAX).iter().map(|e| e.record.depth).collect();
        assert_eq!(taken, expected);
        assert!(c.take(usize::MAX).is_empty(), "take empties the collector");
    }

    #[test]
    fn a_key_is_kept_once_at_its_deepest() {
        let c = Collector::new();
        c.offer(0, 7, &record(8));
        c.offer(0, 7, &record(12));
        c.offer(0, 7, &record(10));
        let taken = c.take(usize::MAX);
        assert_eq!(taken.len(), 1);
        assert_eq!(taken[0].record.depth, 12);
    }

    #[test]
    fn take_returns_the_deepest_of_all_threads_first() {
        let c = Collector::new();
        c.offer(0, 1, &record(7));
        c.offer(1, 2, &record(20));
        c.offer(65, 3, &record(9));
        let depths: Vec<i32> = c.take(2).iter().map(|e| e.record.depth).collect();
        assert_eq!(depths, [20, 9]);
    }
}
