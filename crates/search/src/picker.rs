//! The staged move picker: the hash move first, then good captures (MVV-LVA,
//! split by SEE), killers, the counter-move, quiet moves by history, and bad
//! captures last. Moves are generated only when a stage needs them.

use crate::history::{Histories, PieceTo};
use board::{Board, MAX_MOVES, Move, MoveList, Piece, StackList, see_value};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    HashMove,
    GenerateNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    GenerateQuiet,
    Quiet,
    BadNoisy,
    Done,
}

/// What the picker knows of the node besides the board.
pub struct PickerContext<'a> {
    /// The search's move-ordering tables.
    pub histories: &'a Histories,
    /// The moves played one and two plies before (for continuation history and counter-moves).
    pub prev: [PieceTo; 2],
    /// The killers of this ply.
    pub killers: [Move; 2],
    /// Whether captures are ordered by capture history too (not MVV-LVA alone).
    pub capture_history: bool,
}

/// Hands out the legal moves of a position, best-looking first.
pub struct MovePicker {
    stage: Stage,
    hash_move: Move,
    killers: [Move; 2],
    counter: Move,
    noisy_only: bool,
    moves: MoveList,
    /// `scores[i]` orders `moves[i]`.
    scores: StackList<i32, MAX_MOVES>,
    index: usize,
    bad: MoveList,
    bad_index: usize,
}

/// Whether `mv` captures or promotes.
#[inline(always)]
pub fn is_noisy(board: &Board, mv: Move) -> bool {
    mv.is_en_passant()
        || mv.promotion().is_some()
        || (!mv.is_castling() && board.piece_on(mv.to()).is_some())
}

impl MovePicker {
    /// A picker for the main search. `hash_move` must be legal or [`Move::NULL`].
    pub fn new(board: &Board, hash_move: Move, ctx: &PickerContext) -> MovePicker {
        let counter = ctx.histories.counter(ctx.prev[0]);
        let legal_quiet =
            |m: Move| !m.is_null() && m != hash_move && !is_noisy(board, m) && board.is_legal(m);
        let k0 = if legal_quiet(ctx.killers[0]) { ctx.killers[0] } else { Move::NULL };
        let k1 = if legal_quiet(ctx.killers[1]) && ctx.killers[1] != k0 {
            ctx.killers[1]
        } else {
            Move::NULL
        };
        let counter = if legal_quiet(counter) && counter != k0 && counter != k1 {
            counter
        } else {
            Move::NULL
        };
        MovePicker::with(hash_move, [k0, k1], counter, false)
    }

    /// A picker for quiescence search: captures and promotions only (all moves
    /// when in check). Bad captures are not returned.
    pub fn new_noisy(board: &Board, hash_move: Move) -> MovePicker {
        let hash_move =
            if board.in_check() || is_noisy(board, hash_move) { hash_move } else { Move::NULL };
        MovePicker::with(hash_move, [Move::NULL; 2], Move::NULL, !board.in_check())
    }

    fn with(hash_move: Move, killers: [Move; 2], counter: Move, noisy_only: bool) -> MovePicker {
        MovePicker {
            stage: if hash_move.is_null() { Stage::GenerateNoisy } else { Stage::HashMove },
            hash_move,
            killers,
            counter,
            noisy_only,
            moves: MoveList::new(),
            scores: StackList::new(),
            index: 0,
            bad: MoveList::new(),
            bad_index: 0,
        }
    }

    /// Whether the move just returned was a killer or the counter-move.
    pub fn is_refutation(&self, mv: Move) -> bool {
        !mv.is_null() && (mv == self.killers[0] || mv == self.killers[1] || mv == self.counter)
    }

