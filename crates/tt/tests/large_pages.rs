//! On Windows a table over the large-page minimum asks for large pages: it gets
//! them (the user holds the "Lock pages in memory" right) or regular pages and
//! the reason, and either way starts empty and works. Under wine, and for most
//! users, the large pages are refused, so the regular pages are what runs.
#![cfg(all(not(loom), windows))]

use tt::{Backing, Bound, Record, TranspositionTable};

#[test]
fn a_table_on_large_or_regular_pages_starts_empty_and_works() {
    let tt = TranspositionTable::new(64);
    let refusal = tt.large_page_refusal();
    println!(
        "64 MiB: {}; large pages refused: {}",
        tt.backing(),
        refusal.map_or("no".to_string(), |r| r.to_string())
    );
    match tt.backing() {
        Backing::LargePages => assert_eq!(refusal, None),
        Backing::Regular => assert!(refusal.is_some(), "64 MiB is over the minimum: asked for"),
        Backing::HugePages => panic!("transparent huge pages are Linux's"),
    }
    assert_eq!(tt.hashfull(), 0);
    let keys = (1..200_000u64).map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    assert!(keys.clone().all(|key| tt.probe(key).is_none()), "a new table is empty");
    let record =
        Record { mv: 0x0A0B, score: 17, eval: 9, depth: 12, bound: Bound::Exact, pv: true };
    for key in keys.clone().step_by(101) {
        tt.store(key, &record);
    }
    assert!(keys.step_by(101).all(|key| tt.probe(key) == Some(record)));
}
