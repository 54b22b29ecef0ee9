//! The pool's locks: the standard library's `Mutex` and `Condvar`, with
//! poisoning taken out of their interface.
//!
//! They are the platform's own (a futex on Linux, SRW locks on Windows,
//! `memory.atomic.wait32` on WebAssembly with threads), and they work on every
//! target the engine builds for; parking_lot's waiting on WebAssembly needs a
//! nightly compiler. Nothing here is on a hot path: the locks order the pool's
//! commands and the search's timers. A thread that panics while holding one
//! (a test: the release build aborts on a panic) leaves the data as it was,
//! and the next `lock` takes it as it is.

pub use std::sync::MutexGuard;
use std::sync::PoisonError;
use std::time::Instant;

/// A mutual-exclusion lock whose `lock` cannot fail.
#[derive(Debug, Default)]
pub struct Mutex<T>(std::sync::Mutex<T>);

impl<T> Mutex<T> {
    /// A lock holding `value`.
    pub const fn new(value: T) -> Mutex<T> {
        Mutex(std::sync::Mutex::new(value))
    }

    /// Waits for the lock and holds it until the guard is dropped.
    pub fn lock(&self) -> MutexGuard<'_, T> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A condition variable for a [`Mutex`].
#[derive(Debug, Default)]
pub struct Condvar(std::sync::Condvar);

impl Condvar {
    /// A condition variable no thread waits on.
    pub const fn new() -> Condvar {
        Condvar(std::sync::Condvar::new())
    }

    /// Releases `guard`'s lock until woken (or spuriously), then takes it again.
    pub fn wait<'a, T>(&self, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
        self.0.wait(guard).unwrap_or_else(PoisonError::into_inner)
    }

    /// Like [`Condvar::wait`], but no later than `until`; also says whether
    /// `until` had passed when it returned.
    pub fn wait_until<'a, T>(
        &self,
        guard: MutexGuard<'a, T>,
        until: Instant,
    ) -> (MutexGuard<'a, T>, bool) {
        let timeout = until.saturating_duration_since(Instant::now());
        let (guard, result) =
            self.0.wait_timeout(guard, timeout).unwrap_or_else(PoisonError::into_inner);
        (guard, result.timed_out())
    }

    /// Wakes every thread waiting.
    pub fn notify_all(&self) {
        self.0.notify_all();
    }

    /// Wakes one thread waiting (the only one, where one thread waits on it).
    pub fn notify_one(&self) {
        self.0.notify_one();
    }
}
