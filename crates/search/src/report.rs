//! What the search tells the outside world. The search never prints: the UCI
//! layer implements [`Reporter`] and formats the lines.

use crate::counters::Counters;
use crate::tablebase::{Tablebase, TbVerdict};
use crate::wdl::{self, WdlPerMille};
use board::{Board, Move};
use std::cell::Cell;
use std::time::{Duration, Instant};
use tt::{Bound, TranspositionTable};

/// One `info` report: a completed (or failed-high/low) line of the main thread.
#[derive(Debug, Clone)]
pub struct SearchInfo {
    /// The root position (to write the moves in the right notation).
    pub root: Board,
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// MultiPV index, from 1.
    pub multipv: usize,
    /// Score from the side to move's point of view (mate scores as [`tt::MATE`] - plies,
    /// tablebase results as [`tt::TB_WIN`] - plies; a root in the tablebases reports
    /// their verdict unless the search found a mate).
    pub score: i32,
    /// Win/draw/loss for the side to move: exact when the tablebases know the
    /// root, else the model of [`crate::wdl`].
    pub wdl: WdlPerMille,
    /// `Exact` for a finished line, `Lower`/`Upper` for an aspiration fail high/low.
    pub bound: Bound,
    /// Nodes searched by all threads: as published when the move was announced
    /// (the helpers' last few may follow), or, from
    /// [`ThreadPool::search_sync`](crate::ThreadPool::search_sync), all of them.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Table usage in permille.
    pub hashfull: u32,
    /// Tablebase probes that answered, all threads together.
    pub tbhits: u64,
    /// The principal variation.
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 { (self.nodes as f64 / secs) as u64 } else { 0 }
    }
}

/// The end of a search.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    /// The root position.
    pub root: Board,
    /// The move to play (`None`: no legal move).
    pub best: Option<Move>,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// The score of the best move.
    pub score: i32,
    /// The depth of the iteration the move comes from.
    pub depth: i32,
    /// Nodes searched by all threads: as published when the move was announced
    /// (the helpers' last few may follow), or, from
    /// [`ThreadPool::search_sync`](crate::ThreadPool::search_sync), all of them.
    pub nodes: u64,
    /// Time the search took.
    pub elapsed: Duration,
}

/// The root move the main thread is searching (`info currmove`).
#[derive(Debug, Clone, Copy)]
pub struct CurrentMove {
    /// The root position (to write the move in the right notation).
    pub root: Board,
    /// The move.
    pub mv: Move,
    /// Its place in this iteration's order, from 1.
    pub number: usize,
}

/// Receives the main thread's reports.
pub trait Reporter: Send + Sync {
    /// A line of analysis.
    fn info(&self, info: &SearchInfo);
    /// The search is over (sent exactly once per search, after every thread has stopped).
    fn best_move(&self, outcome: &SearchOutcome);
    /// The main thread starts on a root move (only once the search has run a
    /// second, and at most every 100 ms: `CURRENT_MOVE_DELAY`, `CURRENT_MOVE_INTERVAL`).
    fn current_move(&self, _current: &CurrentMove) {}
}

/// A reporter that says nothing (bench, tests).
pub struct Silent;

impl Reporter for Silent {
    fn info(&self, _: &SearchInfo) {}
    fn best_move(&self, _: &SearchOutcome) {}
}

/// Aspiration fail-high and fail-low lines are reported only after this long
/// (and with a single principal variation): early on they would flood the GUI.
const FAIL_REPORT_DELAY: Duration = Duration::from_secs(2);

/// `info currmove` lines start this long into a search ...
pub(crate) const CURRENT_MOVE_DELAY: Duration = Duration::from_secs(1);
/// ... and come at most once per this interval (the later root moves of an
/// iteration are searched in a blink).
pub(crate) const CURRENT_MOVE_INTERVAL: Duration = Duration::from_millis(100);

/// The main thread's `info currmove` reports, throttled.
pub(crate) struct CurrentMoveReports<'a> {
    reporter: &'a dyn Reporter,
    root: Board,
    /// No report before this instant.
    next: Cell<Instant>,
}

