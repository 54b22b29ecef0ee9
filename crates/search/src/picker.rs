//! The staged move picker: the hash move first, then good captures (MVV-LVA,
//! split by SEE), killers, the counter-move, quiet moves by history, and bad
//! captures last; in quiescence, good captures and, at its first ply, quiet
//! checks. Moves are generated only when a stage needs them.

use crate::history::{Histories, PieceTo, QuietKeys};
use crate::params::{
    capture_order_history_divisor, capture_order_mvv_weight, good_see_threshold, mvv_victim_weight,
    noisy_evasion_bonus, order_threat_minor, order_threat_queen, order_threat_rook,
    underpromotion_order,
};
use board::{
    Board, CheckSquares, LesserAttacks, MAX_MOVES, Move, MoveList, Piece, StackList, see_value,
};

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
    GenerateQuietChecks,
    QuietChecks,
    Done,
}

/// How the main search orders a node's moves, besides the board and the
/// histories: built once per node.
#[derive(Clone, Copy)]
pub struct PickerContext {
    /// Where quiet moves are read in the histories (the last move: counter-moves).
    pub keys: QuietKeys,
    /// The killers of this ply.
    pub killers: [Move; 2],
    /// The opponent's attacks by its cheaper pieces: quiet moves are ordered
    /// by these threats too.
    pub lesser_attacks: LesserAttacks,
}

/// Hands out the legal moves of a position, best-looking first.
pub struct MovePicker {
    stage: Stage,
    /// The table's move: played first (in quiescence only if it is noisy or
    /// the side is in check), and never handed out again.
    hash_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// Where quiet moves are read in the histories.
    keys: QuietKeys,
    /// The opponent's attacks by its cheaper pieces, for the threat term of
    /// quiet moves (`None` in quiescence, which hands out no quiet move but
    /// evasions and checks).
    lesser_attacks: Option<LesserAttacks>,
    /// Quiescence outside check: captures and promotions only, bad ones dropped.
    noisy_only: bool,
    /// Quiescence's first ply: quiet checks after the captures.
    quiet_checks: bool,
    /// The checks of the position, for the quiet-check stage and for
    /// `quiet_checks_only`.
    check_squares: Option<CheckSquares>,
    /// Pruning skips the rest of the quiet moves: of those still to come only
    /// the checks are handed out (the search would skip every other one).
    quiet_checks_only: bool,
    /// Set with `quiet_checks_only`: the quiet moves still to come are to be
    /// searched for a check once, and dropped at once if they hold none.
    look_for_quiet_checks: bool,
    moves: MoveList,
    /// `scores[i]` orders `moves[i]`.
    scores: StackList<i32, MAX_MOVES>,
    index: usize,
    bad: MoveList,
    bad_index: usize,
}

impl MovePicker {
    /// A picker for the main search. `hash_move` must be legal or [`Move::NULL`].
    pub fn new(
        board: &Board,
        hash_move: Move,
        histories: &Histories,
        ctx: PickerContext,
    ) -> MovePicker {
        let counter = histories.counter(ctx.keys.prev[0]);
        let legal_quiet =
            |m: Move| !m.is_null() && m != hash_move && !board.is_noisy(m) && board.is_legal(m);
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
        MovePicker {
            stage: if hash_move.is_null() { Stage::GenerateNoisy } else { Stage::HashMove },
            killers: [k0, k1],
            counter,
            keys: ctx.keys,
            lesser_attacks: Some(ctx.lesser_attacks),
            ..MovePicker::empty(hash_move)
        }
    }

    /// A picker for quiescence search: captures and promotions that do not lose
    /// material, then, with `checks` (its first ply), quiet moves that give check
    /// without losing material; every evasion when in check. Evasions are ordered
    /// without continuation history. `hash_move` must be legal or [`Move::NULL`];
    /// a quiet one is not played (not even as a check) unless in check.
    pub fn quiescence(board: &Board, hash_move: Move, checks: bool) -> MovePicker {
        let in_check = board.in_check();
        let hash_first = !hash_move.is_null() && (in_check || board.is_noisy(hash_move));
        MovePicker {
            stage: if hash_first { Stage::HashMove } else { Stage::GenerateNoisy },
            noisy_only: !in_check,
            quiet_checks: checks && !in_check,
            ..MovePicker::empty(hash_move)
        }
    }

