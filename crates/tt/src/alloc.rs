//! `HugeBuffer<T>`: a fixed-length array of zero-initialised `T`, in memory the
//! kernel may back with transparent huge pages, first touched by the threads of a
//! [`Placement`]. All of the crate's allocation `unsafe` lives here.
//!
//! On Linux, buffers of at least [`HUGE_PAGE`] bytes are mapped directly with an
//! anonymous `mmap` (size rounded up to a multiple of [`HUGE_PAGE`], start aligned
//! to it), and `madvise(MADV_HUGEPAGE)` is called **before** any page is touched.
//! The kernel hands out such memory zeroed, and an all-zero element is the empty
//! one ([`Zeroable`](real::Zeroable)), so nothing needs writing: the placement's threads only
//! write one element per 4 KiB page, which makes the kernel fault the page in (and
//! zero it) on that thread, and so on that thread's NUMA node. Smaller buffers and
//! other systems use `alloc_zeroed` (for alignments above 16 bytes the system
//! allocator zeroes with one `memset`, on the calling thread) without the advice;
//! [`Backing`] records which happened.
//!
//! A buffer can be emptied two ways: [`HugeBuffer::clear`] writes the empty value
//! over every element, keeping the pages where they are; [`HugeBuffer::place`]
//! gives a mapped buffer's pages back to the kernel (`MADV_DONTNEED`: the mapping
//! stays and reads as zeros) and touches them again with another placement.
//!
//! Under `cfg(loom)` the buffer is a plain boxed slice, since loom's atomics must
//! be created inside a model.

use crate::bucket::Bucket;
use crate::placement::Placement;
use std::fmt;
use std::ops::{Deref, DerefMut};

/// The huge-page size the allocation is aligned to (x86-64 and aarch64 with 4 KiB
/// base pages).
#[cfg(not(loom))]
pub(crate) const HUGE_PAGE: usize = 2 << 20;

/// The smallest base page of the systems the table runs on: the first touch writes
/// one element per this many bytes (on a system with larger pages it writes more
/// often than it must, which is harmless).
#[cfg(not(loom))]
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const PAGE: usize = 4 << 10;

/// How the table's memory was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backing {
    /// Huge-page aligned and `madvise(MADV_HUGEPAGE)` succeeded with transparent
    /// huge pages not disabled system-wide. The kernel still decides page by page;
    /// `AnonHugePages` in `/proc/<pid>/smaps` shows what it granted.
    HugePages,
    /// Ordinary pages: small table, non-Linux system, or the advice was refused.
    Regular,
}

impl fmt::Display for Backing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::HugePages => "transparent huge pages (madvise)",
            Self::Regular => "regular pages",
        })
    }
}

/// The system refused the memory (or the size does not fit the address space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct AllocError {
    /// What was asked for; `None` when the size overflowed before a layout existed.
    #[cfg_attr(loom, allow(dead_code))]
    pub(crate) layout: Option<std::alloc::Layout>,
}

#[cfg(not(loom))]
pub(crate) use real::HugeBuffer;

#[cfg(not(loom))]
mod real {
    use super::{AllocError, Backing, Bucket, Deref, DerefMut, HUGE_PAGE, PAGE, Placement};
    use crate::parallel::for_each_part;
    use std::alloc::{Layout, alloc_zeroed, dealloc, handle_alloc_error};
    use std::ptr;

