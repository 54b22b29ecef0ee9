//! Test support, not part of the API: a common interface over the real entry and
//! a deliberately broken one, so the loom models and the stress test can show
//! that they catch torn reads.

use crate::entry::{Data, Entry};
use crate::record::Record;
use crate::sync::atomic::{AtomicU64, Ordering::Relaxed};

pub use crate::entry::Entry as XorEntry;

/// A single table slot holding one key and its record.
pub trait Slot: Send + Sync {
    /// An empty slot.
    fn empty() -> Self;
    /// Stores `rec` for `key` (generation 0).
    fn save(&self, key: u64, rec: &Record);
    /// The record for `key`, if the slot (appears to) hold it.
    fn load(&self, key: u64) -> Option<Record>;
}

impl Slot for Entry {
    fn empty() -> Self {
        Entry::new()
    }
    fn save(&self, key: u64, rec: &Record) {
        self.write(key, Data::pack(rec, 0));
    }
    fn load(&self, key: u64) -> Option<Record> {
        self.read(key).map(Data::unpack)
    }
}

/// The naive lock-free entry: the key and the data as two independent words.
/// A reader can see the key of one store and the data of another, so it is
/// **wrong** under concurrency; it exists to prove the tests can see that.
#[derive(Debug, Default)]
pub struct NaiveEntry {
    key: AtomicU64,
    data: AtomicU64,
}

impl Slot for NaiveEntry {
    fn empty() -> Self {
        Self { key: AtomicU64::new(0), data: AtomicU64::new(0) }
    }
    fn save(&self, key: u64, rec: &Record) {
        self.key.store(key, Relaxed);
        self.data.store(Data::pack(rec, 0).0, Relaxed);
    }
    fn load(&self, key: u64) -> Option<Record> {
        if self.key.load(Relaxed) != key {
            return None;
        }
        let data = Data(self.data.load(Relaxed));
        (!data.is_empty()).then(|| data.unpack())
    }
}
