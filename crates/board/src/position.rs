//! `Position`: a stack of boards (copy-make) with the game's history, for
//! repetition detection and the fifty-move rule.

use crate::{Board, Move};

/// A board with the history that led to it. [`Position::push`] plays a move
/// (copying the board), [`Position::pop`] takes it back.
#[derive(Clone, Debug)]
pub struct Position {
    stack: Vec<Board>,
}

impl Position {
    /// A position with no history before `board`.
    pub fn new(board: Board) -> Position {
        let mut stack = Vec::with_capacity(512);
        stack.push(board);
        Position { stack }
    }

    /// The current board.
    #[inline(always)]
    pub fn board(&self) -> &Board {
        // The stack always holds the root board: `pop` never removes it.
        &self.stack[self.stack.len() - 1]
    }

    /// The board before the last move, or `None` at the root.
    #[inline(always)]
    pub fn previous_board(&self) -> Option<&Board> {
        self.stack.len().checked_sub(2).map(|i| &self.stack[i])
    }

    /// The number of moves played since the root (including null moves).
    #[inline(always)]
    pub fn ply_count(&self) -> usize {
        self.stack.len() - 1
    }

    /// Plays a legal move.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        let mut next = *self.board();
        next.play_unchecked(mv);
        self.stack.push(next);
    }

    /// Passes the turn (null move).
    #[inline(always)]
    pub fn push_null(&mut self) {
        let mut next = *self.board();
        next.play_null();
        self.stack.push(next);
    }

    /// Takes back the last move; the root board is never removed.
    #[inline(always)]
    pub fn pop(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    /// Forgets the history: the current board becomes the root.
    pub fn truncate_history(&mut self) {
        let board = *self.board();
        self.stack.clear();
        self.stack.push(board);
    }

    /// How many earlier positions, within the reversible part of the history,
    /// have the current key (0 if none).
    pub fn repetitions(&self) -> usize {
        let current = self.board();
        let window = (current.halfmove_clock() as usize).min(self.stack.len() - 1);
        let n = self.stack.len();
        (4..=window)
            .step_by(2)
            .filter(|&back| self.stack[n - 1 - back].key() == current.key())
            .count()
    }

    /// Whether the current position occurred before (a search treats this as a draw).
    #[inline]
    pub fn is_repetition(&self) -> bool {
        let current = self.board();
        let window = (current.halfmove_clock() as usize).min(self.stack.len() - 1);
        let n = self.stack.len();
        (4..=window).step_by(2).any(|back| self.stack[n - 1 - back].key() == current.key())
    }

    /// Whether the game is drawn by rule here: threefold repetition, the fifty-move
    /// rule (unless the side to move is mated) or insufficient material.
    pub fn is_draw_by_rule(&self) -> bool {
        self.repetitions() >= 2 || self.is_drawn_by_material_or_fifty_moves()
    }

    /// Whether a search scores this position a draw: the rules of
    /// [`Position::is_draw_by_rule`], except that a position is a draw at its
    /// first return (a line that repeats once can repeat again, so the search
    /// need not play the third occurrence to know). The one draw test of the
    /// search and of its quiescence.
    #[inline]
    pub fn is_draw_in_search(&self) -> bool {
        self.is_repetition() || self.is_drawn_by_material_or_fifty_moves()
    }

    /// Insufficient material, or the fifty-move rule (unless the side to move is mated).
    #[inline]
    fn is_drawn_by_material_or_fifty_moves(&self) -> bool {
        let board = self.board();
        board.is_insufficient_material()
            || (board.halfmove_clock() >= 100 && (!board.in_check() || board.has_legal_move()))
    }
}
