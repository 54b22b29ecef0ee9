//! Statistics learned during the search: butterfly, continuation and capture
//! history, killers and counter-moves (move ordering, pruning, reductions).
//! Correction history has a module of its own (`correction.rs`): it may be shared.

use crate::params::{
    history_bonus_max, history_bonus_offset, history_bonus_per_depth, history_malus_max,
    history_malus_offset, history_malus_per_depth, history_max, low_ply_history_weight,
};
use board::{Bitboard, Board, Color, Move, Piece, Square};

/// The bonus for a move that caused a cutoff at `depth`.
#[inline]
pub fn stat_bonus(depth: i32) -> i32 {
    (history_bonus_per_depth() * depth - history_bonus_offset()).clamp(0, history_bonus_max())
}

/// The malus (a positive size) for a move tried before the one that caused a cutoff at `depth`.
#[inline]
pub fn stat_malus(depth: i32) -> i32 {
    (history_malus_per_depth() * depth - history_malus_offset()).clamp(0, history_malus_max())
}

/// Moves `entry` towards `bonus`'s sign, slowing down as it nears the bound.
#[inline(always)]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let b = bonus.clamp(-history_max(), history_max());
    *entry = (e + b - e * b.abs() / history_max()) as i16;
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

    /// `mv` played on `board`: the piece on its from-square and its
    /// to-square. Castling is keyed by the rook's square (its encoding's
    /// to-square), a square the king never reaches otherwise, so castling
    /// learns in slots of its own. Every reader and writer of the histories
    /// builds its key here, so ordering reads the entries the updates write.
    #[inline(always)]
    pub fn of_move(board: &Board, mv: Move) -> PieceTo {
        let piece = board.piece_on(mv.from()).unwrap_or(Piece::Pawn);
        PieceTo::new(board.side_to_move(), piece, mv.to())
    }

    /// No move (after a null move or at the root): uses a slot no real move uses.
    pub const NONE: PieceTo = PieceTo(12 * 64);
}

const PIECE_TO: usize = 12 * 64 + 1;

/// The plies from the root that low-ply history covers.
pub const LOW_PLIES: usize = 4;

/// The slots of pawn-structure history, chosen by the pawn key.
const PAWN_SLOTS: usize = 1024;

/// Where a node's quiet moves are read and written in the histories, beyond
/// the move itself: built once per node, the same for ordering and updates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuietKeys {
    /// The moves played one and two plies before, for continuation history
    /// ([`PieceTo::NONE`], whose entries stay 0, before the root or after a
    /// null move).
    pub prev: [PieceTo; 2],
    /// The squares the opponent attacks, for butterfly history by threat
    /// (empty in quiescence, where every move reads the unthreatened table).
    pub threats: Bitboard,
    /// The pawn-structure history slot of the position (`None` in quiescence,
    /// whose evasions are ordered without it).
    pub pawn: Option<usize>,
    /// The ply from the root, when low-ply history covers it (`None` past its
    /// first plies and in quiescence).
    pub low_ply: Option<usize>,
}

impl QuietKeys {
    /// No earlier move and no table beyond butterfly and continuation history.
    pub const NONE: QuietKeys =
        QuietKeys { prev: [PieceTo::NONE; 2], threats: Bitboard::EMPTY, pawn: None, low_ply: None };

    /// The pawn-structure history slot of `board`.
    #[inline(always)]
    pub fn pawn_slot(board: &Board) -> usize {
        (board.pawn_key() % PAWN_SLOTS as u64) as usize
    }

    /// Which of butterfly history's tables `mv` reads: by whether its from-
    /// and to-squares are attacked.
    #[inline(always)]
    fn threat_table(&self, mv: Move) -> usize {
        usize::from(self.threats.has(mv.from())) * 2 + usize::from(self.threats.has(mv.to()))
    }
}

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

/// All the search's learned tables, owned by one search thread.
pub struct Histories {
    /// `[color × 4 + threat table][from][to]` (see [`QuietKeys::threats`]).
    butterfly: Vec<[[i16; 64]; 64]>,
    /// `[pawn slot][moving piece and destination]`.
    pawn: Vec<[i16; PIECE_TO]>,
    /// `[ply][from][to]`, for the first [`LOW_PLIES`] plies; cleared at each search.
    low_ply: Vec<[[i16; 64]; 64]>,
    continuation: Vec<i16>,
    /// `[moving piece and destination][captured piece]`.
    capture: Vec<[i16; 7]>,
    counters: Vec<Move>,
    /// Two killer moves per ply.
    pub killers: Vec<[Move; 2]>,
}

