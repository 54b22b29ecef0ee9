//! The time manager, the one place that turns clock figures into limits: a
//! soft limit (do not start another iteration), a hard limit (stop now) and
//! the least time before answering (a limited strength's plausible time). It
//! scales the soft limit by how stable the best move has been and predicts how
//! long the next iteration will take, so that one which cannot finish in time
//! is not started. Its clock starts with `go` and again on `ponderhit`.
//!
//! Everyone who needs a figure of the clock asks it: the pool (the hard
//! deadline it publishes to every thread), the main thread's stop rules
//! (`StopCheck` in `stop.rs`), iterative deepening (the scales) and, outside
//! the crate, the UCI layer's strength limiter ([`TimeManager::planned`]).

use crate::limits::SearchLimits;
use crate::params::{
    hundredths, time_fail_low_cp_per_percent, time_fail_low_max, time_hard_max_fraction,
    time_hard_max_fraction_last_move, time_hard_per_move_factor, time_horizon_max_moves,
    time_horizon_min_moves, time_horizon_moves, time_horizon_pivot_move, time_horizon_slope,
    time_increment_share, time_iteration_divisor, time_iteration_growth, time_max_moves_to_go,
    time_max_stable_iterations, time_nodes_base, time_nodes_factor, time_reserve_divisor,
    time_scale_per_stable_iteration, time_scale_unstable, time_soft_max_fraction,
};
use board::{Board, Move};
use std::time::{Duration, Instant};

/// The limits of one search in time, derived from [`SearchLimits`], and the
/// instant they count from.
#[derive(Debug, Clone, Copy)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// The least time before the best move is announced ([`SearchLimits::min_time`]).
    least: Option<Duration>,
}

impl TimeManager {
    /// Plans the time for the side to move of `root` from `limits`, keeping
    /// `overhead` in reserve per move for communication lag, counted from `start`.
    pub fn new(
        limits: &SearchLimits,
        root: &Board,
        overhead: Duration,
        start: Instant,
    ) -> TimeManager {
        let (soft, hard) = limits_of(limits, root, overhead).unzip();
        TimeManager { start, soft, hard, least: limits.min_time }
    }

    /// The time the clock allows for this move, as planned: the soft limit
    /// (all of `movetime`, less the overhead). `None` without a clock.
    pub fn planned(&self) -> Option<Duration> {
        self.soft
    }

    /// Restarts the clock at `now` (on `ponderhit`: while pondering the clock
    /// does not run) and returns the new hard deadline, for the other threads.
    pub fn restart(&mut self, now: Instant) -> Option<Instant> {
        self.start = now;
        self.hard_deadline()
    }

    /// Time since the search (or the ponder hit) started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// When the hard limit passes (`None`: no limit).
    pub fn hard_deadline(&self) -> Option<Instant> {
        self.hard.map(|h| self.start + h)
    }

    /// Whether the hard limit has passed.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// The earliest instant the best move may be announced (`None`: as soon as
    /// the search ends).
    pub fn earliest_answer(&self) -> Option<Instant> {
        self.least.map(|l| self.start + l)
    }

    /// Whether to stop deepening: the soft limit, scaled by `factor` (more when
    /// the best move keeps changing, less when it is stable), would be passed
    /// before half of the `next` iteration (its predicted length) is done. An
    /// iteration the hard limit cuts short in its first half is mostly wasted,
    /// and the clock pays for it.
    pub fn soft_expired(&self, factor: f64, next: Duration) -> bool {
        if self.soft == self.hard {
            // A fixed time per move (`movetime`): use all of it.
            return self.hard_expired();
        }
        let expected = self.elapsed() + next / time_iteration_divisor();
        self.soft.is_some_and(|s| expected.as_secs_f64() >= s.as_secs_f64() * factor)
    }
}

/// The soft and hard limits of `limits` for the side to move of `root`, with
/// `overhead` kept in reserve (docs/time.md has the formulas); `None` without
/// a clock.
fn limits_of(
    limits: &SearchLimits,
    root: &Board,
    overhead: Duration,
) -> Option<(Duration, Duration)> {
    let us = root.side_to_move();
    if let Some(t) = limits.move_time {
        let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
        return Some((t, t));
    }
    let left = limits.time[us as usize]?;
    let inc = limits.increment[us as usize];
    let horizon = horizon(time_horizon_moves(), time_horizon_slope(), root.fullmove_number());
    let moves = limits.moves_to_go.unwrap_or(horizon).clamp(1, time_max_moves_to_go());
    // Never plan to use time we do not have: keep the overhead and a sliver in reserve.
    let usable = left.saturating_sub(overhead).saturating_sub(left / time_reserve_divisor());
    let per_move = usable / moves + inc * time_increment_share() as u32 / 100;
    let fraction = |(numerator, denominator): (u32, u32)| usable * numerator / denominator;
    let soft = per_move.min(fraction(time_soft_max_fraction()));
    let hard_max = if moves == 1 {
        fraction(time_hard_max_fraction_last_move())
    } else {
        fraction(time_hard_max_fraction())
    };
    let hard = (per_move * time_hard_per_move_factor()).min(hard_max);
    let floor = Duration::from_millis(1);
    let hard = hard.max(floor);
    Some((soft.clamp(floor, hard), hard))
}

