//! Loom models of concurrent stores and probes.
//!
//! Run with (under a minute in release, see docs/tt.md):
//! `RUSTFLAGS="--cfg loom -C target-cpu=native" CARGO_TARGET_DIR=target/loom \
//!  cargo test -p tt --release --test loom`
//!
//! Every record stored for a key is a function of the key (`payload`), so a probe
//! that returns anything else has mixed two stores: a torn read. The naive entry
//! run through the same harness must be caught, proving the harness can fail.
//!
//! Exploration caveat: loom's DPOR only remembers the *last* access to each
//! atomic, so a thread that loads an atomic before storing to it hides earlier
//! loads by other threads (tokio-rs/loom#392, #166). A store runs a replacement
//! scan (loads) before it writes, so in every model the writers are spawned
//! before the readers, and each model returns its observable outcome: after the
//! exploration we assert that the racy outcomes (a probe between the two words
//! of a store, two stores tearing one entry) were actually reached.
#![cfg(loom)]

use loom::sync::Arc;
use loom::thread;
use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::Mutex;
use tt::testing::{NaiveEntry, Slot, XorEntry};
use tt::{Bound, Record, TranspositionTable};

const KEY_A: u64 = 0x0123_4567_89AB_CDEF;
const KEY_B: u64 = 0xFEDC_BA98_7654_3210;
const KEYS: [u64; 2] = [KEY_A, KEY_B];

/// The record every store for `key` writes: distinct keys give distinct records.
fn payload(key: u64) -> Record {
    let h = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    Record {
        mv: (h >> 48) as u16 | 1,
        score: i32::from((h >> 32) as i16) / 2,
        eval: i32::from((h >> 16) as i16) / 2,
        depth: (h % 40) as i32,
        bound: Bound::Lower,
        pv: h & 1 == 1,
    }
}

/// Panics (with "torn read") if `found` is a hit that is not one of `expected`.
fn assert_consistent(key: u64, found: Option<Record>, expected: &[Record]) {
    if let Some(rec) = found {
        assert!(
            expected.contains(&rec),
            "torn read: probe of {key:#x} returned {rec:?}, expected one of {expected:?} or a miss"
        );
    }
}

/// Explores `f` under loom (preemption bound 3 unless `LOOM_MAX_PREEMPTIONS` is
/// set) and returns the set of outcomes the executions produced.
fn model<T, F>(f: F) -> HashSet<T>
where
    T: Eq + Hash + Debug + Send + 'static,
    F: Fn() -> T + Sync + Send + 'static,
{
    let mut builder = loom::model::Builder::new();
    if builder.preemption_bound.is_none() {
        builder.preemption_bound = Some(3);
    }
    // Plain std types: loom does not track them, they just collect results.
    let outcomes = std::sync::Arc::new(Mutex::new((0_usize, HashSet::new())));
    let sink = std::sync::Arc::clone(&outcomes);
    builder.check(move || {
        let outcome = f();
        let mut sink = sink.lock().unwrap();
        sink.0 += 1;
        sink.1.insert(outcome);
    });
    let (runs, outcomes) = std::mem::take(&mut *outcomes.lock().unwrap());
    println!("{runs} executions, {} distinct outcomes: {outcomes:?}", outcomes.len());
    outcomes
}

/// Probes both keys in `slot`, checking each hit.
fn read_both<S: Slot>(slot: &S) -> [bool; 2] {
    KEYS.map(|key| {
        let found = slot.load(key);
        assert_consistent(key, found, &[payload(key)]);
        found.is_some()
    })
}

/// (1) Two writers store different keys into the same slot while a reader probes
/// both keys: each probe sees that key's own payload or a miss, never a mix.
/// Outcome: which keys the reader hit, and which hit after both stores finished.
fn two_writers_one_reader<S: Slot + 'static>() {
    let outcomes = model(|| {
        let slot = Arc::new(S::empty());
        let writers = KEYS.map(|key| {
            let slot = Arc::clone(&slot);
            thread::spawn(move || slot.save(key, &payload(key)))
        });
        let reader = {
            let slot = Arc::clone(&slot);
            thread::spawn(move || read_both(&*slot))
        };
        let during = reader.join().unwrap();
        for writer in writers {
            writer.join().unwrap();
        }
        (during, read_both(&*slot))
    });
    // The reader ran before, between and after the stores ...
    assert!(outcomes.iter().any(|(d, _)| d == &[false, false]));
    assert!(outcomes.iter().any(|(d, _)| d == &[true, false]));
    assert!(outcomes.iter().any(|(d, _)| d == &[false, true]));
    // ... and the two stores did interleave into a mixed entry, read as a miss.
    assert!(outcomes.iter().any(|(_, after)| after == &[false, false]));
}

