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

    /// The squares `color`'s opponent attacks with pieces cheaper than each of
    /// `color`'s (where a piece of `color` would stand to be chased or won),
    /// and with all its pieces: one pass over the opponent's pieces gives both.
    pub fn attacks_by_lesser(&self, color: Color) -> LesserAttacks {
        let them = !color;
        let occ = self.occupied();
        let pawns = self.pawn_attack_map(them);
        let mut minors = pawns;
        for sq in self.colored_pieces(them, Piece::Knight) {
            minors |= knight_attacks(sq);
        }
        for sq in self.colored_pieces(them, Piece::Bishop) {
            minors |= bishop_attacks(sq, occ);
        }
        let mut rooks = minors;
        for sq in self.colored_pieces(them, Piece::Rook) {
            rooks |= rook_attacks(sq, occ);
        }
        let mut all = rooks | king_attacks(self.king(them));
        for sq in self.colored_pieces(them, Piece::Queen) {
            all |= queen_attacks(sq, occ);
        }
        LesserAttacks { pawns, minors, rooks, all }
    }

    /// `color`'s pieces other than pawns and the king that the opponent
    /// threatens: attacked by a pawn (knights, bishops, rooks, queens), by a
    /// knight or bishop (rooks, queens), by a rook (queens), or attacked by
    /// anything and not defended.
    pub fn threatened(&self, color: Color) -> Bitboard {
        let pieces = self.colors(color) & !self.pieces(Piece::Pawn) & !self.pieces(Piece::King);
        if pieces.is_empty() {
            return Bitboard::EMPTY;
        }

        let lesser = self.attacks_by_lesser(color);
        let minors = self.pieces(Piece::Knight) | self.pieces(Piece::Bishop);
        let threatened = (lesser.pawns & self.colors(color) & minors)
            | (lesser.minors & self.colored_pieces(color, Piece::Rook))
            | (lesser.rooks & self.colored_pieces(color, Piece::Queen));
        // Our own attacks are needed only for pieces not already threatened.
        let attacked_only = lesser.all & pieces & !threatened;
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

/// The squares one side attacks with its cheaper pieces, cumulatively
/// ([`Board::attacks_by_lesser`]): each set holds the ones before it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LesserAttacks {
    /// Attacked by a pawn: unsafe for a knight or bishop.
    pub pawns: Bitboard,
    /// Attacked by a pawn, knight or bishop: unsafe for a rook.
    pub minors: Bitboard,
    /// Attacked by a pawn, minor piece or rook: unsafe for a queen.
    pub rooks: Bitboard,
    /// Attacked by any piece, the queens and king too: the same squares as
    /// [`Board::attacked_by`] for the opponent.
    pub all: Bitboard,
}

impl LesserAttacks {
    /// The squares attacked by pieces cheaper than `piece` (none for a pawn or king).
    #[inline(always)]
    pub fn against(&self, piece: Piece) -> Bitboard {
        match piece {
            Piece::Knight | Piece::Bishop => self.pawns,
            Piece::Rook => self.minors,
            Piece::Queen => self.rooks,
            Piece::Pawn | Piece::King => Bitboard::EMPTY,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Board, Color, Piece, Square};

    fn squares(set: crate::Bitboard) -> Vec<String> {
        set.map(|sq: Square| sq.to_string()).collect()
    }

    fn threatened(fen: &str, color: Color) -> Vec<String> {
        squares(Board::from_fen(fen).expect("test FEN").threatened(color))
    }

    #[test]
    fn attacks_by_lesser_pieces_grow_with_the_piece_they_chase() {
        // Black: pawn e5, knight b8, rook h3. White's pieces are chased from
        // d4/f4 (the pawn), a6/c6/d7 (the knight) and the h-file and third rank (the rook).
        let board = Board::from_fen("1n2k3/8/8/4p3/8/7r/8/4K3 w - - 0 1").expect("test FEN");
        let lesser = board.attacks_by_lesser(Color::White);
        assert_eq!(squares(lesser.pawns), ["d4", "f4"]);
        assert!(lesser.minors.has(Square::C6) && !lesser.minors.has(Square::H5));
        assert!(lesser.rooks.has(Square::H5) && lesser.rooks.has(Square::C6));
        assert!((lesser.pawns & !lesser.minors).is_empty());
        assert!((lesser.minors & !lesser.rooks).is_empty());
        assert_eq!(lesser.against(Piece::Bishop), lesser.pawns);
        assert_eq!(lesser.against(Piece::Queen), lesser.rooks);
        assert!(lesser.against(Piece::King).is_empty());
        assert!(board.attacks_by_lesser(Color::Black).pawns.is_empty());
    }

    #[test]
    fn all_lesser_attacks_are_the_opponents_attacks() {
        // Every position of short games from a few starts, by the first legal
        // move after a step through the move list that varies with the ply.
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ];
        let mut checked = 0;
        for fen in starts {
            let mut board = Board::from_fen(fen).expect("test FEN");
            for ply in 0..60 {
                for color in [Color::White, Color::Black] {
                    assert_eq!(
                        board.attacks_by_lesser(color).all,
                        board.attacked_by(!color),
                        "{}",
                        board.to_fen(false)
                    );
                    checked += 1;
                }
                let moves = board.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves.as_slice()[(ply * 7 + 3) % moves.len()];
                board.play(mv);
            }
        }
        assert!(checked > 200);
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
