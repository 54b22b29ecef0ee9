//! Syzygy tablebases in the search, behind the one interface the search calls.
//!
//! The pool owns the tables in a [`Tablebase`]. At each `go`, before the
//! threads start, [`Tablebase::prepare`] ranks the root moves by DTZ (or WDL)
//! and keeps only those that keep the best result: the search then chooses
//! among them, so a won position is converted within the fifty-move rule and a
//! drawn one is not thrown away (Stockfish's rank groups, restricted to the
//! best one). Inside the search, [`Tablebase::probe`] answers WDL after a
//! capture or pawn move. Without tables every answer is `None`, and the search
//! reads the same with or without them.
//!
//! | where | what | scores |
//! |---|---|---|
//! | root (`prepare`) | every move's DTZ rank | reported instead of the search's (unless it found a mate) |
//! | search (`probe`) | WDL, halfmove clock 0, not at the root | win `TB_WIN - ply` (lower bound), loss `-TB_WIN + ply` (upper bound), draw 0 (exact) |
//!
//! When the root was ranked by DTZ the search does not probe (the ranking
//! already decides; Stockfish does the same); when it was ranked by WDL only
//! (its DTZ table is missing) the search probes only if the root is won, to
//! find the conversions into smaller tables.

use crate::wdl::WdlPerMille;
use board::{Board, Move, Position};
use syzygy::{LoadError, LoadReport, RankedBy, RootOptions, Tablebases, Verify, Wdl};
use tt::{Bound, TB_WIN};

/// The tablebase options (`SyzygyProbeDepth`, `SyzygyProbeLimit`, `Syzygy50MoveRule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TablebaseOptions {
    /// With exactly `probe_limit` pieces, probe only from this depth.
    pub probe_depth: i32,
    /// Probe positions with at most this many pieces (kings included).
    pub probe_limit: u32,
    /// Whether a win the fifty-move rule spoils counts as a draw.
    pub rule50: bool,
}

impl Default for TablebaseOptions {
    fn default() -> Self {
        TablebaseOptions { probe_depth: 1, probe_limit: 7, rule50: true }
    }
}

/// A tablebase verdict inside the search: a score relative to the root and
/// what it bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TbScore {
    pub score: i32,
    pub bound: Bound,
}

/// The tables and what one search does with them.
pub(crate) struct Tablebase {
    tables: Tablebases,
    /// The path list the tables came from (empty: none loaded).
    path: String,
    options: TablebaseOptions,
    /// Pieces up to which this search probes (0: it does not).
    cardinality: u32,
    /// With exactly `cardinality` pieces, probe from this depth.
    probe_depth: i32,
    /// The ranked root of this search, if it is in the tables.
    root: Option<RootRanking>,
}

impl Default for Tablebase {
    fn default() -> Self {
        Tablebase {
            tables: Tablebases::none(),
            path: String::new(),
            options: TablebaseOptions::default(),
            cardinality: 0,
            probe_depth: 0,
            root: None,
        }
    }
}

impl Tablebase {
    /// Loads the tables of `path` (folders separated by `:` or `;`; empty or
    /// `<empty>`: none), checking every file first (see `syzygy::Verify`).
    /// When nothing usable is found the tables loaded before are loaded again.
    pub fn load(&mut self, path: &str) -> Result<LoadReport, LoadError> {
        // The prober allows one set of tables per process: drop the old first.
        let previous = std::mem::take(&mut self.path);
        self.tables = Tablebases::none();
        self.root = None;
        match Tablebases::load(path, Verify::Checksum) {
            Ok((tables, report)) => {
                if tables.is_loaded() {
                    self.path = path.to_string();
                }
                self.tables = tables;
                Ok(report)
            }
            Err(e) => {
                if let Ok((tables, _)) = Tablebases::load(&previous, Verify::Checksum)
                    && tables.is_loaded()
                {
                    self.tables = tables;
                    self.path = previous;
                }
                Err(e)
            }
        }
    }

    /// Whether any table is loaded.
    pub fn is_loaded(&self) -> bool {
        self.tables.is_loaded()
    }

