//! `go perft` beside the command loop: counting runs on its own thread, so
//! `isready` and `stop` are answered while it runs. `quit` and end of input
//! wait for it ([`PerftJob::finish`]), so that a script that pipes
//! `go perft N` then `quit` gets its divide, as from Stockfish.

use super::output::Output;
use crate::perft_cmd::divide_lines;
use board::Board;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

/// A perft count in progress.
pub struct PerftJob {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

impl PerftJob {
    /// Starts counting; the divide is printed to `out` when done, nothing if
    /// stopped first. `Err` if the system refuses the thread.
    pub fn start(
        board: Board,
        depth: u32,
        chess960: bool,
        out: Output,
    ) -> std::io::Result<PerftJob> {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let handle = std::thread::Builder::new().name("perft".into()).spawn(move || {
            for line in divide_lines(&board, depth, chess960, &flag).unwrap_or_default() {
                out.line(&line);
            }
        })?;
        Ok(PerftJob { stop, handle })
    }

    /// Stops the count (if still running) and waits for its thread.
    pub fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.handle.join();
    }

    /// Waits for the count to end and its divide to be printed.
    pub fn finish(self) {
        let _ = self.handle.join();
    }
}
