//! The UCI loop: reads commands, keeps the engine's state, and starts and
//! stops searches on the thread pool.
//!
//! Bad input never changes state: every command is parsed completely into a
//! new value first and applied only if it is valid; otherwise exactly one
//! `info string error: ...` line is printed. Every `go` that asks for a search
//! is answered by exactly one `bestmove`, whatever else it contains. The loop
//! stays responsive while the engine works (`isready`, `stop`, `ponderhit` are
//! answered at once) because searches run on the pool's threads and `go perft`
//! on a thread of its own. `quit` and end of input stop a search at once (its
//! `bestmove` is printed before the loop returns) but let a `go perft` print its
//! count first, as a script that pipes `go perft N` then `quit` expects (`stop`
//! ends the count). End of input is also what a GUI that exits leaves behind (its
//! end of the pipe closes), on every system; a closed console window on Windows
//! ends the process through the system's default handler, as a closed terminal
//! does on Linux (docs/reliability.md). Input that is not UTF-8, or
//! absurdly long, is a line to report, never the end of input; a refused
//! resource (memory for `Hash`, a thread for `Threads`) is an error line, and the
//! engine keeps what it had.
//!
//! In a cluster ([`run_in_cluster`]) the same loop runs on every rank: the
//! leader's reads stdin and passes every command that changes state on to the
//! other ranks; theirs reads those commands (docs/cluster.md).

mod command;
mod eval_board;
pub mod go;
pub mod input;
pub mod limiter;
mod machine_memory;
pub mod memory_budget;
mod on_change;
pub mod options;
pub mod output;
mod perft_job;
pub mod strength;
mod tablebases;

use crate::rng::Rng;
use board::{Board, Position};
pub use command::{UciCommand, parse};
use input::{InputLine, Lines};
use limiter::Limiter;
use options::Settings;
use output::{Output, UciReporter, shorten};
use perft_job::PerftJob;
use search::{SearchJob, ThreadPool};
use std::io::BufRead;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The engine's state between commands.
struct Engine {
    /// The other ranks ([`search::Alone`] outside a cluster).
    cluster: Arc<dyn search::Cluster>,
    out: Output,
    /// Writes the search's reports (its flags follow the settings of each `go`).
    reporter: Arc<UciReporter>,
    /// What the search reports through: the strength limit of the search under
    /// way (`UCI_LimitStrength`), passing the reports on to `reporter`.
    limiter: Arc<Limiter>,
    pool: ThreadPool,
    position: Position,
    settings: Settings,
    perft: Option<PerftJob>,
    /// The evaluation network `EvalFile` names.
    network: Arc<eval::nnue::Network>,
    /// The random choices of `UCI_LimitStrength` (reseeded by `StrengthSeed`).
    rng: Rng,
    /// Whether the last search started ends by itself (not `infinite`, not
    /// `ponder`): what [`AtTheEnd::LetItFinish`] waits for.
    search_ends_by_itself: bool,
    /// Whether the engine has said why the system refused large pages (it
    /// says so once).
    large_pages_refusal_told: bool,
}

/// What `quit` or the end of input does to a search under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtTheEnd {
    /// Stop it at once: the GUI is gone, or asked to quit.
    StopTheSearch,
    /// Let a search that ends by itself (a depth, nodes, a clock) reach its
    /// limit first, as Stockfish does with commands given as arguments; an
    /// `infinite` or `ponder` search, which nothing else could end, is stopped.
    LetItFinish,
}

/// Runs the UCI loop on `input` until `quit` or end of input. Fails only if
/// the engine cannot start at all (the system refuses its first table or thread).
pub fn run(input: impl BufRead, out: Output) -> ExitCode {
    run_in_cluster(input, out, Arc::new(search::Alone))
}

/// Runs the commands of the program's arguments, one a line: as [`run`],
/// but a search still under way at the end runs to its limit
/// ([`AtTheEnd::LetItFinish`]).
pub fn run_commands(input: impl BufRead, out: Output) -> ExitCode {
    run_with(input, out, Arc::new(search::Alone), AtTheEnd::LetItFinish)
}

/// Runs the UCI loop as one rank of `cluster` (see the module documentation).
pub fn run_in_cluster(
    input: impl BufRead,
    out: Output,
    cluster: Arc<dyn search::Cluster>,
) -> ExitCode {
    run_with(input, out, cluster, AtTheEnd::StopTheSearch)
}

