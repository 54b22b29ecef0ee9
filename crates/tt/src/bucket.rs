//! A bucket of four entries filling one cache line, and the replacement policy.
//!
//! # Replacement
//!
//! A store of `key` scans the four entries once and writes exactly one of them:
//!
//! 1. **Same key** present: overwrite it, except that
//!    * if the new record has no move (`mv == 0`) the old move is kept, and
//!    * a deeper entry of the *current* generation is kept untouched when the new
//!      record is much shallower and not exact: `new.depth + shallow_margin <=
//!      old.depth && new.bound != Exact`.
//! 2. Otherwise the first **empty** entry.
//! 3. Otherwise the entry with the lowest `depth - age_weight * age + pv_bonus *
//!    pv`, where `age` is how many searches ago it was stored (wrapping in 5
//!    bits) and `pv` is 1 for an entry stored by a PV node. Ties go to the first
//!    such entry. With the default `age_weight` of 8, a depth-20 entry from three
//!    searches ago (`20 - 24 = -4`) loses to a fresh depth-1 entry.
//!
//! The three weights are a [`Replacement`], set on the table between searches.
//!
//! The scan is a heuristic on a snapshot that other threads may be changing; if
//! two threads pick the same victim the entry may end up mixed, which the XOR
//! check turns into a miss (see `entry.rs`).

use crate::entry::{Data, Entry, age};
use crate::record::{Bound, Record};

/// Entries per bucket.
pub(crate) const ENTRIES: usize = 4;

/// The weights of the replacement policy (module docs of `bucket.rs`, and
/// docs/tt.md). [`Replacement::DEFAULT`] is what the table starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replacement {
    /// Weight of one generation of age against one ply of depth when picking a victim.
    pub age_weight: i32,
    /// A same-key store this many plies shallower (and not exact) does not
    /// replace an entry of the current generation.
    pub shallow_margin: i32,
    /// Plies of depth an entry stored by a PV node is worth extra when picking a victim.
    pub pv_bonus: i32,
}

impl Replacement {
    /// The policy a new table uses.
    pub const DEFAULT: Replacement = Replacement { age_weight: 8, shallow_margin: 4, pv_bonus: 0 };
}

impl Default for Replacement {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// Four entries, exactly one 64-byte cache line.
#[derive(Debug)]
#[repr(C, align(64))]
pub(crate) struct Bucket {
    entries: [Entry; ENTRIES],
}

// The table's memory is an array of buckets; each must be exactly one cache line
// so that a probe touches one line. (Loom's atomics are bigger; skip there.)
#[cfg(not(loom))]
const _: () = assert!(size_of::<Bucket>() == 64);
#[cfg(not(loom))]
const _: () = assert!(align_of::<Bucket>() == 64);

impl Bucket {
    /// A bucket of empty entries.
    pub(crate) fn new() -> Self {
        Self { entries: [Entry::new(), Entry::new(), Entry::new(), Entry::new()] }
    }

    /// Finds `key` in the bucket.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Data> {
        self.entries.iter().find_map(|e| e.read(key))
    }

    /// Stores `rec` for `key` following the replacement rules in the module docs.
    #[inline]
    pub(crate) fn store(&self, key: u64, rec: &Record, generation: u8, policy: &Replacement) {
        let mut new = Data::pack(rec, generation);
        let mut empty = None;
        let mut victim = 0;
        let mut victim_worth = i32::MAX;

        for (i, entry) in self.entries.iter().enumerate() {
            let (entry_key, old) = entry.raw();
            if old.is_empty() {
                empty.get_or_insert(i);
                continue;
            }
            if entry_key == key {
                if rec.mv == 0 {
                    new = new.with_mv(old.mv());
                }
                let keep_old = old.generation() == new.generation()
                    && rec.bound != Bound::Exact
                    && new.depth() + policy.shallow_margin <= old.depth();
                // An identical entry is not rewritten: a store dirties the cache line,
                // and threads searching the same tree would bounce it between cores.
                if !keep_old && old != new {
                    entry.write(key, new);
                }
                return;
            }
            let worth = old.depth()
                - policy.age_weight * i32::from(age(generation, old.generation()))
                + policy.pv_bonus * i32::from(old.pv());
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        self.entries[empty.unwrap_or(victim)].write(key, new);
    }

    /// Whether every word of every entry is zero (what new memory holds).
    #[cfg(all(test, not(loom)))]
    pub(crate) fn is_all_zero(&self) -> bool {
        self.entries.iter().all(|e| {
            let (key, data) = e.raw();
            key == 0 && data.0 == 0
        })
    }

    /// Number of stored entries from `generation`.
    pub(crate) fn count_generation(&self, generation: u8) -> usize {
        let generation = generation % crate::entry::GENERATIONS;
        self.entries
            .iter()
            .filter(|e| {
                let (_, d) = e.raw();
                !d.is_empty() && d.generation() == generation
            })
            .count()
    }
}
