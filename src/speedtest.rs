//! `tessera speedtest [threads] [hash MB] [seconds per position]`: how the
//! search's nodes/s grow with threads on this machine.
//!
//! It describes the machine and the build, then searches the bench positions
//! ([`bench::POSITIONS`]) for a fixed time each (`go movetime`) with 1, 2, 4,
//! … threads up to `threads` (and `threads` itself), the table and histories
//! cleared before each thread count, and prints a row per thread count: its
//! nodes/s, the ratio to one thread's, and that ratio per thread. The last
//! line, `speedtest: T threads M nps (×R)`, is the largest count's.

use crate::bench;
use crate::machine::Machine;
use search::{SearchLimits, Silent, ThreadPool};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use tessera::cli::{output_lost, print_lines, usage, word, write_lines};

/// The default time per position, in seconds.
pub const DEFAULT_SECONDS: f64 = 0.4;

/// The default table: 64 MB a thread, at most 1024 MB.
fn default_hash(threads: usize) -> usize {
    (64 * threads).min(1024)
}

/// The thread counts measured: 1, 2, 4, … up to `threads`, then `threads`
/// itself if it is not a power of two.
fn thread_counts(threads: usize) -> Vec<usize> {
    let mut counts: Vec<usize> =
        std::iter::successors(Some(1), |&n| Some(n * 2)).take_while(|&n| n <= threads).collect();
    if !threads.is_power_of_two() {
        counts.push(threads);
    }
    counts
}

/// One row of the table: the thread count, its nodes/s, the ratio to one
/// thread's and that ratio per thread (as a percentage).
fn row(threads: usize, nps: u64, one_thread: u64) -> String {
    let ratio = nps as f64 / one_thread.max(1) as f64;
    let efficiency = 100.0 * ratio / threads as f64;
    format!("{threads:>7} {nps:>12} {:>8} {efficiency:>10.1}%", format!("×{ratio:.2}"))
}

/// Runs the speed test and prints the machine, the table and the last line.
pub fn run(args: &[String]) -> ExitCode {
    let cpus = std::thread::available_parallelism().map_or(1, usize::from).min(1024);
    let threads = word(args, 0, cpus, 1..=1024);
    let hash = threads.and_then(|t| word(args, 1, default_hash(t), 1..=1 << 16));
    let seconds = word(args, 2, DEFAULT_SECONDS, 0.01..=600.0);
    // A fourth word is refused, not ignored.
    let (Some(threads), Some(hash), Some(seconds), None) = (threads, hash, seconds, args.get(3))
    else {
        eprintln!("{}", usage("speedtest"));
        return ExitCode::FAILURE;
    };
    let counts = thread_counts(threads);
    let positions = bench::POSITIONS.len();
    let total = counts.len() as f64 * positions as f64 * seconds;
    let mut header = vec![
        format!("Tessera {}", tessera::VERSION),
        format!("network code: {}", tessera::build_info::network_code()),
    ];
    header.extend(Machine::detect().lines());
    let list: Vec<String> = counts.iter().map(usize::to_string).collect();
    header.push(format!(
        "{positions} positions × {seconds} s (go movetime) with {} threads, hash {hash} MB: \
         about {total:.0} s",
        list.join(", ")
    ));
    header.push(format!("{:>7} {:>12} {:>8} {:>11}", "threads", "nodes/s", "ratio", "efficiency"));
    // Output that cannot be written (`| head -3`, a full disk) ends the run.
    if let Err(e) = write_lines(header) {
        return output_lost(&e);
    }
    let mut pool = match ThreadPool::try_new(1, hash, Arc::new(Silent)) {
        Ok(pool) => pool,
        Err(e) => {
            eprintln!("speedtest: {e}");
            return ExitCode::FAILURE;
        }
    };
    let limits = SearchLimits {
        move_time: Some(Duration::from_secs_f64(seconds)),
        ..SearchLimits::default()
    };
    let (mut one_thread, mut last) = (0, 0);
    for &n in &counts {
        if let Err(e) = pool.set_threads(n) {
            eprintln!("speedtest: {e}");
            return ExitCode::FAILURE;
        }
        pool.clear();
        let totals = match bench::search_positions(&mut pool, &limits, false, |_, _, _, _| {}) {
            Ok(totals) => totals,
            Err(e) => {
                eprintln!("speedtest: {e}");
                return ExitCode::FAILURE;
            }
        };
        last = totals.nps();
        if n == 1 {
            one_thread = last;
        }
        if let Err(e) = write_lines([row(n, last, one_thread)]) {
            return output_lost(&e);
        }
    }
    let ratio = last as f64 / one_thread.max(1) as f64;
    print_lines([format!("speedtest: {threads} threads {last} nps (×{ratio:.2})")])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_help_states_the_defaults_the_code_uses() {
        // `--help` is library text (cli.rs) and cannot read these constants:
        // this keeps the two in step.
        let help = tessera::cli::SUBCOMMANDS
            .iter()
            .find(|c| c.name == "speedtest")
            .map(|c| c.what)
            .expect("speedtest is listed");
        let per_thread = default_hash(1);
        let cap = default_hash(usize::MAX / 64);
        assert!(help.contains(&format!("{DEFAULT_SECONDS} s a position")), "{help}");
        assert!(help.contains(&format!("{per_thread} MB a thread up to {cap}")), "{help}");
    }

    #[test]
    fn thread_counts_double_up_to_the_threads_asked_for() {
        assert_eq!(thread_counts(1), [1]);
        assert_eq!(thread_counts(2), [1, 2]);
        assert_eq!(thread_counts(6), [1, 2, 4, 6]);
        assert_eq!(thread_counts(64), [1, 2, 4, 8, 16, 32, 64]);
    }

    #[test]
    fn the_default_table_grows_with_the_threads_up_to_a_gigabyte() {
        assert_eq!(default_hash(1), 64);
        assert_eq!(default_hash(12), 768);
        assert_eq!(default_hash(128), 1024);
    }

    #[test]
    fn a_row_gives_the_ratio_and_the_ratio_per_thread() {
        assert_eq!(row(1, 1_000_000, 1_000_000), "      1      1000000    ×1.00      100.0%");
        assert_eq!(row(4, 3_500_000, 1_000_000), "      4      3500000    ×3.50       87.5%");
    }
}
