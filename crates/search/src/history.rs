//! Statistics learned during the search: butterfly, continuation and capture
//! history, killers and counter-moves (move ordering, pruning, reductions), and
//! correction history (what searches found about the static evaluation).

use board::{Board, Color, Move, Piece, Square};

/// The largest magnitude a history value reaches (the gravity formula keeps it there).
pub const HISTORY_MAX: i32 = 16_384;

/// The bonus for a move that caused (or a malus for one that failed before) a cutoff at `depth`.
#[inline]
pub fn stat_bonus(depth: i32) -> i32 {
    (150 * depth - 100).clamp(0, 1500)
}

/// Moves `entry` towards `bonus`'s sign, slowing down as it nears the bound.
#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry = (e + b - e * b.abs() / HISTORY_MAX) as i16;
}

/// A moved piece and where it went: the key of continuation history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PieceTo(pub u16);

impl PieceTo {
    /// `color`'s `piece` arriving on `to`.
    #[inline(always)]
    pub fn new(color: Color, piece: Piece, to: Square) -> PieceTo {
        PieceTo(((color as u16 * 6 + piece as u16) << 6) | to as u16)
    }

    /// No move (after a null move or at the root): uses a slot no real move uses.
    pub const NONE: PieceTo = PieceTo(12 * 64);
}

const PIECE_TO: usize = 12 * 64 + 1;

/// Capture history is indexed by the captured piece, or this slot for a
/// promotion that captures nothing.
const NO_VICTIM: usize = 6;

/// The captured piece's slot of a noisy move (see [`NO_VICTIM`]).
#[inline(always)]
pub fn victim_slot(board: &Board, mv: Move) -> usize {
    if mv.is_en_passant() {
        Piece::Pawn as usize
    } else if mv.is_castling() {
        NO_VICTIM
    } else {
        board.piece_on(mv.to()).map_or(NO_VICTIM, |p| p as usize)
    }
}

/// Entries of each correction-history table (a power of two).
const CORRECTION_SIZE: usize = 16_384;
/// Correction entries are kept in 1/`CORRECTION_GRAIN` centipawns.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction an entry holds, in centipawns.
const CORRECTION_MAX: i32 = 64;

/// All the search's learned tables, owned by one search thread.
pub struct Histories {
    butterfly: Vec<[[i16; 64]; 64]>,
    continuation: Vec<i16>,
    /// `[moving piece and destination][captured piece]`.
    capture: Vec<[i16; 7]>,
    counters: Vec<Move>,
    /// `[side to move][pawn key]`: search score minus static eval, in 1/GRAIN cp.
    pawn_correction: Vec<[i16; CORRECTION_SIZE]>,
    /// `[side to move][material key]`, likewise.
    material_correction: Vec<[i16; CORRECTION_SIZE]>,
    /// Two killer moves per ply.
    pub killers: Vec<[Move; 2]>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            butterfly: vec![[[0; 64]; 64]; 2],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            capture: vec![[0; 7]; PIECE_TO],
            counters: vec![Move::NULL; PIECE_TO],
            pawn_correction: vec![[0; CORRECTION_SIZE]; 2],
            material_correction: vec![[0; CORRECTION_SIZE]; 2],
            killers: vec![[Move::NULL; 2]; crate::params::MAX_SEARCH_PLY + 2],
        }
    }
}

/// The slot of `board` in a correction table keyed by `key`.
#[inline(always)]
fn correction_slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - CORRECTION_SIZE.trailing_zeros())) as usize
}

/// A key of the material on the board (the count of each colour's pieces).
#[inline(always)]
fn material_key(board: &Board) -> u64 {
    let mut key = 0u64;
    for color in Color::ALL {
        for piece in [Piece::Pawn, Piece::Knight, Piece::Bishop, Piece::Rook, Piece::Queen] {
            key = key * 17 + u64::from(board.count(color, piece));
        }
    }
    key
}

impl Histories {
    /// Forgets everything (for `ucinewgame`).
    pub fn clear(&mut self) {
        *self = Histories::default();
    }

    /// The butterfly history of `mv` for `color`.
    #[inline(always)]
    pub fn butterfly(&self, color: Color, mv: Move) -> i32 {
        self.butterfly[color as usize][mv.from() as usize][mv.to() as usize] as i32
    }

    /// The continuation history of playing `now` after `before`.
    #[inline(always)]
    pub fn continuation(&self, before: PieceTo, now: PieceTo) -> i32 {
        self.continuation[before.0 as usize * PIECE_TO + now.0 as usize] as i32
    }

    /// The capture history of noisy move `mv` (moving `pt`) in `board`.
    #[inline(always)]
    pub fn capture(&self, board: &Board, pt: PieceTo, mv: Move) -> i32 {
        self.capture[pt.0 as usize][victim_slot(board, mv)] as i32
    }

