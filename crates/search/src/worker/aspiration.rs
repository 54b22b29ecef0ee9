//! Aspiration windows: the root is searched with a narrow window around the
//! previous iteration's score, widened on each fail until the score falls inside.

use super::search::Root;
use super::{SearchContext, Worker};
use crate::params::{
    aspiration_growth_divisor, aspiration_max_window, aspiration_min_depth, aspiration_window,
};
use tt::{Bound, INFINITY, is_decisive};

impl Worker {
    /// Searches the root with an aspiration window around `previous` (or a full
    /// window), returning the score. `report` is called on fail-high / fail-low.
    pub fn aspiration(
        &mut self,
        ctx: &SearchContext,
        depth: i32,
        previous: i32,
        mut report: impl FnMut(&Worker, i32, Bound),
    ) -> i32 {
        self.root_depth = depth;
        self.root.start_search();
        let mut delta = aspiration_window();
        let (mut alpha, mut beta) = if depth >= aspiration_min_depth() && !is_decisive(previous) {
            ((previous - delta).max(-INFINITY), (previous + delta).min(INFINITY))
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.search::<Root>(ctx, alpha, beta, depth, 0, false);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                report(self, score, Bound::Upper);
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                report(self, score, Bound::Lower);
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta += delta / aspiration_growth_divisor();
            if delta > aspiration_max_window() {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }
}