impl Default for Histories {
    fn default() -> Self {
        Histories {
            butterfly: vec![[[0; 64]; 64]; 2 * 4],
            pawn: vec![[0; PIECE_TO]; PAWN_SLOTS],
            low_ply: vec![[[0; 64]; 64]; LOW_PLIES],
            continuation: vec![0; PIECE_TO * PIECE_TO],
            capture: vec![[0; 7]; PIECE_TO],
            counters: vec![Move::NULL; PIECE_TO],
            killers: vec![[Move::NULL; 2]; crate::params::MAX_SEARCH_PLY + 2],
        }
    }
}

impl Histories {
    /// Forgets everything (for `ucinewgame`).
    pub fn clear(&mut self) {
        *self = Histories::default();
    }

    /// Forgets low-ply history (at the start of each search: its plies are
    /// counted from a new root).
    pub fn clear_low_ply(&mut self) {
        self.low_ply.iter_mut().for_each(|t| *t = [[0; 64]; 64]);
    }

    /// The butterfly history of `mv` for `color`, in the table its squares'
    /// threats choose.
    #[inline(always)]
    pub fn butterfly(&self, color: Color, mv: Move, keys: &QuietKeys) -> i32 {
        self.butterfly[color as usize * 4 + keys.threat_table(mv)][mv.from() as usize]
            [mv.to() as usize] as i32
    }

    /// The history of `color`'s quiet move `mv` (moving `pt`) that the pruning
    /// and reduction steps read: butterfly history and the continuation
    /// history against the moves one and two plies before.
    #[inline(always)]
    pub fn quiet(&self, color: Color, mv: Move, pt: PieceTo, keys: &QuietKeys) -> i32 {
        self.butterfly(color, mv, keys)
            + self.continuation(keys.prev[0], pt)
            + self.continuation(keys.prev[1], pt)
    }