    /// Updates capture history after a cutoff: a bonus for `best` if it is
    /// noisy, a malus for the noisy moves tried before it.
    pub fn update_captures(
        &mut self,
        board: &Board,
        best: Option<(Move, PieceTo)>,
        tried: &[(Move, PieceTo)],
        depth: i32,
    ) {
        let bonus = stat_bonus(depth);
        if let Some((mv, pt)) = best {
            gravity(&mut self.capture[pt.0 as usize][victim_slot(board, mv)], bonus);
        }
        for &(mv, pt) in tried {
            if best.is_none_or(|(b, _)| b != mv) {
                gravity(&mut self.capture[pt.0 as usize][victim_slot(board, mv)], -bonus);
            }
        }
    }

    /// The correction of `board`'s static evaluation, in centipawns: what
    /// searches of positions with the same pawns and the same material found,
    /// on average, beyond their static evaluation.
    #[inline(always)]
    pub fn correction(&self, board: &Board) -> i32 {
        let us = board.side_to_move() as usize;
        let pawn = self.pawn_correction[us][correction_slot(board.pawn_key())] as i32;
        let material = self.material_correction[us][correction_slot(material_key(board))] as i32;
        (pawn + material) / (2 * CORRECTION_GRAIN)
    }

    /// Moves the corrections of `board` towards `difference` (search score
    /// minus corrected static eval, centipawns), more for deeper searches.
    pub fn update_correction(&mut self, board: &Board, difference: i32, depth: i32) {
        let us = board.side_to_move() as usize;
        let weight = (depth + 1).min(16);
        let target = difference.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        let limit = CORRECTION_MAX * CORRECTION_GRAIN;
        let slots = [
            &mut self.pawn_correction[us][correction_slot(board.pawn_key())],
            &mut self.material_correction[us][correction_slot(material_key(board))],
        ];
        for entry in slots {
            let e = *entry as i32;
            // An exponential moving average: weight/256 of the way towards the target.
            let updated = (e * (256 - weight) + target * weight) / 256;
            *entry = updated.clamp(-limit, limit) as i16;
        }
    }

    /// The counter-move stored against `previous`.
    #[inline(always)]
    pub fn counter(&self, previous: PieceTo) -> Move {
        self.counters[previous.0 as usize]
    }

    /// Updates the tables after `best` (quiet) caused a cutoff, penalising the
    /// quiet moves tried before it.
    pub fn update_quiet(
        &mut self,
        color: Color,
        ply: usize,
        best: (Move, PieceTo),
        tried: &[(Move, PieceTo)],
        prev: [PieceTo; 2],
        depth: i32,
    ) {
        let bonus = stat_bonus(depth);
        let killers = &mut self.killers[ply];
        if killers[0] != best.0 {
            killers[1] = killers[0];
            killers[0] = best.0;
        }
        if prev[0] != PieceTo::NONE {
            self.counters[prev[0].0 as usize] = best.0;
        }
        self.update_one(color, best, prev, bonus);
        for &(mv, pt) in tried {
            if mv != best.0 {
                self.update_one(color, (mv, pt), prev, -bonus);
            }
        }
    }

    #[inline(always)]
    fn update_one(
        &mut self,
        color: Color,
        (mv, pt): (Move, PieceTo),
        prev: [PieceTo; 2],
        bonus: i32,
    ) {
        gravity(&mut self.butterfly[color as usize][mv.from() as usize][mv.to() as usize], bonus);
        for before in prev {
            if before != PieceTo::NONE {
                gravity(
                    &mut self.continuation[before.0 as usize * PIECE_TO + pt.0 as usize],
                    bonus,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_move_towards_what_searches_found() {
        let mut h = Histories::default();
        let board = Board::startpos();
        assert_eq!(h.correction(&board), 0);
        for _ in 0..200 {
            h.update_correction(&board, 40, 10);
        }
        let c = h.correction(&board);
        assert!((38..=40).contains(&c), "{c}");
        // Bounded: a huge difference saturates at the limit.
        for _ in 0..500 {
            h.update_correction(&board, -5000, 20);
        }
        assert!(h.correction(&board) <= -CORRECTION_MAX + 1);
        // The other side to move has its own entries.
        let other = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
            .expect("valid FEN");
        assert_eq!(h.correction(&other), 0);
    }

    #[test]
    fn capture_history_rewards_the_cutoff_and_punishes_the_rest() {
        let mut h = Histories::default();
        let board = Board::from_fen("4k3/8/8/3q1r2/4P3/8/8/4K3 w - - 0 1").expect("valid FEN");
        let exd5 = board.parse_uci_move("e4d5", false).expect("legal");
        let exf5 = board.parse_uci_move("e4f5", false).expect("legal");
        let pt = |mv: Move| PieceTo::new(Color::White, Piece::Pawn, mv.to());
        h.update_captures(&board, Some((exd5, pt(exd5))), &[(exf5, pt(exf5))], 8);
        assert!(h.capture(&board, pt(exd5), exd5) > 0);
        assert!(h.capture(&board, pt(exf5), exf5) < 0);
        // A quiet cutoff punishes every capture tried.
        h.update_captures(&board, None, &[(exd5, pt(exd5))], 8);
        assert!(h.capture(&board, pt(exd5), exd5) < stat_bonus(8));
    }
}
