//! The principal variation search, as numbered steps (docs/search.md lists
//! them; params.rs holds each step's margins). A step with an idea of its own
//! is a helper below [`Worker::search`], handed the node as one [`Node`] and a
//! move of the loop as one [`Candidate`].

use super::table::{NodeResult, bound_settles, tt_cutoff, tt_score};
use super::{NO_EVAL, SearchContext, Worker};
use crate::history::{PieceTo, QuietKeys};
use crate::params::*;
use crate::picker::{MovePicker, PickerContext};
use board::{Board, CheckSquares, Move, StackList};
use tt::{Bound, DECISIVE_BOUND, INFINITY, MATE, Record, is_decisive};

/// Which node of the tree a search is: the root, whose moves and figures are
/// the root-move list's (`crate::root`), or a node below it. A type parameter
/// of [`Worker::search`], so the root's bookkeeping is compiled into the
/// root's copy of the search only, and a node below it never tests for it.
pub(crate) trait NodeKind {
    /// Whether this is the root.
    const ROOT: bool;
}

/// The root of the search.
pub(crate) struct Root;

/// A node below the root.
pub(crate) struct Inner;

impl NodeKind for Root {
    const ROOT: bool = true;
}

impl NodeKind for Inner {
    const ROOT: bool = false;
}

/// What a node's step helpers read of it: fixed by Step 4, except `depth`,
/// which Step 7 may lower. The one way the search hands a node to a helper.
#[derive(Clone, Copy)]
struct Node {
    ply: usize,
    depth: i32,
    beta: i32,
    /// A PV node: `beta - alpha > 1` on entry.
    pv: bool,
    /// Expected to fail high (the parent's move is expected to be refuted).
    cut: bool,
    root: bool,
    /// A singular-extension search of this node, without its hash move (Step 10).
    singular_search: bool,
    in_check: bool,
    /// The static eval rose since this side's previous move ([`Worker::improving`]):
    /// reverse futility, razoring and futility prune more, late move pruning
    /// tries more moves and late move reductions reduce less.
    improving: bool,
    /// The corrected static eval ([`NO_EVAL`] in check).
    static_eval: i32,
    /// The table's move, if legal here (and a root move at the root); else null.
    hash_move: Move,
    /// Where its quiet moves are read and written in the histories.
    keys: QuietKeys,
    /// The size of the static eval's correction (0 in check): an eval that
    /// needed much correction is less sure, so reverse futility's margin grows
    /// and late move reductions shrink.
    correction_size: i32,
    /// A PV node, or one the table remembers on a PV (stored with its entries):
    /// a larger reverse futility margin, less late move reduction.
    tt_pv: bool,
    /// The hash move is a capture or promotion (the node's best answer is
    /// likely noisy): quiet moves are reduced more.
    tt_capture: bool,
}

/// A move of the loop, with what the pruning, extension and reduction steps read of it.
#[derive(Clone, Copy)]
struct Candidate {
    mv: Move,
    pt: PieceTo,
    /// A capture or promotion.
    noisy: bool,
    gives_check: bool,
    /// Its history score: capture history for a noisy move, else butterfly and
    /// continuation history.
    history: i32,
    /// Its late move reduction before the adjustments of Step 11, in `lmr_unit`s.
    base_reduction: i32,
}

/// The moves searched before the best, for the history maluses (the first 64
/// quiet moves and 32 noisy ones).
struct Tried {
    quiets: StackList<(Move, PieceTo), 64>,
    captures: StackList<(Move, PieceTo), 32>,
}

impl Tried {
    fn new() -> Tried {
        Tried { quiets: StackList::new(), captures: StackList::new() }
    }

    #[inline(always)]
    fn push(&mut self, c: &Candidate) {
        if c.noisy {
            if !self.captures.is_full() {
                self.captures.push((c.mv, c.pt));
            }
        } else if !self.quiets.is_full() {
            self.quiets.push((c.mv, c.pt));
        }
    }
}

