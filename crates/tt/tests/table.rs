//! Behaviour of the table through its public API: replacement, aging, hashfull,
//! sizing and clearing.
#![cfg(not(loom))]

use tt::{Bound, MAX_STORED_DEPTH, MIN_STORED_DEPTH, Placement, Record, TranspositionTable};

fn rec(mv: u16, depth: i32, bound: Bound) -> Record {
    Record { mv, score: i32::from(mv) - 100, eval: 7, depth, bound, pv: false }
}

fn depth_of(tt: &TranspositionTable, key: u64) -> Option<i32> {
    tt.probe(key).map(|r| r.depth)
}

/// The `j`-th key (j < 2^40) that maps to bucket `i` of an `n`-bucket table.
fn key_in_bucket(i: usize, n: usize, j: u64) -> u64 {
    let first = ((i as u128) << 64).div_ceil(n as u128);
    u64::try_from(first).unwrap() + j
}

#[test]
fn key_zero_never_hits_an_empty_table() {
    for tt in [TranspositionTable::new(1), TranspositionTable::with_buckets(1)] {
        assert_eq!(tt.probe(0), None);
        assert_eq!(tt.probe(u64::MAX), None);
        // A stored all-default record for key 0 is a real hit.
        tt.store(0, &Record::default());
        assert_eq!(tt.probe(0), Some(Record::default()));
    }
}

#[test]
fn depth_range_round_trips() {
    let tt = TranspositionTable::with_buckets(1);
    for (key, depth) in [(1, MIN_STORED_DEPTH), (2, -1), (3, 0), (4, MAX_STORED_DEPTH)] {
        tt.store(key, &rec(1, depth, Bound::Lower));
        assert_eq!(depth_of(&tt, key), Some(depth));
    }
}

#[test]
fn replacement_prefers_depth() {
    let tt = TranspositionTable::with_buckets(1);
    for (key, depth) in [(1, 10), (2, 5), (3, 20), (4, 15)] {
        tt.store(key, &rec(1, depth, Bound::Lower));
    }
    tt.store(5, &rec(1, 1, Bound::Lower));
    assert_eq!(depth_of(&tt, 2), None, "the shallowest entry is the victim");
    for key in [1, 3, 4, 5] {
        assert!(tt.probe(key).is_some(), "key {key}");
    }
    tt.store(6, &rec(1, 30, Bound::Lower));
    assert_eq!(depth_of(&tt, 5), None);
    assert_eq!(depth_of(&tt, 6), Some(30));
}

#[test]
fn aging_lets_old_deep_entries_go() {
    // Two searches old: 20 - 8 * 2 = 4 still beats a fresh depth-1 entry.
    let tt = TranspositionTable::with_buckets(1);
    for key in 1..=4 {
        tt.store(key, &rec(1, 20, Bound::Lower));
    }
    tt.new_search();
    tt.new_search();
    tt.store(5, &rec(1, 1, Bound::Lower));
    tt.store(6, &rec(1, 1, Bound::Lower));
    assert_eq!(depth_of(&tt, 5), None, "fresh shallow entry replaced first");
    assert_eq!((1..=4).filter(|&k| tt.probe(k).is_some()).count(), 3);

    // Three searches old: 20 - 24 = -4 loses to any fresh entry.
    let tt = TranspositionTable::with_buckets(1);
    for key in 1..=4 {
        tt.store(key, &rec(1, 20, Bound::Lower));
    }
    for _ in 0..3 {
        tt.new_search();
    }
    for key in 5..=8 {
        tt.store(key, &rec(1, 1, Bound::Lower));
    }
    assert!((1..=4).all(|k| tt.probe(k).is_none()), "all old entries evicted");
    assert!((5..=8).all(|k| tt.probe(k).is_some()));
}

