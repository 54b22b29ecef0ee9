//! Which thread's line is played: every thread publishes its last completed
//! iteration, and when the search ends one of them is chosen — by default by a
//! vote weighted by score and depth (see docs/smp.md).

use crate::params::vote_score_offset;
use board::Move;
use tt::{Bound, DECISIVE_BOUND};

/// How the final move is chosen among the threads' results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BestMoveChoice {
    /// A vote: each thread's move gets `(score - worst + 10) * depth`, after the
    /// rules for proven wins and losses (see `vote`).
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
    match choice {
        BestMoveChoice::Deepest => deepest_with(results, None),
        _ => vote(results),
    }
}

/// Among the threads with a line whose first move is `mv` (any move for
/// `None`), the one that completed the deepest iteration (then the best score).
fn deepest_with(results: &[ThreadResult], mv: Option<Move>) -> usize {
    results
        .iter()
        .enumerate()
        .filter(|(_, r)| r.best().is_some() && (mv.is_none() || r.best() == mv))
        .max_by_key(|(_, r)| (r.completed_depth(), r.score))
        .map_or(0, |(i, _)| i)
}

/// The vote, with two rules for proven results (a mate or a tablebase result):
/// - a proven win is played outright, the shortest one first (the highest
///   score; a deeper iteration breaks a tie): no count of other threads'
///   undecided moves may outvote a mate;
/// - a thread that proves its own loss does not vote, and does not set the
///   worst score either: its `-MATE + n` would make every other thread's
///   score difference vanish beside it, leaving a bare head count. Only when
///   every thread proves a loss is one of them played: the longest resistance
///   (the highest score).
///
/// Among the rest, each thread's move gets `(score − worst + offset) × depth`
/// and the move with most weight wins; its deepest supporter's line is played.
fn vote(results: &[ThreadResult]) -> usize {
    let done = || results.iter().enumerate().filter(|(_, r)| r.best().is_some());
    let highest = |proven: fn(i32) -> bool| {
        done()
            .filter(|(_, r)| proven(r.score))
            .max_by_key(|(_, r)| (r.score, r.completed_depth()))
            .map(|(i, _)| i)
    };
    if let Some(win) = highest(proves_win) {
        return win;
    }
    let voters = || done().filter(|(_, r)| !proves_loss(r.score));
    let Some(worst) = voters().map(|(_, r)| r.score).min() else {
        return highest(proves_loss).unwrap_or(0);
    };
    let mut votes: Vec<(Move, i64)> = Vec::new();
    for (_, r) in voters() {
        let Some(mv) = r.best() else { continue };
        let weight =
            i64::from(r.score - worst + vote_score_offset()) * i64::from(r.completed_depth());
        match votes.iter_mut().find(|(m, _)| *m == mv) {
            Some((_, v)) => *v += weight,
            None => votes.push((mv, weight)),
        }
    }
    votes
        .iter()
        .max_by_key(|(_, v)| *v)
        .map_or(0, |&(winner, _)| deepest_with(results, Some(winner)))
}

/// A mate, or a tablebase win, for the side to move.
fn proves_win(score: i32) -> bool {
    score >= DECISIVE_BOUND
}

/// A mate, or a tablebase loss, against the side to move.
fn proves_loss(score: i32) -> bool {
    score <= -DECISIVE_BOUND
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Board;
    use tt::{MATE, TB_WIN};

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
    fn a_helper_that_sees_itself_mated_does_not_flatten_the_vote() {
        // Without thread 3, e2e4's higher score outweighs d2d4's two supporters:
        // e2e4 (100 + 20 + 10) * 10 = 1300, d2d4 2 * (0 + 10) * 10 = 200.
        let mated = result(10, -(MATE - 6), "g1f3");
        let results =
            [result(10, 100, "e2e4"), result(10, -20, "d2d4"), result(10, -20, "d2d4"), mated];
        // With the mated score as the worst, every weight is about 32,000 * 10 and
        // the head count decides for d2d4.
        assert_eq!(choose(&results, BestMoveChoice::Vote), 0, "e2e4, on its score");
    }

    #[test]
    fn the_shortest_proven_win_is_played() {
        let (mate_in_5, mate_in_2) = (MATE - 9, MATE - 3);
        let results = [
            result(10, mate_in_5, "e2e4"),
            result(10, mate_in_5, "e2e4"),
            result(8, mate_in_2, "d2d4"),
        ];
        assert_eq!(choose(&results, BestMoveChoice::Vote), 2, "mate in 2 beats mate in 5 twice");
        // A tablebase win, nearer conversion first; and no count of undecided moves outvotes it.
        let results = [
            result(12, 40, "e2e4"),
            result(12, 40, "e2e4"),
            result(12, 40, "e2e4"),
            result(6, TB_WIN - 20, "d2d4"),
            result(6, TB_WIN - 4, "g1f3"),
        ];
        assert_eq!(choose(&results, BestMoveChoice::Vote), 4);
    }

    #[test]
    fn a_proven_loss_is_played_only_when_every_thread_proves_one_and_then_the_longest() {
        let results = [
            result(10, -(MATE - 8), "e2e4"),
            result(10, -(MATE - 4), "d2d4"),
            result(10, -(MATE - 4), "d2d4"),
        ];
        assert_eq!(choose(&results, BestMoveChoice::Vote), 0, "mated in 4 resists longest");
        // A tablebase loss beside an undecided move: the undecided move is played.
        let results = [result(9, -(TB_WIN - 10), "e2e4"), result(7, -300, "d2d4")];
        assert_eq!(choose(&results, BestMoveChoice::Vote), 1);
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