impl Worker {
    /// Principal variation search of a node of kind `K` (the root or below it).
    /// PV nodes have `beta - alpha > 1`.
    pub(crate) fn search<K: NodeKind>(
        &mut self,
        ctx: &SearchContext,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        debug_assert_eq!(K::ROOT, ply == 0, "the root is the search at ply 0");
        let pv_node = beta - alpha > 1;
        let prior_reduction = std::mem::take(&mut self.frames[ply].reduction);
        let excluded = self.frames[ply].excluded;
        let singular_search = !excluded.is_null();
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(ctx, alpha, beta, ply, true);
        }
        if self.visit(ctx) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.board().in_check();

        if !K::ROOT {
            // Step 1. Draws by rule and the ply limit.
            if self.is_draw() {
                return 0;
            }
            if ply >= MAX_SEARCH_PLY {
                return if in_check { 0 } else { self.evaluate() };
            }
            // Step 2. Mate distance pruning: no line here can beat a mate already found nearer the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 3. Transposition table: the stored move, and a cutoff at non-PV nodes when the
        // stored depth is enough and the bound allows it (`table.rs`).
        let key = self.board().key();
        let hit = ctx.tt.probe(key);
        let mut hash_move = self.hash_move(hit.as_ref());
        if !pv_node
            && !singular_search
            && let Some(score) = hit.and_then(|h| tt_cutoff(&h, depth, alpha, beta, ply))
        {
            return score;
        }
        if K::ROOT && !self.root.contains(hash_move) {
            hash_move = Move::NULL;
        }
        // Step 3b. Tablebases (`tablebase.rs`): right after a capture or pawn move with
        // few enough pieces the tables know the result. A verdict that settles the window
        // ends the node (stored deeper than searched: it is exact); at a PV node a win
        // raises alpha and a loss caps the score, applied after the move loop.
        let mut tb_bound = None;
        if !K::ROOT
            && !singular_search
            && let Some(tb) = ctx.tb.probe(self.board(), depth, ply)
        {
            ctx.counts.tb_hit();
            if bound_settles(tb.bound, tb.score, alpha, beta) {
                let static_eval = if in_check { NO_EVAL } else { self.static_eval(hit.as_ref()) };
                let depth = depth + tb_depth_bonus();
                let result = NodeResult {
                    best_move: Move::NULL,
                    score: tb.score,
                    static_eval,
                    depth,
                    bound: tb.bound,
                    pv: pv_node,
                };
                ctx.store(key, ply, result);
                return tb.score;
            }
            if pv_node {
                if tb.bound == Bound::Lower {
                    alpha = alpha.max(tb.score);
                }
                tb_bound = Some(tb);
            }
        }

        // Step 4. Static evaluation (the table's stored eval saves a call), corrected by
        // what searches of similar positions found (correction history); the table's
        // score refines it.
        let raw_eval = if in_check { NO_EVAL } else { self.static_eval(hit.as_ref()) };
        let correction = if in_check { 0 } else { self.correction_at(ply) };
        let static_eval = if in_check { NO_EVAL } else { self.corrected(raw_eval, correction) };
        let mut eval = static_eval;
        if let Some(h) = hit
            && !in_check
        {
            // A bound that settles the window (eval, eval) is a better estimate than eval.
            let score = tt_score(&h, ply);
            if !is_decisive(score) && bound_settles(h.bound, score, eval, eval) {
                eval = score;
            }
        }
        self.frames[ply].static_eval = static_eval;
        if !K::ROOT {
            self.histories.killers[ply + 1] = [Move::NULL; 2];
        }
        self.frames[ply + 1].excluded = Move::NULL;
        self.frames[ply + 1].cutoffs = 0;
        let mut node = Node {
            ply,
            depth,
            beta,
            pv: pv_node,
            cut: cut_node,
            root: K::ROOT,
            singular_search,
            in_check,
            improving: self.improving(ply, static_eval),
            static_eval,
            hash_move,
            keys: self.quiet_keys(ply),
            correction_size: correction.abs(),
            tt_pv: pv_node || hit.is_some_and(|h| h.pv),
            tt_capture: !hash_move.is_null() && self.board().is_noisy(hash_move),
        };

        // Step 4b. Hindsight: the parent's reduction of the move that led here, read
        // with both sides' evals.
        if !K::ROOT && !in_check && !singular_search {
            node.depth += self.hindsight(&node, prior_reduction);
        }

        // Steps 5 to 6. Whole-node pruning, before any move is searched.
        if !pv_node
            && !in_check
            && !K::ROOT
            && !singular_search
            && let Some(score) = self.prune_node(ctx, &node, alpha, eval)
        {
            return score;
        }

        // Step 7. Internal iterative reduction: without a hash move this node is probably
        // less important than its depth says; search it shallower.
        if hash_move.is_null() && node.depth >= iir_min_depth() && (pv_node || cut_node) {
            node.depth -= iir_reduction();
        }

        // Step 8. The move loop.
        let lesser_attacks = self.lesser_attacks();
        node.keys.threats = lesser_attacks.all;
        let ordering =
            PickerContext { keys: node.keys, killers: self.histories.killers[ply], lesser_attacks };
        let mut picker = MovePicker::new(self.board(), hash_move, &self.histories, ordering);
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let mut moves_tried = 0usize;
        let mut tried = Tried::new();
        let original_alpha = alpha;
        // Computed at the first move that asks whether it gives check.
        let mut check_squares = None;

        while let Some(mv) = picker.next(self.board(), &self.histories) {
            // At the root: the move's place in the root list, if this line searches it.
            let root_index = if K::ROOT { self.root.to_search(mv) } else { Some(0) };
            let Some(root_index) = root_index.filter(|_| mv != excluded) else {
                continue;
            };
            let board = *self.board();
            let c = self.candidate(&node, &board, mv, moves_tried, &mut check_squares);

            // Step 9. Pruning at shallow depth, once a line that avoids mate is known.
            if !K::ROOT
                && best_score > -DECISIVE_BOUND
                && board.has_non_pawn_material(board.side_to_move())
            {
                match self.prune_move(&node, &c, alpha, moves_tried) {
                    Pruning::Search => {}
                    Pruning::Skip => continue,
                    Pruning::SkipQuiets => {
                        // Every later quiet move that does not give check is skipped the
                        // same way: the picker need not score them only to have them skipped.
                        if let Some(squares) = check_squares {
                            picker.quiet_checks_only(squares);
                        }
                        continue;
                    }
                }
            }

            // Step 10. Extensions (bounded by twice the iteration's depth): a singular
            // hash move, or a check.
            let extension = match self.extension(ctx, &node, &c, hit.as_ref()) {
                Singular::Extend(e) => e,
                Singular::MultiCut(score) => return score,
            };
            let new_depth = node.depth - 1 + extension;
            self.frames[ply + 1].double_extensions =
                self.frames[ply].double_extensions + u8::from(extension >= 2);

            if K::ROOT
                && let Some(reports) = &ctx.current_move
            {
                reports.root_move(mv, moves_tried + 1);
            }
            self.frames[ply].moved = c.pt;
            let nodes_before = self.nodes;
            self.make_move(mv, ctx.tt);
            moves_tried += 1;

            // Step 11. Principal variation search with late move reductions.
            let score = if moves_tried == 1 {
                -self.search::<Inner>(ctx, -beta, -alpha, new_depth, ply + 1, false)
            } else {
                let r = self.reduction(&node, &c, moves_tried, new_depth, &picker);
                let reduced = new_depth - r;
                self.frames[ply + 1].reduction = r;
                let mut score =
                    -self.search::<Inner>(ctx, -alpha - 1, -alpha, reduced, ply + 1, true);
                if score > alpha && r > 0 {
                    let depth = re_search_depth(new_depth, score, best_score);
                    if depth > reduced {
                        score = -self.search::<Inner>(
                            ctx,
                            -alpha - 1,
                            -alpha,
                            depth,
                            ply + 1,
                            !cut_node,
                        );
                    }
                }
                // A null-window fail high inside the window: re-search with this node's own
                // (alpha, beta), never with the returned score as the new bound.
                if pv_node && score > alpha && score < beta {
                    score = -self.search::<Inner>(ctx, -beta, -alpha, new_depth, ply + 1, false);
                }
                score
            };
            self.unmake_move();
            if K::ROOT {
                self.root.add_nodes(root_index, self.nodes - nodes_before);
            }
            if self.stopped {
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if K::ROOT {
                        let pv = &self.pv[0][..self.pv_len[0]];
                        self.root.raised_alpha(root_index, score, pv, self.seldepth);
                    }
                    alpha = score;
                    if score >= beta {
                        self.reward_cutoff(&board, &node, &c, &tried);
                        self.frames[ply].cutoffs = self.frames[ply].cutoffs.saturating_add(1);
                        break;
                    }
                }
            }
            tried.push(&c);
        }