impl<'a> CurrentMoveReports<'a> {
    pub fn new(reporter: &'a dyn Reporter, root: Board, start: Instant) -> Self {
        CurrentMoveReports { reporter, root, next: Cell::new(start + CURRENT_MOVE_DELAY) }
    }

    /// The search starts on root move `mv`, the `number`th of this iteration.
    pub fn root_move(&self, mv: Move, number: usize) {
        let now = Instant::now();
        if now >= self.next.get() {
            self.next.set(now + CURRENT_MOVE_INTERVAL);
            self.reporter.current_move(&CurrentMove { root: self.root, mv, number });
        }
    }
}

/// How far the reporting thread has searched: what a line shows of it besides
/// the line itself.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Progress {
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// The thread's nodes in this `go` (all threads together searched at least as many).
    pub nodes: u64,
}

/// A root line to report: its moves, and the tables' verdict on its first move
/// when the root is in the tables (reported instead of the search's score).
#[derive(Debug, Clone, Default)]
pub(crate) struct RootLine {
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The tables' verdict on its first move.
    pub tb: Option<TbVerdict>,
}

/// The main thread's reports for one search: fills in the figures every line
/// shares (time, nodes of all threads, table usage, WDL) and decides which lines are due.
pub(crate) struct Reports<'a> {
    pub reporter: &'a dyn Reporter,
    pub root: Board,
    pub start: Instant,
    pub tt: &'a TranspositionTable,
    /// The search's counts: the totals a line shows (nodes, tablebase hits).
    pub counters: &'a Counters,
    /// How many principal variations the search reports (MultiPV).
    pub multipv: usize,
    /// The tables (their root probes count as hits).
    pub tb: &'a Tablebase,
}

impl Reports<'_> {
    /// Reports a line of the search of a thread that has got as far as `progress`.
    pub fn line(
        &self,
        progress: Progress,
        depth: i32,
        multipv: usize,
        score: i32,
        bound: Bound,
        line: RootLine,
    ) {
        let (score, wdl) = line
            .tb
            .and_then(|tb| tb.report(score))
            .unwrap_or_else(|| (score, wdl::wdl(score, wdl::material(&self.root))));
        self.reporter.info(&SearchInfo {
            root: self.root,
            depth,
            seldepth: progress.seldepth,
            multipv,
            score,
            wdl,
            bound,
            nodes: self.counters.total().max(progress.nodes),
            elapsed: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.tb.root_probes() + self.counters.tb_hits(),
            pv: line.pv,
        });
    }

    /// Whether an aspiration window that failed high or low is reported (with
    /// the line [`fail_pv`] gives): after [`FAIL_REPORT_DELAY`], with one line.
    pub fn aspiration_fail_due(&self) -> bool {
        self.start.elapsed() > FAIL_REPORT_DELAY && self.multipv == 1
    }
}

/// The line reported with an aspiration fail: the move that failed high (the
/// search's own line), or, after a fail low, where no root move raised alpha and
/// the search has no line, the last completed iteration's — never an empty `pv`,
/// which the protocol does not allow and some GUIs cannot parse.
pub(crate) fn fail_pv(searched: &[Move], previous: &[Move]) -> Vec<Move> {
    if searched.is_empty() { previous } else { searched }.to_vec()
}

#[cfg(test)]
mod tests {
    use super::fail_pv;
    use board::{Board, Move};

    fn moves(board: &Board, uci: &[&str]) -> Vec<Move> {
        uci.iter().map(|m| board.parse_uci_move(m, false).expect("legal move")).collect()
    }

    #[test]
    fn a_fail_low_reports_the_previous_line_and_a_fail_high_its_own() {
        let board = Board::startpos();
        let previous = moves(&board, &["e2e4"]);
        let searched = moves(&board, &["d2d4", "g1f3"]);
        assert_eq!(fail_pv(&[], &previous), previous, "fail low: no line of its own");
        assert_eq!(fail_pv(&searched, &previous), searched, "fail high: the move that failed high");
    }
}
