//! The time manager: turns clock figures into a soft limit (do not start
//! another iteration) and a hard limit (stop now), and scales the soft limit by
//! how stable the best move has been.

use crate::limits::SearchLimits;
use crate::params::{
    TIME_MAX_STABLE_ITERATIONS, hundredths, time_fail_low_cp_per_percent, time_fail_low_max,
    time_nodes_base, time_nodes_factor, time_scale_per_stable_iteration, time_scale_unstable,
};
use board::{Color, Move};
use std::time::{Duration, Instant};

/// Soft and hard deadlines derived from [`SearchLimits`].
#[derive(Debug, Clone, Copy)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

impl TimeManager {
    /// Plans the time for `us` from `limits`, keeping `overhead` in reserve per move
    /// for communication lag.
    pub fn new(
        limits: &SearchLimits,
        us: Color,
        overhead: Duration,
        start: Instant,
    ) -> TimeManager {
        if let Some(t) = limits.move_time {
            let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
            return TimeManager { start, soft: Some(t), hard: Some(t) };
        }
        let Some(left) = limits.time[us as usize] else {
            return TimeManager { start, soft: None, hard: None };
        };
        let inc = limits.increment[us as usize];
        let moves = limits.moves_to_go.unwrap_or(40).clamp(1, 50);
        // Never plan to use time we do not have: keep the overhead and a sliver in reserve.
        let usable = left.saturating_sub(overhead).saturating_sub(left / 50);
        let per_move = usable / moves + inc * 3 / 4;
        let soft = per_move.min(usable * 2 / 5);
        let hard = (per_move * 4).min(if moves == 1 { usable * 4 / 5 } else { usable / 3 });
        let floor = Duration::from_millis(1);
        let hard = hard.max(floor);
        TimeManager { start, soft: Some(soft.clamp(floor, hard)), hard: Some(hard) }
    }

    /// Restarts the clock (on `ponderhit`).
    pub fn restart(&mut self, now: Instant) {
        self.start = now;
    }

    /// Time since the search (or the ponder hit) started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit has passed.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether to stop deepening: the soft limit, scaled by `factor` (more when
    /// the best move keeps changing, less when it is stable), has passed.
    pub fn soft_expired(&self, factor: f64) -> bool {
        if self.soft == self.hard {
            // A fixed time per move (`movetime`): use all of it.
            return self.hard_expired();
        }
        self.soft.is_some_and(|s| self.elapsed().as_secs_f64() >= s.as_secs_f64() * factor)
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
                * f64::from(self.iterations.min(TIME_MAX_STABLE_ITERATIONS))
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
                Color::White,
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

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let l = SearchLimits {
            move_time: Some(Duration::from_millis(1000)),
            ..SearchLimits::default()
        };
        let tm = TimeManager::new(&l, Color::Black, Duration::from_millis(30), Instant::now());
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