        // Step 12. No move searched: mate or stalemate (pruning starts only after the
        // first move, so an empty loop means no legal move; at the root, all excluded).
        if moves_tried == 0 {
            return if singular_search {
                alpha
            } else if K::ROOT && !self.root.is_empty() {
                -INFINITY
            } else if in_check {
                -MATE + ply as i32
            } else {
                0
            };
        }

        // The tablebase bound of a PV node (Step 3b): at least the win, at most the loss.
        let mut tb_decides = false;
        if let Some(tb) = tb_bound {
            match tb.bound {
                Bound::Lower if best_score < tb.score => {
                    best_score = tb.score;
                    tb_decides = true;
                }
                Bound::Upper => best_score = best_score.min(tb.score),
                _ => {}
            }
        }

        // Step 13. Store the result.
        let bound = if best_score >= beta || tb_decides {
            Bound::Lower
        } else if pv_node && best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if singular_search {
            return best_score;
        }
        if !K::ROOT || self.root.is_first_line() {
            let best_move = if best_move.is_null() { hash_move } else { best_move };
            let result = NodeResult {
                best_move,
                score: best_score,
                static_eval: raw_eval,
                depth: node.depth,
                bound,
                pv: pv_node || node.tt_pv,
            };
            ctx.store(key, ply, result);
        }