    /// Element types whose all-zero bytes are a value: their empty one.
    ///
    /// # Safety
    ///
    /// All-zero bytes must be a valid value of the type, equal to what `empty`
    /// returns, and the type must have no drop glue.
    pub(crate) unsafe trait Zeroable: Send + Sized + 'static {
        /// The empty value (all bytes zero).
        fn empty() -> Self;
    }

    // SAFETY: a bucket is `repr(C)`: four entries and nothing else (64 bytes,
    // asserted in bucket.rs, so no padding). An entry is two `AtomicU64`s, which
    // have the in-memory representation of `u64`, so all-zero bytes are four
    // entries of two zero words: `Entry::new()` four times, which is `Bucket::new()`
    // (the test `zeroed_memory_is_empty_buckets` checks it). Atomics have no drop glue.
    unsafe impl Zeroable for Bucket {
        fn empty() -> Self {
            Bucket::new()
        }
    }

    /// Where the elements' memory came from, for `Drop`.
    #[derive(Clone, Copy, Debug)]
    enum Memory {
        /// Nothing was allocated (`len == 0`).
        None,
        /// `alloc_zeroed` with this layout.
        Heap(Layout),
        /// An anonymous mapping of this many bytes.
        #[cfg(target_os = "linux")]
        Mapped(usize),
    }

    /// Owns `len` initialised `T`s.
    pub(crate) struct HugeBuffer<T: 'static> {
        /// The elements. The `'static` is a lie confined to this module: the
        /// slice lives exactly as long as `self`, is only handed out through
        /// `Deref`/`DerefMut` (which tie it to a borrow of `self`), and is
        /// freed in `Drop`. Holding a `&mut [T]` rather than a raw pointer
        /// makes `HugeBuffer<T>` `Send`/`Sync` exactly when `[T]` is, with no
        /// `unsafe impl`.
        items: &'static mut [T],
        memory: Memory,
        backing: Backing,
    }

    impl<T: Zeroable> HugeBuffer<T> {
        /// A buffer of no elements (nothing is allocated).
        pub(crate) fn empty() -> Self {
            Self { items: &mut [], memory: Memory::None, backing: Backing::Regular }
        }

        /// `len` empty elements, first touched by the threads of `placement`.
        /// Aborts via `handle_alloc_error` if the system has no memory (like
        /// `Vec`), panics if `len` elements overflow `isize`.
        pub(crate) fn zeroed(len: usize, placement: &Placement) -> Self {
            match Self::try_zeroed(len, placement) {
                Ok(buffer) => buffer,
                Err(AllocError { layout: Some(layout) }) => handle_alloc_error(layout),
                Err(AllocError { layout: None }) => panic!(
                    "tt: {len} elements of {} bytes overflow the address space",
                    size_of::<T>()
                ),
            }
        }

        /// Like [`zeroed`](Self::zeroed), but a refused allocation (or a size
        /// beyond the address space) is an error instead of an abort.
        pub(crate) fn try_zeroed(len: usize, placement: &Placement) -> Result<Self, AllocError> {
            const { assert!(size_of::<T>() != 0, "HugeBuffer does not support zero-sized types") };
            const { assert!(align_of::<T>() <= HUGE_PAGE, "aligned beyond a huge page") };
            let Ok(array) = Layout::array::<T>(len) else {
                return Err(AllocError { layout: None });
            };
            if len == 0 {
                return Ok(Self::empty());
            }
            #[cfg(target_os = "linux")]
            if array.size() >= HUGE_PAGE {
                let (start, bytes, backing) = map(array.size())?;
                // SAFETY: `start` begins a fresh private mapping of `bytes >=
                // len * size_of::<T>()` bytes, aligned to `HUGE_PAGE` (a multiple
                // of `T`'s alignment, which is at most a page here), which the
                // kernel zero-fills; all-zero bytes are a valid `T` (`Zeroable`), so
                // these are `len` initialised elements, owned by `self` alone
                // until `Drop` unmaps them.
                let items = unsafe { std::slice::from_raw_parts_mut(start.cast::<T>(), len) };
                let mut buffer = Self { items, memory: Memory::Mapped(bytes), backing };
                buffer.touch(placement);
                return Ok(buffer);
            }
            // SAFETY: `array` has non-zero size: `len > 0` and `T` is not zero-sized.
            let start = unsafe { alloc_zeroed(array) };
            if start.is_null() {
                return Err(AllocError { layout: Some(array) });
            }
            // SAFETY: `start` is a fresh, exclusively owned, zeroed allocation of
            // `len` elements laid out as `[T; len]`; all-zero bytes are a valid `T`
            // (`Zeroable`); it stays alive and unaliased until `Drop`.
            let items = unsafe { std::slice::from_raw_parts_mut(start.cast::<T>(), len) };
            Ok(Self { items, memory: Memory::Heap(array), backing: Backing::Regular })
        }

        /// Writes the empty value over every element, on the threads of
        /// `placement` (the pages stay where they are).
        pub(crate) fn clear(&mut self, placement: &Placement) {
            for_each_part(self.items, placement, elements_per_huge_page::<T>(), |part| {
                part.fill_with(T::empty);
            });
        }

        /// Empties the buffer and places its memory anew: a mapped buffer gives
        /// its pages back to the kernel and the threads of `placement` touch
        /// them again, so that each part lives where its thread runs; a heap
        /// buffer (small) is cleared on those threads.
        pub(crate) fn place(&mut self, placement: &Placement) {
            #[cfg(target_os = "linux")]
            if let Memory::Mapped(bytes) = self.memory {
                let start = self.items.as_mut_ptr();
                // SAFETY: `[start, start + bytes)` is this buffer's own private
                // anonymous mapping and `&mut self` is its only user. After
                // MADV_DONTNEED its pages read as zero-filled, that is as empty
                // elements (`Zeroable`), and the elements have no drop glue, so
                // every element stays a valid `T` and nothing needed dropping.
                let rc = unsafe { libc::madvise(start.cast(), bytes, libc::MADV_DONTNEED) };
                if rc == 0 {
                    self.touch(placement);
                    return;
                }
            }
            self.clear(placement);
        }

        #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
        /// The first touch of zero-filled memory: the threads of `placement`
        /// write one element per page, so that each page is faulted in by (and
        /// placed near) the thread whose part it is. The rest of each page is
        /// zero already and is not written.
        fn touch(&mut self, placement: &Placement) {
            let step = (PAGE / size_of::<T>()).max(1);
            for_each_part(self.items, placement, elements_per_huge_page::<T>(), |part| {
                let last = part.len().saturating_sub(1);
                for i in (0..part.len()).step_by(step).chain([last]) {
                    part[i] = T::empty();
                }
            });
        }
    }

    /// Whole elements in one huge page (at least one).
    const fn elements_per_huge_page<T>() -> usize {
        let n = HUGE_PAGE / size_of::<T>();
        if n == 0 { 1 } else { n }
    }

    impl<T> HugeBuffer<T> {
        /// How the memory was obtained.
        pub(crate) fn backing(&self) -> Backing {
            self.backing
        }
    }

    impl<T> Drop for HugeBuffer<T> {
        fn drop(&mut self) {
            let items: *mut [T] = ptr::from_mut(self.items);
            // SAFETY: the elements are initialised and are never used again.
            unsafe { ptr::drop_in_place(items) };
            match self.memory {
                Memory::None => {}
                // SAFETY: the block was allocated in `try_zeroed` with exactly
                // `layout` by the global allocator, and is freed only here, once.
                Memory::Heap(layout) => unsafe { dealloc(items.cast::<u8>(), layout) },
                #[cfg(target_os = "linux")]
                Memory::Mapped(bytes) => {
                    // SAFETY: `[items, items + bytes)` is the mapping made by `map`
                    // for this buffer, unmapped only here, once; nothing refers to
                    // it after `self`.
                    unsafe { libc::munmap(items.cast(), bytes) };
                }
            }
        }
    }

    impl<T> Deref for HugeBuffer<T> {
        type Target = [T];
        fn deref(&self) -> &[T] {
            self.items
        }
    }

    impl<T> DerefMut for HugeBuffer<T> {
        fn deref_mut(&mut self) -> &mut [T] {
            self.items
        }
    }

    /// Maps at least `size` bytes of zero-filled anonymous memory, aligned to
    /// [`HUGE_PAGE`] and advised to use huge pages; returns the start, the mapped
    /// length (`size` rounded up to a multiple of [`HUGE_PAGE`]) and the backing.
    #[cfg(target_os = "linux")]
    fn map(size: usize) -> Result<(*mut u8, usize, Backing), AllocError> {
        let overflow = AllocError { layout: None };
        let bytes = size.checked_next_multiple_of(HUGE_PAGE).ok_or(overflow)?;
        let layout = Layout::from_size_align(bytes, HUGE_PAGE).map_err(|_| overflow)?;
        // One huge page more than needed, so that an aligned start lies inside.
        let span = bytes.checked_add(HUGE_PAGE).ok_or(overflow)?;
        // SAFETY: a new private anonymous mapping at an address the kernel
        // chooses: no existing memory is affected.
        let raw = unsafe {
            libc::mmap(
                ptr::null_mut(),
                span,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if raw == libc::MAP_FAILED {
            return Err(AllocError { layout: Some(layout) });
        }
        let head = raw.addr().next_multiple_of(HUGE_PAGE) - raw.addr();
        let tail = span - head - bytes;
        // SAFETY: `head < HUGE_PAGE <= span - bytes`, so the aligned start and the
        // `bytes` after it lie inside the mapping just made. The head and the tail
        // are the parts of that mapping around them, page aligned (the mapping
        // starts on a page and `head`, `bytes` keep multiples of a page), used by
        // nothing; unmapping them cannot fail, and a failure would only leave
        // them mapped.
        let start = unsafe {
            let start = raw.cast::<u8>().add(head);
            if head > 0 {
                libc::munmap(raw, head);
            }
            if tail > 0 {
                libc::munmap(start.add(bytes).cast(), tail);
            }
            start
        };
        Ok((start, bytes, advise_huge_pages(start, bytes)))
    }

    /// Advises the kernel to back `[start, start + len)` with huge pages.
    #[cfg(target_os = "linux")]
    fn advise_huge_pages(start: *mut u8, len: usize) -> Backing {
        // SAFETY: `[start, start + len)` is a live mapping we own, aligned to
        // 2 MiB; MADV_HUGEPAGE only changes how the kernel backs it and never its
        // contents or validity.
        let rc = unsafe { libc::madvise(start.cast(), len, libc::MADV_HUGEPAGE) };
        if rc == 0 && !thp_disabled() { Backing::HugePages } else { Backing::Regular }
    }

    /// `madvise` succeeds even when THP is globally `never`; report that honestly.
    #[cfg(target_os = "linux")]
    fn thp_disabled() -> bool {
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .is_ok_and(|s| s.contains("[never]"))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn zeroed_memory_is_empty_buckets() {
            // Both paths: the heap (under a huge page) and a mapping (4 MiB).
            for len in [1000, 2 * HUGE_PAGE / 64] {
                let buffer = HugeBuffer::<Bucket>::try_zeroed(len, &Placement::unpinned(2))
                    .expect("a few MiB");
                assert_eq!(buffer.len(), len);
                assert!(buffer.iter().all(Bucket::is_all_zero), "{len} buckets");
                assert!(buffer.iter().all(|b| b.count_generation(0) == 0 && b.probe(0).is_none()));
            }
        }

        #[test]
        fn place_and_clear_empty_a_used_buffer() {
            let record = crate::Record { depth: 3, ..crate::Record::default() };
            let placement = Placement::unpinned(2);
            // 40 MiB: past the size where the parts run on threads of their own.
            let mut buffer = HugeBuffer::<Bucket>::zeroed(40 << 14, &placement);
            let ways: [fn(&mut HugeBuffer<Bucket>, &Placement); 2] =
                [HugeBuffer::clear, HugeBuffer::place];
            for emptying in ways {
                for b in buffer.iter().step_by(997) {
                    b.store(7, &record, 0, &crate::Replacement::DEFAULT);
                }
                assert!(!buffer.iter().all(Bucket::is_all_zero));
                emptying(&mut buffer, &Placement::unpinned(3));
                assert!(buffer.iter().all(Bucket::is_all_zero));
            }
        }
    }
}

#[cfg(loom)]
pub(crate) use model::HugeBuffer;

#[cfg(loom)]
mod model {
    use super::{Backing, Bucket, Deref, DerefMut, Placement};

    /// Loom stand-in: a plain boxed slice of buckets.
    pub(crate) struct HugeBuffer<T>(Box<[T]>);

    impl HugeBuffer<Bucket> {
        pub(crate) fn empty() -> Self {
            Self(Box::new([]))
        }

        pub(crate) fn zeroed(len: usize, _placement: &Placement) -> Self {
            Self((0..len).map(|_| Bucket::new()).collect())
        }

        pub(crate) fn try_zeroed(
            len: usize,
            placement: &Placement,
        ) -> Result<Self, super::AllocError> {
            Ok(Self::zeroed(len, placement))
        }

        pub(crate) fn clear(&mut self, placement: &Placement) {
            crate::parallel::for_each_part(&mut self.0, placement, 1, |part| {
                part.fill_with(Bucket::new);
            });
        }

        pub(crate) fn place(&mut self, placement: &Placement) {
            self.clear(placement);
        }
    }

    impl<T> HugeBuffer<T> {
        pub(crate) fn backing(&self) -> Backing {
            Backing::Regular
        }
    }

    impl<T> Deref for HugeBuffer<T> {
        type Target = [T];
        fn deref(&self) -> &[T] {
            &self.0
        }
    }

    impl<T> DerefMut for HugeBuffer<T> {
        fn deref_mut(&mut self) -> &mut [T] {
            &mut self.0
        }
    }
}
