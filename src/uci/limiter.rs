//! The strength limit of the search under way (`UCI_LimitStrength`), applied to
//! what the search reports: a [`Reporter`] that sits between the search and the
//! output. It records the lines of each completed iteration, passes on only the
//! `info` lines the `MultiPV` setting asks for, and replaces the search's best
//! move by the level's choice among the lines ([`strength::choose`]) before the
//! output writes `bestmove`.
//!
//! It never waits: the least time a limited search takes is a limit of the
//! search itself ([`search::SearchLimits::min_time`], set by
//! [`strength::limited`]), so the search holds its move back until then, and
//! `stop`, `quit` or a new `go` release it at once, as they stop the search.

use super::strength::{self, Level, ReportedMove};
use crate::rng::Rng;
use search::{CurrentMove, Reporter, SearchInfo, SearchOutcome};
use std::sync::{Arc, Mutex, MutexGuard};
use tt::Bound;

/// One limited search: its level, and the lines it has reported.
#[derive(Debug)]
struct Plan {
    level: Level,
    /// The choice's random draws, made when the search starts.
    rng: Rng,
    /// How many lines the `info` output shows (`MultiPV`); the search runs more.
    shown: usize,
    /// The lines of the deepest completed iteration so far, best first.
    lines: Vec<ReportedMove>,
    /// The depth of `lines`.
    depth: i32,
}

/// What the UCI loop gives the [`Limiter`] for a limited `go`.
#[derive(Debug)]
pub struct LimitedGo {
    /// The level.
    pub level: Level,
    /// The generator for this move's choice.
    pub rng: Rng,
    /// How many lines `info` shows (the `MultiPV` setting).
    pub shown: usize,
}

/// The search's reporter when a strength may be limited: the UCI loop installs
/// a plan with each `go` (or none, at full strength, when everything passes
/// through unchanged), and the reports go on to `out`.
pub struct Limiter {
    plan: Mutex<Option<Plan>>,
    out: Arc<dyn Reporter>,
}

impl Limiter {
    /// A limiter with no plan, reporting to `out`.
    pub fn new(out: Arc<dyn Reporter>) -> Limiter {
        Limiter { plan: Mutex::new(None), out }
    }

    fn lock(&self) -> MutexGuard<'_, Option<Plan>> {
        self.plan.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Limits the next search (`None`: full strength). Call only while no
    /// search runs.
    pub fn install(&self, plan: Option<LimitedGo>) {
        *self.lock() = plan.map(|go| Plan {
            level: go.level,
            rng: go.rng,
            shown: go.shown,
            lines: Vec::new(),
            depth: 0,
        });
    }

    /// Whether the search under way is limited.
    pub fn is_active(&self) -> bool {
        self.lock().is_some()
    }

    /// Records a line of the search; returns whether its `info` line is shown
    /// (always, when the search is not limited). Only finished lines are
    /// candidates for the choice.
    fn record(&self, info: &SearchInfo) -> bool {
        let mut guard = self.lock();
        let Some(plan) = guard.as_mut() else { return true };
        let exact = info.pv.first().filter(|_| info.bound == Bound::Exact);
        if let Some(&mv) = exact {
            let line = ReportedMove { mv, score: info.score, reply: info.pv.get(1).copied() };
            // An iteration reports its lines together, best first: line 1 starts a new list.
            if info.multipv == 1 {
                plan.lines.clear();
                plan.depth = info.depth;
            }
            if info.depth == plan.depth && plan.lines.len() + 1 == info.multipv {
                plan.lines.push(line);
            }
        }
        info.multipv <= plan.shown
    }

    /// The search's `outcome` with the level's choice among the recorded lines
    /// as the move to play, and its expected reply; unchanged when the search is
    /// not limited, or recorded no line. The plan ends here.
    fn choose_move(&self, outcome: &SearchOutcome) -> SearchOutcome {
        let mut outcome = outcome.clone();
        let Some(mut plan) = self.lock().take() else { return outcome };
        let root = outcome.root;
        // The lines are the search's root moves: legal, and within `searchmoves`.
        let chosen = strength::choose(&plan.lines, plan.level, &mut plan.rng)
            .filter(|c| root.is_legal(c.mv));
        outcome.ponder = None;
        if let Some(c) = chosen {
            let mut after = root;
            after.play_unchecked(c.mv);
            outcome.best = Some(c.mv);
            outcome.ponder = c.reply.filter(|&r| after.is_legal(r));
        }
        outcome
    }
}

