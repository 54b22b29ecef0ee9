//! MultiPV: an iteration searches the root once per principal variation, each
//! time excluding the first moves of the better lines already found (the
//! root-move list marks them).

use crate::worker::{SearchContext, Worker};
use board::Move;
use std::cmp::Reverse;
use tt::Bound;

/// A root line of a completed iteration.
pub(crate) struct Line {
    /// Its score.
    pub score: i32,
    /// Its principal variation.
    pub pv: Vec<Move>,
}

impl Worker {
    /// One iteration at `depth` with `multipv` lines: line k is the best root move
    /// outside lines 1..k, searched with an aspiration window around the score
    /// of the previous iteration's line k (kept in the root-move list).
    /// `on_fail(worker, k, score, bound)` hears every aspiration fail of line k.
    ///
    /// Returns the lines best first, or `None` if the search was stopped before
    /// every line was complete.
    pub(crate) fn search_lines(
        &mut self,
        ctx: &SearchContext,
        depth: i32,
        multipv: usize,
        mut on_fail: impl FnMut(&Worker, usize, i32, Bound),
    ) -> Option<Vec<Line>> {
        let mut found = Vec::with_capacity(multipv);
        // Read before the lines of this iteration reorder the list.
        let previous: Vec<i32> = (0..multipv).map(|i| self.root.previous_score(i)).collect();
        self.root.start_iteration();
        for (i, previous) in previous.into_iter().enumerate() {
            let score =
                self.aspiration(ctx, depth, previous, |w, s, bound| on_fail(w, i + 1, s, bound));
            if self.was_stopped() {
                return None;
            }
            let pv = self.root_pv().to_vec();
            self.root.line_done(pv.first().copied(), score);
            found.push(Line { score, pv });
        }
        found.sort_by_key(|line| Reverse(line.score));
        Some(found)
    }
}
