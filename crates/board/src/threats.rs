//! Threats: what the opponent is about to win. A position whose static
//! evaluation is far above beta is cut by reverse futility pruning; when one of
//! the side's pieces hangs or an enemy pawn is about to promote, the evaluation
//! overstates the position and the search should look (docs/search.md, "Threat
//! guards").

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::{Bitboard, Board, Color, Piece, Rank};

impl Board {
    /// The squares `color`'s pawns attack.
    #[inline(always)]
    pub fn pawn_attack_map(&self, color: Color) -> Bitboard {
        let pawns = self.colored_pieces(color, Piece::Pawn).forward(color);
        pawns.east() | pawns.west()
    }

    /// The squares `color`'s pieces attack (every piece, the king included),
    /// with the current occupancy.
    pub fn attacked_by(&self, color: Color) -> Bitboard {
        let occ = self.occupied();
        let mut attacked = self.pawn_attack_map(color);
        for sq in self.colored_pieces(color, Piece::Knight) {
            attacked |= knight_attacks(sq);
        }
        let queens = self.colored_pieces(color, Piece::Queen);
        for sq in self.colored_pieces(color, Piece::Bishop) | queens {
            attacked |= bishop_attacks(sq, occ);
        }
        for sq in self.colored_pieces(color, Piece::Rook) | queens {
            attacked |= rook_attacks(sq, occ);
        }
        attacked | king_attacks(self.king(color))
    }

    /// `color`'s pieces other than pawns and the king that the opponent
    /// threatens: attacked by a pawn (knights, bishops, rooks, queens), by a
    /// knight or bishop (rooks, queens), by a rook (queens), or attacked by
    /// anything and not defended.
    pub fn threatened(&self, color: Color) -> Bitboard {
        let them = !color;
        let occ = self.occupied();
        let queens = self.colored_pieces(color, Piece::Queen);
        let rooks_and_queens = self.colored_pieces(color, Piece::Rook) | queens;
        let pieces = self.colors(color) & !self.pieces(Piece::Pawn) & !self.pieces(Piece::King);
        if pieces.is_empty() {
            return Bitboard::EMPTY;
        }

        let by_pawns = self.pawn_attack_map(them);
        let mut by_minors = Bitboard::EMPTY;
        for sq in self.colored_pieces(them, Piece::Knight) {
            by_minors |= knight_attacks(sq);
        }
        for sq in self.colored_pieces(them, Piece::Bishop) {
            by_minors |= bishop_attacks(sq, occ);
        }
        let mut by_rooks = Bitboard::EMPTY;
        for sq in self.colored_pieces(them, Piece::Rook) {
            by_rooks |= rook_attacks(sq, occ);
        }
        let mut by_queens = Bitboard::EMPTY;
        for sq in self.colored_pieces(them, Piece::Queen) {
            by_queens |= queen_attacks(sq, occ);
        }

        let threatened = (by_pawns & pieces) | (by_minors & rooks_and_queens) | (by_rooks & queens);
        let by_any = by_pawns | by_minors | by_rooks | by_queens | king_attacks(self.king(them));
        // Our own attacks are needed only for pieces not already threatened.
        let attacked_only = by_any & pieces & !threatened;
        if attacked_only.is_empty() {
            return threatened;
        }
        threatened | (attacked_only & !self.attacked_by(color))
    }

    /// The opponent's pawns on its sixth or seventh rank: one or two steps
    /// from promoting, a danger no static evaluation prices well.
    pub fn advanced_enemy_pawns(&self, color: Color) -> Bitboard {
        let them = !color;
        let near = Bitboard::rank(them.relative_rank(Rank::Sixth))
            | Bitboard::rank(them.relative_rank(Rank::Seventh));
        self.colored_pieces(them, Piece::Pawn) & near
    }
}

#[cfg(test)]
mod tests {
    use crate::{Board, Color, Square};

    fn squares(set: crate::Bitboard) -> Vec<String> {
        set.map(|sq: Square| sq.to_string()).collect()
    }

    fn threatened(fen: &str, color: Color) -> Vec<String> {
        squares(Board::from_fen(fen).expect("test FEN").threatened(color))
    }

    #[test]
    fn a_piece_attacked_by_a_pawn_is_threatened_even_when_defended() {
        // The knight on d5 is defended by the e4 pawn, attacked by the c6 pawn.
        let fen = "4k3/8/2p5/3N4/4P3/8/8/4K3 w - - 0 1";
        assert_eq!(threatened(fen, Color::White), ["d5"]);
        assert!(threatened(fen, Color::Black).is_empty());
    }

    #[test]
    fn a_defended_piece_attacked_by_an_equal_one_is_not_threatened() {
        // Each rook is attacked by the other and defended by its king.
        let fen = "3rk3/8/8/8/8/8/8/3RK3 w - - 0 1";
        assert!(threatened(fen, Color::White).is_empty());
        assert!(threatened(fen, Color::Black).is_empty());
        // Without the defenders both rooks hang.
        let fen = "3r3k/8/8/8/8/8/8/3R3K w - - 0 1";
        assert_eq!(threatened(fen, Color::White), ["d1"]);
        assert_eq!(threatened(fen, Color::Black), ["d8"]);
    }

    #[test]
    fn a_queen_attacked_by_a_minor_or_a_rook_is_threatened() {
        let fen = "4k3/8/8/3q4/8/4N3/8/4K3 b - - 0 1";
        assert_eq!(threatened(fen, Color::Black), ["d5"]);
        let fen = "3rk3/8/8/8/8/8/3Q4/3RK3 w - - 0 1";
        assert_eq!(threatened(fen, Color::White), ["d2"]);
        // A queen attacking a defended queen threatens nothing.
        let fen = "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1";
        assert!(threatened(fen, Color::White).is_empty());
    }

    #[test]
    fn a_bishop_attacked_along_a_diagonal_by_a_queen_hangs_only_when_undefended() {
        let fen = "4k3/8/8/8/3b4/8/1Q6/4K3 b - - 0 1";
        assert_eq!(threatened(fen, Color::Black), ["d4"]);
        // A pawn on e6 does not defend d4; one on e5 does.
        let fen = "4k3/8/4p3/8/3b4/8/1Q6/4K3 b - - 0 1";
        assert_eq!(threatened(fen, Color::Black), ["d4"]);
        let fen = "4k3/8/8/4p3/3b4/8/1Q6/4K3 b - - 0 1";
        assert!(threatened(fen, Color::Black).is_empty());
    }

    #[test]
    fn pawns_and_kings_are_never_threatened() {
        // The e4 pawn hangs to the d5 queen; the white king is attacked by the rook.
        let fen = "4k3/8/8/3q4/4P3/8/8/3rK3 w - - 0 1";
        assert!(threatened(fen, Color::White).is_empty());
    }

    #[test]
    fn advanced_pawns_are_counted_from_the_pawn_owners_side() {
        // Black's pawns on a3 and b2 are advanced for black; white's h3 pawn is not.
        let board = Board::from_fen("4k3/8/8/8/8/p6P/1p6/4K3 w - - 0 1").expect("test FEN");
        assert_eq!(squares(board.advanced_enemy_pawns(Color::White)), ["b2", "a3"]);
        assert!(board.advanced_enemy_pawns(Color::Black).is_empty());
        let board = Board::from_fen("4k3/1P6/P7/8/8/8/8/4K3 b - - 0 1").expect("test FEN");
        assert_eq!(squares(board.advanced_enemy_pawns(Color::Black)), ["a6", "b7"]);
    }
}
