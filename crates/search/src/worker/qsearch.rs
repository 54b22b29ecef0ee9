//! Quiescence search: at the leaves, only captures and promotions (all
//! evasions in check) until the position is quiet, so that the static
//! evaluation is never taken in the middle of an exchange.

use super::table::{NodeResult, bound_settles, tt_cutoff, tt_score};
use super::{NO_EVAL, SearchContext, Worker};
use crate::history::PieceTo;
use crate::params::{
    MAX_SEARCH_PLY, good_see_threshold, qs_capture_limit, qs_futility_margin,
    qs_futility_see_threshold, qs_quiet_evasion_limit,
};
use crate::picker::MovePicker;
use board::Move;
use tt::{Bound, DECISIVE_BOUND, INFINITY, MATE, is_decisive};

impl Worker {
    /// Quiescence search: captures and promotions (all evasions in check) until quiet;
    /// at its first ply (`checks`) also quiet moves that give check without losing material.
    pub(super) fn qsearch(
        &mut self,
        ctx: &SearchContext,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checks: bool,
    ) -> i32 {
        if self.visit(ctx) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        let in_check = self.board().in_check();
        // Draws by rule, as in the main search (Step 1); never at the root, which is
        // the position to play from, whatever its history.
        if ply > 0 && self.is_draw() {
            return 0;
        }
        if ply >= MAX_SEARCH_PLY {
            return if in_check { 0 } else { self.evaluate() };
        }
        // The table: a cutoff at non-PV nodes whatever the stored depth (every
        // search is at least as deep as quiescence), and the move to try first.
        let key = self.board().key();
        let hit = ctx.tt.probe(key);
        if !pv_node
            && let Some(score) =
                hit.and_then(|h| tt_cutoff(&h, tt::MIN_STORED_DEPTH, alpha, beta, ply))
        {
            return score;
        }
        let hash_move = self.hash_move(hit.as_ref());

        // Stand pat: the corrected static eval, refined by the table's bound when
        // it settles the question.
        let raw_eval;
        let mut best_score;
        if in_check {
            raw_eval = NO_EVAL;
            best_score = -INFINITY;
        } else {
            raw_eval = self.static_eval(hit.as_ref());
            best_score = self.corrected(raw_eval, self.correction_at(ply));
            if let Some(h) = hit {
                let score = tt_score(&h, ply);
                if !is_decisive(score) && bound_settles(h.bound, score, best_score, best_score) {
                    best_score = score;
                }
            }
            // A fail high is blended halfway towards beta: less of an overestimate
            // is returned.
            if best_score >= beta {
                return if is_decisive(best_score) { best_score } else { (best_score + beta) / 2 };
            }
            alpha = alpha.max(best_score);
        }
        // Futility: captures that cannot lift stand pat plus a margin to alpha.
        let futility_base = if in_check { None } else { Some(best_score + qs_futility_margin()) };

        let mut picker = MovePicker::quiescence(self.board(), hash_move, checks);
        let mut best_move = Move::NULL;
        let mut moves_tried = 0;
        // Where the previous move landed (a recapture there is never skipped by
        // the move limits below), and the quiet evasions tried.
        let recapture_square = {
            let last = if ply > 0 { self.frames[ply - 1].moved } else { PieceTo::NONE };
            (last != PieceTo::NONE).then_some(last.0 & 63)
        };
        let mut quiet_evasions = 0;
        while let Some(mv) = picker.next(self.board(), &self.histories) {
            // The picker hands out only captures and quiet checks that do not lose
            // material; the hash move it does not test.
            if !in_check && mv == hash_move && !self.board().see_ge(mv, good_see_threshold()) {
                continue;
            }
            if let Some(base) = futility_base
                && mv.promotion().is_none()
            {
                let board = self.board();
                let victim = board.captured_value(mv);
                // A check is never pruned; it is asked only of a move that would be.
                if base + victim <= alpha && !board.gives_check(mv) {
                    best_score = best_score.max(base + victim);
                    continue;
                }
                if base <= alpha
                    && !board.gives_check(mv)
                    && !board.see_ge(mv, qs_futility_see_threshold())
                {
                    best_score = best_score.max(base);
                    continue;
                }
            }
            // Move limits, once a line that avoids mate is known: in check, the
            // quiet evasions past the first few; out of check, the captures past
            // the first few that are not recaptures, promotions or checks.
            if best_score > -DECISIVE_BOUND {
                let board = self.board();
                if in_check {
                    if !board.is_noisy(mv) {
                        if quiet_evasions >= qs_quiet_evasion_limit() {
                            break;
                        }
                        quiet_evasions += 1;
                    }
                } else if moves_tried >= qs_capture_limit()
                    && mv.promotion().is_none()
                    && recapture_square != Some(mv.to() as u16)
                    && !board.gives_check(mv)
                {
                    continue;
                }
            }
            self.frames[ply].moved = self.piece_to(mv);
            moves_tried += 1;
            self.make_move(mv, ctx.tt);
            let score = -self.qsearch(ctx, -beta, -alpha, ply + 1, false);
            self.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && moves_tried == 0 {
            return -MATE + ply as i32;
        }
        // A move's fail high is blended a quarter of the way towards beta.
        if best_score > beta && !is_decisive(best_score) {
            best_score = (3 * best_score + beta) / 4;
        }
        let bound = if best_score >= beta { Bound::Lower } else { Bound::Upper };
        let result = NodeResult {
            best_move,
            score: best_score,
            static_eval: raw_eval,
            depth: 0,
            bound,
            pv: pv_node,
        };
        ctx.store(key, ply, result);
        best_score
    }
}
