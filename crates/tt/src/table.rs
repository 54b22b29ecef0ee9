//! The shared table: an array of buckets indexed by the high bits of
//! `key * bucket_count`, plus the search generation.

use crate::alloc::{self, Backing, HugeBuffer, LargePageRefusal};
use crate::bucket::{Bucket, ENTRIES, Replacement};
use crate::entry::GENERATIONS;
use crate::placement::Placement;
use crate::prefetch::prefetch;
use crate::record::Record;
use crate::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::fmt;

/// Size of one bucket in bytes (one cache line).
const BUCKET_BYTES: usize = 64;
/// Buckets in one MiB.
const BUCKETS_PER_MB: usize = (1 << 20) / BUCKET_BYTES;
/// Buckets sampled by [`TranspositionTable::hashfull`]: 1000 entries, the
/// resolution of a permille, in one 16 KiB read.
const HASHFULL_BUCKETS: usize = 1000 / ENTRIES;
const _: () = assert!(HASHFULL_BUCKETS * ENTRIES == 1000);

/// Smallest table size in MiB; smaller requests (including `0`) are raised to it.
pub const MIN_MB: usize = 1;
/// Largest table size in MiB (32 TiB on 64-bit targets, 1 GiB on 32-bit ones);
/// larger requests are lowered to it.
pub const MAX_MB: usize = if usize::BITS >= 64 { 1 << 25 } else { 1 << 10 };

/// A fixed-size hash table shared by all search threads.
///
/// `probe`, `store`, `prefetch`, `new_search` and `hashfull` take `&self` and are
/// lock-free (plain `Relaxed` atomic loads and stores), so one table can be
/// shared by reference or `Arc` between threads. `resize`, `clear` and
/// `set_placement` take `&mut self`: call them between searches.
///
/// Sizes are in MiB (2^20 bytes) and are clamped to [`MIN_MB`]`..=`[`MAX_MB`].
/// If the system cannot provide the memory, [`new`](Self::new) and
/// [`resize`](Self::resize) abort the process, as with `Vec`;
/// [`try_new`](Self::try_new) and [`try_resize`](Self::try_resize) return an
/// [`AllocError`] instead.
///
/// The memory is zero-filled by the kernel and first touched by the threads of a
/// [`Placement`] (by default one per CPU, unpinned), which decides where its
/// pages live; see `docs/tt.md`.
pub struct TranspositionTable {
    buckets: HugeBuffer<Bucket>,
    generation: AtomicU8,
    replacement: Replacement,
    mb: usize,
    placement: Placement,
}

// The search shares the table between threads; this must hold through the
// atomics alone.
const _: () = {
    const fn shareable<T: Send + Sync>() {}
    shareable::<TranspositionTable>();
};

impl TranspositionTable {
    /// Allocates an empty table of `mb` MiB (clamped to `MIN_MB..=MAX_MB`), first
    /// touched by [`Placement::every_cpu`]; see [`set_placement`].
    ///
    /// [`set_placement`]: Self::set_placement
    #[must_use]
    pub fn new(mb: usize) -> Self {
        let mb = mb.clamp(MIN_MB, MAX_MB);
        let placement = Placement::every_cpu();
        Self::from_parts(HugeBuffer::zeroed(mb * BUCKETS_PER_MB, &placement), mb, placement)
    }

    /// Like [`new`](Self::new), but a refused allocation is an error.
    pub fn try_new(mb: usize) -> Result<Self, AllocError> {
        let mb = mb.clamp(MIN_MB, MAX_MB);
        let placement = Placement::every_cpu();
        Ok(Self::from_parts(Self::allocate(mb, &placement)?, mb, placement))
    }

    fn from_parts(buckets: HugeBuffer<Bucket>, mb: usize, placement: Placement) -> Self {
        Self {
            buckets,
            generation: AtomicU8::new(0),
            replacement: Replacement::DEFAULT,
            mb,
            placement,
        }
    }

    fn allocate(mb: usize, placement: &Placement) -> Result<HugeBuffer<Bucket>, AllocError> {
        HugeBuffer::try_zeroed(mb * BUCKETS_PER_MB, placement)
            .map_err(|alloc::MemoryRefusal { .. }| AllocError { mb })
    }

    /// A table of exactly `buckets` buckets (at least one), for tests and model
    /// checking. `size_mb` reports the size rounded down.
    #[doc(hidden)]
    #[must_use]
    pub fn with_buckets(buckets: usize) -> Self {
        let buckets = buckets.max(1);
        let placement = Placement::unpinned(1);
        Self::from_parts(
            HugeBuffer::zeroed(buckets, &placement),
            buckets / BUCKETS_PER_MB,
            placement,
        )
    }

    /// Replaces the table with an empty one of `mb` MiB (clamped). The old memory
    /// is freed first, so peak usage is the larger of the two sizes, not the sum.
    /// The generation is kept.
    pub fn resize(&mut self, mb: usize) {
        let mb = mb.clamp(MIN_MB, MAX_MB);
        self.buckets = HugeBuffer::empty();
        self.buckets = HugeBuffer::zeroed(mb * BUCKETS_PER_MB, &self.placement);
        self.mb = mb;
    }

    /// Replaces the table with an empty one of `mb` MiB (clamped), freeing the old
    /// memory first, so peak usage is the larger of the two sizes, not the sum. If
    /// the system refuses the new size, the table is allocated again at its old
    /// size (the memory just freed), empty, or should that be refused too, at
    /// [`MIN_MB`]: the table always works, the error says how much was asked for
    /// and [`size_mb`](Self::size_mb) what the table has. The generation is kept.
    pub fn try_resize(&mut self, mb: usize) -> Result<(), AllocError> {
        let mb = mb.clamp(MIN_MB, MAX_MB);
        let old = self.mb;
        self.buckets = HugeBuffer::empty();
        match Self::allocate(mb, &self.placement) {
            Ok(buckets) => {
                self.buckets = buckets;
                self.mb = mb;
                Ok(())
            }
            Err(refused) => {
                (self.buckets, self.mb) = match Self::allocate(old, &self.placement) {
                    Ok(buckets) => (buckets, old),
                    Err(_) => {
                        (HugeBuffer::zeroed(MIN_MB * BUCKETS_PER_MB, &self.placement), MIN_MB)
                    }
                };
                Err(refused)
            }
        }
    }