        // Step 14. Correction history.
        if !in_check {
            self.learn_correction(&node, best_move, best_score, bound);
        }
        best_score
    }

    /// Steps 5 to 6, at a non-PV node not in check: the score to return when the
    /// node can be cut before searching its moves, from its `eval` (the static eval
    /// refined by the table).
    #[inline(always)]
    fn prune_node(
        &mut self,
        ctx: &SearchContext,
        node: &Node,
        alpha: i32,
        eval: i32,
    ) -> Option<i32> {
        let (depth, beta, ply) = (node.depth, node.beta, node.ply);
        // Step 5. Reverse futility pruning: far above beta at low depth, assume the cut
        // unless a piece hangs or an enemy pawn is near promotion (threat guards).
        if depth <= rfp_max_depth()
            && !is_decisive(eval)
            && eval
                - rfp_margin() * (depth - node.improving as i32)
                - node.correction_size * rfp_correction_scale() / rfp_correction_unit()
                - i32::from(node.tt_pv) * rfp_tt_pv_margin()
                >= beta
            && !threat_pending(self.board())
        {
            return Some((eval + beta) / 2);
        }

        // Step 5b. Razoring: far below alpha at low depth, only a capture could
        // help, so quiescence decides.
        if depth <= razor_max_depth()
            && eval + razor_margin() * (depth + i32::from(node.improving)) < alpha
        {
            let score = self.qsearch(ctx, alpha, alpha + 1, ply, true);
            if self.stopped {
                return Some(0);
            }
            if score <= alpha {
                return Some(score);
            }
        }

        // Step 6. Null move pruning: if passing still beats beta, a real move will too.
        // Guarded against zugzwang: only with pieces besides pawns, never twice in a
        // row, and verified at depth by a search in which the side that passed may
        // not pass again (`null_move`).
        let prev_null = ply > 0 && node.keys.prev[0] == PieceTo::NONE;
        let us = self.board().side_to_move();
        if depth >= nmp_min_depth()
            && eval >= beta
            && !prev_null
            && !is_decisive(beta)
            && (ply >= self.nmp_min_ply || us != self.nmp_color)
            && self.board().has_non_pawn_material(us)
            && let Some(score) = self.null_move(ctx, node, eval)
        {
            return Some(score);
        }

        None
    }

    /// Step 8. `mv` (legal in `board`, the current position) with what the later
    /// steps read of it.
    #[inline(always)]
    fn candidate(
        &self,
        node: &Node,
        board: &Board,
        mv: Move,
        moves_tried: usize,
        check_squares: &mut Option<CheckSquares>,
    ) -> Candidate {
        let noisy = board.is_noisy(mv);
        let pt = self.piece_to(mv);
        let history = if noisy {
            self.histories.capture(board, pt, mv)
        } else {
            self.histories.quiet(board.side_to_move(), mv, pt, &node.keys)
        };
        let base_reduction = lmr_reduction(node.depth as usize, moves_tried);
        let gives_check =
            board.gives_check_with(mv, check_squares.get_or_insert_with(|| board.check_squares()));
        Candidate { mv, pt, noisy, gives_check, history, base_reduction }
    }

    /// Step 9. Whether move `c` is skipped at shallow depth, `moves_tried` moves
    /// into the loop, and whether every later quiet move that does not give
    /// check would be skipped too.
    #[inline(always)]
    fn prune_move(&self, node: &Node, c: &Candidate, alpha: i32, moves_tried: usize) -> Pruning {
        let board = self.board();
        let depth = node.depth;
        let lmr_depth = (depth - 1 - c.base_reduction / lmr_unit()).max(0);
        if c.noisy || c.gives_check {
            // Captures that lose too much material (checks are kept: sacrifices).
            let losing = !c.gives_check
                && depth <= see_noisy_max_depth()
                && !board.see_ge(
                    c.mv,
                    see_noisy_margin() * depth - c.history / see_capture_history_divisor(),
                );
            return if losing { Pruning::Skip } else { Pruning::Search };
        }
        // Late move pruning and futility, once they skip a quiet move, skip every
        // later one: the moves tried only grow (and with them the reduction, so
        // `lmr_depth` only falls), and alpha only rises.
        if late_move_pruning(node, moves_tried) {
            return Pruning::SkipQuiets;
        }
        // Futility: this quiet move cannot lift the static eval to alpha.
        if !node.in_check && lmr_depth <= futility_max_depth() {
            let futility_value = node.static_eval
                + futility_base()
                + futility_per_depth() * (lmr_depth + i32::from(node.improving));
            if futility_value <= alpha {
                return Pruning::SkipQuiets;
            }
        }
        // History: this move has kept failing in similar positions.
        let failing = lmr_depth <= history_pruning_max_depth()
            && c.history < -history_pruning_margin() * depth;
        // SEE: the quiet move loses material on its square.
        if failing || !board.see_ge(c.mv, see_quiet_margin() * lmr_depth * lmr_depth) {
            Pruning::Skip
        } else {
            Pruning::Search
        }
    }

    /// Step 10. How many plies to extend move `c` by (negative: reduce), or the
    /// node's score when a singular-extension test finds a multi-cut.
    #[inline(always)]
    fn extension(
        &mut self,
        ctx: &SearchContext,
        node: &Node,
        c: &Candidate,
        hit: Option<&Record>,
    ) -> Singular {
        let may_extend = (node.ply as i32) < extension_ply_limit(self.root_depth);
        if !node.root
            && !node.singular_search
            && c.mv == node.hash_move
            && node.depth >= singular_min_depth()
            && may_extend
            && let Some(h) = hit
            && h.depth >= node.depth - singular_tt_depth_margin()
            && matches!(h.bound, Bound::Lower | Bound::Exact)
            && !is_decisive(tt_score(h, node.ply))
        {
            return self.singular(ctx, node, h, c.mv);
        }
        Singular::Extend(i32::from(c.gives_check && may_extend))
    }

    /// Step 11. The late move reduction of move `c`, the `moves_tried`-th of the
    /// node, searched to `new_depth` (0: none).
    #[inline(always)]
    fn reduction(
        &self,
        node: &Node,
        c: &Candidate,
        moves_tried: usize,
        new_depth: i32,
        picker: &MovePicker,
    ) -> i32 {
        if node.depth < lmr_min_depth()
            || moves_tried <= 1 + node.root as usize
            || (c.noisy && node.pv)
        {
            return 0;
        }
        // Summed in `lmr_unit`s, so that each term may weigh a fraction of a ply.
        let term = |on: bool, weight: i32| if on { weight } else { 0 };
        let mut r = c.base_reduction;
        r += term(!node.pv, lmr_not_pv())
            + term(node.cut, lmr_cut_node())
            + term(!node.improving, lmr_not_improving());
        r -= term(c.gives_check, lmr_gives_check())
            + term(picker.is_refutation(c.mv), lmr_refutation());
        // Whole plies of history: in proportion it played no better (docs/experiments/lmr-continuous-history.patch).
        r -= c.history / lmr_history_divisor() * lmr_unit();
        r -= term(node.correction_size >= lmr_correction_threshold(), lmr_correction());
        r -= term(node.tt_pv, lmr_tt_pv());
        let cutoffs = i32::from(self.frames[node.ply + 1].cutoffs);
        r += term(cutoffs > lmr_cutoff_count(), lmr_cutoffs());
        r += term(node.tt_capture && !c.noisy, lmr_tt_capture());
        if c.noisy {
            r /= lmr_noisy_divisor();
        }
        (r / lmr_unit()).clamp(0, new_depth - 1)
    }

    /// The history updates when move `c` (played in `board`) fails high: a bonus
    /// for it, maluses for the moves of its kind tried before it (and for the
    /// captures tried before a quiet move).
    #[inline(always)]
    fn reward_cutoff(&mut self, board: &Board, node: &Node, c: &Candidate, tried: &Tried) {
        let depth = node.depth;
        if c.noisy {
            self.histories.update_captures(board, Some((c.mv, c.pt)), &tried.captures, depth);
        } else {
            let us = board.side_to_move();
            let best = (c.mv, c.pt);
            self.histories.update_quiet(us, node.ply, best, &tried.quiets, &node.keys, depth);
            self.histories.update_captures(board, None, &tried.captures, depth);
        }
    }

    /// Step 14. Correction history: remember how far the search's result lay from
    /// the static eval, where the bound says which side it lies on and no capture
    /// (whose gain the eval cannot see) decided it.
    #[inline(always)]
    fn learn_correction(&mut self, node: &Node, best_move: Move, best_score: i32, bound: Bound) {
        let board = *self.board();
        let static_eval = node.static_eval;
        if (best_move.is_null() || !board.is_noisy(best_move))
            && best_score.abs() < DECISIVE_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            let difference = best_score - static_eval;
            self.correction.update(&board, node.keys.prev, difference, node.depth);
        }
    }

    /// Whether the static eval rose since this side's previous move: two plies
    /// back, or four when that move was made in check. Never in check.
    #[inline(always)]
    fn improving(&self, ply: usize, static_eval: i32) -> bool {
        if static_eval == NO_EVAL {
            return false;
        }
        let back = |n: usize| (ply >= n).then(|| self.frames[ply - n].static_eval);
        match back(2) {
            Some(e) if e != NO_EVAL => static_eval > e,
            _ => back(4).is_some_and(|e| e != NO_EVAL && static_eval > e),
        }
    }

    /// Step 10. Singular extensions: is the hash move (`mv`, from table entry
    /// `hit`) much better than every other move of `node`? A search without it, to
    /// half depth, against a bound a little below its stored score, tells:
    ///
    /// - every other move fails low: extend the hash move (twice when far below,
    ///   at non-PV nodes, a bounded number of times per line; three times when
    ///   farther still and the move is quiet);
    /// - another move also beats `beta` (multi-cut): several moves refute the
    ///   opponent's last move, so this node fails high — cut;
    /// - the stored score alone beats beta: the hash move is not needed to hold
    ///   beta, so it is searched two plies shallower (negative extension);
    /// - at an expected cut node, or when the stored score is no better than
    ///   the search without the hash move found: one ply shallower.
    fn singular(&mut self, ctx: &SearchContext, node: &Node, hit: &Record, mv: Move) -> Singular {
        let Node { depth, beta, ply, .. } = *node;
        let stored = tt_score(hit, ply);
        let singular_beta = (stored - singular_margin_per_depth() * depth).max(-DECISIVE_BOUND + 1);
        self.frames[ply].excluded = mv;
        let score = self.search::<Inner>(
            ctx,
            singular_beta - 1,
            singular_beta,
            (depth - 1) / singular_depth_divisor(),
            ply,
            node.cut,
        );
        self.frames[ply].excluded = Move::NULL;
        if self.stopped {
            return Singular::Extend(0);
        }
        if score < singular_beta {
            let double = !node.pv
                && score < singular_beta - double_extension_margin()
                && self.frames[ply].double_extensions < max_double_extensions();
            let triple = double
                && score < singular_beta - triple_extension_margin()
                && !self.board().is_noisy(mv);
            Singular::Extend(if triple {
                3
            } else if double {
                2
            } else {
                1
            })
        } else if singular_beta >= beta {
            Singular::MultiCut(singular_beta)
        } else if stored >= beta {
            Singular::Extend(-2)
        } else if node.cut || stored <= score {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Step 4b. Hindsight: how many plies to add to the depth of `node`,
    /// reached by a move its parent reduced by `prior_reduction`. A large
    /// reduction whose outcome the opponent's eval did not foresee getting
    /// worse for it looks premature: a ply deeper. A reduced move after which
    /// both sides' evals look good for their side to move leads to a quiet
    /// node: a ply shallower.
    #[inline(always)]
    fn hindsight(&self, node: &Node, prior_reduction: i32) -> i32 {
        let parent_eval = self.frames[node.ply - 1].static_eval;
        if parent_eval == NO_EVAL || prior_reduction == 0 {
            return 0;
        }
        let sum = node.static_eval + parent_eval;
        let opponent_worsening = sum > 0;
        if prior_reduction >= hindsight_deeper_reduction() && !opponent_worsening {
            1
        } else if node.depth >= 2 && sum > hindsight_shallower_margin() {
            -1
        } else {
            0
        }
    }

    /// Step 6. Null move pruning: the side to move passes, and the opponent's
    /// reply is searched `nmp_reduction` plies shallower with a null window at
    /// beta (`eval`: the node's eval, refined by the table). Returns the node's score when that still fails high, or `None` to
    /// search the node normally.
    ///
    /// From [`nmp_verify_depth()`] on the fail high is verified, because in
    /// zugzwang passing is the best move and the null move's answer is wrong:
    /// this node is searched again, as deep as the null move's reply, and in
    /// that search the side that passed may not pass again for
    /// [`nmp_verification_plies`] plies, so only its real moves can confirm the
    /// cut (Stockfish's `nmpMinPly`). Verifications do not nest.
    #[inline(always)]
    fn null_move(&mut self, ctx: &SearchContext, node: &Node, eval: i32) -> Option<i32> {
        let Node { depth, beta, ply, .. } = *node;
        let r = nmp_reduction(depth, eval - beta);
        self.frames[ply].moved = PieceTo::NONE;
        self.make_null(ctx.tt);
        let score = -self.search::<Inner>(ctx, -beta, -beta + 1, depth - r, ply + 1, !node.cut);
        self.unmake_null();
        if self.stopped {
            return Some(0);
        }
        if score < beta {
            return None;
        }
        let score = if score >= DECISIVE_BOUND { beta } else { score };
        if depth < nmp_verify_depth() || self.nmp_min_ply != 0 {
            return Some(score);
        }
        self.nmp_min_ply = ply + nmp_verification_plies(depth - r);
        self.nmp_color = self.board().side_to_move();
        let verified = self.search::<Inner>(ctx, beta - 1, beta, depth - r, ply, false);
        self.nmp_min_ply = 0;
        (verified >= beta).then_some(score)
    }
}

/// What Step 9 does with a move.
enum Pruning {
    /// Search it.
    Search,
    /// Skip it.
    Skip,
    /// Skip it and every later quiet move that does not give check.
    SkipQuiets,
}

/// The outcome of a singular-extension test.
enum Singular {
    /// Extend the hash move by this many plies (negative: reduce it).
    Extend(i32),
    /// Another move beats beta too: the node fails high with this score.
    MultiCut(i32),
}

/// Late move pruning: enough quiet moves were tried at `node` that the rest
/// (checks aside) are skipped. Once true it stays true at the node, as
/// `moves_tried` only grows.
#[inline(always)]
fn late_move_pruning(node: &Node, moves_tried: usize) -> bool {
    node.depth <= lmp_max_depth() && moves_tried >= lmp_limit(node.depth, node.improving)
}

/// Step 11. The depth of the null-window re-search of a reduced move that
/// scored `score` above alpha, after a search to `new_depth` was planned: a ply
/// deeper when it beat `best` (the best score so far) by far, a ply shallower
/// when barely.
#[inline(always)]
fn re_search_depth(new_depth: i32, score: i32, best: i32) -> i32 {
    let deeper = score > best + lmr_deeper_margin() + lmr_deeper_per_depth() * new_depth;
    let shallower = score < best + lmr_shallower_margin();
    new_depth + i32::from(deeper) - i32::from(shallower)
}

/// Whether the side to move faces a threat its static evaluation may not see:
/// one of its pieces is threatened (`Board::threatened`) or an enemy pawn is one
/// or two steps from promoting. Reverse futility does not cut such a node.
fn threat_pending(board: &Board) -> bool {
    let us = board.side_to_move();
    !board.threatened(us).is_empty() || !board.advanced_enemy_pawns(us).is_empty()
}

#[cfg(test)]
mod tests {
    use super::threat_pending;
    use board::Board;

    fn pending(fen: &str) -> bool {
        threat_pending(&Board::from_fen(fen).expect("test FEN"))
    }

    #[test]
    fn threats_are_those_of_the_side_to_move() {
        // The white knight on d5 is attacked by the c6 pawn.
        assert!(pending("4k3/8/2p5/3N4/4P3/8/8/4K3 w - - 0 1"));
        assert!(!pending("4k3/8/2p5/3N4/4P3/8/8/4K3 b - - 0 1"));
        // A black pawn on b2 threatens to promote, whoever has pieces.
        assert!(pending("4k3/8/8/8/8/8/1p6/4K3 w - - 0 1"));
        assert!(!pending("4k3/8/8/8/8/8/1p6/4K3 b - - 0 1"));
        assert!(!pending("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
    }
}
