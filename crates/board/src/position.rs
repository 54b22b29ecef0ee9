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

    /// Whether the side to move can repeat a position with its next move, or
    /// already could have within the search: an upcoming repetition, which a
    /// search may score as a draw before the move is played (Stockfish's
    /// `has_game_cycle`, from Marcel van Kervinck's cuckoo tables).
    ///
    /// It looks for an earlier position, of the other side to move, an odd number of plies back within the reversible part of the
    /// game, that differs from this one by one reversible move
    /// ([`zobrist::reversible_move`](crate::zobrist::reversible_move)) whose
    /// path is clear. `ply` is the search's distance from its root: a cycle
    /// that closes inside the search counts at once; one that reaches back
    /// before the root counts only when the move is the side to move's and that
    /// earlier position had itself occurred before (so a draw the game's rules
    /// would not yet give is not assumed).
    pub fn has_upcoming_repetition(&self, ply: usize) -> bool {
        let current = self.board();
        let n = self.stack.len();
        let window = (current.halfmove_clock() as usize).min(n - 1);
        let occupied = current.occupied();
        for back in (3..=window).step_by(2) {
            let earlier = &self.stack[n - 1 - back];
            let Some((s1, s2)) = crate::zobrist::reversible_move(current.key() ^ earlier.key())
            else {
                continue;
            };
            if (crate::between(s1, s2) & occupied).any() {
                continue;
            }
            if ply > back {
                return true;
            }
            let piece_square = if occupied.has(s1) { s1 } else { s2 };
            if current.color_on(piece_square) == Some(current.side_to_move())
                && self.occurred_before(n - 1 - back)
            {
                return true;
            }
        }
        false
    }

    /// Whether the board at `index` of the stack repeats an earlier one within
    /// its reversible part.
    fn occurred_before(&self, index: usize) -> bool {
        let board = &self.stack[index];
        let window = (board.halfmove_clock() as usize).min(index);
        (4..=window).step_by(2).any(|back| self.stack[index - back].key() == board.key())
    }

    /// Insufficient material, or the fifty-move rule (unless the side to move is mated).
    #[inline]
    fn is_drawn_by_material_or_fifty_moves(&self) -> bool {
        let board = self.board();
        board.is_insufficient_material()
            || (board.halfmove_clock() >= 100 && (!board.in_check() || board.has_legal_move()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &[&str]) -> Position {
        let mut position = Position::new(Board::startpos());
        for m in moves {
            let mv = position.board().parse_uci_move(m, false).expect("legal move");
            position.push(mv);
        }
        position
    }

    #[test]
    fn a_move_back_to_an_earlier_position_is_seen_before_it_is_played() {
        // Black's Nf6-g8 would repeat the start position.
        let position = play(&["g1f3", "g8f6", "f3g1"]);
        assert!(position.has_upcoming_repetition(4), "inside the search: a cycle at once");
        // Before the root the start position has not occurred twice: no draw yet.
        assert!(!position.has_upcoming_repetition(0));
        // Once it has, the upcoming repetition before the root counts too.
        let twice = play(&["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]);
        assert!(twice.has_upcoming_repetition(0));
        // No cycle where no single move undoes the difference.
        assert!(!play(&["g1f3", "g8f6"]).has_upcoming_repetition(4));
        assert!(!play(&["e2e4", "e7e5", "g1f3"]).has_upcoming_repetition(4));
    }

    #[test]
    fn a_blocked_path_is_no_cycle() {
        // The rook goes a1-a2-c2-c1 while the black king walks e8-d8-d7-e7-e8:
        // only Rc1-a1 would repeat an earlier position (the first), unless b1
        // is occupied.
        let cycle = |fen: &str| {
            let mut position = Position::new(Board::from_fen(fen).expect("test FEN"));
            for m in ["e8d8", "a1a2", "d8d7", "a2c2", "d7e7", "c2c1", "e7e8"] {
                let mv = position.board().parse_uci_move(m, false).expect("legal move");
                position.push(mv);
            }
            position.has_upcoming_repetition(10)
        };
        assert!(cycle("4k3/8/8/8/8/8/8/R3K1N1 b - - 0 1"), "a clear path");
        assert!(!cycle("4k3/8/8/8/8/8/8/RN2K3 b - - 0 1"), "the knight on b1 blocks");
    }
}
