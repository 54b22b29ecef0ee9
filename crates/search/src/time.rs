//! The clock of a search, in two parts: the time manager, the one place that
//! turns clock figures into limits, and the running [`Clock`] of one `go`.
//!
//! [`TimeManager`] plans: a soft limit (do not start another iteration), a
//! hard limit (stop now) and the least time before answering (a limited
//! strength's plausible time). It scales the soft limit by how stable the
//! best move has been and predicts how long the next iteration will take, so
//! that one which cannot finish in time is not started. Outside the crate the
//! UCI layer's strength limiter asks it for the plan ([`TimeManager::planned`]).
//!
//! [`Clock`] runs the plan: its limits count from `go` and again from
//! `ponderhit` ([`Clock::restart`]), and it publishes the hard limit's deadline,
//! which every thread reads ([`Clock::out_of_time`]). One clock a search,
//! shared by all its threads; only the main thread restarts it. Everything
//! that asks the time asks it: the threads' periodic check (the deadline), the
//! main thread's iterative deepening (the soft limit, each iteration's length,
//! whether the search is on the clock at all), and the main thread's wait
//! before it answers ([`Clock::wait_to_answer`]).

use crate::limits::SearchLimits;
use crate::params::{
    hundredths, time_fail_low_cp_per_percent, time_fail_low_max, time_hard_max_fraction,
    time_hard_max_fraction_last_move, time_hard_per_move_factor, time_horizon_max_moves,
    time_horizon_min_moves, time_horizon_moves, time_horizon_pivot_move, time_horizon_slope,
    time_increment_share, time_iteration_divisor, time_iteration_growth, time_max_moves_to_go,
    time_max_stable_iterations, time_nodes_base, time_nodes_factor, time_reserve_divisor,
    time_scale_per_stable_iteration, time_scale_unstable, time_soft_max_fraction,
};
use crate::signals::Signals;
use board::{Board, Move};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

/// The limits of one search in time, derived from [`SearchLimits`]: the plan,
/// which the running clock of a search (`Clock`) counts from `go`.
#[derive(Debug, Clone, Copy)]
pub struct TimeManager {
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// The least time before the best move is announced ([`SearchLimits::min_time`]).
    least: Option<Duration>,
}

impl TimeManager {
    /// Plans the time for the side to move of `root` from `limits`, keeping
    /// `overhead` in reserve per move for communication lag.
    pub fn new(limits: &SearchLimits, root: &Board, overhead: Duration) -> TimeManager {
        let (soft, hard) = limits_of(limits, root, overhead).unzip();
        TimeManager { soft, hard, least: limits.min_time }
    }

    /// The time the clock allows for this move, as planned: the soft limit
    /// (all of `movetime`, less the overhead). `None` without a clock.
    pub fn planned(&self) -> Option<Duration> {
        self.soft
    }
}

/// [`Clock::deadline`] when there is none: no hard limit, not yet (pondering),
/// or a rank that follows a cluster's leader (the leader's stop ends its search).
const NO_DEADLINE: u64 = u64::MAX;

/// The running clock of one search (see the module documentation). Its
/// instants are kept as nanoseconds after `origin` in atomics: the main thread
/// writes them (on `ponderhit`), every thread reads the deadline.
#[derive(Debug)]
pub(crate) struct Clock {
    plan: TimeManager,
    /// When `go` arrived: every instant of the clock is counted from here.
    origin: Instant,
    /// When the limits count from: 0 (`go`), or the ponder hit.
    start: AtomicU64,
    /// When the hard limit passes ([`NO_DEADLINE`]: see there).
    deadline: AtomicU64,
}

impl Clock {
    /// The clock of a search under `limits` from `root`, keeping `overhead` in
    /// reserve, started at `start` (when `go` arrived). The deadline is
    /// published at once, unless the search ponders (`ponderhit` publishes
    /// it) or this rank does not `lead` a cluster.
    pub fn new(
        limits: &SearchLimits,
        root: &Board,
        overhead: Duration,
        start: Instant,
        lead: bool,
    ) -> Clock {
        let plan = TimeManager::new(limits, root, overhead);
        let clock = Clock {
            plan,
            origin: start,
            start: AtomicU64::new(0),
            deadline: AtomicU64::new(NO_DEADLINE),
        };
        if lead && !limits.ponder {
            clock.publish_deadline(Duration::ZERO);
        }
        clock
    }

    /// Whether the search is on the clock (`wtime`/`btime` for the side to move,
    /// or `movetime`): decided once, by the plan.
    pub fn on_clock(&self) -> bool {
        self.plan.hard.is_some()
    }

