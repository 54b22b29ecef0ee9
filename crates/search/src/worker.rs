//! One search thread's state and its alpha-beta search.
//!
//! Every thread of the Lazy SMP pool owns a [`Worker`]: its own position,
//! stack, principal-variation table, histories and pawn cache. Threads share
//! only the transposition table, the stop flag and their published node counts.

use crate::history::{Histories, PieceTo};
use crate::params::*;
use crate::picker::{MovePicker, PickerContext, is_noisy};
use crate::stop::StopCheck;
use board::{Board, Move, Piece, Position};
use eval::PawnCache;
use tt::{Bound, MATE, MATE_BOUND, Record, TranspositionTable, from_tt_score, to_tt_score};

/// A score above any real one.
pub const INFINITY: i32 = MATE + 1;
/// The static evaluation slot of a node in check (no evaluation is made there).
const NO_EVAL: i32 = -INFINITY;

/// Per-ply search state.
#[derive(Clone, Copy)]
struct Frame {
    static_eval: i32,
    /// The move made from this ply (to reach ply + 1), for continuation history.
    moved: PieceTo,
}

/// What a search needs from outside its thread, for one `go`.
pub(crate) struct SearchContext<'a> {
    /// The shared table.
    pub tt: &'a TranspositionTable,
    /// When this search stops.
    pub stop: StopCheck<'a>,
    /// Which techniques are on.
    pub features: crate::Features,
}

/// A search thread's private state.
pub struct Worker {
    pub(crate) position: Position,
    pub(crate) histories: Box<Histories>,
    pawn_cache: PawnCache,
    frames: Vec<Frame>,
    pv: Box<[[Move; MAX_SEARCH_PLY + 1]; MAX_SEARCH_PLY + 1]>,
    pv_len: [usize; MAX_SEARCH_PLY + 1],
    /// Nodes searched in the current `go`.
    pub nodes: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// Root moves this search may play.
    pub(crate) root_moves: Vec<Move>,
    /// Root moves already reported as better MultiPV lines in this iteration.
    pub(crate) excluded_root: Vec<Move>,
    stopped: bool,
    /// Depth of the current root iteration (bounds the extensions).
    root_depth: i32,
    /// The latest root move of the current iteration that was fully searched and raised
    /// alpha (or failed high), with its score and reply: usable if the iteration is cut short.
    partial_root: Option<PartialRoot>,
}

/// A root move that beat every move searched before it in an unfinished iteration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PartialRoot {
    /// The move.
    pub best: Move,
    /// The expected reply, if the line has one.
    pub ponder: Option<Move>,
    /// Its score: exact if inside the window, a lower bound after a fail high.
    pub score: i32,
}

impl Default for Worker {
    fn default() -> Self {
        Worker::new()
    }
}

impl Worker {
    /// A fresh worker at the start position.
    pub fn new() -> Worker {
        Worker {
            position: Position::new(Board::startpos()),
            histories: Box::default(),
            pawn_cache: PawnCache::default(),
            frames: vec![Frame { static_eval: NO_EVAL, moved: PieceTo::NONE }; MAX_SEARCH_PLY + 4],
            pv: Box::new([[Move::NULL; MAX_SEARCH_PLY + 1]; MAX_SEARCH_PLY + 1]),
            pv_len: [0; MAX_SEARCH_PLY + 1],
            nodes: 0,
            seldepth: 0,
            root_moves: Vec::new(),
            excluded_root: Vec::new(),
            stopped: false,
            root_depth: 0,
            partial_root: None,
        }
    }

    /// Forgets learned move ordering (for `ucinewgame`).
    pub fn clear(&mut self) {
        self.histories.clear();
        self.pawn_cache = PawnCache::default();
    }

    /// Prepares a new search from `position`, restricted to `search_moves` if not empty.
    pub fn prepare(&mut self, position: &Position, search_moves: &[Move]) {
        self.position = position.clone();
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        let legal = self.position.board().legal_moves();
        self.root_moves = legal
            .iter()
            .copied()
            .filter(|m| search_moves.is_empty() || search_moves.contains(m))
            .collect();
        if self.root_moves.is_empty() {
            self.root_moves = legal.to_vec();
        }
        self.excluded_root.clear();
        for k in self.histories.killers.iter_mut() {
            *k = [Move::NULL; 2];
        }
    }

    /// The principal variation of the last root search.
    pub fn root_pv(&self) -> &[Move] {
        &self.pv[0][..self.pv_len[0]]
    }

    /// Whether the last search was interrupted by the stop flag.
    pub fn was_stopped(&self) -> bool {
        self.stopped
    }

