//! The UCI loop: reads commands, keeps the engine's state, and starts and
//! stops searches on the thread pool.
//!
//! Bad input never changes state: every command is parsed completely into a
//! new value first and applied only if it is valid; otherwise exactly one
//! `info string error: ...` line is printed. The loop stays responsive during
//! a search (`isready`, `stop`, `ponderhit`, `quit` are answered at once)
//! because searches run on the pool's threads.

mod command;
pub mod options;
pub mod output;

use crate::perft_cmd::write_divide;
use board::{Board, Position};
use command::Command;
use options::Settings;
use output::{Output, UciReporter};
use search::{SearchJob, ThreadPool};
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The engine's state between commands.
struct Engine {
    out: Output,
    reporter: Arc<UciReporter>,
    pool: ThreadPool,
    position: Position,
    settings: Settings,
}

/// Runs the UCI loop on `input` until `quit` or end of input.
pub fn run(input: impl BufRead, out: Output) {
    let reporter = Arc::new(UciReporter { out: out.clone(), chess960: Default::default() });
    let settings = Settings::default();
    let pool = ThreadPool::new(settings.threads, settings.hash_mb, reporter.clone());
    let mut engine =
        Engine { out, reporter, pool, position: Position::new(Board::startpos()), settings };
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !engine.handle(&line) {
            break;
        }
    }
    engine.pool.stop();
    engine.pool.wait_idle();
}

impl Engine {
    fn error(&self, text: &str) {
        self.out.line(&format!("info string error: {text}"));
    }

    /// Handles one line; returns `false` on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let received = Instant::now();
        let command = match command::parse(line, &self.position, &self.settings) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e);
                return true;
            }
        };
        match command {
            Command::Empty => {}
            Command::Uci => {
                self.out.line(concat!("id name Tessera ", env!("CARGO_PKG_VERSION")));
                self.out.line("id author the Tessera developers");
                for line in options::option_lines() {
                    self.out.line(&line);
                }
                // The table was allocated at start-up: say how, once the GUI is listening.
                self.announce_hash();
                self.out.line("uciok");
            }
            Command::IsReady => self.out.line("readyok"),
            Command::UciNewGame => {
                self.pool.clear();
                self.position = Position::new(Board::startpos());
            }
            Command::Position(position) => self.position = position,
            Command::SetOption(settings) => self.apply_settings(settings),
            Command::Perft(depth) => {
                let board = *self.position.board();
                let mut text = Vec::new();
                write_divide(&mut text, &board, depth, self.settings.chess960);
                for line in String::from_utf8_lossy(&text).lines() {
                    self.out.line(line);
                }
            }
            Command::Go(limits) => {
                self.reporter.chess960.store(self.settings.chess960, Ordering::Relaxed);
                self.pool.start(SearchJob {
                    position: self.position.clone(),
                    limits,
                    multipv: self.settings.multipv,
                    move_overhead: Duration::from_millis(self.settings.move_overhead_ms),
                    start: received,
                    features: self.settings.search_features,
                });
            }
            Command::Stop => self.pool.stop(),
            Command::PonderHit => self.pool.ponderhit(),
            Command::Display => {
                let board = self.position.board();
                let checkers: Vec<String> = board.checkers().map(|s| s.to_string()).collect();
                let text = format!(
                    "{}\nFen: {}\nKey: {:016X}\nCheckers: {}",
                    board.diagram(),
                    board.to_fen(self.settings.chess960),
                    board.key(),
                    checkers.join(" ")
                );
                for line in text.lines() {
                    self.out.line(line);
                }
            }
            Command::Eval => {
                let board = self.position.board();
                let score = eval::evaluate(board, &mut eval::PawnCache::new(1));
                self.out.line(&format!(
                    "info string static eval {score} cp (side to move), phase {}/{}",
                    eval::phase(board),
                    eval::MAX_PHASE
                ));
            }
            Command::Quit => return false,
        }
        true
    }

    /// Makes `new` the settings, doing what a changed option asks for at once.
    /// A refused resource keeps that option's old value (and says so).
    fn apply_settings(&mut self, mut new: Settings) {
        let old = &self.settings;
        if new.hash_mb != old.hash_mb {
            match self.pool.resize_hash(new.hash_mb) {
                Ok(()) => self.announce_hash(),
                Err(e) => {
                    self.error(&format!("setoption: {e}; the table stays at {} MB", old.hash_mb));
                    new.hash_mb = old.hash_mb;
                }
            }
        }
        if new.threads != old.threads
            && let Err(e) = self.pool.set_threads(new.threads)
        {
            let n = old.threads;
            let s = if n == 1 { "" } else { "s" };
            self.error(&format!("setoption: {e}; keeping {n} thread{s}"));
            new.threads = old.threads;
        }
        if new.clear_hash != old.clear_hash {
            self.pool.clear();
        }
        if new.smp_best_move != old.smp_best_move {
            self.pool.set_best_move_choice(new.smp_best_move);
        }
        self.settings = new;
    }

    fn announce_hash(&self) {
        let (huge, mb) = self.pool.hash_info();
        let pages = if huge { "transparent huge pages requested" } else { "normal pages" };
        self.out.line(&format!("info string hash table {mb} MB, {pages}"));
    }
}
