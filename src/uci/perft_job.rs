//! `go perft` beside the command loop: counting runs on its own thread, so
//! `isready`, `stop` and `quit` are answered while it runs.

use super::output::Output;
use crate::perft_cmd::write_divide;
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
            let mut text = Vec::new();
            if write_divide(&mut text, &board, depth, chess960, &flag).is_some() {
                for line in String::from_utf8_lossy(&text).lines() {
                    out.line(line);
                }
            }
        })?;
        Ok(PerftJob { stop, handle })
    }

    /// Stops the count (if still running) and waits for its thread.
    pub fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.handle.join();
    }
}
