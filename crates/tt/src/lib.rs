//! A lock-free transposition table shared by Lazy SMP search threads.
//!
//! Each 16-byte entry is two `AtomicU64` words, `key ^ data` and `data`; a probe
//! accepts an entry only if the two XOR back to the probed key, so an entry torn
//! by concurrent stores reads as a miss instead of returning another position's
//! data. Four entries form a 64-byte bucket (one cache line). See `docs/tt.md`.
//!
//! ```
//! use tt::{Bound, Record, TranspositionTable};
//!
//! let tt = TranspositionTable::new(16);
//! tt.new_search();
//! let rec = Record { mv: 0x1234, score: 35, eval: 20, depth: 7, bound: Bound::Exact, pv: true };
//! tt.store(0xDEAD_BEEF, &rec);
//! assert_eq!(tt.probe(0xDEAD_BEEF), Some(rec));
//! assert_eq!(tt.probe(0xFEED), None);
//! ```
//!
//! Module map:
//! - `record`: the public [`Record`] / [`Bound`] types.
//! - `entry`: bit layout of the data word and the XOR-checked atomic entry.
//! - `bucket`: four entries per cache line and the replacement policy.
//! - `table`: [`TranspositionTable`]: indexing, generations, `hashfull`.
//! - `alloc`: zero-filled memory on huge or large pages where the system grants them,
//!   and its first touch ([`Backing`], [`LargePageRefusal`]).
//! - `placement`: which threads touch the memory first, and so where it lives ([`Placement`]).
//! - `parallel`: splitting the touch and the clears across those threads.
//! - `score`: the mate- and tablebase-score convention ([`to_tt_score`], [`from_tt_score`]).
//! - `sync`: the atomics facade that `--cfg loom` swaps for loom's.

#![warn(missing_docs)]
#![deny(unsafe_code)]

#[allow(unsafe_code)]
mod alloc;
mod bucket;
mod entry;
mod parallel;
mod placement;
#[allow(unsafe_code)]
mod prefetch;
mod record;
mod score;
mod sync;
mod table;
#[doc(hidden)]
pub mod testing;

pub use alloc::{Backing, LargePageRefusal};
pub use bucket::Replacement;
pub use entry::{MAX_STORED_DEPTH, MIN_STORED_DEPTH};
pub use placement::{Pin, Placement};
pub use record::{Bound, Hit, Record};
pub use score::{
    DECISIVE_BOUND, INFINITY, MATE, MATE_BOUND, MAX_SCORE_PLY, TB_WIN, from_tt_score, is_decisive,
    to_tt_score,
};
pub use table::{AllocError, MAX_MB, MIN_MB, TranspositionTable};
