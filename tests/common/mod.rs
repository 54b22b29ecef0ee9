//! A harness that drives the real `tessera` binary over UCI.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running engine with a line reader.
pub struct Engine {
    child: Child,
    /// `None` once closed (end of input for the engine).
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// What the process wrote to stderr, when started with [`Engine::spawn_keeping_stderr`].
    stderr: Arc<Mutex<Vec<String>>>,
    /// Every line received so far, in order.
    pub transcript: Vec<String>,
}

/// Generous timeout for things that should be quick (debug builds, loaded CI machine).
pub const SLOW: Duration = Duration::from_secs(30);

/// The engine binary: `$TESSERA_BIN` if set (to run the tests against another
/// build, e.g. a deliberately broken one), else the one cargo built for this run.
pub fn binary() -> PathBuf {
    std::env::var_os("TESSERA_BIN")
        .map_or_else(|| env!("CARGO_BIN_EXE_tessera").into(), PathBuf::from)
}

impl Engine {
    /// Starts the engine binary.
    pub fn start() -> Engine {
        Engine::spawn(Command::new(binary()))
    }

    /// Starts the engine under an address-space limit (`ulimit -v`, in KiB).
    pub fn start_with_memory_limit(kib: u64) -> Engine {
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\"")).arg(binary());
        Engine::spawn(command)
    }

    /// Starts `command` (which runs the engine) with piped stdin and stdout.
    pub fn spawn(command: Command) -> Engine {
        Engine::spawn_with(command, false)
    }

    /// Like [`Engine::spawn`], also keeping the process's stderr, which
    /// [`Engine::stderr`] returns and a timed-out wait shows.
    pub fn spawn_keeping_stderr(command: Command) -> Engine {
        Engine::spawn_with(command, true)
    }

    fn spawn_with(mut command: Command, keep_stderr: bool) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if keep_stderr { Stdio::piped() } else { Stdio::null() })
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
        let stderr = Arc::new(Mutex::new(Vec::new()));
        if let Some(pipe) = child.stderr.take() {
            let sink = Arc::clone(&stderr);
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    sink.lock().unwrap_or_else(|e| e.into_inner()).push(line);
                }
            });
        }
        Engine { child, stdin: Some(stdin), lines: rx, stderr, transcript: Vec::new() }
    }

    /// The process id of the engine (or of the shell that runs it, for
    /// [`Engine::start_with_memory_limit`], which `exec`s it: the same process).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What the process wrote to stderr so far (empty unless kept).
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap_or_else(|e| e.into_inner()).join("\n")
    }

    /// Sends one command line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes (which may be anything, not only lines of UTF-8).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    /// Like [`Engine::send_bytes`], but a write error (the engine died) is `false`.
    pub fn try_send_bytes(&mut self, bytes: &[u8]) -> bool {
        let Some(stdin) = self.stdin.as_mut() else { return false };
        stdin.write_all(bytes).and_then(|()| stdin.flush()).is_ok()
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Every line that arrives within `duration`.
    pub fn lines_for(&mut self, duration: Duration) -> Vec<String> {
        let deadline = Instant::now() + duration;
        let mut lines = Vec::new();
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            lines.push(line);
        }
        lines
    }

    /// The process's peak resident memory so far (`VmHWM`), in KiB; `None`
    /// once it has exited or where `/proc` does not tell.
    pub fn peak_memory_kib(&self) -> Option<u64> {
        peak_memory_kib(self.child.id())
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Waits up to `timeout` for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
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
                panic!("timed out waiting; got {before:?}\nstderr:\n{}", self.stderr());
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
        self.wait_exit(timeout).is_some_and(|status| status.success())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // SIGTERM first, so that a launcher (mpirun) can end the processes it
        // started, which a SIGKILLed one cannot; then SIGKILL whatever is left.
        if self.is_running() {
            let pid = self.child.id().to_string();
            let _ = Command::new("kill").args(["-TERM", &pid]).status();
            let _ = self.wait_exit(Duration::from_secs(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The peak resident memory (`VmHWM`) of process `pid` so far, in KiB;
/// `None` once it has exited or where `/proc` does not tell.
pub fn peak_memory_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
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