#[test]
fn same_key_refreshes_and_keeps_the_old_move() {
    let tt = TranspositionTable::with_buckets(1);
    tt.store(7, &rec(0x55, 5, Bound::Exact));
    tt.store(7, &rec(0, 6, Bound::Lower));
    let hit = tt.probe(7).unwrap();
    assert_eq!((hit.mv, hit.depth, hit.bound), (0x55, 6, Bound::Lower));

    // Same key, much shallower, not exact, same search: the deeper entry stays.
    tt.store(7, &rec(0x66, 2, Bound::Upper));
    assert_eq!(tt.probe(7).unwrap(), Record { mv: 0x55, ..rec(0, 6, Bound::Lower) });
    // Only three plies shallower: replaced.
    tt.store(7, &rec(0x66, 3, Bound::Upper));
    assert_eq!(tt.probe(7).unwrap(), rec(0x66, 3, Bound::Upper));
    // Exact always replaces.
    tt.store(7, &rec(0x77, 6, Bound::Lower));
    tt.store(7, &rec(0x78, 0, Bound::Exact));
    assert_eq!(tt.probe(7).unwrap(), rec(0x78, 0, Bound::Exact));
    // In a later search a shallow bound replaces too.
    tt.store(7, &rec(0x79, 9, Bound::Lower));
    tt.new_search();
    tt.store(7, &rec(0x80, 1, Bound::Upper));
    assert_eq!(tt.probe(7).unwrap(), rec(0x80, 1, Bound::Upper));
    // Never more than one entry per key.
    assert_eq!(tt.hashfull(), 250);
}

#[test]
fn generation_wraps_around() {
    let tt = TranspositionTable::with_buckets(1);
    for _ in 0..32 {
        tt.new_search();
    }
    assert_eq!(tt.generation(), 0);
    for _ in 0..30 {
        tt.new_search();
    }
    for key in 1..=4 {
        tt.store(key, &rec(1, 10, Bound::Lower));
    }
    assert_eq!(tt.hashfull(), 1000);
    tt.new_search();
    tt.new_search(); // 30 -> 31 -> 0
    assert_eq!(tt.generation(), 0);
    assert_eq!(tt.hashfull(), 0);
    // Age 2 across the wrap: 10 - 16 < 1, so both fresh entries survive.
    tt.store(5, &rec(1, 1, Bound::Lower));
    tt.store(6, &rec(1, 1, Bound::Lower));
    assert!(tt.probe(5).is_some() && tt.probe(6).is_some());
    assert_eq!(tt.hashfull(), 500);
}

#[test]
fn hashfull_empty_half_full() {
    let tt = TranspositionTable::new(1);
    let n = tt.buckets();
    assert_eq!(n, 16384);
    assert_eq!(tt.hashfull(), 0);
    for i in 0..1000 {
        for j in 0..2 {
            tt.store(key_in_bucket(i, n, j), &rec(1, 3, Bound::Exact));
        }
    }
    assert_eq!(tt.hashfull(), 500);
    for i in 0..1000 {
        for j in 2..4 {
            tt.store(key_in_bucket(i, n, j), &rec(1, 3, Bound::Exact));
        }
    }
    assert_eq!(tt.hashfull(), 1000);
    // Entries beyond the sample (the first 250 buckets) do not count.
    tt.store(u64::MAX, &rec(1, 3, Bound::Exact));
    assert_eq!(tt.hashfull(), 1000);
    tt.new_search();
    for j in 0..3 {
        tt.store(key_in_bucket(250, n, 8 + j), &rec(1, 3, Bound::Exact));
    }
    assert_eq!(tt.hashfull(), 0);
    tt.store(key_in_bucket(249, n, 8), &rec(1, 3, Bound::Exact));
    assert_eq!(tt.hashfull(), 1);
    tt.new_search();
    assert_eq!(tt.hashfull(), 0);

    // Fewer than 1000 buckets: all are sampled.
    let small = TranspositionTable::with_buckets(10);
    for i in 0..10 {
        for j in 0..3 {
            small.store(key_in_bucket(i, 10, j), &rec(1, 3, Bound::Exact));
        }
    }
    assert_eq!(small.hashfull(), 750);
}

