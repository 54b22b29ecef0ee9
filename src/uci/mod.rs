//! The UCI loop: reads commands, keeps the engine's state, and starts and
//! stops searches on the thread pool.
//!
//! Bad input never changes state: every command is parsed completely into a
//! new value first and applied only if it is valid; otherwise exactly one
//! `info string error: ...` line is printed. The loop stays responsive during
//! a search (`isready`, `stop`, `ponderhit`, `quit` are answered at once)
//! because searches run on the pool's threads.
//!
//! In a cluster ([`run_in_cluster`]) the same loop runs on every rank: the
//! leader's reads stdin and passes every command that changes state on to the
//! other ranks; theirs reads those commands (docs/cluster.md).

mod command;
pub mod options;
pub mod output;

use crate::perft_cmd::write_divide;
use board::{Board, Position};
use command::Command;
use options::{DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, OptionChange};
use output::{Output, UciReporter};
use search::{SearchJob, ThreadPool};
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The engine's state between commands.
struct Engine {
    /// The other ranks ([`search::Alone`] outside a cluster).
    cluster: Arc<dyn search::Cluster>,
    out: Output,
    reporter: Arc<UciReporter>,
    pool: ThreadPool,
    position: Position,
    multipv: usize,
    move_overhead: Duration,
    chess960: bool,
    features: search::Features,
    /// The network `EvalFile` names (used when `use_nnue`).
    network: Arc<eval::nnue::Network>,
    use_nnue: bool,
}

/// Runs the UCI loop on `input` until `quit` or end of input.
pub fn run(input: impl BufRead, out: Output) {
    run_in_cluster(input, out, Arc::new(search::Alone));
}

/// Runs the UCI loop as one rank of `cluster` (see the module documentation).
pub fn run_in_cluster(input: impl BufRead, out: Output, cluster: Arc<dyn search::Cluster>) {
    let reporter = Arc::new(UciReporter { out: out.clone(), chess960: Default::default() });
    let pool = ThreadPool::new(1, DEFAULT_HASH_MB, reporter.clone());
    pool.set_cluster(Arc::clone(&cluster));
    let mut engine = Engine {
        cluster,
        out,
        reporter,
        pool,
        position: Position::new(Board::startpos()),
        multipv: 1,
        move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
        chess960: false,
        features: search::Features::default(),
        network: eval::nnue::embedded(),
        use_nnue: false,
    };
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
        // OpenBench's start-position request; see src/genfens.rs.
        if let Some(args) = line.trim_start().strip_prefix("genfens ") {
            crate::genfens::run_uci(args, &self.out);
            return true;
        }
        let command = match command::parse(line, &self.position, self.chess960) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e);
                return true;
            }
        };
        // Before applying it: a `go` must reach the other ranks before this rank's
        // search can end and stop theirs.
        if command.changes_state() {
            self.cluster.forward(line.trim());
        }
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
            Command::SetOption(change) => self.apply(change),
            Command::Perft(depth) => {
                let board = *self.position.board();
                let mut text = Vec::new();
                write_divide(&mut text, &board, depth, self.chess960);
                for line in String::from_utf8_lossy(&text).lines() {
                    self.out.line(line);
                }
            }
            Command::Go(limits) => {
                self.reporter.chess960.store(self.chess960, Ordering::Relaxed);
                self.pool.start(SearchJob {
                    position: self.position.clone(),
                    limits,
                    multipv: self.multipv,
                    move_overhead: self.move_overhead,
                    start: received,
                    features: self.features,
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
                    board.to_fen(self.chess960),
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

    fn apply(&mut self, change: OptionChange) {
        match change {
            OptionChange::Hash(mb) => {
                self.pool.resize_hash(mb);
                self.announce_hash();
            }
            OptionChange::Threads(n) => self.pool.set_threads(n),
            OptionChange::ClearHash => self.pool.clear(),
            OptionChange::MultiPv(n) => self.multipv = n,
            OptionChange::MoveOverhead(ms) => self.move_overhead = Duration::from_millis(ms),
            OptionChange::Ponder(_) => {}
            OptionChange::Chess960(on) => self.chess960 = on,
            OptionChange::SearchFeatures(f) => self.features = f,
            OptionChange::BestMoveChoice(choice) => self.pool.set_best_move_choice(choice),
            OptionChange::UseNnue(on) => {
                self.use_nnue = on;
                self.pool.set_network(on.then(|| Arc::clone(&self.network)));
            }
            OptionChange::EvalFile(path) => {
                if path.is_empty() || path == "<embedded>" {
                    self.network = eval::nnue::embedded();
                } else {
                    match eval::nnue::Network::load(std::path::Path::new(&path)) {
                        Ok(net) => {
                            self.network = Arc::from(net);
                            self.out.line(&format!("info string loaded network {path}"));
                        }
                        Err(e) => {
                            self.out.line(&format!("info string error: {e}"));
                            return;
                        }
                    }
                }
                if self.use_nnue {
                    self.pool.set_network(Some(Arc::clone(&self.network)));
                }
            }
        }
    }

    fn announce_hash(&self) {
        let (huge, mb) = self.pool.hash_info();
        let pages = if huge { "transparent huge pages requested" } else { "normal pages" };
        self.out.line(&format!("info string hash table {mb} MB, {pages}"));
    }
}