#[test]
fn xor_entry_two_writers_one_reader() {
    two_writers_one_reader::<XorEntry>();
}

#[test]
#[should_panic(expected = "torn read")]
fn naive_entry_two_writers_one_reader_is_caught() {
    two_writers_one_reader::<NaiveEntry>();
}

/// (1') The same race through the table's store path: two keys racing for the
/// empty entries of a one-bucket table while a reader probes both.
#[test]
fn table_two_writers_one_reader() {
    let outcomes = model(|| {
        let tt = Arc::new(TranspositionTable::with_buckets(1));
        let writers = KEYS.map(|key| {
            let tt = Arc::clone(&tt);
            thread::spawn(move || tt.store(key, &payload(key)))
        });
        let reader = {
            let tt = Arc::clone(&tt);
            thread::spawn(move || {
                KEYS.map(|key| {
                    let found = tt.probe(key);
                    assert_consistent(key, found, &[payload(key)]);
                    found.is_some()
                })
            })
        };
        let during = reader.join().unwrap();
        for writer in writers {
            writer.join().unwrap();
        }
        let after = KEYS.map(|key| {
            let found = tt.probe(key);
            assert_consistent(key, found, &[payload(key)]);
            found.is_some()
        });
        (during, after)
    });
    assert!(outcomes.iter().any(|(d, _)| d == &[false, false]));
    assert!(outcomes.iter().any(|(d, _)| d == &[true, true]));
    // Both writers picked the same empty entry: one store lost or both torn.
    assert!(outcomes.iter().any(|(_, after)| after != &[true, true]));
}

/// (2) A writer refreshes a key while a reader probes it: the reader sees the old
/// record, the new one, or (between the two words of the store) a miss; after
/// the join everyone sees the new one.
#[test]
fn writer_and_reader_on_the_same_key() {
    let old = payload(KEY_A);
    let new = Record { mv: old.mv ^ 0x0F0F, score: old.score + 1, depth: old.depth + 1, ..old };
    let outcomes = model(move || {
        let tt = Arc::new(TranspositionTable::with_buckets(1));
        tt.store(KEY_A, &old);
        let writer = {
            let tt = Arc::clone(&tt);
            thread::spawn(move || tt.store(KEY_A, &new))
        };
        let reader = {
            let tt = Arc::clone(&tt);
            thread::spawn(move || tt.probe(KEY_A))
        };
        let seen = reader.join().unwrap();
        assert_consistent(KEY_A, seen, &[old, new]);
        writer.join().unwrap();
        assert_eq!(tt.probe(KEY_A), Some(new));
        seen
    });
    assert_eq!(outcomes, HashSet::from([Some(old), Some(new), None]));
}

/// (3) Three threads store new, deeper keys into a full bucket (old depths 10,
/// 20, 30, 40). Afterwards every probe of the seven keys is a miss or that key's
/// own record, the depth-40 entry has survived (no writer can see three other
/// entries at least as deep), and the bucket holds between two and four keys.
/// Outcome: the set of keys that hit afterwards.
#[test]
fn three_writers_replace_in_a_full_bucket() {
    const OLD: [u64; 4] = [11, 22, 33, 44];
    const NEW: [u64; 3] = [0xAAAA, 0xBBBB, 0xCCCC];
    fn record(key: u64) -> Record {
        let depth = match key {
            11 => 10,
            22 => 20,
            33 => 30,
            44 => 40,
            _ => 50,
        };
        Record { depth, ..payload(key) }
    }
    let outcomes = model(|| {
        let tt = Arc::new(TranspositionTable::with_buckets(1));
        for key in OLD {
            tt.store(key, &record(key));
        }
        let writers = NEW.map(|key| {
            let tt = Arc::clone(&tt);
            thread::spawn(move || tt.store(key, &record(key)))
        });
        for writer in writers {
            writer.join().unwrap();
        }
        let hits: Vec<u64> = OLD
            .into_iter()
            .chain(NEW)
            .filter(|&key| {
                let found = tt.probe(key);
                assert_consistent(key, found, &[record(key)]);
                found.is_some()
            })
            .collect();
        assert!(hits.contains(&44), "deepest entry evicted: {hits:?}");
        assert!((2..=4).contains(&hits.len()), "{hits:?}");
        hits
    });
    // Sequential-looking runs keep exactly the deepest old entry ...
    assert!(outcomes.contains(&vec![44, 0xAAAA, 0xBBBB, 0xCCCC]));
    // ... and racing scans that chose the same victim lost an entry.
    assert!(outcomes.iter().any(|hits| hits.len() < 4));
}