    /// The next move, or `None` when all are out.
    pub fn next(&mut self, board: &Board, ctx: &PickerContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::HashMove => {
                    self.stage = Stage::GenerateNoisy;
                    return Some(self.hash_move);
                }
                Stage::GenerateNoisy => {
                    self.moves.clear();
                    if self.noisy_only || !board.in_check() {
                        board.noisy_moves(&mut self.moves);
                    } else {
                        // In check: all evasions, ordered like noisy moves then by history.
                        self.moves = board.legal_moves();
                    }
                    self.scores.clear();
                    for &mv in self.moves.as_slice() {
                        self.scores.push(if is_noisy(board, mv) {
                            noisy_score(board, mv, ctx) + 1_000_000
                        } else {
                            quiet_score(board, mv, ctx)
                        });
                    }
                    self.index = 0;
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    match self.pick_best() {
                        Some(mv) if mv == self.hash_move => continue,
                        Some(mv) => {
                            if board.in_check() && !self.noisy_only {
                                return Some(mv);
                            }
                            if board.see_ge(mv, 0) {
                                return Some(mv);
                            }
                            if !self.noisy_only {
                                self.bad.push(mv);
                            }
                            continue;
                        }
                        None => {}
                    }
                    // In check every move was in the first list; in quiescence we are done.
                    self.stage = if self.noisy_only || board.in_check() {
                        Stage::Done
                    } else {
                        Stage::Killer1
                    };
                }
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    if !self.killers[0].is_null() {
                        return Some(self.killers[0]);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    if !self.killers[1].is_null() {
                        return Some(self.killers[1]);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenerateQuiet;
                    if !self.counter.is_null() {
                        return Some(self.counter);
                    }
                }
                Stage::GenerateQuiet => {
                    self.moves.clear();
                    board.quiet_moves(&mut self.moves);
                    self.scores.clear();
                    for &mv in self.moves.as_slice() {
                        self.scores.push(quiet_score(board, mv, ctx));
                    }
                    self.index = 0;
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if let Some(mv) = self.pick_best() {
                        if mv == self.hash_move || self.is_refutation(mv) {
                            continue;
                        }
                        return Some(mv);
                    }
                    self.stage = Stage::BadNoisy;
                }
                Stage::BadNoisy => {
                    if self.bad_index < self.bad.len() {
                        self.bad_index += 1;
                        return Some(self.bad[self.bad_index - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Selection sort step: swaps the best remaining move to `index` and returns it.
    fn pick_best(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.index >= n {
            return None;
        }
        let scores = self.scores.as_mut_slice();
        let mut best = self.index;
        let mut best_score = scores[best];
        for (i, &score) in scores.iter().enumerate().skip(self.index + 1) {
            if score > best_score {
                (best, best_score) = (i, score);
            }
        }
        scores.swap(self.index, best);
        self.moves.as_mut_slice().swap(self.index, best);
        self.index += 1;
        Some(self.moves[self.index - 1])
    }
}

/// Most valuable victim, least valuable attacker; promotions by the new piece.
#[inline]
fn mvv_lva(board: &Board, mv: Move) -> i32 {
    let victim = if mv.is_en_passant() {
        see_value(Piece::Pawn)
    } else {
        board.piece_on(mv.to()).map_or(0, see_value)
    };
    let attacker = board.piece_on(mv.from()).map_or(0, |p| p as i32);
    let promo = mv.promotion().map_or(0, |p| if p == Piece::Queen { see_value(p) } else { -2000 });
    victim * 8 + promo - attacker
}

/// A capture's or promotion's order: MVV-LVA, refined by capture history.
#[inline]
fn noisy_score(board: &Board, mv: Move, ctx: &PickerContext) -> i32 {
    let mut score = mvv_lva(board, mv);
    if ctx.capture_history {
        let piece = board.piece_on(mv.from()).unwrap_or(Piece::Pawn);
        let pt = PieceTo::new(board.side_to_move(), piece, mv.to());
        score = score * 4 + ctx.histories.capture(board, pt, mv) / 8;
    }
    score
}

#[inline]
fn quiet_score(board: &Board, mv: Move, ctx: &PickerContext) -> i32 {
    let us = board.side_to_move();
    let piece = board.piece_on(mv.from()).unwrap_or(Piece::Pawn);
    let pt = PieceTo::new(us, piece, mv.to());
    ctx.histories.butterfly(us, mv)
        + ctx.histories.continuation(ctx.prev[0], pt)
        + ctx.histories.continuation(ctx.prev[1], pt)
}