    /// Sets how the next searches use the tables.
    pub fn set_options(&mut self, options: TablebaseOptions) {
        self.options = options;
    }

    /// Before a search (the pool is idle): ranks the root, restricted to
    /// `search_moves` when not empty, and decides where the search probes.
    pub fn prepare(&mut self, position: &Position, search_moves: &[Move]) {
        let max = self.tables.max_pieces();
        self.cardinality = self.options.probe_limit.min(max);
        // A limit beyond the tables: probe their largest at any depth.
        self.probe_depth =
            if self.options.probe_limit > max { 0 } else { self.options.probe_depth };
        self.root = self.rank_root(position, search_moves);
        if let Some(root) = &self.root
            && (root.ranked_by == RankedBy::Dtz || root.wdl() != Wdl::Win)
        {
            self.cardinality = 0;
        }
    }

    fn rank_root(&self, position: &Position, search_moves: &[Move]) -> Option<RootRanking> {
        let board = position.board();
        if board.occupied().count() > self.cardinality {
            return None;
        }
        let options =
            RootOptions { rule50: self.options.rule50, repeated: position.repetitions() > 0 };
        let probe = self.tables.probe_root(board, options)?;
        let probed = probe.moves.len();
        let candidates: Vec<_> = probe
            .moves
            .iter()
            .filter(|m| search_moves.is_empty() || search_moves.contains(&m.mv))
            .collect();
        let best = candidates.first()?.rank;
        let clock = board.halfmove_clock() as i32;
        let moves = candidates
            .iter()
            .take_while(|m| m.rank == best)
            .map(|m| RootTbMove { mv: m.mv, wdl: m.wdl, score: root_score(m.wdl, m.dtz, clock) })
            .collect();
        Some(RootRanking { moves, ranked_by: probe.ranked_by, probed })
    }

    /// The root ranking of this search, if its root is in the tables.
    pub fn root(&self) -> Option<&RootRanking> {
        self.root.as_ref()
    }

    /// The WDL verdict at a node `ply` plies from the root (never the root),
    /// searched to `depth`, or `None` when the tables have nothing to say: only
    /// right after a capture or pawn move, with at most the probe limit's pieces.
    /// The caller counts the hit in its own thread's counts (`crate::counters`).
    #[inline(always)]
    pub fn probe(&self, board: &Board, depth: i32, ply: usize) -> Option<TbScore> {
        let pieces = board.occupied().count();
        if pieces > self.cardinality
            || board.halfmove_clock() != 0
            || (pieces == self.cardinality && depth < self.probe_depth)
        {
            return None;
        }
        let wdl = self.tables.probe_wdl(board)?;
        Some(search_score(wdl, ply, self.options.rule50))
    }

    /// The probes of this search's root ranking (one per root move ranked; the
    /// search's own hits are counted by the threads).
    pub fn root_probes(&self) -> u64 {
        self.root.as_ref().map_or(0, |root| root.probed as u64)
    }
}

/// The search's score for a WDL verdict `ply` plies from the root.
fn search_score(wdl: Wdl, ply: usize, rule50: bool) -> TbScore {
    let ply = ply as i32;
    let wdl = if rule50 {
        wdl
    } else {
        match wdl {
            Wdl::CursedWin => Wdl::Win,
            Wdl::BlessedLoss => Wdl::Loss,
            other => other,
        }
    };
    match wdl {
        Wdl::Win => TbScore { score: TB_WIN - ply, bound: Bound::Lower },
        Wdl::Loss => TbScore { score: -TB_WIN + ply, bound: Bound::Upper },
        // A cursed win is still worth trying: the opponent may err.
        Wdl::CursedWin => TbScore { score: 1, bound: Bound::Exact },
        Wdl::BlessedLoss => TbScore { score: -1, bound: Bound::Exact },
        Wdl::Draw => TbScore { score: 0, bound: Bound::Exact },
    }
}

