//! MultiPV: an iteration searches the root once per principal variation, each
//! time excluding the first moves of the better lines already found.

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
    /// One iteration at `depth` with `previous.len()` lines: line k is the best
    /// root move outside lines 1..k, searched with an aspiration window around its
    /// score in the previous iteration (`previous[k]`, updated here).
    /// `on_fail(worker, multipv, score, bound)` hears every aspiration fail.
    ///
    /// Returns the lines best first, or `None` if the search was stopped before
    /// every line was complete.
    pub(crate) fn search_lines(
        &mut self,
        ctx: &SearchContext,
        depth: i32,
        previous: &mut [i32],
        mut on_fail: impl FnMut(&Worker, usize, i32, Bound),
    ) -> Option<Vec<Line>> {
        let mut lines = Vec::with_capacity(previous.len());
        self.excluded_root.clear();
        for (i, previous) in previous.iter_mut().enumerate() {
            let score =
                self.aspiration(ctx, depth, *previous, |w, s, bound| on_fail(w, i + 1, s, bound));
            if self.was_stopped() {
                return None;
            }
            *previous = score;
            let pv = self.root_pv().to_vec();
            if let Some(&first) = pv.first() {
                self.excluded_root.push(first);
            }
            lines.push(Line { score, pv });
        }
        lines.sort_by_key(|line| Reverse(line.score));
        Some(lines)
    }
}