    /// A picker at the first stage with nothing generated yet.
    #[inline(always)]
    fn empty(hash_move: Move) -> MovePicker {
        MovePicker {
            stage: Stage::HashMove,
            hash_move,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            keys: QuietKeys::NONE,
            lesser_attacks: None,
            noisy_only: false,
            quiet_checks: false,
            check_squares: None,
            quiet_checks_only: false,
            look_for_quiet_checks: false,
            moves: MoveList::new(),
            scores: StackList::new(),
            index: 0,
            bad: MoveList::new(),
            bad_index: 0,
        }
    }

    /// From now on, hands out no quiet move that does not give check (the
    /// position's `squares`): the search calls this once late move pruning
    /// or futility skips every later quiet move that does not give check.
    /// Captures, promotions and evasions still come.
    pub fn quiet_checks_only(&mut self, squares: CheckSquares) {
        if !self.quiet_checks_only {
            self.look_for_quiet_checks = true;
        }
        self.quiet_checks_only = true;
        self.check_squares = Some(squares);
    }

    /// Whether the quiet moves from `index` on can still hand one out; the first
    /// time after [`MovePicker::quiet_checks_only`] it looks for a check among
    /// them, so that a list without one is dropped without being sorted.
    #[inline]
    fn quiet_moves_left(&mut self, board: &Board) -> bool {
        if !self.look_for_quiet_checks {
            return true;
        }
        self.look_for_quiet_checks = false;
        self.moves.as_slice()[self.index..].iter().any(|&mv| self.hands_out_quiet(board, mv))
    }

    /// Whether quiet move `mv` is handed out: every one until
    /// [`MovePicker::quiet_checks_only`], then the checks alone.
    #[inline]
    fn hands_out_quiet(&self, board: &Board, mv: Move) -> bool {
        !self.quiet_checks_only
            || self
                .check_squares
                .as_ref()
                .is_some_and(|squares| board.gives_check_with(mv, squares))
    }

    /// Whether the move just returned was a killer or the counter-move.
    pub fn is_refutation(&self, mv: Move) -> bool {
        !mv.is_null() && (mv == self.killers[0] || mv == self.killers[1] || mv == self.counter)
    }

