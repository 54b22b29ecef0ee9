//! `HugeBuffer<T>`: a fixed-length array of zero-initialised `T`, in memory the
//! system may back with huge (large) pages, first touched by the threads of a
//! [`Placement`]. All of the crate's allocation `unsafe` lives here.
//!
//! Buffers of at least [`HUGE_PAGE`] bytes are obtained from the operating
//! system directly, zero-filled, so that nothing needs writing: an all-zero
//! element is the empty one ([`Zeroable`](real::Zeroable)).
//!
//! * On Linux, with an anonymous `mmap` (size rounded up to a multiple of
//!   [`HUGE_PAGE`], start aligned to it), and `madvise(MADV_HUGEPAGE)` is called
//!   **before** any page is touched, so the kernel may use transparent huge pages.
//! * On Windows, with `VirtualAlloc`: first with `MEM_LARGE_PAGES` (size rounded up
//!   to `GetLargePageMinimum()`), with `SeLockMemoryPrivilege` enabled on the
//!   process token for the call, which works only when the user holds the "Lock
//!   pages in memory" right; otherwise with regular pages
//!   ([`LargePageRefusal`] says why).
//!
//! The placement's threads then write one element per 4 KiB page, which makes
//! the system fault the page in (and zero it) on that thread, and so on that
//! thread's NUMA node (large pages are resident from the start and are only
//! written). Smaller buffers and other systems use `alloc_zeroed` (for alignments
//! above 16 bytes the system allocator zeroes with one `memset`, on the calling
//! thread). [`Backing`] records which happened.
//!
//! A buffer can be emptied two ways: [`HugeBuffer::clear`] writes the empty value
//! over every element, keeping the pages where they are; [`HugeBuffer::place`]
//! gives a Linux mapping's pages back to the kernel (`MADV_DONTNEED`: the mapping
//! stays and reads as zeros) and touches them again with another placement
//! (elsewhere it clears).
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
const PAGE: usize = 4 << 10;

/// How the table's memory was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backing {
    /// Linux: huge-page aligned and `madvise(MADV_HUGEPAGE)` succeeded with
    /// transparent huge pages not disabled system-wide. The kernel still decides
    /// page by page; `AnonHugePages` in `/proc/<pid>/smaps` shows what it granted.
    HugePages,
    /// Windows: `VirtualAlloc` with `MEM_LARGE_PAGES` succeeded, so the whole
    /// table is on large pages (2 MiB on x86-64), which are locked in physical
    /// memory: never paged out, and held until the table is freed.
    LargePages,
    /// Ordinary pages: a small table, a system without either of the above, or
    /// the system refused them.
    Regular,
}

impl fmt::Display for Backing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::HugePages => "transparent huge pages requested (madvise)",
            Self::LargePages => "large pages (locked in memory)",
            Self::Regular => "regular pages",
        })
    }
}

/// Why Windows refused large pages to a table that asked for them (the table
/// then has regular pages).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LargePageRefusal {
    /// The system has no large pages (`GetLargePageMinimum()` is 0).
    Unsupported,
    /// The process could not enable `SeLockMemoryPrivilege` on its token: the
    /// user does not hold the "Lock pages in memory" right (a local security
    /// policy an administrator grants; it takes effect at the next logon).
    NoPrivilege,
    /// The privilege was enabled, but `VirtualAlloc` failed with this Windows
    /// error code: typically the system could not find that much physical
    /// memory free in whole large pages.
    NotAvailable(u32),
}

impl fmt::Display for LargePageRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unsupported => f.write_str("this system has no large pages"),
            Self::NoPrivilege => f.write_str("the user lacks the \"Lock pages in memory\" right"),
            Self::NotAvailable(code) => {
                write!(f, "the system could not provide them (Windows error {code})")
            }
        }
    }
}

/// The system refused the memory (or the size does not fit the address space).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemoryRefusal {
    /// What was asked for; `None` when the size overflowed before a layout existed.
    #[cfg_attr(loom, allow(dead_code))]
    pub(crate) layout: Option<std::alloc::Layout>,
}

