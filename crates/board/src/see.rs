//! Static exchange evaluation, for move ordering and pruning.

use crate::attacks::*;
use crate::{Bitboard, Board, Move, Piece, Square};

/// Piece values used by static exchange evaluation, indexed by [`Piece`].
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The SEE value of `piece`.
#[inline(always)]
pub fn see_value(piece: Piece) -> i32 {
    SEE_VALUES[piece as usize]
}

impl Board {
    /// The SEE value of what `mv` (legal here) captures: a pawn for en
    /// passant, 0 for a move that captures nothing (castling, encoded as the
    /// king taking its own rook, included).
    #[inline(always)]
    pub fn captured_value(&self, mv: Move) -> i32 {
        if mv.is_en_passant() {
            see_value(Piece::Pawn)
        } else if mv.is_castling() {
            0
        } else {
            self.piece_on(mv.to()).map_or(0, see_value)
        }
    }

    /// Whether the static exchange on `mv`'s destination gains at least
    /// `threshold` for the side to move (captures by the least valuable attacker
    /// first, x-rays through sliders revealed as pieces leave). Castling counts
    /// as 0; en passant captures a pawn; a promotion adds the promotion gain.
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        if mv.is_castling() {
            return 0 >= threshold;
        }
        let from = mv.from();
        let to = mv.to();
        let mut occ = self.occupied();
        if mv.is_en_passant() {
            occ ^= Square::new(to.file(), from.rank()).bitboard();
        }
        let captured_value = self.captured_value(mv);
        let promo_gain = mv.promotion().map_or(0, |p| see_value(p) - see_value(Piece::Pawn));
        let mut swap = captured_value + promo_gain - threshold;
        if swap < 0 {
            return false;
        }
        let moved = mv.promotion().or_else(|| self.piece_on(from)).unwrap_or(Piece::Pawn);
        swap = see_value(moved) - swap;
        if swap <= 0 {
            return true;
        }
        occ ^= from.bitboard() | to.bitboard();
        let mut attackers = self.attackers_to(to, occ) & occ;
        let diagonal = self.pieces(Piece::Bishop) | self.pieces(Piece::Queen);
        let straight = self.pieces(Piece::Rook) | self.pieces(Piece::Queen);
        let mut stm = self.side_to_move();
        let mut result = true;
        loop {
            stm = !stm;
            attackers &= occ;
            let ours = attackers & self.colors(stm);
            if ours.is_empty() {
                break;
            }
            result = !result;
            let Some((piece, sq)) = least_valuable(self, ours) else { break };
            if piece == Piece::King {
                // The king may capture only if the other side has no attacker left.
                return if (attackers & !self.colors(stm)).any() { !result } else { result };
            }
            swap = see_value(piece) - swap;
            if swap < result as i32 {
                break;
            }
            occ ^= sq.bitboard();
            if matches!(piece, Piece::Pawn | Piece::Bishop | Piece::Queen) {
                attackers |= bishop_attacks(to, occ) & diagonal;
            }
            if matches!(piece, Piece::Rook | Piece::Queen) {
                attackers |= rook_attacks(to, occ) & straight;
            }
        }
        result
    }
}

fn least_valuable(board: &Board, attackers: Bitboard) -> Option<(Piece, Square)> {
    Piece::ALL.into_iter().find_map(|p| {
        let bb = attackers & board.pieces(p);
        bb.first().map(|sq| (p, sq))
    })
}
