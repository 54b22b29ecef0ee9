//! Playing at a chosen strength: `UCI_LimitStrength` and `UCI_Elo`.
//!
//! A level weakens the engine the way strong engines do, in three parts:
//!
//! 1. **A node budget** that grows exponentially with the level (a few hundred
//!    nodes at the bottom, hundreds of thousands at the top: [`ANCHORS`]): the
//!    search runs with that many nodes as a soft limit (the iteration under
//!    way finishes) and eight times as many as a hard one, on top of whatever
//!    `go` asked for.
//! 2. **A choice among the best root moves** (4, fewer higher up, one from 2500: [`ANCHORS`]) of the deepest
//!    completed iteration (searched as MultiPV lines): each gets a random bonus,
//!    uniform in `0..error`, and the highest score plus bonus is played. The
//!    error ([`Level::error`]) shrinks as the level rises, and a move can only be
//!    chosen over the best one if it loses less than the error, so the worst a
//!    level can do by choice is bounded: 1.6 pawns at the bottom of the scale,
//!    0.4 at 2000, 2 centipawns from 2500 up (a hung queen is never a choice;
//!    the small budget of the bottom levels still overlooks tactics, as it
//!    should). The move is always one of the search's legal root moves.
//! 3. **A plausible time**: a small budget is searched in a blink, so on the
//!    clock the best move is held back (without using the CPU) until a share of
//!    the time the engine would normally spend has passed ([`think_time`], a
//!    share of what the search's time manager plans). The search itself holds
//!    the move ([`SearchLimits::min_time`]): `stop`, `quit`, a new `go` or any
//!    command that stops the search ends the wait at once, and `ponderhit`
//!    starts it again from the hit.
//!
//! The randomness comes from a generator seeded by `StrengthSeed` (0: from the
//! clock), so games vary, and a test can fix the seed to repeat a choice.
//! The constants are calibrated against Stockfish 15.1's own `UCI_Elo` scale
//! (docs/strength.md). The [`Limiter`](super::limiter::Limiter) applies a level
//! to the search's reports.

use board::{Board, Move};
use search::{SearchLimits, TimeManager};
use std::time::Duration;

/// The lowest `UCI_Elo` (Stockfish 15.1's lowest).
pub const MIN_ELO: i64 = 1350;
/// The highest `UCI_Elo` (Stockfish 15.1's highest).
pub const MAX_ELO: i64 = 2850;
/// A calibration point: at `elo`, the node budget and the random error (cp).
#[derive(Debug, Clone, Copy)]
pub struct Anchor {
    /// The level.
    pub elo: i64,
    /// The node budget: a soft limit on the search's nodes.
    pub nodes: f64,
    /// The largest random bonus, in centipawns.
    pub error: f64,
    /// How many of the best root moves the choice is made among (from this
    /// anchor up to the next): fewer at the top, where the error is too small
    /// to prefer a third or fourth move and each line costs nodes.
    pub candidates: usize,
}

/// The calibration: between two anchors the budget is interpolated
/// geometrically (it doubles at an even pace) and the error linearly. Fitted
/// against Stockfish 15.1's `UCI_Elo` (docs/strength.md).
///
/// At 10+0.1 full strength scores about even against Stockfish's 2500, so
/// the top anchors leave the search nearly whole: 2500 is a single line with
/// a budget somewhat below what the clock allows there, and [`MAX_ELO`] is
/// full strength (a budget no clock reaches).
pub const ANCHORS: [Anchor; 6] = [
    Anchor { elo: MIN_ELO, nodes: 250.0, error: 160.0, candidates: 4 },
    Anchor { elo: 1500, nodes: 900.0, error: 120.0, candidates: 4 },
    Anchor { elo: 2000, nodes: 16_000.0, error: 40.0, candidates: 4 },
    Anchor { elo: 2250, nodes: 60_000.0, error: 20.0, candidates: 2 },
    Anchor { elo: 2500, nodes: 250_000.0, error: 2.0, candidates: 1 },
    Anchor { elo: MAX_ELO, nodes: 100_000_000.0, error: 2.0, candidates: 1 },
];
/// The share of the normal time per move that a limited search takes at least:
/// drawn uniformly from this range for every move.
pub const THINK_SHARE: (f64, f64) = (0.35, 0.75);
/// Scores are clamped to this before the choice, so that mate scores compare
/// as "very good" and "very bad" without overflow.
const SCORE_CLAMP: i32 = 5_000;

/// A playing level: an Elo within `MIN_ELO..=MAX_ELO`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Level {
    elo: f64,
}

impl Level {
    /// The level of `elo` (clamped to the range).
    pub fn new(elo: i64) -> Level {
        Level { elo: elo.clamp(MIN_ELO, MAX_ELO) as f64 }
    }