    /// The order of `color`'s quiet move `mv` (moving `pt`): its [`Self::quiet`]
    /// history, plus pawn-structure and low-ply history where `keys` has them.
    #[inline(always)]
    pub fn quiet_order(&self, color: Color, mv: Move, pt: PieceTo, keys: &QuietKeys) -> i32 {
        let mut score = self.quiet(color, mv, pt, keys);
        if let Some(slot) = keys.pawn {
            score += self.pawn[slot][pt.0 as usize] as i32;
        }
        if let Some(ply) = keys.low_ply {
            let entry = self.low_ply[ply][mv.from() as usize][mv.to() as usize] as i32;
            score += entry * low_ply_history_weight() / (1 + ply as i32);
        }
        score
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
        if let Some((mv, pt)) = best {
            gravity(&mut self.capture[pt.0 as usize][victim_slot(board, mv)], stat_bonus(depth));
        }
        let malus = stat_malus(depth);
        for &(mv, pt) in tried {
            if best.is_none_or(|(b, _)| b != mv) {
                gravity(&mut self.capture[pt.0 as usize][victim_slot(board, mv)], -malus);
            }
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
        keys: &QuietKeys,
        depth: i32,
    ) {
        let bonus = stat_bonus(depth);
        let killers = &mut self.killers[ply];
        if killers[0] != best.0 {
            killers[1] = killers[0];
            killers[0] = best.0;
        }
        if keys.prev[0] != PieceTo::NONE {
            self.counters[keys.prev[0].0 as usize] = best.0;
        }
        self.reward_quiet(color, best, keys, bonus);
        let malus = stat_malus(depth);
        for &(mv, pt) in tried {
            if mv != best.0 {
                self.reward_quiet(color, (mv, pt), keys, -malus);
            }
        }
    }

    /// Moves every history of `color`'s quiet move `mv` (moving `pt`) that
    /// `keys` names by `bonus` (negative: a malus): butterfly, continuation,
    /// and pawn-structure (half as much) and low-ply history where `keys` has them.
    #[inline(always)]
    fn reward_quiet(
        &mut self,
        color: Color,
        (mv, pt): (Move, PieceTo),
        keys: &QuietKeys,
        bonus: i32,
    ) {
        self.reward_butterfly(color, mv, keys, bonus);
        for before in keys.prev {
            if before != PieceTo::NONE {
                let entry = &mut self.continuation[before.0 as usize * PIECE_TO + pt.0 as usize];
                gravity(entry, bonus);
            }
        }
        if let Some(slot) = keys.pawn {
            gravity(&mut self.pawn[slot][pt.0 as usize], bonus / 2);
        }
        if let Some(ply) = keys.low_ply {
            gravity(&mut self.low_ply[ply][mv.from() as usize][mv.to() as usize], bonus);
        }
    }

    /// Moves the butterfly history of `color`'s move `mv` (in the table `keys`'s
    /// threats choose) by `bonus`.
    #[inline(always)]
    fn reward_butterfly(&mut self, color: Color, mv: Move, keys: &QuietKeys, bonus: i32) {
        let table = color as usize * 4 + keys.threat_table(mv);
        gravity(&mut self.butterfly[table][mv.from() as usize][mv.to() as usize], bonus);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_learns_in_slots_of_its_own() {
        // Both castlings and every other king move, Chess960 included: no two share a key.
        for fen in [
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "1r2k1r1/pppppppp/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        ] {
            let board = Board::from_fen(fen).expect("valid FEN");
            let king_moves: Vec<Move> = board
                .legal_moves()
                .as_slice()
                .iter()
                .copied()
                .filter(|mv| board.piece_on(mv.from()) == Some(Piece::King))
                .collect();
            assert_eq!(king_moves.iter().filter(|mv| mv.is_castling()).count(), 2, "{fen}");
            let mut keys: Vec<u16> =
                king_moves.iter().map(|&mv| PieceTo::of_move(&board, mv).0).collect();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), king_moves.len(), "{fen}: a castling shares a slot");
        }
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

    #[test]
    fn continuation_updates_reach_every_earlier_move_but_none() {
        let mut h = Histories::default();
        let board = Board::from_fen("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1").expect("valid FEN");
        let nf3 = board.parse_uci_move("g1f3", false).expect("legal");
        let pt = PieceTo::new(Color::White, Piece::Knight, nf3.to());
        let before = |sq: Square| PieceTo::new(Color::Black, Piece::King, sq);
        let keys = QuietKeys { prev: [before(Square::E7), before(Square::D7)], ..QuietKeys::NONE };
        h.update_quiet(Color::White, 0, (nf3, pt), &[], &keys, 8);
        assert_eq!(h.continuation(before(Square::E7), pt), stat_bonus(8));
        assert_eq!(h.continuation(before(Square::D7), pt), stat_bonus(8));
        let butterfly = h.butterfly(Color::White, nf3, &keys);
        assert_eq!(h.quiet(Color::White, nf3, pt, &keys), butterfly + 2 * stat_bonus(8));
        // After a null move: the empty slot never learns.
        let after_null = QuietKeys { prev: [PieceTo::NONE, before(Square::E7)], ..keys };
        h.update_quiet(Color::White, 0, (nf3, pt), &[], &after_null, 8);
        assert_eq!(h.continuation(PieceTo::NONE, pt), 0, "the empty slot never learns");
    }

    #[test]
    fn threats_pawns_and_plies_choose_their_own_entries() {
        let mut h = Histories::default();
        let board = Board::from_fen("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1").expect("valid FEN");
        let nf3 = board.parse_uci_move("g1f3", false).expect("legal");
        let pt = PieceTo::new(Color::White, Piece::Knight, nf3.to());
        let plain = QuietKeys::NONE;
        let threatened = QuietKeys { threats: Bitboard::from(Square::F3), ..plain };
        let rich =
            QuietKeys { pawn: Some(QuietKeys::pawn_slot(&board)), low_ply: Some(1), ..plain };
        h.reward_quiet(Color::White, (nf3, pt), &threatened, 1000);
        assert!(h.butterfly(Color::White, nf3, &threatened) > 0);
        assert_eq!(h.butterfly(Color::White, nf3, &plain), 0, "another threat table");
        h.reward_quiet(Color::White, (nf3, pt), &rich, 1000);
        let plain_order = h.quiet_order(Color::White, nf3, pt, &plain);
        assert!(h.quiet_order(Color::White, nf3, pt, &rich) > plain_order);
        h.clear_low_ply();
        let pawn_only = QuietKeys { low_ply: None, ..rich };
        assert_eq!(
            h.quiet_order(Color::White, nf3, pt, &rich),
            h.quiet_order(Color::White, nf3, pt, &pawn_only)
        );
    }
}