#[test]
fn sizes_and_last_bucket() {
    let mut tt = TranspositionTable::new(0);
    assert_eq!((tt.size_mb(), tt.buckets()), (1, 16384), "0 MiB is raised to 1");
    for mb in [1, 3, 1000] {
        tt.resize(mb);
        assert_eq!(tt.size_mb(), mb);
        assert_eq!(tt.buckets(), mb * 16384);
        let n = tt.buckets();
        // u64::MAX maps to the last bucket, 0 to the first.
        for key in [0, u64::MAX, key_in_bucket(n - 1, n, 0), key_in_bucket(n / 2, n, 3)] {
            assert_eq!(tt.probe(key), None);
            tt.prefetch(key);
            tt.store(key, &rec(9, 4, Bound::Upper));
            assert_eq!(tt.probe(key), Some(rec(9, 4, Bound::Upper)), "{mb} MiB key {key:#x}");
        }
    }
}

/// A refused allocation is an error, and a refused resize leaves a working table of
/// the old size: the old memory is freed first, so it is allocated again, empty (32
/// TiB is more than any machine running the tests has, so the system refuses it
/// whatever its overcommit policy).
#[test]
fn a_refused_resize_leaves_a_working_table_of_the_old_size() {
    assert_eq!(
        TranspositionTable::try_new(tt::MAX_MB).err(),
        Some(tt::AllocError { mb: tt::MAX_MB })
    );
    for old in [2, 40] {
        let mut tt = TranspositionTable::try_new(old).expect("a few MiB");
        tt.new_search();
        tt.store(0xABCD, &rec(5, 7, Bound::Lower));
        let err = tt.try_resize(tt::MAX_MB).expect_err("32 TiB cannot be allocated");
        assert!(err.to_string().contains(&tt::MAX_MB.to_string()), "{err}");
        assert_eq!((tt.size_mb(), tt.buckets()), (old, old * 16384));
        assert_eq!(tt.generation(), 1, "the generation is kept");
        // Empty, and it stores and probes everywhere.
        assert_eq!((tt.probe(0xABCD), tt.hashfull()), (None, 0));
        let n = tt.buckets();
        for key in [0, u64::MAX, 0xABCD, key_in_bucket(n / 2, n, 1)] {
            tt.store(key, &rec(9, 4, Bound::Upper));
            assert_eq!(tt.probe(key), Some(rec(9, 4, Bound::Upper)), "{old} MiB key {key:#x}");
        }
        tt.try_resize(3).expect("3 MiB");
        assert_eq!((tt.size_mb(), tt.probe(0xABCD)), (3, None));
    }
}

#[test]
fn clear_empties_and_resets_the_generation() {
    for (mb, threads) in [(1, 1), (64, 2)] {
        let mut tt = TranspositionTable::new(mb);
        tt.set_placement(Placement::unpinned(threads));
        assert_eq!(tt.placement().threads(), threads);
        tt.new_search();
        let keys = [0, 1, u64::MAX, 0x1234_5678_9ABC_DEF0];
        for key in keys {
            tt.store(key, &rec(3, 3, Bound::Exact));
        }
        tt.clear();
        assert_eq!(tt.generation(), 0);
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
        assert_eq!(tt.hashfull(), 0);
    }
}

/// Each part's thread pinned itself (counted here; a test must not pin its threads).
static PINS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn count_pin(cpus: &[usize]) -> std::io::Result<()> {
    assert_eq!(cpus.len(), 1);
    PINS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    Ok(())
}