    /// The main thread, on `ponderhit` (the pondered move was played; the clock
    /// did not run while pondering): every limit counts from `now`, and the new
    /// deadline is published.
    pub fn restart(&self, now: Instant) {
        let start = now.saturating_duration_since(self.origin);
        self.start.store(nanos(start), Relaxed);
        self.publish_deadline(start);
    }

    /// The main thread, every few nodes: restarts the clock if a `ponderhit`
    /// came (releasing the hold of `go ponder`).
    pub fn follow_ponderhit(&self, signals: &Signals) {
        if signals.take_ponderhit() {
            self.restart(Instant::now());
        }
    }

    /// Publishes the hard limit counted from `start` (after `origin`).
    fn publish_deadline(&self, start: Duration) {
        let deadline =
            self.plan.hard.map_or(NO_DEADLINE, |h| nanos(start + h).min(NO_DEADLINE - 1));
        self.deadline.store(deadline, Relaxed);
    }

    /// When the limits count from.
    fn start(&self) -> Duration {
        Duration::from_nanos(self.start.load(Relaxed))
    }

    /// Time on the clock: since `go`, or since the ponder hit.
    pub fn elapsed(&self) -> Duration {
        self.origin.elapsed().saturating_sub(self.start())
    }

    /// Whether the published hard limit has passed (any thread).
    pub fn out_of_time(&self) -> bool {
        let deadline = self.deadline.load(Relaxed);
        deadline != NO_DEADLINE && self.origin.elapsed().as_nanos() >= u128::from(deadline)
    }

    /// When the hard limit passes, as published (`None`: see [`NO_DEADLINE`]).
    #[cfg(test)]
    fn deadline(&self) -> Option<Instant> {
        let deadline = self.deadline.load(Relaxed);
        (deadline != NO_DEADLINE).then(|| self.origin + Duration::from_nanos(deadline))
    }

    /// The earliest instant the best move may be announced (`None`: as soon as
    /// the search ends).
    pub fn earliest_answer(&self) -> Option<Instant> {
        self.plan.least.map(|l| self.origin + self.start() + l)
    }

    /// Whether to stop deepening: the soft limit, scaled by `factor` (more when
    /// the best move keeps changing, less when it is stable), would be passed
    /// before half of the `next` iteration (its predicted length) is done. An
    /// iteration the hard limit cuts short in its first half is mostly wasted,
    /// and the clock pays for it.
    pub fn soft_expired(&self, factor: f64, next: Duration) -> bool {
        let plan = &self.plan;
        if plan.soft == plan.hard {
            // A fixed time per move (`movetime`): use all of it.
            return plan.hard.is_some_and(|h| self.elapsed() >= h);
        }
        let expected = self.elapsed() + next / time_iteration_divisor();
        plan.soft.is_some_and(|s| expected.as_secs_f64() >= s.as_secs_f64() * factor)
    }

    /// The main thread's search is over; before its best move is announced:
    /// waits out the hold of `go infinite` / `go ponder` (until `stop` or
    /// `ponderhit`; the other threads search on meanwhile), stops every thread,
    /// then holds the move back until the clock's earliest answer (counted from
    /// the ponder hit, if there was one), unless `stop` comes first.
    pub fn wait_to_answer(&self, signals: &Signals) {
        if signals.wait_for_release() {
            self.restart(Instant::now());
        }
        signals.stop_threads();
        if let Some(at) = self.earliest_answer() {
            signals.wait_until(at);
        }
    }
}

