//! What a `go` command asks for: its limits, and the whole request.

use board::{Move, Position};
use std::time::{Duration, Instant};

/// One search request.
#[derive(Debug, Clone)]
pub struct SearchJob {
    /// The position with its game history.
    pub position: Position,
    /// What `go` asked for.
    pub limits: SearchLimits,
    /// How many principal variations to report.
    pub multipv: usize,
    /// Time kept in reserve per move for communication lag.
    pub move_overhead: Duration,
    /// When `go` arrived.
    pub start: Instant,
}

impl SearchJob {
    /// A search of `position` under `limits`, starting now: one principal
    /// variation, no time kept in reserve (what a bench, a data generator or a
    /// test asks for; `go` sets every field).
    pub fn new(position: Position, limits: SearchLimits) -> SearchJob {
        SearchJob {
            position,
            limits,
            multipv: 1,
            move_overhead: Duration::ZERO,
            start: Instant::now(),
        }
    }
}

/// The limits of one search, as given by `go`.
#[derive(Debug, Clone, Default)]
pub struct SearchLimits {
    /// Remaining clock time per color.
    pub time: [Option<Duration>; 2],
    /// Increment per move per color.
    pub increment: [Duration; 2],
    /// Moves until the next time control.
    pub moves_to_go: Option<u32>,
    /// Search exactly this long.
    pub move_time: Option<Duration>,
    /// Stop after this iteration depth.
    pub depth: Option<i32>,
    /// Stop after this many nodes (all threads together).
    pub nodes: Option<u64>,
    /// Start no new iteration once this many nodes are searched (a soft limit:
    /// the iteration under way finishes, unless `nodes` stops it first).
    pub soft_nodes: Option<u64>,
    /// Look for a mate in this many moves; stop when found.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search in ponder mode until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub search_moves: Vec<Move>,
    /// Announce the best move no sooner than this after the start (after
    /// `ponderhit` when pondering), unless `stop` comes first: a search that
    /// ends sooner holds its move back, without using the CPU. Not a `go`
    /// token: the UCI layer's strength limiter sets it, from the time the
    /// clock plans for the move ([`crate::TimeManager::planned`]).
    pub min_time: Option<Duration>,
}

impl SearchLimits {
    /// Whether the search ends by itself, for `side` to move: it has a
    /// limit (a clock, a move time, a depth, nodes, a mate) and is neither
    /// `infinite` nor `ponder`, which end only on `stop` or `ponderhit`.
    pub fn ends_by_itself(&self, side: board::Color) -> bool {
        !self.infinite && !self.ponder && self.has_limit(side)
    }

    /// Whether any limit bounds the search, for `side` to move.
    pub fn has_limit(&self, side: board::Color) -> bool {
        self.time[side as usize].is_some()
            || self.move_time.is_some()
            || self.depth.is_some()
            || self.nodes.is_some()
            || self.soft_nodes.is_some()
            || self.mate.is_some()
    }
}
