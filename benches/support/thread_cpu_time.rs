//! A criterion [`Measurement`] of the benchmark thread's CPU time, shared by
//! the benchmarks that compare kernels side by side (`benches/perft.rs`,
//! `crates/eval/benches/nnue.rs`, which includes this file by path).
//!
//! On a shared machine, time spent waiting for a core does not count, so a
//! busy machine slows a run down but skews its ratios much less than wall time
//! would. The clock is `CLOCK_THREAD_CPUTIME_ID`, which counts the running
//! slice to the nanosecond (`/proc/thread-self/schedstat` lags to the last
//! scheduler tick, too coarse for a sample of microseconds); wall time where
//! that clock cannot be read, or when `BENCH_WALL` is set.

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use std::time::Instant;

/// The benchmark thread's CPU time in nanoseconds, or wall time.
pub struct ThreadCpuTime {
    epoch: Instant,
    wall: bool,
}

impl ThreadCpuTime {
    /// The measurement for the benchmark `name`, which it names on stderr
    /// with the clock it reads.
    pub fn new(name: &str) -> ThreadCpuTime {
        let wall = std::env::var_os("BENCH_WALL").is_some() || Self::thread_cpu().is_none();
        eprintln!("{name} bench: measuring {}", if wall { "wall time" } else { "thread CPU time" });
        ThreadCpuTime { epoch: Instant::now(), wall }
    }

    #[cfg(unix)]
    fn thread_cpu() -> Option<u64> {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `ts` is a valid, writable timespec for the call to fill.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        (rc == 0).then(|| ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64)
    }

    /// No thread CPU clock outside Unix (Windows): wall time.
    #[cfg(not(unix))]
    fn thread_cpu() -> Option<u64> {
        None
    }

    fn now(&self) -> u64 {
        if self.wall {
            self.epoch.elapsed().as_nanos() as u64
        } else {
            Self::thread_cpu().expect("the thread's CPU clock was readable at start")
        }
    }
}

static WALL_TIME: WallTime = WallTime;

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        self.now()
    }
    fn end(&self, start: u64) -> u64 {
        self.now().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        // Values are nanoseconds, as wall time's are.
        WALL_TIME.formatter()
    }
}