fn run_with(
    input: impl BufRead,
    out: Output,
    cluster: Arc<dyn search::Cluster>,
    at_the_end: AtTheEnd,
) -> ExitCode {
    let reporter = Arc::new(UciReporter {
        out: out.clone(),
        chess960: Default::default(),
        show_wdl: Default::default(),
    });
    let limiter = Arc::new(Limiter::new(reporter.clone()));
    let settings = Settings::default();
    let pool = match ThreadPool::try_new(settings.threads, settings.hash_mb, limiter.clone()) {
        Ok(pool) => pool,
        Err(e) => {
            out.line(&format!("info string error: cannot start: {e}"));
            return ExitCode::FAILURE;
        }
    };
    pool.set_cluster(Arc::clone(&cluster));
    let mut engine = Engine {
        cluster,
        out,
        reporter,
        limiter,
        pool,
        position: Position::new(Board::startpos()),
        settings,
        perft: None,
        network: eval::nnue::embedded(),
        rng: Rng::from_seed_or_clock(0),
        search_ends_by_itself: false,
        large_pages_refusal_told: false,
    };
    for line in Lines::new(input) {
        let go_on = match line {
            InputLine::Text(text) => engine.handle(&text),
            InputLine::NotUtf8 { at, byte } => {
                engine.error(&format!(
                    "input is not UTF-8 (byte {byte:#04X} at offset {at}); line ignored"
                ));
                true
            }
            InputLine::TooLong(bytes) => {
                engine.error(&format!(
                    "input line of {bytes} bytes (more than {}); line ignored",
                    input::MAX_LINE_BYTES
                ));
                true
            }
        };
        if !go_on {
            break;
        }
    }
    // A script's `go perft N` then `quit` (or end of input) expects the count.
    if let Some(job) = engine.perft.take() {
        job.finish();
    }
    if at_the_end == AtTheEnd::LetItFinish && engine.search_ends_by_itself {
        engine.pool.wait_idle();
    }
    engine.finish_search();
    ExitCode::SUCCESS
}

impl Engine {
    fn error(&self, text: &str) {
        self.out.line(&format!("info string error: {}", shorten(text)));
    }

    /// Stops the search under way, if any (its best move follows at once,
    /// even one a limited strength holds back).
    fn stop_search(&self) {
        self.pool.stop();
    }

    /// Stops the search under way, if any, and waits until its threads are
    /// idle: its best move has been printed by then.
    fn finish_search(&self) {
        self.stop_search();
        self.pool.wait_idle();
    }

    fn stop_perft(&mut self) {
        if let Some(job) = self.perft.take() {
            job.stop();
        }
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
        // Before applying it: a `go` must reach the other ranks before this rank's
        // search can end and stop theirs.
        if command.changes_state() {
            self.cluster.forward(line.trim());
        }
        match command {
            UciCommand::Empty => {}
            UciCommand::Uci => {
                self.out.line(&format!("id name Tessera {}", crate::VERSION));
                self.out.line("id author the Tessera developers");
                for line in options::option_lines() {
                    self.out.line(&line);
                }
                // The table was allocated at start-up: say how, once the GUI is listening.
                self.announce_hash();
                self.out.line("uciok");
            }
            UciCommand::IsReady => self.out.line("readyok"),
            UciCommand::UciNewGame => {
                self.stop_search();
                self.pool.clear();
                self.position = Position::new(Board::startpos());
            }
            UciCommand::Position(position) => self.position = position,
            UciCommand::SetOption(settings) => self.apply_settings(settings),
            #[cfg(feature = "tune")]
            UciCommand::SetTunable(name, value) => {
                if let Err(e) = search::params::set(name, value) {
                    self.error(&format!("setoption: {e}"));
                }
            }
            UciCommand::Perft(depth) => {
                self.stop_perft();
                self.finish_search();
                let board = *self.position.board();
                match PerftJob::start(board, depth, self.settings.chess960, self.out.clone()) {
                    Ok(job) => self.perft = Some(job),
                    Err(e) => self.error(&format!("go perft: cannot start a thread: {e}")),
                }
            }
            UciCommand::Go(go) => {
                self.stop_perft();
                if !go.ignored.is_empty() {
                    self.error(&format!("go: ignored {}", go.ignored.join(", ")));
                }
                // The search under way (if any) answers in the notation of its own `go`.
                self.finish_search();
                self.reporter.chess960.store(self.settings.chess960, Ordering::Relaxed);
                self.reporter.show_wdl.store(self.settings.show_wdl, Ordering::Relaxed);
                let job = SearchJob {
                    position: self.position.clone(),
                    limits: go.limits,
                    multipv: self.settings.multipv,
                    move_overhead: Duration::from_millis(self.settings.move_overhead_ms),
                    start: received,
                };
                let job = self.limit_strength(job);
                self.search_ends_by_itself =
                    job.limits.ends_by_itself(job.position.board().side_to_move());
                self.pool.start(job);
            }
            UciCommand::Stop => {
                self.stop_perft();
                self.stop_search();
            }
            UciCommand::PonderHit => self.pool.ponderhit(),
            UciCommand::Display => {
                let board = self.position.board();
                let checkers: Vec<String> = board.checkers().map(|s| s.to_string()).collect();
                // X-FEN whatever UCI_Chess960 says: `position fen` reads it back exactly.
                let text = format!(
                    "{}\nFen: {}\nKey: {:016X}\nCheckers: {}",
                    board.diagram(),
                    board.to_fen(true),
                    board.key(),
                    checkers.join(" ")
                );
                for line in text.lines() {
                    self.out.line(line);
                }
            }
            UciCommand::Eval => {
                let board = self.position.board();
                let values = eval::piece_values(&self.network, board);
                for line in eval_board::diagram(board, &values).lines() {
                    self.out.line(line);
                }
                let score = eval::evaluate(&self.network, self.position.board());
                self.out.line(&format!(
                    "info string static eval {score} cp (side to move), network {}",
                    self.settings.eval_file
                ));
            }
            UciCommand::Genfens(request) => {
                let result = crate::genfens::generate(&request, |line| self.out.line(line));
                if let Err(e) = result {
                    self.error(&e);
                }
            }
            UciCommand::Compiler => {
                for line in crate::build_info::lines() {
                    self.out.line(&line);
                }
            }
            UciCommand::Quit => return false,
        }
        true
    }