/// The score reported for a root move that keeps `wdl`, with DTZ `dtz` from a
/// root whose halfmove clock is `clock` (Stockfish's `tbScore`): a certain
/// result is `±TB_WIN`; a win or loss the fifty-move rule spoils is a few
/// centipawns, more the sooner the rule would not yet apply.
fn root_score(wdl: Wdl, dtz: Option<i32>, clock: i32) -> i32 {
    let spoiled = || dtz.map_or(3, |d| (200 - (d.abs() + clock)).max(3)) / 2;
    match wdl {
        Wdl::Win => TB_WIN,
        Wdl::CursedWin => spoiled(),
        Wdl::Draw => 0,
        Wdl::BlessedLoss => -spoiled(),
        Wdl::Loss => -TB_WIN,
    }
}

/// The root moves a search may play, when its root is in the tables.
#[derive(Debug, Clone)]
pub(crate) struct RootRanking {
    /// The moves that keep the best result (equal rank), in ranking order.
    moves: Vec<RootTbMove>,
    ranked_by: RankedBy,
    /// How many moves the root probe ranked.
    probed: usize,
}

#[derive(Debug, Clone, Copy)]
struct RootTbMove {
    mv: Move,
    wdl: Wdl,
    score: i32,
}

impl RootRanking {
    /// The moves the search chooses among, each with the tables' verdict.
    pub fn verdicts(&self) -> impl Iterator<Item = (Move, TbVerdict)> + '_ {
        self.moves.iter().map(|m| (m.mv, TbVerdict { wdl: m.wdl, score: m.score }))
    }

    /// The result of the root for the side to move.
    pub fn wdl(&self) -> Wdl {
        self.moves[0].wdl
    }
}

/// The tables' verdict on a root move: its result and the score reported for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TbVerdict {
    wdl: Wdl,
    score: i32,
}

impl TbVerdict {
    /// The score and WDL to report for a line that starts with this move and
    /// that the search scored `score`: the tables' verdict, unless the search
    /// found a mate.
    pub fn report(&self, score: i32) -> Option<(i32, WdlPerMille)> {
        if score.abs() >= tt::MATE_BOUND {
            return None;
        }
        let wdl = match self.wdl {
            Wdl::Win => WdlPerMille { win: 1000, draw: 0, loss: 0 },
            Wdl::Loss => WdlPerMille { win: 0, draw: 0, loss: 1000 },
            _ => WdlPerMille { win: 0, draw: 1000, loss: 0 },
        };
        Some((self.score, wdl))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_scores_bound_as_stockfish_does() {
        assert_eq!(
            search_score(Wdl::Win, 5, true),
            TbScore { score: TB_WIN - 5, bound: Bound::Lower }
        );
        assert_eq!(
            search_score(Wdl::Loss, 5, true),
            TbScore { score: -TB_WIN + 5, bound: Bound::Upper }
        );
        assert_eq!(search_score(Wdl::Draw, 5, true).bound, Bound::Exact);
        assert_eq!(
            search_score(Wdl::CursedWin, 5, true),
            TbScore { score: 1, bound: Bound::Exact }
        );
        assert_eq!(search_score(Wdl::CursedWin, 5, false).bound, Bound::Lower);
        assert_eq!(search_score(Wdl::BlessedLoss, 5, false).bound, Bound::Upper);
    }

    #[test]
    fn root_scores_order_the_results() {
        assert_eq!(root_score(Wdl::Win, Some(7), 0), TB_WIN);
        assert_eq!(root_score(Wdl::Loss, Some(-7), 0), -TB_WIN);
        assert_eq!(root_score(Wdl::Draw, Some(0), 30), 0);
        let cursed = root_score(Wdl::CursedWin, Some(90), 20);
        assert!(cursed > 0 && cursed < 100, "{cursed}");
        assert!(root_score(Wdl::CursedWin, Some(55), 50) > cursed, "nearer a win within the rule");
        assert_eq!(root_score(Wdl::BlessedLoss, Some(-90), 20), -cursed);
    }

    #[test]
    fn without_tables_nothing_is_probed() {
        let mut tb = Tablebase::default();
        let position = Position::new(Board::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").unwrap());
        tb.prepare(&position, &[]);
        assert!(tb.root().is_none());
        assert_eq!(tb.probe(position.board(), 10, 1), None);
        assert_eq!(tb.root_probes(), 0);
    }
}