#[cfg(not(loom))]
pub(crate) use real::HugeBuffer;

#[cfg(not(loom))]
mod real {
    use super::{
        Backing, Bucket, Deref, DerefMut, HUGE_PAGE, LargePageRefusal, MemoryRefusal, PAGE,
        Placement,
    };
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
        /// A region reserved and committed by `VirtualAlloc`, released whole.
        #[cfg(windows)]
        Committed,
    }

    /// Zero-filled memory obtained from the system by [`map`].
    #[cfg(any(target_os = "linux", windows))]
    struct Mapping {
        /// Its first byte, aligned to a page at least.
        start: *mut u8,
        /// How to give it back.
        memory: Memory,
        backing: Backing,
        /// Why large pages were asked for and refused.
        refusal: Option<LargePageRefusal>,
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
        /// Why large pages were asked for and refused (Windows).
        refusal: Option<LargePageRefusal>,
    }

    impl<T: Zeroable> HugeBuffer<T> {
        /// A buffer of no elements (nothing is allocated).
        pub(crate) fn empty() -> Self {
            Self { items: &mut [], memory: Memory::None, backing: Backing::Regular, refusal: None }
        }

        /// `len` empty elements, first touched by the threads of `placement`.
        /// Aborts via `handle_alloc_error` if the system has no memory (like
        /// `Vec`), panics if `len` elements overflow `isize`.
        pub(crate) fn zeroed(len: usize, placement: &Placement) -> Self {
            match Self::try_zeroed(len, placement) {
                Ok(buffer) => buffer,
                Err(MemoryRefusal { layout: Some(layout) }) => handle_alloc_error(layout),
                Err(MemoryRefusal { layout: None }) => panic!(
                    "tt: {len} elements of {} bytes overflow the address space",
                    size_of::<T>()
                ),
            }
        }

        /// Like [`zeroed`](Self::zeroed), but a refused allocation (or a size
        /// beyond the address space) is an error instead of an abort.
        // Elsewhere the allocator zeroes the memory, and nothing is placed.
        #[cfg_attr(not(any(target_os = "linux", windows)), allow(unused_variables))]
        pub(crate) fn try_zeroed(len: usize, placement: &Placement) -> Result<Self, MemoryRefusal> {
            const { assert!(size_of::<T>() != 0, "HugeBuffer does not support zero-sized types") };
            const { assert!(align_of::<T>() <= PAGE, "aligned beyond a page") };
            let Ok(array) = Layout::array::<T>(len) else {
                return Err(MemoryRefusal { layout: None });
            };
            if len == 0 {
                return Ok(Self::empty());
            }
            #[cfg(any(target_os = "linux", windows))]
            if array.size() >= HUGE_PAGE {
                let Mapping { start, memory, backing, refusal } = map(array.size())?;
                // SAFETY: `start` begins fresh memory of at least `len *
                // size_of::<T>()` bytes that only this buffer knows, which the
                // system zero-fills, aligned to a page at least (a multiple of
                // `T`'s alignment, asserted above to be at most a page); all-zero
                // bytes are a valid `T`
                // (`Zeroable`), so these are `len` initialised elements, owned by
                // `self` alone until `Drop` gives the memory back.
                let items = unsafe { std::slice::from_raw_parts_mut(start.cast::<T>(), len) };
                let mut buffer = Self { items, memory, backing, refusal };
                buffer.touch(placement);
                return Ok(buffer);
            }
            // SAFETY: `array` has non-zero size: `len > 0` and `T` is not zero-sized.
            let start = unsafe { alloc_zeroed(array) };
            if start.is_null() {
                return Err(MemoryRefusal { layout: Some(array) });
            }
            // SAFETY: `start` is a fresh, exclusively owned, zeroed allocation of
            // `len` elements laid out as `[T; len]`; all-zero bytes are a valid `T`
            // (`Zeroable`); it stays alive and unaliased until `Drop`.
            let items = unsafe { std::slice::from_raw_parts_mut(start.cast::<T>(), len) };
            Ok(Self {
                items,
                memory: Memory::Heap(array),
                backing: Backing::Regular,
                refusal: None,
            })
        }

        /// Writes the empty value over every element, on the threads of
        /// `placement` (the pages stay where they are).
        pub(crate) fn clear(&mut self, placement: &Placement) {
            for_each_part(self.items, placement, elements_per_huge_page::<T>(), |part| {
                part.fill_with(T::empty);
            });
        }

        /// Empties the buffer and places its memory anew: a Linux mapping gives
        /// its pages back to the kernel and the threads of `placement` touch
        /// them again, so that each part lives where its thread runs; other
        /// buffers (small ones, Windows memory) are cleared on those threads.
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

        #[cfg_attr(not(any(target_os = "linux", windows)), allow(dead_code))]
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

        /// Why large pages were asked for and refused, if they were.
        pub(crate) fn large_page_refusal(&self) -> Option<LargePageRefusal> {
            self.refusal
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
                #[cfg(windows)]
                Memory::Committed => {
                    use windows_sys::Win32::System::Memory::{MEM_RELEASE, VirtualFree};
                    // SAFETY: `items` starts the region `VirtualAlloc` reserved
                    // for this buffer in `map`, released only here, once (size 0
                    // with MEM_RELEASE releases the whole reservation); nothing
                    // refers to it after `self`.
                    unsafe { VirtualFree(items.cast(), 0, MEM_RELEASE) };
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
    /// [`HUGE_PAGE`] (the mapped length is `size` rounded up to a multiple of
    /// it) and advised to use huge pages.
    #[cfg(target_os = "linux")]
    fn map(size: usize) -> Result<Mapping, MemoryRefusal> {
        let overflow = MemoryRefusal { layout: None };
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
            return Err(MemoryRefusal { layout: Some(layout) });
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
        let backing = advise_huge_pages(start, bytes);
        Ok(Mapping { start, memory: Memory::Mapped(bytes), backing, refusal: None })
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

    /// Reserves and commits at least `size` bytes of zero-filled memory: large
    /// pages where the system grants them (`size` rounded up to the large-page
    /// minimum), else regular pages (page aligned, in fact aligned to the
    /// system's 64 KiB allocation granularity).
    #[cfg(windows)]
    fn map(size: usize) -> Result<Mapping, MemoryRefusal> {
        use windows_sys::Win32::System::Memory::{
            MEM_COMMIT, MEM_RESERVE, PAGE_READWRITE, VirtualAlloc,
        };
        let refusal = match large_pages::commit(size) {
            large_pages::Attempt::Granted(start) => {
                let (memory, backing) = (Memory::Committed, Backing::LargePages);
                return Ok(Mapping { start, memory, backing, refusal: None });
            }
            large_pages::Attempt::TooSmall => None,
            large_pages::Attempt::Refused(refusal) => Some(refusal),
        };
        // SAFETY: reserves and commits new memory at an address the system
        // chooses: no existing memory is affected.
        let start =
            unsafe { VirtualAlloc(ptr::null(), size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE) };
        if start.is_null() {
            return Err(MemoryRefusal { layout: Layout::from_size_align(size, PAGE).ok() });
        }
        Ok(Mapping {
            start: start.cast(),
            memory: Memory::Committed,
            backing: Backing::Regular,
            refusal,
        })
    }

    /// Windows large pages: `VirtualAlloc` with `MEM_LARGE_PAGES`, which needs
    /// `SeLockMemoryPrivilege` enabled on the process token while it runs.
    #[cfg(windows)]
    mod large_pages {
        use super::LargePageRefusal;
        use std::ptr;
        use std::sync::{Mutex, PoisonError};
        use windows_sys::Win32::Foundation::{
            CloseHandle, ERROR_NOT_ENOUGH_MEMORY, ERROR_SUCCESS, GetLastError, HANDLE, LUID,
        };
        use windows_sys::Win32::Security::{
            AdjustTokenPrivileges, LUID_AND_ATTRIBUTES, LookupPrivilegeValueW, SE_LOCK_MEMORY_NAME,
            SE_PRIVILEGE_ENABLED, TOKEN_ADJUST_PRIVILEGES, TOKEN_PRIVILEGES, TOKEN_QUERY,
        };
        use windows_sys::Win32::System::Memory::{
            GetLargePageMinimum, MEM_COMMIT, MEM_LARGE_PAGES, MEM_RESERVE, PAGE_READWRITE,
            VirtualAlloc,
        };
        use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

        /// What asking for large pages gave.
        pub(super) enum Attempt {
            /// Zero-filled large pages, reserved and committed, starting here.
            Granted(*mut u8),
            /// The size is under the large-page minimum: not asked.
            TooSmall,
            /// The system refused.
            Refused(LargePageRefusal),
        }

        /// Asks for at least `size` bytes of large pages, as Stockfish does:
        /// the size rounded up to the large-page minimum, with the privilege to
        /// lock memory enabled for the call and then restored as it was.
        pub(super) fn commit(size: usize) -> Attempt {
            // SAFETY: no arguments; reads a system constant.
            let minimum = unsafe { GetLargePageMinimum() };
            if minimum == 0 {
                return Attempt::Refused(LargePageRefusal::Unsupported);
            }
            if size < minimum {
                return Attempt::TooSmall;
            }
            let Some(bytes) = size.checked_next_multiple_of(minimum) else {
                return Attempt::Refused(LargePageRefusal::NotAvailable(ERROR_NOT_ENOUGH_MEMORY));
            };
            let allocated = with_privilege_to_lock_memory(|| {
                let flags = MEM_RESERVE | MEM_COMMIT | MEM_LARGE_PAGES;
                // SAFETY: reserves and commits new memory at an address the
                // system chooses: no existing memory is affected.
                let start = unsafe { VirtualAlloc(ptr::null(), bytes, flags, PAGE_READWRITE) };
                // SAFETY: reads the calling thread's last-error code.
                if start.is_null() { Err(unsafe { GetLastError() }) } else { Ok(start.cast()) }
            });
            match allocated {
                Ok(Ok(start)) => Attempt::Granted(start),
                Ok(Err(code)) => Attempt::Refused(LargePageRefusal::NotAvailable(code)),
                Err(refusal) => Attempt::Refused(refusal),
            }
        }

        /// The process token, closed on drop.
        struct Token(HANDLE);

        impl Drop for Token {
            fn drop(&mut self) {
                // SAFETY: the handle was opened by `OpenProcessToken` and is
                // closed only here, once.
                unsafe { CloseHandle(self.0) };
            }
        }

        /// Runs `allocate` with `SeLockMemoryPrivilege` enabled on the process
        /// token, then sets the privilege back as it was; `Err` when it cannot
        /// be enabled. The token is the whole process's, so one thread at a
        /// time does this (another restoring the privilege in the middle of a
        /// call would make it fail).
        fn with_privilege_to_lock_memory<R>(
            allocate: impl FnOnce() -> R,
        ) -> Result<R, LargePageRefusal> {
            static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
            let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner);
            let mut handle: HANDLE = ptr::null_mut();
            // SAFETY: `GetCurrentProcess` returns a pseudo-handle that needs no
            // closing; `handle` is a writable handle the call fills on success.
            let opened = unsafe {
                OpenProcessToken(
                    GetCurrentProcess(),
                    TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY,
                    &mut handle,
                )
            };
            if opened == 0 {
                return Err(LargePageRefusal::NoPrivilege);
            }
            let token = Token(handle);
            let mut luid = LUID::default();
            // SAFETY: a null system name is the local system; the privilege's
            // name is a NUL-terminated wide string constant; `luid` is writable.
            if unsafe { LookupPrivilegeValueW(ptr::null(), SE_LOCK_MEMORY_NAME, &mut luid) } == 0 {
                return Err(LargePageRefusal::NoPrivilege);
            }
            let enable = TOKEN_PRIVILEGES {
                PrivilegeCount: 1,
                Privileges: [LUID_AND_ATTRIBUTES { Luid: luid, Attributes: SE_PRIVILEGE_ENABLED }],
            };
            let mut previous = TOKEN_PRIVILEGES::default();
            let mut previous_len = 0u32;
            // SAFETY: `token` is open with TOKEN_ADJUST_PRIVILEGES | TOKEN_QUERY
            // (what recording the previous state needs); `enable` is a valid
            // one-privilege list; `previous` is a writable TOKEN_PRIVILEGES of the
            // length passed (it holds at most the one privilege changed).
            let adjusted = unsafe {
                AdjustTokenPrivileges(
                    token.0,
                    0,
                    &enable,
                    size_of::<TOKEN_PRIVILEGES>() as u32,
                    &mut previous,
                    &mut previous_len,
                )
            };
            // It succeeds even when the user does not hold the right: then the
            // last error is ERROR_NOT_ALL_ASSIGNED.
            // SAFETY: reads the calling thread's last-error code.
            if adjusted == 0 || unsafe { GetLastError() } != ERROR_SUCCESS {
                return Err(LargePageRefusal::NoPrivilege);
            }
            let result = allocate();
            // SAFETY: `previous` is the state the call above recorded (no
            // privilege if it was enabled already); no previous state is asked
            // for, so the null pointers with length 0 are allowed.
            unsafe {
                AdjustTokenPrivileges(token.0, 0, &previous, 0, ptr::null_mut(), ptr::null_mut())
            };
            Ok(result)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn zeroed_memory_is_empty_buckets() {
            // Both paths: the heap (under a huge page) and memory from the system
            // (4 MiB: a mapping on Linux, VirtualAlloc on Windows).
            for len in [1000, 2 * HUGE_PAGE / 64] {
                let buffer = HugeBuffer::<Bucket>::try_zeroed(len, &Placement::unpinned(2))
                    .expect("a few MiB");
                assert_eq!(buffer.len(), len);
                assert!(buffer.iter().all(Bucket::is_all_zero), "{len} buckets");
                assert!(buffer.iter().all(|b| b.count_generation(0) == 0 && b.probe(0).is_none()));
            }
        }

        /// Under wine, and for a user without the "Lock pages in memory"
        /// right, the large pages are refused and the regular pages are what
        /// this checks.
        #[cfg(windows)]
        #[test]
        fn windows_memory_is_large_or_regular_pages_empty_and_usable() {
            let len = 4 * HUGE_PAGE / 64;
            let buffer =
                HugeBuffer::<Bucket>::try_zeroed(len, &Placement::unpinned(2)).expect("8 MiB");
            let (backing, refusal) = (buffer.backing(), buffer.large_page_refusal());
            println!("8 MiB: {backing}; large pages refused: {refusal:?}");
            assert!(
                matches!(
                    (backing, refusal),
                    (Backing::LargePages, None) | (Backing::Regular, Some(_))
                ),
                "{backing:?} {refusal:?}: large pages must be asked for over their minimum"
            );
            assert!(matches!(buffer.memory, Memory::Committed));
            assert!(buffer.iter().all(Bucket::is_all_zero));
            let record = crate::Record { depth: 5, ..crate::Record::default() };
            for (i, b) in buffer.iter().enumerate().step_by(4099) {
                b.store(i as u64, &record, 0, &crate::Replacement::DEFAULT);
            }
            for (i, b) in buffer.iter().enumerate().step_by(4099) {
                assert_eq!(b.probe(i as u64).map(|data| data.unpack()), Some(record));
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
    use super::{Backing, Bucket, Deref, DerefMut, LargePageRefusal, Placement};

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
        ) -> Result<Self, super::MemoryRefusal> {
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

        pub(crate) fn large_page_refusal(&self) -> Option<LargePageRefusal> {
            None
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
