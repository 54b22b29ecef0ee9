//! How the search reads and writes the transposition table: the stored move,
//! the cutoff test, and the store. Scores are converted between "from the root"
//! and "from this node" here and nowhere else in the search.

use super::{NO_EVAL, SearchContext, Worker};
use board::Move;
use tt::{Bound, Record, from_tt_score, to_tt_score};

/// Whether a score with `bound` settles the window `(alpha, beta)`: exact, a
/// lower bound at or above beta, or an upper bound at or below alpha.
#[inline(always)]
pub(super) fn bound_settles(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
        Bound::None => false,
    }
}

/// The stored score of `hit` for the node at `ply`, relative to the root.
#[inline(always)]
pub(super) fn tt_score(hit: &Record, ply: usize) -> i32 {
    from_tt_score(hit.score, ply as i32)
}

/// The table's answer for a node at `ply` searched to `depth` with window
/// `(alpha, beta)`, when the entry is deep enough and its bound settles the
/// window (the caller decides where a cutoff is allowed: not at PV nodes).
#[inline(always)]
pub(super) fn tt_cutoff(
    hit: &Record,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
) -> Option<i32> {
    let score = tt_score(hit, ply);
    (hit.depth >= depth && bound_settles(hit.bound, score, alpha, beta)).then_some(score)
}

/// A node's result, as the search sees it; [`SearchContext::store`] writes it.
pub(super) struct NodeResult {
    /// The best move, or the move to try first next time (may be null).
    pub best_move: Move,
    /// The score, relative to the root.
    pub score: i32,
    /// The static evaluation ([`NO_EVAL`] in check).
    pub static_eval: i32,
    pub depth: i32,
    pub bound: Bound,
    /// Whether the node was searched as a PV node.
    pub pv: bool,
}

impl SearchContext<'_> {
    /// Stores the result of the node at `ply` under `key`. In a cluster, a store at
    /// least the share depth deep is also offered to the other ranks.
    #[inline(always)]
    pub(super) fn store(&self, key: u64, ply: usize, result: NodeResult) {
        let record = Record {
            mv: result.best_move.bits(),
            score: to_tt_score(result.score, ply as i32),
            eval: if result.static_eval == NO_EVAL { 0 } else { result.static_eval },
            depth: result.depth,
            bound: result.bound,
            pv: result.pv,
        };
        self.tt.store(key, &record);
        if let Some(share) = &self.share
            && record.depth >= share.depth
        {
            share.cluster.offer(share.thread, key, &record);
        }
    }
}

impl Worker {
    /// The stored move of `hit`, if it is legal here (a key collision can hand us
    /// a move from another position); otherwise the null move.
    #[inline(always)]
    pub(super) fn hash_move(&self, hit: Option<&Record>) -> Move {
        hit.map(|h| Move::from_bits(h.mv))
            .filter(|&mv| self.board().is_legal(mv))
            .unwrap_or(Move::NULL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tt::MATE;

    fn hit(score: i32, depth: i32, bound: Bound) -> Record {
        Record { mv: 0, score, eval: 0, depth, bound, pv: false }
    }

    #[test]
    fn a_cutoff_needs_the_depth_and_a_bound_that_settles_the_window() {
        let lower = hit(100, 5, Bound::Lower);
        assert_eq!(tt_cutoff(&lower, 5, 0, 100, 3), Some(100));
        assert_eq!(tt_cutoff(&lower, 5, 0, 101, 3), None, "below beta");
        assert_eq!(tt_cutoff(&lower, 6, 0, 100, 3), None, "too shallow");
        let upper = hit(-20, 5, Bound::Upper);
        assert_eq!(tt_cutoff(&upper, 4, -20, 50, 3), Some(-20));
        assert_eq!(tt_cutoff(&upper, 4, -21, 50, 3), None, "above alpha");
        assert_eq!(tt_cutoff(&hit(7, 5, Bound::Exact), 5, -1000, 1000, 3), Some(7));
        assert_eq!(tt_cutoff(&hit(7, 9, Bound::None), 1, 7, 7, 3), None);
    }

    #[test]
    fn mate_scores_are_stored_from_the_node_and_read_from_the_root() {
        // A mate in 3 plies from a node at ply 4 is mate in 7 from the root.
        let stored = hit(to_tt_score(MATE - 7, 4), 5, Bound::Exact);
        assert_eq!(stored.score, MATE - 3);
        assert_eq!(tt_score(&stored, 4), MATE - 7);
        assert_eq!(tt_score(&stored, 10), MATE - 13, "the same node reached deeper");
    }
}