/// The moves the clock is spread over without `movestogo` at full move
/// `fullmove`: `moves` at move 40 (`time_horizon_pivot_move`), shrinking by
/// `slope` hundredths of a move for each move after it (growing before it),
/// within the tunable's range of 15 to 60 (the spread is then capped at 50
/// like `movestogo`: `time_max_moves_to_go`).
fn horizon(moves: i32, slope: i32, fullmove: u16) -> u32 {
    let shrink = slope * (i32::from(fullmove) - time_horizon_pivot_move()) / 100;
    (moves - shrink).clamp(time_horizon_min_moves(), time_horizon_max_moves()) as u32
}

/// When each iteration of this search ended, to predict the next one's length.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct IterationTimes {
    last_end: Duration,
    last_length: Duration,
}

impl IterationTimes {
    /// Records that an iteration ended `elapsed` after the search started.
    pub fn completed(&mut self, elapsed: Duration) {
        self.last_length = elapsed.saturating_sub(self.last_end);
        self.last_end = elapsed;
    }

    /// The next iteration's predicted length: the last one's times
    /// `time_iteration_growth` (an iteration costs about twice the one before).
    pub fn next(&self) -> Duration {
        self.last_length.mul_f64(hundredths(time_iteration_growth()))
    }
}

/// How many iterations in a row the best move stayed the same: the longer it
/// has, the earlier the search stops ([`Stability::scale`] scales the soft limit).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Stability {
    best: Option<Move>,
    iterations: u32,
}

impl Stability {
    /// Records the best move of a completed iteration.
    pub fn update(&mut self, best: Option<Move>) {
        self.iterations = if best == self.best { self.iterations + 1 } else { 0 };
        self.best = best;
    }

    /// The best move of the last completed iteration.
    pub fn best(&self) -> Option<Move> {
        self.best
    }

    /// The factor for [`TimeManager::soft_expired`]: above 1 when the best move
    /// just changed, falling below 1 as it stays the same.
    pub fn scale(&self) -> f64 {
        hundredths(time_scale_unstable())
            - hundredths(time_scale_per_stable_iteration())
                * f64::from(self.iterations.min(time_max_stable_iterations()))
    }
}

/// The soft limit's factor for a best move that took `share` (0..1) of the
/// nodes: below 1 when it took most of them (the choice is clear), above 1
/// when it took few (other moves kept the search busy).
pub(crate) fn node_share_scale(share: f64) -> f64 {
    (hundredths(time_nodes_base()) - share.clamp(0.0, 1.0)) * hundredths(time_nodes_factor())
}

/// The soft limit's factor after an iteration whose score is `score`, the one
/// before having scored `previous`: above 1 when the score fell.
pub(crate) fn fail_low_scale(previous: i32, score: i32) -> f64 {
    let drop = (previous - score).max(0);
    let max = hundredths(time_fail_low_max());
    (1.0 + f64::from(drop / time_fail_low_cp_per_percent()) / 100.0).min(max)
}

#[cfg(test)]
mod tests {
    #[test]
    fn node_share_and_fail_low_scales() {
        assert!(node_share_scale(0.95) < 1.0);
        assert!(node_share_scale(0.2) > 1.5);
        assert!(node_share_scale(0.5) > node_share_scale(0.6));
        assert_eq!(fail_low_scale(30, 50), 1.0);
        assert!((fail_low_scale(50, 30) - 1.1).abs() < 1e-9);
        assert_eq!(fail_low_scale(500, -500), 1.5);
    }

    use super::*;

    fn limits(ms: u64, inc: u64, mtg: Option<u32>) -> SearchLimits {
        SearchLimits {
            time: [Some(Duration::from_millis(ms)); 2],
            increment: [Duration::from_millis(inc); 2],
            moves_to_go: mtg,
            ..SearchLimits::default()
        }
    }

    #[test]
    fn hard_limit_never_exceeds_the_clock() {
        for (ms, inc, mtg) in
            [(8000, 80, None), (100, 0, None), (30, 10, None), (5000, 0, Some(1)), (1, 0, None)]
        {
            let tm = TimeManager::new(
                &limits(ms, inc, mtg),
                &Board::startpos(),
                Duration::from_millis(10),
                Instant::now(),
            );
            let hard = tm.hard.expect("timed");
            assert!(
                hard <= Duration::from_millis(ms.saturating_sub(10)).max(Duration::from_millis(1)),
                "{ms} {inc}: {hard:?}"
            );
            assert!(tm.soft.expect("timed") <= hard);
        }
    }

    fn planned(ms: u64, inc: u64, mtg: Option<u32>) -> (Duration, Duration) {
        let tm = TimeManager::new(
            &limits(ms, inc, mtg),
            &Board::startpos(),
            Duration::from_millis(10),
            Instant::now(),
        );
        (tm.soft.expect("timed"), tm.hard.expect("timed"))
    }