    /// `job` as `UCI_LimitStrength` has it searched (a node budget, more lines,
    /// the move held back for a plausible time), with the limiter told how to
    /// choose its move (src/uci/strength.rs); unchanged at full strength.
    fn limit_strength(&mut self, mut job: SearchJob) -> SearchJob {
        if !self.settings.limit_strength {
            self.limiter.install(None);
            return job;
        }
        let level = strength::Level::new(self.settings.elo);
        let (low, high) = strength::THINK_SHARE;
        let share = low + (high - low) * self.rng.unit();
        let think =
            strength::think_time(&job.limits, job.position.board(), job.move_overhead, share);
        self.limiter.install(Some(limiter::LimitedGo {
            level,
            rng: self.rng.fork(),
            shown: job.multipv,
        }));
        job.limits = strength::limited(&job.limits, level, think);
        job.multipv = job.multipv.max(level.candidates());
        job
    }

    /// Makes `new` the settings, doing at once what each changed option asks
    /// for (its action, declared with it in `options.rs`), in the order the
    /// options are declared. A refused resource keeps that option's old value
    /// (and says so).
    fn apply_settings(&mut self, mut new: Settings) {
        let old = self.settings.clone();
        for declaration in options::declarations() {
            if let Some(action) = declaration.action(&new, &old) {
                action(self, &mut new, &old);
            }
        }
        self.settings = new;
    }

    /// Says how big the table is and how its memory was obtained: `info string
    /// hash table 16 MB, regular pages`. The first time the table asked for
    /// large pages and the system refused them (Windows), a second line says
    /// why, once in the life of the process.
    fn announce_hash(&mut self) {
        let (backing, mb) = self.pool.hash_info();
        self.out.line(&format!("info string hash table {mb} MB, {backing}"));
        if !self.large_pages_refusal_told
            && let Some(refusal) = self.pool.large_page_refusal()
        {
            self.out.line(&format!(
                "info string large pages not granted: {refusal}; the hash table uses regular pages"
            ));
            self.large_pages_refusal_told = true;
        }
    }

    /// Says where the search threads run: `info string 4 threads pinned to
    /// NUMA nodes 0,1,0,1` or `info string 4 threads, not pinned`.
    fn announce_pinning(&self) {
        let numa_nodes = self.pool.pinned_nodes();
        let n = numa_nodes.len();
        let threads = format!("{n} thread{}", if n == 1 { "" } else { "s" });
        if numa_nodes.iter().all(Option::is_none) {
            self.out.line(&format!("info string {threads}, not pinned"));
        } else {
            let list: Vec<String> = numa_nodes
                .iter()
                .map(|numa_node| numa_node.map_or_else(|| "-".to_string(), |n| n.to_string()))
                .collect();
            self.out
                .line(&format!("info string {threads} pinned to NUMA nodes {}", list.join(",")));
        }
    }
}

/// The network of `EvalFile` value `name`: the embedded one for `<embedded>`
/// (or nothing), else the file.
fn load_network(name: &str) -> Result<Arc<eval::nnue::Network>, String> {
    let name = name.trim();
    if name.is_empty() || name == "<embedded>" {
        return Ok(eval::nnue::embedded());
    }
    eval::nnue::Network::load(std::path::Path::new(name)).map(Arc::from)
}
