//! `HugeBuffer<T>`: a fixed-length, initialised array in memory the kernel may
//! back with transparent huge pages. All of the crate's allocation `unsafe` lives
//! here.
//!
//! On Linux, buffers of at least [`HUGE_PAGE`] bytes are allocated with a
//! [`HUGE_PAGE`]-aligned layout (size rounded up to a multiple of it) and
//! `madvise(MADV_HUGEPAGE)` is called **before** any page is touched; then every
//! element is written by [`for_each_chunk`] on the configured number of threads,
//! so the page faults ("first touch") are spread over those threads. Smaller
//! buffers, other systems, and a failing `madvise` get the same code path without
//! the advice, and [`Backing`] records which happened.
//!
//! We deliberately do not use `alloc_zeroed`: for alignments above 16 bytes the
//! system allocator implements it as `alloc` + a single-threaded `memset`, which
//! would fault every page in on one thread and before the `madvise`.
//!
//! Under `cfg(loom)` the buffer is a plain boxed slice, since loom's atomics must
//! be created inside a model.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// The huge-page size the allocation is aligned to (x86-64 and aarch64 with 4 KiB
/// base pages).
#[cfg(not(loom))]
pub(crate) const HUGE_PAGE: usize = 2 << 20;

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
    use super::{AllocError, Backing, Deref, DerefMut, HUGE_PAGE};
    use crate::parallel::for_each_chunk;
    use std::alloc::{Layout, alloc, dealloc, handle_alloc_error};
    use std::mem::MaybeUninit;
    use std::ptr;

    /// Owns `len` initialised `T`s in a heap block allocated with `layout`.
    pub(crate) struct HugeBuffer<T: 'static> {
        /// The elements. The `'static` is a lie confined to this module: the
        /// slice lives exactly as long as `self`, is only handed out through
        /// `Deref`/`DerefMut` (which tie it to a borrow of `self`), and is
        /// deallocated in `Drop`. Holding a `&mut [T]` rather than a raw pointer
        /// makes `HugeBuffer<T>` `Send`/`Sync` exactly when `[T]` is, with no
        /// `unsafe impl`.
        items: &'static mut [T],
        /// `None` when nothing was allocated (`len == 0`).
        layout: Option<Layout>,
        backing: Backing,
    }

    impl<T: Send + 'static> HugeBuffer<T> {
        /// Allocates `len` elements, each initialised with `fill()`, on up to
        /// `threads` threads. Aborts via `handle_alloc_error` if the system has
        /// no memory (like `Vec`), panics if `len` elements overflow `isize`.
        pub(crate) fn new(len: usize, threads: usize, fill: impl Fn() -> T + Sync + Send) -> Self {
            match Self::try_new(len, threads, fill) {
                Ok(buffer) => buffer,
                Err(AllocError { layout: Some(layout) }) => handle_alloc_error(layout),
                Err(AllocError { layout: None }) => panic!(
                    "tt: {len} elements of {} bytes overflow the address space",
                    size_of::<T>()
                ),
            }
        }

        /// Like [`new`](Self::new), but a refused allocation (or a size beyond the
        /// address space) is an error instead of an abort.
        pub(crate) fn try_new(
            len: usize,
            threads: usize,
            fill: impl Fn() -> T + Sync + Send,
        ) -> Result<Self, AllocError> {
            const { assert!(size_of::<T>() != 0, "HugeBuffer does not support zero-sized types") };
            let Ok(array) = Layout::array::<T>(len) else {
                return Err(AllocError { layout: None });
            };
            if len == 0 {
                return Ok(Self { items: &mut [], layout: None, backing: Backing::Regular });
            }
            let huge = cfg!(target_os = "linux") && array.size() >= HUGE_PAGE;
            let layout = if huge {
                match Layout::from_size_align(array.size().next_multiple_of(HUGE_PAGE), HUGE_PAGE) {
                    Ok(layout) => layout,
                    Err(_) => array,
                }
            } else {
                array
            };

            // SAFETY: `layout` has non-zero size: `len > 0` and `T` is not
            // zero-sized (rounding up only grows it).
            let ptr = unsafe { alloc(layout) }.cast::<MaybeUninit<T>>();
            if ptr.is_null() {
                return Err(AllocError { layout: Some(layout) });
            }
            let backing = if layout.align() == HUGE_PAGE {
                advise_huge_pages(ptr.cast(), layout.size())
            } else {
                Backing::Regular
            };

            // SAFETY: `ptr` is a fresh, exclusively owned allocation of at least
            // `len * size_of::<T>()` bytes aligned for `T`, and `MaybeUninit<T>`
            // may hold uninitialised bytes, so this is a valid unique slice.
            let uninit: &'static mut [MaybeUninit<T>] =
                unsafe { std::slice::from_raw_parts_mut(ptr, len) };
            // First touch, spread over `threads` threads. If `fill` panics the
            // block leaks, which is safe.
            for_each_chunk(uninit, threads, |chunk| {
                for slot in chunk {
                    slot.write(fill());
                }
            });
            // SAFETY: every element of `uninit` was initialised just above, and
            // `MaybeUninit<T>` has the same layout as `T`; the allocation stays
            // alive and unaliased until `Drop` (see the `items` field docs).
            let items: &'static mut [T] = unsafe { &mut *(ptr::from_mut(uninit) as *mut [T]) };
            Ok(Self { items, layout: Some(layout), backing })
        }
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
            if let Some(layout) = self.layout {
                // SAFETY: the block was allocated in `new` with exactly `layout`
                // by the global allocator, and is freed only here, once.
                unsafe { dealloc(items.cast::<u8>(), layout) };
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

    /// Advises the kernel to back `[ptr, ptr + len)` with huge pages.
    #[cfg(target_os = "linux")]
    fn advise_huge_pages(ptr: *mut u8, len: usize) -> Backing {
        // SAFETY: `[ptr, ptr + len)` is a live allocation we own, page aligned
        // (2 MiB); MADV_HUGEPAGE only changes how the kernel backs it and never
        // its contents or validity.
        let rc = unsafe { libc::madvise(ptr.cast(), len, libc::MADV_HUGEPAGE) };
        if rc == 0 && !thp_disabled() { Backing::HugePages } else { Backing::Regular }
    }

    #[cfg(not(target_os = "linux"))]
    fn advise_huge_pages(_ptr: *mut u8, _len: usize) -> Backing {
        Backing::Regular
    }

    /// `madvise` succeeds even when THP is globally `never`; report that honestly.
    #[cfg(target_os = "linux")]
    fn thp_disabled() -> bool {
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
            .is_ok_and(|s| s.contains("[never]"))
    }
}

#[cfg(loom)]
pub(crate) use model::HugeBuffer;

#[cfg(loom)]
mod model {
    use super::{Backing, Deref, DerefMut};

    /// Loom stand-in: a plain boxed slice.
    pub(crate) struct HugeBuffer<T>(Box<[T]>);

    impl<T: Send> HugeBuffer<T> {
        pub(crate) fn new(len: usize, _threads: usize, fill: impl Fn() -> T + Sync + Send) -> Self {
            Self((0..len).map(|_| fill()).collect())
        }

        pub(crate) fn try_new(
            len: usize,
            threads: usize,
            fill: impl Fn() -> T + Sync + Send,
        ) -> Result<Self, super::AllocError> {
            Ok(Self::new(len, threads, fill))
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