    /// The anchors around the level and where it sits between them (0..=1).
    fn between(&self) -> (Anchor, Anchor, f64) {
        let upper =
            ANCHORS.iter().position(|a| a.elo as f64 >= self.elo).unwrap_or(ANCHORS.len() - 1);
        let (a, b) = (ANCHORS[upper.saturating_sub(1)], ANCHORS[upper]);
        let t =
            if b.elo == a.elo { 1.0 } else { (self.elo - a.elo as f64) / (b.elo - a.elo) as f64 };
        (a, b, t)
    }

    /// The node budget: a soft limit on the search's nodes.
    pub fn nodes(&self) -> u64 {
        let (a, b, t) = self.between();
        (a.nodes.log2() + (b.nodes.log2() - a.nodes.log2()) * t).exp2().round() as u64
    }

    /// How many of the best root moves the choice is made among (searched as
    /// MultiPV lines): the lower anchor's count.
    pub fn candidates(&self) -> usize {
        let (a, b, t) = self.between();
        if t >= 1.0 { b.candidates } else { a.candidates }
    }

    /// The size of the random bonus, in centipawns: the most a chosen move may
    /// lose against the best one.
    pub fn error(&self) -> i32 {
        let (a, b, t) = self.between();
        (a.error + (b.error - a.error) * t).round() as i32
    }
}

use crate::rng::Rng;

/// A root move of a completed iteration, as its `info` line reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportedMove {
    /// The move.
    pub mv: Move,
    /// Its score, from the side to move's point of view.
    pub score: i32,
    /// The expected reply, if the line has one.
    pub reply: Option<Move>,
}

