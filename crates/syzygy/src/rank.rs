//! Ranking root moves by their tablebase result, as Stockfish does.
//!
//! Each root move gets a rank; higher is better. With DTZ:
//!
//! | move's dtz (plies, from the root)   | rank                                   |
//! |--------------------------------------|----------------------------------------|
//! | win, `dtz + clock <= 99`, no repetition | `MAX_DTZ` (all such wins rank equal) |
//! | win otherwise                        | `MAX_DTZ - (dtz + clock)` (convert fastest) |
//! | draw                                 | `0`                                    |
//! | loss, `2 * -dtz + clock < 100`       | `-MAX_DTZ` (all such losses rank equal) |
//! | loss otherwise                       | `-MAX_DTZ + (-dtz + clock)` (hold out longest, a 50-move draw is in sight) |
//!
//! So the search may choose freely among the moves of the best rank: they keep
//! the result, and a won position is converted within the fifty-move rule.
//! Whether a rank counts as a win is decided by `Syzygy50MoveRule`: with the
//! rule, a rank below `MAX_DTZ - 100` is a cursed win (a draw by the fifty-move
//! rule); without it, every positive rank is a win.

use crate::wdl::Wdl;
use board::Move;

/// The rank of a certain win (see the module table).
pub const MAX_DTZ: i32 = 1 << 18;

/// What the root probe needs to know beyond the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootOptions {
    /// `Syzygy50MoveRule`: a win that the fifty-move rule turns into a draw
    /// counts as a draw (default `true`).
    pub rule50: bool,
    /// The root position has occurred before since the last capture or pawn
    /// move: wins are then ranked strictly by DTZ so the engine makes progress.
    pub repeated: bool,
}

impl Default for RootOptions {
    fn default() -> Self {
        RootOptions { rule50: true, repeated: false }
    }
}

/// Which tables ranked the root moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankedBy {
    /// Distance to zeroing (`.rtbz`): exact with respect to the fifty-move rule.
    Dtz,
    /// Win/draw/loss only (the root's DTZ table is missing): keeps the result,
    /// but may not convert a win within the fifty-move rule.
    Wdl,
}

/// One root move with its tablebase rank and verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedMove {
    /// The move.
    pub mv: Move,
    /// Its rank: higher is better (see the module documentation).
    pub rank: i32,
    /// The result it keeps, for the side to move, under the root options.
    pub wdl: Wdl,
    /// Plies to the next capture or pawn move counted from the root (positive
    /// for a win, negative for a loss, 0 for a draw), when ranked by DTZ.
    pub dtz: Option<i32>,
}

/// Every legal root move, ranked best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootProbe {
    /// The moves, best rank first (stable: equal ranks keep move-generation order).
    pub moves: Vec<RankedMove>,
    /// Which tables ranked them.
    pub ranked_by: RankedBy,
}

impl RootProbe {
    /// The result of the position for the side to move (that of the best move).
    pub fn wdl(&self) -> Wdl {
        self.moves[0].wdl
    }

    /// The moves that keep the best result (all of the best rank): the search
    /// chooses among these.
    pub fn moves_keeping_result(&self) -> impl Iterator<Item = Move> + '_ {
        let best = self.moves[0].rank;
        self.moves.iter().take_while(move |m| m.rank == best).map(|m| m.mv)
    }

    pub(crate) fn new(mut moves: Vec<RankedMove>, ranked_by: RankedBy) -> Option<RootProbe> {
        if moves.is_empty() {
            return None;
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.rank));
        Some(RootProbe { moves, ranked_by })
    }
}

/// The rank of a move whose dtz (counted from the root) is `dtz`, with the
/// root's halfmove clock `clock`.
pub(crate) fn dtz_rank(dtz: i32, clock: i32, repeated: bool) -> i32 {
    if dtz > 0 {
        if dtz + clock <= 99 && !repeated { MAX_DTZ } else { MAX_DTZ - (dtz + clock) }
    } else if dtz < 0 {
        if -dtz * 2 + clock < 100 { -MAX_DTZ } else { -MAX_DTZ + (-dtz + clock) }
    } else {
        0
    }
}

/// The rank of a move known only by its WDL.
pub(crate) fn wdl_rank(wdl: Wdl) -> i32 {
    match wdl {
        Wdl::Loss => -MAX_DTZ,
        Wdl::BlessedLoss => -MAX_DTZ + 101,
        Wdl::Draw => 0,
        Wdl::CursedWin => MAX_DTZ - 101,
        Wdl::Win => MAX_DTZ,
    }
}

/// The result a rank stands for.
pub(crate) fn rank_wdl(rank: i32, rule50: bool) -> Wdl {
    let bound = if rule50 { MAX_DTZ - 100 } else { 1 };
    if rank >= bound {
        Wdl::Win
    } else if rank > 0 {
        Wdl::CursedWin
    } else if rank == 0 {
        Wdl::Draw
    } else if rank > -bound {
        Wdl::BlessedLoss
    } else {
        Wdl::Loss
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_within_the_rule_rank_equal_and_above_slow_wins() {
        assert_eq!(dtz_rank(5, 0, false), dtz_rank(60, 30, false));
        assert!(dtz_rank(60, 40, false) < dtz_rank(5, 40, false));
        assert!(dtz_rank(5, 40, true) > dtz_rank(7, 40, true), "repetition ranks strictly");
        assert!(dtz_rank(101, 0, false) > 0);
    }

    #[test]
    fn ranks_map_to_results_under_the_rule() {
        assert_eq!(rank_wdl(dtz_rank(60, 40, false), true), Wdl::Win); // dtz + clock = 100
        assert_eq!(rank_wdl(dtz_rank(61, 40, false), true), Wdl::CursedWin);
        assert_eq!(rank_wdl(dtz_rank(61, 40, false), false), Wdl::Win);
        assert_eq!(rank_wdl(dtz_rank(-10, 0, false), true), Wdl::Loss);
        assert_eq!(rank_wdl(dtz_rank(-60, 0, false), true), Wdl::Loss);
        assert_eq!(rank_wdl(dtz_rank(-60, 50, false), true), Wdl::BlessedLoss);
        assert_eq!(rank_wdl(dtz_rank(-60, 50, false), false), Wdl::Loss);
        assert_eq!(rank_wdl(0, true), Wdl::Draw);
        for wdl in [Wdl::Loss, Wdl::BlessedLoss, Wdl::Draw, Wdl::CursedWin, Wdl::Win] {
            assert_eq!(rank_wdl(wdl_rank(wdl), true), wdl);
        }
    }

    #[test]
    fn losses_prefer_holding_out_only_when_a_draw_is_in_sight() {
        assert_eq!(dtz_rank(-3, 0, false), dtz_rank(-40, 0, false));
        assert!(dtz_rank(-40, 30, false) > dtz_rank(-36, 30, false));
    }
}