    /// After an interrupted iteration: the best root move it had fully searched, if any
    /// beat the moves before it (including a fail high of the aspiration window).
    pub(crate) fn partial_root(&self) -> Option<PartialRoot> {
        self.partial_root
    }

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
        self.partial_root = None;
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = if ctx.features.aspiration
            && depth >= ASPIRATION_MIN_DEPTH
            && previous.abs() < MATE_BOUND
        {
            ((previous - delta).max(-INFINITY), (previous + delta).min(INFINITY))
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.search(ctx, alpha, beta, depth, 0, false);
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
            delta += delta / 2;
            if delta > ASPIRATION_MAX_WINDOW {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    #[inline(always)]
    fn board(&self) -> &Board {
        self.position.board()
    }

    /// Decides whether to stop and, if not, counts the node about to be searched.
    #[inline(always)]
    fn visit(&mut self, ctx: &SearchContext) -> bool {
        let stop = ctx.stop.enter_node(&mut self.nodes);
        if stop {
            self.stopped = true;
        }
        stop
    }

    fn is_draw(&self) -> bool {
        let board = self.board();
        board.is_insufficient_material()
            || self.position.is_repetition()
            || (board.halfmove_clock() >= 100 && (!board.in_check() || board.has_legal_move()))
    }

    fn evaluate(&mut self) -> i32 {
        let board = *self.position.board();
        eval::evaluate(&board, &mut self.pawn_cache)
    }

    #[inline(always)]
    fn piece_to(&self, mv: Move) -> PieceTo {
        let board = self.board();
        let piece = board.piece_on(mv.from()).unwrap_or(Piece::Pawn);
        PieceTo::new(
            board.side_to_move(),
            piece,
            if mv.is_castling() { mv.from() } else { mv.to() },
        )
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Principal variation search. PV nodes have `beta - alpha > 1`.
    pub(crate) fn search(
        &mut self,
        ctx: &SearchContext,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.pv_len[ply] = ply;
        if depth <= 0 {
            return self.qsearch(ctx, alpha, beta, ply, true);
        }
        if self.visit(ctx) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.board().in_check();

        if !root {
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
        // stored depth is enough and the bound allows it.
        let key = self.board().key();
        let hit = ctx.tt.probe(key);
        let mut hash_move = Move::NULL;
        if let Some(h) = hit {
            let mv = Move::from_bits(h.mv);
            if self.board().is_legal(mv) {
                hash_move = mv;
            }
            let score = from_tt_score(h.score, ply as i32);
            if !pv_node
                && h.depth >= depth
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                    Bound::None => false,
                }
            {
                return score;
            }
        }
        if root && !self.root_moves.contains(&hash_move) {
            hash_move = Move::NULL;
        }

        // Step 4. Static evaluation (the table's stored eval saves a call; its score refines it).
        let static_eval = if in_check {
            NO_EVAL
        } else {
            match hit {
                Some(h) => h.eval,
                None => self.evaluate(),
            }
        };
        let mut eval = static_eval;
        if let Some(h) = hit
            && !in_check
        {
            let score = from_tt_score(h.score, ply as i32);
            if score.abs() < MATE_BOUND
                && match h.bound {
                    Bound::Lower => score > eval,
                    Bound::Upper => score < eval,
                    Bound::Exact => true,
                    Bound::None => false,
                }
            {
                eval = score;
            }
        }
        self.frames[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.frames[ply - 2].static_eval != NO_EVAL
            && static_eval > self.frames[ply - 2].static_eval;
        if !root {
            self.histories.killers[ply + 1] = [Move::NULL; 2];
        }

        if !pv_node && !in_check && !root {
            // Step 5. Reverse futility pruning: far above beta at low depth, assume the cut.
            if ctx.features.rfp
                && depth <= RFP_MAX_DEPTH
                && eval.abs() < MATE_BOUND
                && eval - RFP_MARGIN * (depth - improving as i32) >= beta
            {
                return (eval + beta) / 2;
            }

            // Step 6. Null move pruning: if passing still beats beta, a real move will too.
            // Guarded against zugzwang: only with pieces besides pawns, and verified at depth.
            let prev_null = ply > 0 && self.frames[ply - 1].moved == PieceTo::NONE;
            let us = self.board().side_to_move();
            if ctx.features.nmp
                && depth >= NMP_MIN_DEPTH
                && eval >= beta
                && !prev_null
                && beta.abs() < MATE_BOUND
                && self.board().has_non_pawn_material(us)
            {
                let r = nmp_reduction(depth, eval - beta);
                self.frames[ply].moved = PieceTo::NONE;
                self.position.push_null();
                let score = -self.search(ctx, -beta, -beta + 1, depth - r, ply + 1, !cut_node);
                self.position.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    let score = if score >= MATE_BOUND { beta } else { score };
                    if depth < NMP_VERIFY_DEPTH {
                        return score;
                    }
                    // Verification search without the null move at this node's children.
                    let verified = self.search(ctx, beta - 1, beta, depth - r, ply, false);
                    if verified >= beta {
                        return score;
                    }
                }
            }
        }

        // Step 7. Internal iterative reduction: without a hash move this node is probably
        // less important than its depth says; search it shallower.
        if ctx.features.iir
            && hash_move.is_null()
            && depth >= IIR_MIN_DEPTH
            && (pv_node || cut_node)
        {
            depth -= 1;
        }

        // Step 8. The move loop.
        let prev = [
            if ply >= 1 { self.frames[ply - 1].moved } else { PieceTo::NONE },
            if ply >= 2 { self.frames[ply - 2].moved } else { PieceTo::NONE },
        ];
        let killers = self.histories.killers[ply];
        let mut picker = {
            let ctx_p = PickerContext { histories: &self.histories, prev, killers };
            MovePicker::new(self.board(), hash_move, &ctx_p)
        };
        let us = self.board().side_to_move();
        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        let mut moves_tried = 0usize;
        let mut quiets_tried: [(Move, PieceTo); 64] = [(Move::NULL, PieceTo::NONE); 64];
        let mut quiet_count = 0usize;
        let original_alpha = alpha;

        loop {
            let mv = {
                let ctx_p = PickerContext { histories: &self.histories, prev, killers };
                match picker.next(self.board(), &ctx_p) {
                    Some(mv) => mv,
                    None => break,
                }
            };
            if root && (!self.root_moves.contains(&mv) || self.excluded_root.contains(&mv)) {
                continue;
            }
            let board = *self.board();
            let noisy = is_noisy(&board, mv);
            let pt = self.piece_to(mv);
            let history = if noisy {
                0
            } else {
                self.histories.butterfly(us, mv)
                    + self.histories.continuation(prev[0], pt)
                    + self.histories.continuation(prev[1], pt)
            };
            let base_reduction = LMR[depth.min(63) as usize][moves_tried.min(63)];

            let gives_check = board.gives_check(mv);

            // Step 9. Pruning at shallow depth, once a line that avoids mate is known.
            if !root && best_score > -MATE_BOUND && board.has_non_pawn_material(us) {
                let lmr_depth = (depth - 1 - base_reduction).max(0);
                if !noisy && !gives_check {
                    // Late move pruning: enough quiet moves were tried here.
                    if ctx.features.lmp
                        && depth <= LMP_MAX_DEPTH
                        && moves_tried >= lmp_limit(depth, improving)
                    {
                        continue;
                    }
                    // Futility: this quiet move cannot lift the static eval to alpha.
                    if ctx.features.futility
                        && !in_check
                        && lmr_depth <= FUTILITY_MAX_DEPTH
                        && static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * lmr_depth <= alpha
                    {
                        continue;
                    }
                    // SEE: the quiet move loses material on its square.
                    if ctx.features.see
                        && !board.see_ge(mv, SEE_QUIET_MARGIN * lmr_depth * lmr_depth)
                    {
                        continue;
                    }
                } else if ctx.features.see
                    && !gives_check
                    && depth <= SEE_NOISY_MAX_DEPTH
                    && !board.see_ge(mv, SEE_NOISY_MARGIN * depth)
                {
                    // Captures that lose too much material (checks are kept: sacrifices).
                    continue;
                }
            }

            // Step 10. Check extension (bounded by twice the iteration's depth).
            let extension = i32::from(
                ctx.features.check_extension
                    && gives_check
                    && (ply as i32) < extension_ply_limit(self.root_depth),
            );
            let new_depth = depth - 1 + extension;

            self.frames[ply].moved = pt;
            self.position.push(mv);
            moves_tried += 1;

            // Step 11. Principal variation search with late move reductions.
            let score = if moves_tried == 1 {
                -self.search(ctx, -beta, -alpha, new_depth, ply + 1, false)
            } else {
                let mut r = 0;
                if ctx.features.lmr
                    && depth >= LMR_MIN_DEPTH
                    && moves_tried > 1 + root as usize
                    && (!noisy || !pv_node)
                {
                    r = base_reduction;
                    r += i32::from(!pv_node) + i32::from(cut_node) + i32::from(!improving);
                    r -= i32::from(gives_check) + i32::from(picker.is_refutation(mv));
                    r -= history / LMR_HISTORY_DIVISOR;
                    if noisy {
                        r /= 2;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut score = -self.search(ctx, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.search(ctx, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                // A null-window fail high inside the window: re-search with this node's own
                // (alpha, beta), never with the returned score as the new bound.
                if pv_node && score > alpha && score < beta {
                    score = -self.search(ctx, -beta, -alpha, new_depth, ply + 1, false);
                }
                score
            };
            self.position.pop();
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
                    if root {
                        let ponder = (self.pv_len[0] > 1).then(|| self.pv[0][1]);
                        self.partial_root = Some(PartialRoot { best: mv, ponder, score });
                    }
                    alpha = score;
                    if score >= beta {
                        if !noisy {
                            self.histories.update_quiet(
                                us,
                                ply,
                                (mv, pt),
                                &quiets_tried[..quiet_count],
                                prev,
                                depth,
                            );
                        }
                        break;
                    }
                }
            }
            if !noisy && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = (mv, pt);
                quiet_count += 1;
            }
        }

        // Step 12. No move searched: mate or stalemate (pruning starts only after the
        // first move, so an empty loop means no legal move; at the root, all excluded).
        if moves_tried == 0 {
            return if root && !self.root_moves.is_empty() {
                -INFINITY
            } else if in_check {
                -MATE + ply as i32
            } else {
                0
            };
        }

        // Step 13. Store the result.
        let bound = if best_score >= beta {
            Bound::Lower
        } else if pv_node && best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !root || self.excluded_root.is_empty() {
            let mv = if best_move.is_null() { hash_move } else { best_move };
            ctx.tt.store(
                key,
                &Record {
                    mv: mv.bits(),
                    score: to_tt_score(best_score, ply as i32),
                    eval: if static_eval == NO_EVAL { 0 } else { static_eval },
                    depth,
                    bound,
                    pv: pv_node,
                },
            );
        }
        best_score
    }

    /// Quiescence search: captures and promotions (all evasions in check) until quiet;
    /// at its first ply (`checks`) also quiet moves that give check without losing material.
    fn qsearch(
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
        if self.board().is_insufficient_material() || (self.position.is_repetition() && ply > 0) {
            return 0;
        }
        if ply >= MAX_SEARCH_PLY {
            return if in_check { 0 } else { self.evaluate() };
        }
        let key = self.board().key();
        let hit = ctx.tt.probe(key);
        let mut hash_move = Move::NULL;
        if let Some(h) = hit {
            let score = from_tt_score(h.score, ply as i32);
            if !pv_node
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                    Bound::None => false,
                }
            {
                return score;
            }
            let mv = Move::from_bits(h.mv);
            if self.board().is_legal(mv) {
                hash_move = mv;
            }
        }

        let static_eval;
        let mut best_score;
        if in_check {
            static_eval = NO_EVAL;
            best_score = -INFINITY;
        } else {
            static_eval = match hit {
                Some(h) => h.eval,
                None => self.evaluate(),
            };
            best_score = static_eval;
            if best_score >= beta {
                return best_score;
            }
            alpha = alpha.max(best_score);
        }

        let mut picker = MovePicker::new_noisy(self.board(), hash_move);
        let prev = [PieceTo::NONE; 2];
        let mut best_move = Move::NULL;
        let mut moves_tried = 0;
        let mut quiet_checks = board::MoveList::new();
        let mut next_check = 0;
        let mut picker_done = false;
        loop {
            let mv = if !picker_done {
                let ctx_p =
                    PickerContext { histories: &self.histories, prev, killers: [Move::NULL; 2] };
                match picker.next(self.board(), &ctx_p) {
                    Some(mv) => mv,
                    None => {
                        picker_done = true;
                        if checks && !in_check {
                            self.board().quiet_moves(&mut quiet_checks);
                        }
                        continue;
                    }
                }
            } else {
                // Quiet checks (first quiescence ply only), skipping the hash move already tried.
                let Some(&mv) = quiet_checks.get(next_check) else { break };
                next_check += 1;
                let board = self.board();
                if mv == hash_move || !board.gives_check(mv) || !board.see_ge(mv, 0) {
                    continue;
                }
                mv
            };
            if !in_check && !self.board().see_ge(mv, 0) {
                continue;
            }
            moves_tried += 1;
            self.position.push(mv);
            let score = -self.qsearch(ctx, -beta, -alpha, ply + 1, false);
            self.position.pop();
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
        let bound = if best_score >= beta { Bound::Lower } else { Bound::Upper };
        ctx.tt.store(
            key,
            &Record {
                mv: best_move.bits(),
                score: to_tt_score(best_score, ply as i32),
                eval: if static_eval == NO_EVAL { 0 } else { static_eval },
                depth: 0,
                bound,
                pv: pv_node,
            },
        );
        best_score
    }
}