/// The candidate a level plays: the highest score plus a random bonus in
/// `0..level.error()`. `None` only for an empty list.
pub fn choose(candidates: &[ReportedMove], level: Level, rng: &mut Rng) -> Option<ReportedMove> {
    let error = f64::from(level.error());
    candidates
        .iter()
        .map(|c| {
            let bonus = rng.unit() * error;
            (f64::from(c.score.clamp(-SCORE_CLAMP, SCORE_CLAMP)) + bonus, *c)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// The least time a limited search takes before it answers from `root`:
/// `share` of the time the search's time manager plans for the move
/// ([`TimeManager::planned`]: its soft limit; all of `movetime`). Zero
/// without a clock (`go depth`, `nodes`, `infinite`).
pub fn think_time(limits: &SearchLimits, root: &Board, overhead: Duration, share: f64) -> Duration {
    let plan = TimeManager::new(limits, root, overhead);
    plan.planned().map_or(Duration::ZERO, |t| t.mul_f64(share.clamp(0.0, 1.0)))
}

/// `limits` as a level searches them: its node budget as a soft limit and
/// eight times that as a hard one (each within what `go` asked for), and the
/// move held back for `think` (see [`think_time`]; none when it is zero).
pub fn limited(limits: &SearchLimits, level: Level, think: Duration) -> SearchLimits {
    let budget = level.nodes();
    let mut limits = limits.clone();
    limits.soft_nodes = Some(limits.soft_nodes.map_or(budget, |n| n.min(budget)));
    limits.nodes = Some(limits.nodes.map_or(budget * 8, |n| n.min(budget * 8)));
    limits.min_time = (!think.is_zero()).then_some(think);
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidates(board: &Board, lines: &[(&str, i32)]) -> Vec<ReportedMove> {
        lines
            .iter()
            .map(|&(mv, score)| ReportedMove {
                mv: board.parse_uci_move(mv, false).expect("legal"),
                score,
                reply: None,
            })
            .collect()
    }

    #[test]
    fn the_budget_grows_and_the_error_shrinks_with_the_level() {
        let (low, high) = (Level::new(MIN_ELO), Level::new(MAX_ELO));
        let (first, last) = (ANCHORS[0], ANCHORS[ANCHORS.len() - 1]);
        assert_eq!((first.elo, last.elo), (MIN_ELO, MAX_ELO), "the anchors span the range");
        assert_eq!(low.nodes(), first.nodes as u64);
        assert_eq!(high.nodes(), last.nodes as u64);
        assert_eq!((low.error(), high.error()), (first.error as i32, last.error as i32));
        for anchor in ANCHORS {
            let level = Level::new(anchor.elo);
            assert_eq!((level.nodes(), level.error()), (anchor.nodes as u64, anchor.error as i32));
            assert_eq!(level.candidates(), anchor.candidates);
        }
        assert_eq!(Level::new(2249).candidates(), 4, "the lower anchor's count");
        let mut previous = Level::new(MIN_ELO - 100);
        assert_eq!(previous, low, "clamped");
        for elo in (MIN_ELO..=MAX_ELO).step_by(10) {
            let level = Level::new(elo);
            assert!(level.nodes() >= previous.nodes() && level.error() <= previous.error());
            previous = level;
        }
    }

    #[test]
    fn a_move_losing_more_than_the_error_is_never_chosen() {
        let board = Board::startpos();
        // The third move hangs a queen's worth; the second loses half a pawn.
        let lines = candidates(&board, &[("e2e4", 30), ("d2d4", -20), ("g2g4", -870)]);
        for elo in [MIN_ELO, 2000, MAX_ELO] {
            let level = Level::new(elo);
            let mut rng = Rng::new(7);
            let mut seen = std::collections::HashMap::new();
            for _ in 0..2000 {
                let c = choose(&lines, level, &mut rng).unwrap();
                assert!(lines[0].score - c.score < level.error(), "{elo}: {c:?}");
                *seen.entry(c.mv).or_insert(0) += 1;
            }
            let best = seen.get(&lines[0].mv).copied().unwrap_or(0);
            assert!(best > 1000, "{elo}: the best move is played most often: {seen:?}");
            if elo == MIN_ELO {
                assert_eq!(seen.len(), 2, "the bottom level also plays the second move");
            }
            if elo == MAX_ELO {
                assert_eq!(seen.len(), 1, "the top level never loses half a pawn");
            }
        }
    }

    #[test]
    fn the_choice_repeats_with_the_seed_and_varies_without_it() {
        let board = Board::startpos();
        let lines = candidates(&board, &[("e2e4", 30), ("d2d4", 25), ("g1f3", 20), ("c2c4", 15)]);
        let level = Level::new(MIN_ELO);
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..50).map(|_| choose(&lines, level, &mut rng).unwrap().mv).collect::<Vec<_>>()
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
        assert!(choose(&[], level, &mut Rng::new(1)).is_none());
    }

    #[test]
    fn think_time_is_a_share_of_the_time_per_move() {
        let board = Board::startpos();
        let white = board::Color::White as usize;
        let mut limits = SearchLimits::default();
        let none = think_time(&limits, &board, Duration::ZERO, 0.5);
        assert_eq!(none, Duration::ZERO, "no clock: no wait");
        limits.time[white] = Some(Duration::from_secs(10));
        limits.increment[white] = Duration::from_millis(100);
        let t = think_time(&limits, &board, Duration::ZERO, 0.5);
        assert!(t > Duration::from_millis(100) && t < Duration::from_millis(200), "{t:?}");
        limits.move_time = Some(Duration::from_millis(1000));
        let t = think_time(&limits, &board, Duration::from_millis(30), 0.5);
        assert_eq!(t, Duration::from_millis(485));
    }

    #[test]
    fn think_time_is_the_time_managers_plan_for_every_clock() {
        // The time manager is the one place that plans the move: the think time
        // is its figure times the share, whatever the clock, so the two cannot drift.
        let late = Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 60").expect("valid FEN");
        for board in [Board::startpos(), late] {
            let us = board.side_to_move() as usize;
            for (ms, inc, mtg, overhead) in [
                (8000, 80, None, 10),
                (180_000, 2000, None, 50),
                (300, 0, None, 10),
                (60_000, 0, Some(1), 30),
                (40_000, 400, Some(20), 0),
            ] {
                let mut limits = SearchLimits::default();
                limits.time[us] = Some(Duration::from_millis(ms));
                limits.increment[us] = Duration::from_millis(inc);
                limits.moves_to_go = mtg;
                let overhead = Duration::from_millis(overhead);
                let plan = TimeManager::new(&limits, &board, overhead);
                let planned = plan.planned().expect("a clock");
                for share in [0.35, 0.5, 0.75, 1.0] {
                    let t = think_time(&limits, &board, overhead, share);
                    assert_eq!(t, planned.mul_f64(share), "{ms}+{inc} {mtg:?} at {share}");
                }
            }
        }
    }

    #[test]
    fn the_budget_narrows_the_limits_go_gave() {
        let level = Level::new(2000);
        let limits = limited(&SearchLimits::default(), level, Duration::ZERO);
        assert_eq!(limits.soft_nodes, Some(level.nodes()));
        assert_eq!(limits.nodes, Some(level.nodes() * 8));
        assert_eq!(limits.min_time, None, "no think time: the move is not held back");
        let asked = SearchLimits { nodes: Some(10), ..SearchLimits::default() };
        let think = Duration::from_millis(300);
        let narrowed = limited(&asked, level, think);
        assert_eq!((narrowed.nodes, narrowed.min_time), (Some(10), Some(think)));
    }
}