    /// The next move, or `None` when all are out.
    pub fn next(&mut self, board: &Board, histories: &Histories) -> Option<Move> {
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
                    let keys = self.keys;
                    for &mv in self.moves.as_slice() {
                        self.scores.push(if board.is_noisy(mv) {
                            noisy_score(board, mv, histories) + noisy_evasion_bonus()
                        } else {
                            quiet_score(board, mv, histories, &keys)
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
                            if board.see_ge(mv, good_see_threshold()) {
                                return Some(mv);
                            }
                            if !self.noisy_only {
                                self.bad.push(mv);
                            }
                            continue;
                        }
                        None => {}
                    }
                    // In check every move was in the first list; in quiescence only
                    // the quiet checks may follow.
                    self.stage = if self.quiet_checks {
                        Stage::GenerateQuietChecks
                    } else if self.noisy_only || board.in_check() {
                        Stage::Done
                    } else {
                        Stage::Killer1
                    };
                }
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    if !self.killers[0].is_null() && self.hands_out_quiet(board, self.killers[0]) {
                        return Some(self.killers[0]);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    if !self.killers[1].is_null() && self.hands_out_quiet(board, self.killers[1]) {
                        return Some(self.killers[1]);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenerateQuiet;
                    if !self.counter.is_null() && self.hands_out_quiet(board, self.counter) {
                        return Some(self.counter);
                    }
                }
                Stage::GenerateQuiet => {
                    self.moves.clear();
                    board.quiet_moves(&mut self.moves);
                    self.index = 0;
                    if !self.quiet_moves_left(board) {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    self.scores.clear();
                    let keys = self.keys;
                    let lesser = self.lesser_attacks;
                    for &mv in self.moves.as_slice() {
                        let threat = lesser.as_ref().map_or(0, |l| threat_term(board, l, mv));
                        self.scores.push(quiet_score(board, mv, histories, &keys) + threat);
                    }
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if !self.quiet_moves_left(board) {
                        self.stage = Stage::BadNoisy;
                        continue;
                    }
                    if let Some(mv) = self.pick_best() {
                        if mv == self.hash_move
                            || self.is_refutation(mv)
                            || !self.hands_out_quiet(board, mv)
                        {
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
                Stage::GenerateQuietChecks => {
                    self.moves.clear();
                    board.quiet_moves(&mut self.moves);
                    self.check_squares = Some(board.check_squares());
                    self.index = 0;
                    self.stage = Stage::QuietChecks;
                }
                Stage::QuietChecks => {
                    // In generation order, the table's move left out.
                    let Some(&mv) = self.moves.get(self.index) else {
                        self.stage = Stage::Done;
                        continue;
                    };
                    self.index += 1;
                    let gives_check = self
                        .check_squares
                        .as_ref()
                        .is_some_and(|squares| board.gives_check_with(mv, squares));
                    if mv != self.hash_move && gives_check && board.see_ge(mv, good_see_threshold())
                    {
                        return Some(mv);
                    }
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
    let victim = board.captured_value(mv);
    let attacker = board.piece_on(mv.from()).map_or(0, |p| p as i32);
    let promo = mv
        .promotion()
        .map_or(0, |p| if p == Piece::Queen { see_value(p) } else { underpromotion_order() });
    victim * mvv_victim_weight() + promo - attacker
}

/// A capture's or promotion's order: MVV-LVA, refined by capture history.
#[inline]
fn noisy_score(board: &Board, mv: Move, histories: &Histories) -> i32 {
    let pt = PieceTo::of_move(board, mv);
    mvv_lva(board, mv) * capture_order_mvv_weight()
        + histories.capture(board, pt, mv) / capture_order_history_divisor()
}

/// What the threats add to quiet move `mv`'s order, given the opponent's
/// attacks by pieces cheaper than each of ours: a piece stepping onto a square
/// a cheaper enemy piece attacks loses, one leaving such a square for a safe
/// one gains.
#[inline]
fn threat_term(board: &Board, lesser: &LesserAttacks, mv: Move) -> i32 {
    let piece = board.piece_on(mv.from()).unwrap_or(Piece::Pawn);
    let weight = match piece {
        Piece::Knight | Piece::Bishop => order_threat_minor(),
        Piece::Rook => order_threat_rook(),
        Piece::Queen => order_threat_queen(),
        Piece::Pawn | Piece::King => 0,
    };
    let unsafe_squares = lesser.against(piece);
    if unsafe_squares.has(mv.to()) {
        -95 * weight
    } else if unsafe_squares.has(mv.from()) {
        100 * weight
    } else {
        0
    }
}

/// A quiet move's order, from the histories `keys` names.
#[inline]
fn quiet_score(board: &Board, mv: Move, histories: &Histories, keys: &QuietKeys) -> i32 {
    histories.quiet_order(board.side_to_move(), mv, PieceTo::of_move(board, mv), keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move a quiescence picker hands out, in order.
    fn quiescence_moves(fen: &str, hash: &str, checks: bool) -> Vec<String> {
        let board = Board::from_fen(fen).expect("valid FEN");
        let hash_move =
            if hash.is_empty() { Move::NULL } else { board.parse_uci_move(hash, false).unwrap() };
        let histories = Histories::default();
        let mut picker = MovePicker::quiescence(&board, hash_move, checks);
        std::iter::from_fn(|| picker.next(&board, &histories))
            .map(|mv| board.move_to_uci(mv, false))
            .collect()
    }

    #[test]
    fn threat_term_favours_escapes_and_shuns_attacked_squares() {
        // The pawn on e5 attacks White's knight on d4; the pawn on g6 guards f5.
        let fen = "4k3/8/6p1/4p3/3N4/8/8/R3K3 w - - 0 1";
        let board = Board::from_fen(fen).expect("test FEN");
        let lesser = board.attacks_by_lesser(board.side_to_move());
        let score = |board: &Board, uci: &str| {
            threat_term(board, &lesser, board.parse_uci_move(uci, false).expect("legal move"))
        };
        assert_eq!(score(&board, "d4c6"), 100 * order_threat_minor(), "an escape");
        assert_eq!(score(&board, "d4f5"), -95 * order_threat_minor(), "onto a pawn's square");
        assert_eq!(score(&board, "a1a8"), 0, "a safe square");
        assert_eq!(score(&board, "e1d2"), 0);

        // A bishop on b7 guards a8 and c6: the rook now steps onto a minor
        // piece's square; a knight fears only pawns.
        let fen = "4k3/1b6/6p1/4p3/3N4/8/8/R3K3 w - - 0 1";
        let board = Board::from_fen(fen).expect("test FEN");
        let lesser = board.attacks_by_lesser(board.side_to_move());
        let score = |uci: &str| {
            threat_term(&board, &lesser, board.parse_uci_move(uci, false).expect("legal move"))
        };
        assert_eq!(score("a1a8"), -95 * order_threat_rook());
        assert_eq!(score("d4c6"), 100 * order_threat_minor());
    }

    #[test]
    fn quiescence_hands_out_good_captures_then_quiet_checks_that_keep_material() {
        // White's queen takes the loose knight on b4 first; then it checks from e2
        // and e3, but not from d7 or d8, where the king takes it.
        let fen = "4k3/8/8/8/1n6/8/3Q4/4K3 w - - 0 1";
        let moves = quiescence_moves(fen, "", true);
        assert_eq!(moves[0], "d2b4", "{moves:?}");
        let mut checks = moves[1..].to_vec();
        checks.sort();
        assert_eq!(checks, ["d2e2", "d2e3"]);
        // Without checks (deeper quiescence plies) the capture alone.
        assert_eq!(quiescence_moves(fen, "", false), ["d2b4"]);
        // A quiet hash move is not played, not even as a check.
        let with_hash = quiescence_moves(fen, "d2e2", true);
        assert_eq!(with_hash, ["d2b4", "d2e3"]);
    }

    /// Every move a main-search picker hands out when told at once to hand
    /// out quiet checks only, and every capture and quiet check of `fen`.
    fn moves_after_quiet_checks_only(fen: &str) -> (Vec<String>, Vec<String>) {
        let board = Board::from_fen(fen).expect("test FEN");
        let histories = Histories::default();
        let ctx = PickerContext {
            keys: QuietKeys::NONE,
            killers: [Move::NULL; 2],
            lesser_attacks: board.attacks_by_lesser(board.side_to_move()),
        };
        let squares = board.check_squares();
        let mut picker = MovePicker::new(&board, Move::NULL, &histories, ctx);
        picker.quiet_checks_only(squares);
        let uci = |mv: Move| board.move_to_uci(mv, false);
        let mut handed_out: Vec<String> =
            std::iter::from_fn(|| picker.next(&board, &histories)).map(uci).collect();
        let mut expected: Vec<String> = board
            .legal_moves()
            .as_slice()
            .iter()
            .copied()
            .filter(|&mv| board.is_noisy(mv) || board.gives_check_with(mv, &squares))
            .map(uci)
            .collect();
        handed_out.sort();
        expected.sort();
        (handed_out, expected)
    }

    #[test]
    fn once_quiet_checks_only_the_quiet_moves_are_checks() {
        // White's queen can take the knight on b4; the rook and queen have checks.
        let (handed_out, expected) =
            moves_after_quiet_checks_only("4k3/8/8/8/1n6/8/3Q4/R3K3 w - - 0 1");
        assert!(expected.len() > 2 && expected.len() < 30, "{expected:?}");
        assert_eq!(handed_out, expected);
        // No quiet move checks: the capture alone.
        let (handed_out, expected) =
            moves_after_quiet_checks_only("7k/8/8/8/8/1n6/8/N6K w - - 0 1");
        assert_eq!(expected, ["a1b3"]);
        assert_eq!(handed_out, expected);
    }

    #[test]
    fn quiescence_in_check_hands_out_every_evasion() {
        let fen = "r3k3/8/8/8/8/8/7R/K7 w - - 0 1";
        let board = Board::from_fen(fen).unwrap();
        let mut moves = quiescence_moves(fen, "", true);
        moves.sort();
        assert_eq!(moves, ["a1b1", "a1b2", "h2a2"]);
        assert_eq!(board.legal_moves().len(), 3);
    }
}