impl Reporter for Limiter {
    fn info(&self, info: &SearchInfo) {
        if self.record(info) {
            self.out.info(info);
        }
    }

    fn best_move(&self, outcome: &SearchOutcome) {
        self.out.best_move(&self.choose_move(outcome));
    }

    fn current_move(&self, current: &CurrentMove) {
        self.out.current_move(current);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Board;
    use std::time::Duration;

    /// Remembers what reached the output.
    #[derive(Default)]
    struct Heard {
        lines: Mutex<Vec<usize>>,
        moves: Mutex<Vec<SearchOutcome>>,
    }

    impl Reporter for Heard {
        fn info(&self, info: &SearchInfo) {
            self.lines.lock().unwrap().push(info.multipv);
        }
        fn best_move(&self, outcome: &SearchOutcome) {
            self.moves.lock().unwrap().push(outcome.clone());
        }
    }

    /// The moves of `pv`, played one after the other from `board`.
    fn line(board: &Board, pv: &[&str]) -> Vec<board::Move> {
        let mut at = *board;
        let mut moves = Vec::new();
        for text in pv {
            let mv = at.parse_uci_move(text, false).expect("legal");
            at.play_unchecked(mv);
            moves.push(mv);
        }
        moves
    }

    fn info(board: &Board, multipv: usize, pv: &[&str], score: i32) -> SearchInfo {
        SearchInfo {
            root: *board,
            depth: 5,
            seldepth: 5,
            multipv,
            score,
            wdl: search::wdl::wdl(score, search::wdl::material(board)),
            bound: Bound::Exact,
            nodes: 1000,
            elapsed: Duration::ZERO,
            hashfull: 0,
            tbhits: 0,
            pv: line(board, pv),
        }
    }

    fn outcome(board: &Board, best: &str, ponder: Option<&str>) -> SearchOutcome {
        SearchOutcome {
            root: *board,
            best: board.parse_uci_move(best, false).ok(),
            ponder: ponder.map(|p| line(board, &[best, p])[1]),
            score: 30,
            depth: 5,
            nodes: 1000,
            elapsed: Duration::ZERO,
        }
    }

    #[test]
    fn at_full_strength_everything_passes_unchanged() {
        let heard = Arc::new(Heard::default());
        let limiter = Limiter::new(heard.clone());
        let board = Board::startpos();
        limiter.install(None);
        limiter.info(&info(&board, 1, &["e2e4"], 30));
        limiter.info(&info(&board, 2, &["d2d4"], 20));
        let sent = outcome(&board, "e2e4", Some("e7e5"));
        limiter.best_move(&sent);
        assert_eq!(*heard.lines.lock().unwrap(), [1, 2]);
        let played = &heard.moves.lock().unwrap()[0];
        assert_eq!((played.best, played.ponder), (sent.best, sent.ponder));
    }

    #[test]
    fn a_level_hides_the_extra_lines_and_plays_its_choice_among_them() {
        let heard = Arc::new(Heard::default());
        let limiter = Limiter::new(heard.clone());
        let board = Board::startpos();
        // The top level plays the best line; it is shown one line, and the
        // search's own move (another) is replaced by the line's.
        let go = LimitedGo { level: Level::new(strength::MAX_ELO), rng: Rng::new(1), shown: 1 };
        limiter.install(Some(go));
        assert!(limiter.is_active());
        limiter.info(&info(&board, 1, &["g1f3", "g8f6"], 40));
        limiter.info(&info(&board, 2, &["e2e4"], -300));
        limiter.best_move(&outcome(&board, "e2e4", None));
        assert_eq!(*heard.lines.lock().unwrap(), [1], "line 2 was shown");
        let played = &heard.moves.lock().unwrap()[0];
        let chosen = line(&board, &["g1f3", "g8f6"]);
        assert_eq!((played.best, played.ponder), (Some(chosen[0]), Some(chosen[1])));
        assert!(!limiter.is_active(), "the plan outlived its search");
    }
}