    #[test]
    fn the_increment_is_spent_and_movestogo_spreads_the_clock() {
        let (without, _) = planned(10_000, 0, None);
        let (with, _) = planned(10_000, 100, None);
        let share = Duration::from_millis(100) * time_increment_share() as u32 / 100;
        assert!(share > Duration::ZERO);
        assert_eq!(with, without + share);
        // Repeating controls: the clock spread over the moves to go, and with one
        // move to go most of it may be spent.
        let (soft, _) = planned(10_000, 0, Some(10));
        assert!(soft > without && soft < Duration::from_millis(1_000), "{soft:?}");
        let (_, hard) = planned(10_000, 0, Some(1));
        assert!(hard > Duration::from_millis(7_000), "{hard:?}");
        // Bullet: late in a 1+0.01 game the increment carries the move.
        let (soft, hard) = planned(150, 10, None);
        assert!(soft >= Duration::from_millis(10) && hard <= Duration::from_millis(140));
    }

    #[test]
    fn the_defaults_spread_the_clock_over_40_moves_with_three_quarters_of_the_increment() {
        // 8+0.08: usable = 8000 − 10 − 160 ms; per move usable/40 + 60 ms.
        let (soft, hard) = planned(8000, 80, None);
        let per_move = Duration::from_millis(7830) / 40 + Duration::from_millis(60);
        assert_eq!((soft, hard), (per_move, per_move * 4));
    }

    #[test]
    fn an_iteration_that_cannot_finish_is_not_started() {
        let start = Instant::now() - Duration::from_millis(60);
        let tm = TimeManager {
            start,
            soft: Some(Duration::from_millis(100)),
            hard: Some(Duration::from_millis(400)),
            least: None,
        };
        // 60 ms spent of a 100 ms soft limit: a short next iteration is started,
        // one predicted to need 100 ms (half of it past the limit) is not.
        assert!(!tm.soft_expired(1.0, Duration::from_millis(20)));
        assert!(tm.soft_expired(1.0, Duration::from_millis(100)));
        assert!(!tm.soft_expired(2.0, Duration::from_millis(100)));
        let mut times = IterationTimes::default();
        times.completed(Duration::from_millis(10));
        times.completed(Duration::from_millis(30));
        assert_eq!(times.last_length, Duration::from_millis(20));
        let growth = hundredths(time_iteration_growth());
        assert_eq!(times.next(), Duration::from_millis(20).mul_f64(growth));
    }

    #[test]
    fn the_horizon_shrinks_as_the_game_goes_on() {
        assert!((1..300).all(|m| horizon(40, 0, m) == 40), "no slope: the same horizon");
        assert_eq!(horizon(40, 50, 40), 40);
        assert_eq!(horizon(40, 50, 10), 55);
        assert_eq!(horizon(40, 50, 70), 25);
        assert_eq!(horizon(40, 50, 200), 15);
        assert_eq!(horizon(40, 50, 1), 59);
    }

    #[test]
    fn ponderhit_restarts_every_limit_from_the_hit() {
        let limits = SearchLimits {
            move_time: Some(Duration::from_millis(100)),
            min_time: Some(Duration::from_millis(50)),
            ponder: true,
            ..SearchLimits::default()
        };
        let start = Instant::now() - Duration::from_secs(10);
        let mut tm = TimeManager::new(&limits, &Board::startpos(), Duration::ZERO, start);
        assert!(tm.hard_expired());
        assert_eq!(tm.earliest_answer(), Some(start + Duration::from_millis(50)));
        let hit = Instant::now();
        let deadline = tm.restart(hit);
        assert_eq!(deadline, Some(hit + Duration::from_millis(100)), "the deadline to publish");
        assert_eq!(tm.hard_deadline(), deadline);
        assert_eq!(tm.earliest_answer(), Some(hit + Duration::from_millis(50)));
        assert!(!tm.hard_expired() || tm.elapsed() >= Duration::from_millis(100));
        let free =
            TimeManager::new(&SearchLimits::default(), &Board::startpos(), Duration::ZERO, hit);
        assert_eq!(
            (free.planned(), free.hard_deadline(), free.earliest_answer()),
            (None, None, None)
        );
    }

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let l = SearchLimits {
            move_time: Some(Duration::from_millis(1000)),
            ..SearchLimits::default()
        };
        let tm =
            TimeManager::new(&l, &Board::startpos(), Duration::from_millis(30), Instant::now());
        assert_eq!(tm.hard, Some(Duration::from_millis(970)));
    }

    #[test]
    fn a_stable_best_move_shortens_the_soft_limit() {
        let board = board::Board::startpos();
        let [a, b] = ["e2e4", "d2d4"].map(|m| board.parse_uci_move(m, false).expect("legal"));
        let mut s = Stability::default();
        s.update(Some(a));
        let changed = s.scale();
        s.update(Some(a));
        s.update(Some(a));
        assert!(s.scale() < changed);
        for _ in 0..10 {
            s.update(Some(a));
        }
        assert!(s.scale() > 0.5, "bounded: {}", s.scale());
        s.update(Some(b));
        assert_eq!(s.scale(), changed);
        assert_eq!(s.best(), Some(b));
    }
}