    /// Empties every entry, on the threads of the [`placement`](Self::placement)
    /// (the pages stay where they are), and resets the generation to 0 (for
    /// `ucinewgame`).
    pub fn clear(&mut self) {
        self.buckets.clear(&self.placement);
        self.generation.store(0, Relaxed);
    }

    /// Sets which threads first touch and clear the table (the engine derives it
    /// from its NUMA policy and thread count). A placement other than the
    /// current one places the table anew: it is emptied, its pages are given back
    /// to the system and touched again by the new threads, so that each part
    /// lives where its thread runs. The size, generation and replacement weights
    /// are kept. Tables under 32 MiB are always touched and cleared on the calling
    /// thread.
    pub fn set_placement(&mut self, placement: Placement) {
        if placement != self.placement {
            self.placement = placement;
            self.buckets.place(&self.placement);
        }
    }

    /// The threads that touch and clear the table.
    #[must_use]
    pub fn placement(&self) -> &Placement {
        &self.placement
    }

    /// Sets the weights of the replacement policy (kept through `resize` and
    /// `clear`); a new table starts with [`Replacement::DEFAULT`].
    pub fn set_replacement(&mut self, replacement: Replacement) {
        self.replacement = replacement;
    }

    /// The weights of the replacement policy.
    #[must_use]
    pub fn replacement(&self) -> Replacement {
        self.replacement
    }

    /// Table size in MiB, as requested after clamping.
    #[must_use]
    pub fn size_mb(&self) -> usize {
        self.mb
    }

    /// Number of 64-byte buckets (four entries each).
    #[must_use]
    pub fn buckets(&self) -> usize {
        self.buckets.len()
    }

    /// How the memory was obtained, for an `info string` at start-up.
    #[must_use]
    pub fn backing(&self) -> Backing {
        self.buckets.backing()
    }

    /// Why the table asked for large pages and did not get them (Windows, tables
    /// of at least the large-page minimum, 2 MiB on x86-64): it has regular
    /// pages then. `None` when it got them, did not ask, and on other systems.
    #[must_use]
    pub fn large_page_refusal(&self) -> Option<LargePageRefusal> {
        self.buckets.large_page_refusal()
    }

    /// Whether the table was allocated for and advised to use huge pages
    /// (shorthand for `backing() == Backing::HugePages`).
    #[must_use]
    pub fn huge_pages(&self) -> bool {
        self.backing() == Backing::HugePages
    }

    /// Starts a new search (call once per `go`): entries stored from now on belong
    /// to the next generation, and older ones age by one. The generation has 5
    /// bits, so after 32 searches an untouched entry looks current again.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// Current generation, `0..32`.
    #[must_use]
    pub fn generation(&self) -> u8 {
        // AtomicU8 wraps at 256, a multiple of 32, so reducing here is exact.
        self.generation.load(Relaxed) % GENERATIONS
    }

    /// The bucket `key` maps to: the high 64 bits of `key * bucket_count`, which
    /// is uniform for any bucket count (no power-of-two restriction).
    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let index = (u128::from(key) * self.buckets.len() as u128) >> 64;
        // `index < len` because `key < 2^64`; the bounds check is kept anyway as a
        // cheap, well-predicted branch.
        &self.buckets[index as usize]
    }

    /// Looks `key` up. Returns `None` if absent, or if a concurrent store made the
    /// entry inconsistent. A hit can still be a different position with the same
    /// 64-bit key: validate the move before playing it.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Record> {
        self.bucket(key).probe(key).map(|data| data.unpack())
    }

    /// Stores `rec` for `key`, stamped with the current generation, following the
    /// replacement rules (see `docs/tt.md`). Convert mate scores with
    /// [`to_tt_score`](crate::to_tt_score) first.
    #[inline]
    pub fn store(&self, key: u64, rec: &Record) {
        self.bucket(key).store(key, rec, self.generation(), &self.replacement);
    }

    /// Hints the CPU to fetch `key`'s bucket, e.g. right after making a move and
    /// before generating the child's moves. No-op off x86-64.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        prefetch(self.bucket(key));
    }

    /// Table occupancy in permille, as UCI `info hashfull` expects: entries of
    /// the current generation among the first 1000 entries (250 buckets; all
    /// buckets if there are fewer).
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let sample = &self.buckets[..self.buckets.len().min(HASHFULL_BUCKETS)];
        let generation = self.generation();
        let used: usize = sample.iter().map(|b| b.count_generation(generation)).sum();
        // At most 1000 by construction; the conversion cannot fail.
        u32::try_from(used * 1000 / (sample.len() * ENTRIES)).unwrap_or(1000)
    }
}

/// The system refused the memory for a table of `mb` MiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// The size asked for, in MiB (after clamping).
    pub mb: usize,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the system refused {} MB for the hash table", self.mb)
    }
}

impl std::error::Error for AllocError {}

impl fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("mb", &self.mb)
            .field("buckets", &self.buckets.len())
            .field("backing", &self.backing())
            .field("large_page_refusal", &self.large_page_refusal())
            .field("generation", &self.generation())
            .field("replacement", &self.replacement)
            .field("placement", &self.placement)
            .finish_non_exhaustive()
    }
}