#[test]
fn a_new_placement_places_the_table_anew_and_the_same_one_keeps_it() {
    let keys = [0, 1, u64::MAX, 0x1234_5678_9ABC_DEF0];
    for mb in [1, 64] {
        let mut tt = TranspositionTable::new(mb);
        tt.new_search();
        let store = |tt: &TranspositionTable| {
            keys.iter().for_each(|&k| tt.store(k, &rec(3, 3, Bound::Exact)))
        };
        store(&tt);
        tt.set_placement(tt.placement().clone());
        assert!(
            keys.iter().all(|&k| tt.probe(k).is_some()),
            "the same placement emptied the table"
        );
        let before = PINS.load(std::sync::atomic::Ordering::Relaxed);
        tt.set_placement(Placement::pinned(vec![vec![0], vec![1], vec![2]], count_pin));
        assert!(
            keys.iter().all(|&k| tt.probe(k).is_none()),
            "{mb} MiB: a new placement kept entries"
        );
        assert_eq!((tt.size_mb(), tt.generation(), tt.placement().threads()), (mb, 1, 3));
        // Under 32 MiB the calling thread touches the table and pins nothing.
        let pins = PINS.load(std::sync::atomic::Ordering::Relaxed) - before;
        assert_eq!(pins, if mb >= 32 { 3 } else { 0 }, "{mb} MiB");
        store(&tt);
        assert!(keys.iter().all(|&k| tt.probe(k).is_some()));
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
    }
}

#[test]
fn is_send_and_sync_and_shareable() {
    let tt = TranspositionTable::new(1);
    std::thread::scope(|s| {
        for t in 0..2u64 {
            let tt = &tt;
            s.spawn(move || {
                for key in (t * 1000)..(t * 1000 + 1000) {
                    tt.store(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), &rec(1, 1, Bound::Exact));
                }
            });
        }
    });
    assert!(tt.hashfull() > 0);
    println!("{tt:?}: {}", tt.backing());
}

#[test]
fn replacement_weights_change_the_victim_and_the_same_key_rule() {
    use tt::Replacement;
    let pv = |mv: u16, depth: i32| Record { pv: true, ..rec(mv, depth, Bound::Lower) };

    // The PV bonus: a depth-5 PV entry outlives a depth-6 non-PV one only with a bonus of 2+.
    for (bonus, evicted) in [(0, 1), (1, 1), (2, 2)] {
        let mut tt = TranspositionTable::with_buckets(1);
        tt.set_replacement(Replacement { pv_bonus: bonus, ..Replacement::DEFAULT });
        tt.store(1, &pv(1, 5));
        tt.store(2, &rec(1, 6, Bound::Lower));
        tt.store(3, &rec(1, 20, Bound::Lower));
        tt.store(4, &rec(1, 20, Bound::Lower));
        tt.store(5, &rec(1, 1, Bound::Lower));
        assert_eq!(tt.probe(evicted), None, "bonus {bonus}");
        assert_eq!((1..=5).filter(|&k| tt.probe(k).is_some()).count(), 4);
    }

    // The age weight: with 4 a depth-20 entry three searches old (20 - 12 = 8)
    // still beats a fresh depth-1 entry; with the default 8 it does not.
    let mut tt = TranspositionTable::with_buckets(1);
    tt.set_replacement(Replacement { age_weight: 4, ..Replacement::DEFAULT });
    for key in 1..=4 {
        tt.store(key, &rec(1, 20, Bound::Lower));
    }
    for _ in 0..3 {
        tt.new_search();
    }
    tt.store(5, &rec(1, 1, Bound::Lower));
    tt.store(6, &rec(1, 1, Bound::Lower));
    assert_eq!(tt.probe(5), None, "the fresh shallow entry goes first");
    assert_eq!((1..=4).filter(|&k| tt.probe(k).is_some()).count(), 3);

    // The shallow margin: with 1, a store one ply shallower keeps the deeper entry.
    let mut tt = TranspositionTable::with_buckets(1);
    tt.set_replacement(Replacement { shallow_margin: 1, ..Replacement::DEFAULT });
    tt.store(7, &rec(0x55, 6, Bound::Lower));
    tt.store(7, &rec(0x66, 5, Bound::Upper));
    assert_eq!(tt.probe(7).unwrap(), rec(0x55, 6, Bound::Lower));
    tt.store(7, &rec(0x66, 6, Bound::Upper));
    assert_eq!(tt.probe(7).unwrap(), rec(0x66, 6, Bound::Upper));

    // Kept through clear and resize.
    tt.clear();
    tt.resize(2);
    assert_eq!(tt.replacement().shallow_margin, 1);
    assert_eq!(TranspositionTable::new(1).replacement(), Replacement::DEFAULT);
}
