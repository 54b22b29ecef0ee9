//! Which thread's line is played: every thread publishes its last completed
//! iteration, and when the search ends one of them is chosen — by default by a
//! vote weighted by score and depth (see docs/smp.md).

use crate::params::vote_score_offset;
use board::Move;
use tt::{Bound, INFINITY};

/// How the final move is chosen among the threads' results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BestMoveChoice {
    /// A vote: each thread's move gets `(score - worst + 10) * depth`.
    #[default]
    Vote,
    /// The move of the thread that completed the deepest iteration.
    Deepest,
    /// The main thread's move only.
    MainThread,
}

/// A thread's latest completed iteration (or the main thread's partial-iteration move):
/// what the threads (and in a cluster, the ranks) vote with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadResult {
    /// The iteration the line comes from.
    pub depth: i32,
    /// The line's score, from the side to move's point of view.
    pub score: i32,
    /// `Exact` for a completed iteration, `Lower` for a move from an unfinished one.
    pub bound: Bound,
    /// The principal variation; empty before the first iteration completes.
    pub pv: Vec<Move>,
}

impl ThreadResult {
    /// The line's first move.
    pub fn best(&self) -> Option<Move> {
        self.pv.first().copied()
    }

    /// The line's second move, the expected reply.
    pub fn ponder(&self) -> Option<Move> {
        self.pv.get(1).copied()
    }

    /// The deepest iteration behind the line that was completed: a move from an
    /// unfinished iteration counts as the iteration before it.
    pub fn completed_depth(&self) -> i32 {
        if self.bound == Bound::Exact { self.depth } else { self.depth - 1 }
    }
}

/// Picks the thread whose line is played (an index into `results`; 0 is the main thread).
pub(crate) fn choose(results: &[ThreadResult], choice: BestMoveChoice) -> usize {
    let done = || results.iter().enumerate().filter(|(_, r)| r.best().is_some());
    if done().next().is_none() || choice == BestMoveChoice::MainThread {
        return 0;
    }
    // Among the threads that chose `mv`, the deepest one's line.
    let deepest_with = |mv: Option<Move>| {
        done()
            .filter(|(_, r)| mv.is_none() || r.best() == mv)
            .max_by_key(|(_, r)| (r.completed_depth(), r.score))
            .map_or(0, |(i, _)| i)
    };
    match choice {
        BestMoveChoice::Deepest => deepest_with(None),
        _ => {
            let worst = done().map(|(_, r)| r.score).min().unwrap_or(-INFINITY);
            let mut votes: Vec<(Move, i64)> = Vec::new();
            for (_, r) in done() {
                let Some(mv) = r.best() else { continue };
                let weight = i64::from(r.score - worst + vote_score_offset())
                    * i64::from(r.completed_depth());
                match votes.iter_mut().find(|(m, _)| *m == mv) {
                    Some((_, v)) => *v += weight,
                    None => votes.push((mv, weight)),
                }
            }
            votes
                .iter()
                .max_by_key(|(_, v)| *v)
                .map_or(0, |&(winner, _)| deepest_with(Some(winner)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Board;

    fn result(depth: i32, score: i32, mv: &str) -> ThreadResult {
        let board = Board::startpos();
        let mv = board.parse_uci_move(mv, false).expect("a legal move");
        ThreadResult { depth, score, bound: Bound::Exact, pv: vec![mv] }
    }

    #[test]
    fn the_vote_weighs_agreement_score_and_depth() {
        // Two threads agree on e2e4 at depth 10; one deeper thread prefers d2d4.
        let results = [result(10, 20, "e2e4"), result(11, 25, "d2d4"), result(10, 22, "e2e4")];
        // Votes: e2e4 (20-20+10)*10 + (22-20+10)*10 = 220; d2d4 (25-20+10)*11 = 165.
        assert_eq!(choose(&results, BestMoveChoice::Vote), 2, "the deepest e2e4 supporter");
        assert_eq!(choose(&results, BestMoveChoice::Deepest), 1);
        assert_eq!(choose(&results, BestMoveChoice::MainThread), 0);
    }

    #[test]
    fn threads_without_a_line_do_not_vote() {
        let results = [ThreadResult::default(), result(6, 0, "g1f3"), ThreadResult::default()];
        assert_eq!(choose(&results, BestMoveChoice::Vote), 1);
        assert_eq!(choose(&[ThreadResult::default()], BestMoveChoice::Vote), 0);
    }

    #[test]
    fn a_partial_iteration_counts_as_the_one_before() {
        let mut partial = result(12, 50, "e2e4");
        partial.bound = Bound::Lower;
        assert_eq!(partial.completed_depth(), 11);
        let results = [partial, result(12, 30, "d2d4")];
        assert_eq!(choose(&results, BestMoveChoice::Deepest), 1);
    }
}
