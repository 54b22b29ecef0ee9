//! A harness that drives the real `tessera` binary over UCI.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// A running engine with a line reader.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line received so far, in order.
    pub transcript: Vec<String>,
}

/// Generous timeout for things that should be quick (debug builds, loaded CI machine).
pub const SLOW: Duration = Duration::from_secs(30);

impl Engine {
    /// Starts the engine binary built by cargo for this test run.
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tessera");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines: rx, transcript: Vec::new() }
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to engine");
        self.stdin.flush().expect("flush");
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns it and the lines before it.
    pub fn wait_for(
        &mut self,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> (String, Vec<String>) {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.next_line(left) else {
                panic!("timed out waiting; got {before:?}");
            };
            if pred(&line) {
                return (line, before);
            }
            before.push(line);
        }
    }

    /// `isready` and wait for `readyok`, returning what came before it.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.wait_for(SLOW, |l| l == "readyok").1
    }

    /// Waits for `bestmove` and returns the move text and the lines before it.
    pub fn bestmove(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let (line, before) = self.wait_for(timeout, |l| l.starts_with("bestmove"));
        let mv = line.split_whitespace().nth(1).expect("bestmove has a move").to_string();
        (mv, before)
    }

    /// The FEN the engine reports with `d`.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let (line, _) = self.wait_for(SLOW, |l| l.starts_with("Fen: "));
        self.wait_for(SLOW, |l| l.starts_with("Checkers:"));
        line["Fen: ".len()..].to_string()
    }

    /// Sends `quit` and waits for the process to exit; returns whether it exited successfully in time.
    pub fn quit(mut self, timeout: Duration) -> bool {
        self.send("quit");
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value after `name` in an `info` line (`info_field(line, "nodes")`), if any.
pub fn info_field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.split(&format!(" {name} ")).nth(1)?.split(' ').next()
}

/// Whether `mv` is legal in the position `fen` (checked with the board crate).
pub fn is_legal(fen: &str, mv: &str) -> bool {
    let board = board::Board::from_fen(fen).expect("engine FEN parses");
    board.parse_uci_move(mv, false).is_ok()
}