/// `d` in nanoseconds, saturated to what an atomic holds.
fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
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
    /// Records that an iteration ended `elapsed` on the clock ([`Clock::elapsed`]).
    /// The clock restarts on `ponderhit`: the iteration under way then counts
    /// from the hit, the time it spent on the clock.
    pub fn completed(&mut self, elapsed: Duration) {
        self.last_length = elapsed.checked_sub(self.last_end).unwrap_or(elapsed);
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

    /// The factor for [`Clock::soft_expired`]: above 1 when the best move
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
        let tm =
            TimeManager::new(&limits(ms, inc, mtg), &Board::startpos(), Duration::from_millis(10));
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
        let plan = TimeManager {
            soft: Some(Duration::from_millis(100)),
            hard: Some(Duration::from_millis(400)),
            least: None,
        };
        let tm = Clock {
            plan,
            origin: Instant::now() - Duration::from_millis(60),
            start: AtomicU64::new(0),
            deadline: AtomicU64::new(NO_DEADLINE),
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

    /// The clock of `limits`, started at `start` on the leader.
    fn clock(limits: &SearchLimits, start: Instant) -> Clock {
        Clock::new(limits, &Board::startpos(), Duration::ZERO, start, true)
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
        let tm = clock(&limits, start);
        assert!(!tm.out_of_time() && tm.deadline().is_none(), "the clock ran while pondering");
        assert!(tm.elapsed() >= Duration::from_secs(10));
        assert_eq!(tm.earliest_answer(), Some(start + Duration::from_millis(50)));
        let hit = Instant::now();
        tm.restart(hit);
        let deadline = tm.deadline().expect("published on the hit");
        let expected = hit + Duration::from_millis(100);
        let slack = Duration::from_micros(1);
        assert!(deadline + slack >= expected && deadline <= expected + slack, "{deadline:?}");
        let answer = tm.earliest_answer().expect("a least time");
        let expected = hit + Duration::from_millis(50);
        assert!(answer + slack >= expected && answer <= expected + slack, "{answer:?}");
        assert!(tm.elapsed() < Duration::from_secs(10), "the clock's time is not the hit's");
        assert!(!tm.out_of_time() || tm.elapsed() >= Duration::from_millis(100));
        let free = clock(&SearchLimits::default(), hit);
        assert_eq!(
            (free.plan.planned(), free.deadline(), free.earliest_answer(), free.on_clock()),
            (None, None, None, false)
        );
    }

    #[test]
    fn the_deadline_is_published_when_the_search_starts_on_the_leader_alone() {
        let limits =
            SearchLimits { move_time: Some(Duration::from_millis(1)), ..SearchLimits::default() };
        let start = Instant::now() - Duration::from_millis(5);
        let leader = clock(&limits, start);
        assert!(leader.on_clock() && leader.out_of_time(), "a thread ran past the hard limit");
        let follower = Clock::new(&limits, &Board::startpos(), Duration::ZERO, start, false);
        assert!(!follower.out_of_time(), "a follower keeps a clock of its own");
        let pondering = clock(&SearchLimits { ponder: true, ..limits }, start);
        assert!(!pondering.out_of_time(), "the clock ran while pondering");
    }

    #[test]
    fn the_clock_does_not_run_while_pondering_and_restarts_on_ponderhit() {
        let signals = Signals::new();
        let limits = SearchLimits {
            move_time: Some(Duration::from_millis(1)),
            ponder: true,
            ..SearchLimits::default()
        };
        signals.arm(true);
        let clock = clock(&limits, Instant::now() - Duration::from_millis(5));
        clock.follow_ponderhit(&signals);
        assert!(!clock.out_of_time(), "stopped while pondering");
        // `ponderhit`: the main thread restarts the clock at its next check and
        // publishes the new deadline, which every thread then obeys.
        signals.ponderhit();
        clock.follow_ponderhit(&signals);
        assert!(!signals.is_held(), "the hit did not release the hold");
        std::thread::sleep(Duration::from_millis(5));
        assert!(clock.out_of_time(), "no stop after ponderhit");
    }

    #[test]
    fn the_move_waits_for_the_least_time_counted_from_the_ponderhit() {
        let signals = Signals::new();
        let least = Duration::from_millis(40);
        let limits =
            SearchLimits { min_time: Some(least), ponder: true, ..SearchLimits::default() };
        // Started long ago: the least time has passed, but not since the ponder hit.
        let main = clock(&limits, Instant::now() - Duration::from_secs(1));
        signals.arm(true);
        let before = Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(10));
                signals.ponderhit();
            });
            main.wait_to_answer(&signals);
        });
        assert!(before.elapsed() >= Duration::from_millis(10) + least, "{:?}", before.elapsed());
        assert!(signals.is_stopped() && !signals.is_held());
        // `stop` ends the wait at once.
        let limits =
            SearchLimits { min_time: Some(Duration::from_secs(600)), ..SearchLimits::default() };
        let main = clock(&limits, Instant::now());
        signals.arm(false);
        let before = Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(10));
                signals.interrupt();
            });
            main.wait_to_answer(&signals);
        });
        assert!(before.elapsed() < Duration::from_secs(60), "stop did not end the wait");
    }

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let l = SearchLimits {
            move_time: Some(Duration::from_millis(1000)),
            ..SearchLimits::default()
        };
        let tm = TimeManager::new(&l, &Board::startpos(), Duration::from_millis(30));
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
