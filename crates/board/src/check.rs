//! Does a move give check? [`Board::gives_check`] answers for one move from
//! scratch; a search that asks it of many moves of one position computes
//! [`CheckSquares`] once and asks [`Board::gives_check_with`], which answers
//! the common moves by two bitboard tests.

use crate::attacks::*;
use crate::{Bitboard, Board, ByPiece, Move, MoveKind, Piece, Square};

/// What the side to move needs to know, once per position, to tell which of
/// its moves give check: the squares from which each kind of piece attacks the
/// enemy king, and its own pieces whose leaving uncovers one of its sliders.
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    /// For each kind of piece, the squares from which it would attack the enemy king.
    direct: ByPiece<Bitboard>,
    /// The side to move's pieces that alone stand between one of its sliders and the enemy king.
    discoverers: Bitboard,
    /// The enemy king.
    their_king: Square,
}

impl Board {
    /// Whether `mv` (legal here) gives check, direct or discovered.
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side_to_move();
        let their_king = self.king(!us);
        let from = mv.from();
        let to = mv.to();
        let ours = self.colors(us);
        let (piece, landing, occ) = match mv.kind() {
            MoveKind::Castling => {
                let side = if to.file() > from.file() {
                    crate::CastlingSide::Short
                } else {
                    crate::CastlingSide::Long
                };
                let king_to = Square::new(side.king_to(), from.rank());
                let rook_to = Square::new(side.rook_to(), from.rank());
                let occ = (self.occupied() ^ from.bitboard() ^ to.bitboard())
                    | king_to.bitboard()
                    | rook_to.bitboard();
                return rook_attacks(rook_to, occ).has(their_king);
            }
            MoveKind::EnPassant => {
                let captured = Square::new(to.file(), from.rank()).bitboard();
                (Piece::Pawn, to, (self.occupied() ^ from.bitboard() ^ captured) | to.bitboard())
            }
            _ => {
                let piece = mv.promotion().or_else(|| self.piece_on(from)).unwrap_or(Piece::Pawn);
                (piece, to, (self.occupied() ^ from.bitboard()) | to.bitboard())
            }
        };
        let direct = match piece {
            Piece::Pawn => pawn_attacks(us, landing),
            Piece::Knight => knight_attacks(landing),
            Piece::Bishop => bishop_attacks(landing, occ),
            Piece::Rook => rook_attacks(landing, occ),
            Piece::Queen => queen_attacks(landing, occ),
            Piece::King => Bitboard::EMPTY,
        };
        if direct.has(their_king) {
            return true;
        }
        let movers = ours & !from.bitboard();
        let diagonal = (self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)) & movers;
        let straight = (self.pieces(Piece::Rook) | self.pieces(Piece::Queen)) & movers;
        (bishop_attacks(their_king, occ) & diagonal).any()
            || (rook_attacks(their_king, occ) & straight).any()
    }

    /// The side to move's [`CheckSquares`] in this position.
    pub fn check_squares(&self) -> CheckSquares {
        let us = self.side_to_move();
        let their_king = self.king(!us);
        let occ = self.occupied();
        let ours = self.colors(us);
        let diagonal = bishop_attacks(their_king, occ);
        let straight = rook_attacks(their_king, occ);
        let mut direct = ByPiece([Bitboard::EMPTY; 6]);
        // A pawn of ours attacks the king from where an enemy pawn on the
        // king's square would attack.
        direct[Piece::Pawn] = pawn_attacks(!us, their_king);
        direct[Piece::Knight] = knight_attacks(their_king);
        direct[Piece::Bishop] = diagonal;
        direct[Piece::Rook] = straight;
        direct[Piece::Queen] = diagonal | straight;
        let snipers = ((bishop_rays(their_king)
            & (self.pieces(Piece::Bishop) | self.pieces(Piece::Queen)))
            | (rook_rays(their_king) & (self.pieces(Piece::Rook) | self.pieces(Piece::Queen))))
            & ours;
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(their_king, sniper) & occ;
            if blockers.any() && !blockers.has_many() {
                discoverers |= blockers & ours;
            }
        }
        CheckSquares { direct, discoverers, their_king }
    }

    /// Whether `mv` (legal here) gives check, given this position's
    /// [`Board::check_squares`]. The same answer as [`Board::gives_check`]:
    /// castling, en passant and promotions, which change more than the mover's
    /// square, are passed to it.
    #[inline]
    pub fn gives_check_with(&self, mv: Move, squares: &CheckSquares) -> bool {
        if mv.kind() != MoveKind::Normal {
            return self.gives_check(mv);
        }
        let (from, to) = (mv.from(), mv.to());
        let piece = self.piece_on(from).unwrap_or(Piece::King);
        // Direct: the mover's own line to the king is the same before and after
        // the move (had it passed through `from`, the mover would already give
        // check, and the side to move cannot be the one giving check).
        squares.direct[piece].has(to)
            // Discovered: a lone blocker leaves its line to the king.
            || (squares.discoverers.has(from) && !line(squares.their_king, from).has(to))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every legal move of every position a short walk reaches from `fen`:
    /// `gives_check_with` agrees with playing the move.
    fn agree(board: &Board, depth: u32, moves: &mut u64) {
        let squares = board.check_squares();
        for &mv in board.legal_moves().as_slice() {
            let mut child = *board;
            child.play_unchecked(mv);
            assert_eq!(
                board.gives_check_with(mv, &squares),
                child.in_check(),
                "{mv:?} in {}",
                board.to_fen(true)
            );
            *moves += 1;
            if depth > 1 {
                agree(&child, depth - 1, moves);
            }
        }
    }

    #[test]
    fn check_squares_answer_like_playing_the_move() {
        let mut moves = 0;
        for fen in [
            crate::STARTPOS_FEN,
            // Kiwipete, and positions with discovered checks, pins along the
            // king's lines, promotions and en passant.
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "3k4/8/8/2KB1R2/8/8/8/4Q3 w - - 0 1",
            "6k1/3P4/8/8/8/8/1B6/4K2R w K - 0 1",
        ] {
            let board = Board::from_fen(fen).expect("valid FEN");
            agree(&board, 3, &mut moves);
        }
        assert!(moves > 100_000, "{moves} moves");
    }

    #[test]
    fn a_missing_discoverer_is_caught() {
        // The bishop on d5 uncovers the rook on b5's line to the king on h5:
        // without the discoverer set, the answer is wrong.
        let board = Board::from_fen("8/8/8/1R1B3k/8/8/8/7K w - - 0 1").expect("valid FEN");
        let mv = board.parse_uci_move("d5c6", false).expect("legal");
        let mut squares = board.check_squares();
        assert!(board.gives_check_with(mv, &squares));
        squares.discoverers = Bitboard::EMPTY;
        assert!(!board.gives_check_with(mv, &squares));
    }
}
