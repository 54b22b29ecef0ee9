//! Chess960 back ranks by Scharnagl number, and the double Fischer random
//! (DFRC) start positions that `datagen` mixes into its openings: each side's
//! back rank drawn on its own among the 960, the pawns on their usual ranks,
//! and all four castling rights (written in Shredder-FEN, which names each
//! castling rook's file).
//!
//! Scharnagl's numbering maps `0..960` onto the arrangements one to one, and
//! 518 is the standard `RNBQKBNR`. From a number `n`:
//!
//! | step | choice | squares |
//! |---|---|---|
//! | 1 | `n % 4`, then `n /= 4` | the light-squared bishop: b, d, f, h |
//! | 2 | `n % 4`, then `n /= 4` | the dark-squared bishop: a, c, e, g |
//! | 3 | `n % 6`, then `n /= 6` | the queen: that empty square, counted from the a-file |
//! | 4 | `n` (0..10) | the two knights: row `n` of `KNIGHT_PAIRS` among the five empty squares |
//! | 5 | | rook, king, rook on the three squares left, from the a-file |
//!
//! So the bishops always stand on squares of opposite colours and the king
//! between its rooks, which is all Chess960 asks.

use board::{Board, Color, File, Piece};

/// The knights' places among the five squares left after the bishops and the
/// queen, in Scharnagl's order.
const KNIGHT_PAIRS: [(usize, usize); 10] =
    [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];

/// One side's back rank in Chess960: the piece on each file, a-file first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BackRank([Piece; File::NUM]);

impl BackRank {
    /// How many arrangements there are: Scharnagl numbers are `0..COUNT`.
    pub const COUNT: u16 = 960;
    /// The Scharnagl number of the standard arrangement, `RNBQKBNR`.
    pub const STANDARD: u16 = 518;

    /// The arrangement with Scharnagl number `n`; `None` from [`BackRank::COUNT`] on.
    ///
    /// ```
    /// use tessera::datagen::BackRank;
    /// assert_eq!(BackRank::from_scharnagl(518).unwrap().to_string(), "RNBQKBNR");
    /// assert_eq!(BackRank::from_scharnagl(0).unwrap().to_string(), "BBQNNRKR");
    /// ```
    pub fn from_scharnagl(n: u16) -> Option<BackRank> {
        if n >= Self::COUNT {
            return None;
        }
        let mut n = usize::from(n);
        let mut rank = [None; File::NUM];
        rank[2 * (n % 4) + 1] = Some(Piece::Bishop);
        n /= 4;
        rank[2 * (n % 4)] = Some(Piece::Bishop);
        n /= 4;
        let empty = |rank: &[Option<Piece>; File::NUM]| -> Vec<usize> {
            (0..File::NUM).filter(|&f| rank[f].is_none()).collect()
        };
        rank[empty(&rank)[n % 6]] = Some(Piece::Queen);
        n /= 6;
        let left = empty(&rank);
        let (a, b) = KNIGHT_PAIRS[n];
        rank[left[a]] = Some(Piece::Knight);
        rank[left[b]] = Some(Piece::Knight);
        for (file, piece) in empty(&rank).into_iter().zip([Piece::Rook, Piece::King, Piece::Rook]) {
            rank[file] = Some(piece);
        }
        Some(BackRank(rank.map(|p| p.expect("every file filled: 2 + 1 + 2 + 3 pieces"))))
    }

    /// The piece on `file`.
    pub fn piece_on(&self, file: File) -> Piece {
        self.0[file.index()]
    }

    /// The files of the two rooks, the a-side one first.
    fn rook_files(&self) -> [File; 2] {
        let mut rooks = File::ALL.into_iter().filter(|&f| self.piece_on(f) == Piece::Rook);
        let first = rooks.next().expect("two rooks");
        [first, rooks.next().expect("two rooks")]
    }
}

/// The rank in FEN's White letters, a-file first: `RNBQKBNR` for 518.
impl std::fmt::Display for BackRank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|p| write!(f, "{}", p.to_char().to_ascii_uppercase()))
    }
}

/// A double Fischer random start position: White's back rank `white`,
/// Black's `black` (each its own arrangement, not a mirror of the other),
/// White to move, every castling right held.
///
/// ```
/// use tessera::datagen::{BackRank, dfrc_board};
/// let standard = BackRank::from_scharnagl(BackRank::STANDARD).unwrap();
/// assert_eq!(dfrc_board(standard, standard), board::Board::startpos());
/// ```
pub fn dfrc_board(white: BackRank, black: BackRank) -> Board {
    let rights: String = [(white, Color::White), (black, Color::Black)]
        .into_iter()
        .flat_map(|(rank, color)| {
            rank.rook_files().map(|file| match color {
                Color::White => file.to_char().to_ascii_uppercase(),
                Color::Black => file.to_char(),
            })
        })
        .collect();
    let black_rank = black.to_string().to_ascii_lowercase();
    let fen = format!("{black_rank}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {rights} - 0 1");
    Board::from_fen(&fen).expect("every Chess960 arrangement gives a legal position")
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::{CastlingSide, Square};
    use std::collections::HashSet;

    /// Whether `rank` is a Chess960 arrangement: two rooks, knights and
    /// bishops, one queen and king, the bishops on opposite colours and the
    /// king between the rooks.
    fn is_chess960(rank: &[Piece; 8]) -> bool {
        let files = |piece| (0..8).filter(|&f| rank[f] == piece).collect::<Vec<usize>>();
        let (rooks, bishops, king) = (files(Piece::Rook), files(Piece::Bishop), files(Piece::King));
        files(Piece::Knight).len() == 2
            && files(Piece::Queen).len() == 1
            && king.len() == 1
            && rooks.len() == 2
            && bishops.len() == 2
            && bishops[0] % 2 != bishops[1] % 2
            && rooks[0] < king[0]
            && king[0] < rooks[1]
    }

    /// Every distinct ordering of `RRNNBBQK` (5,040 of them).
    fn every_ordering() -> Vec<[Piece; 8]> {
        fn place(rank: &mut Vec<Piece>, left: &mut [(Piece, u8); 5], out: &mut Vec<[Piece; 8]>) {
            if rank.len() == 8 {
                out.push(rank.clone().try_into().expect("8 pieces"));
                return;
            }
            for i in 0..left.len() {
                if left[i].1 > 0 {
                    left[i].1 -= 1;
                    rank.push(left[i].0);
                    place(rank, left, out);
                    rank.pop();
                    left[i].1 += 1;
                }
            }
        }
        let mut left = [
            (Piece::Rook, 2),
            (Piece::Knight, 2),
            (Piece::Bishop, 2),
            (Piece::Queen, 1),
            (Piece::King, 1),
        ];
        let mut out = Vec::new();
        place(&mut Vec::new(), &mut left, &mut out);
        out
    }

    #[test]
    fn the_numbering_is_a_bijection_onto_the_chess960_arrangements() {
        let orderings = every_ordering();
        assert_eq!(orderings.len(), 5040);
        let valid: HashSet<[Piece; 8]> = orderings.into_iter().filter(is_chess960).collect();
        assert_eq!(valid.len(), 960);
        let numbered: HashSet<[Piece; 8]> = (0..BackRank::COUNT)
            .map(|n| BackRank::from_scharnagl(n).expect("in range").0)
            .inspect(|rank| assert!(is_chess960(rank), "{rank:?}"))
            .collect();
        assert_eq!(numbered.len(), 960, "no two numbers give the same arrangement");
        assert_eq!(numbered, valid, "every arrangement has a number");
        assert_eq!(BackRank::from_scharnagl(BackRank::COUNT), None);
        assert_eq!(BackRank::from_scharnagl(u16::MAX), None);
    }

    #[test]
    fn known_numbers() {
        let rank = |n| BackRank::from_scharnagl(n).expect("in range").to_string();
        assert_eq!(rank(BackRank::STANDARD), "RNBQKBNR");
        // Scharnagl's table: the first and last numbers, and the arrangements
        // whose light-squared bishop starts its own row.
        assert_eq!(rank(0), "BBQNNRKR");
        assert_eq!(rank(1), "BQNBNRKR");
        assert_eq!(rank(4), "QBBNNRKR");
        assert_eq!(rank(959), "RKRNNQBB");
    }

    #[test]
    fn dfrc_boards_hold_both_arrangements_and_every_castling_right() {
        for n in 0..BackRank::COUNT {
            let white = BackRank::from_scharnagl(n).expect("in range");
            let black =
                BackRank::from_scharnagl((n * 7 + 300) % BackRank::COUNT).expect("in range");
            let board = dfrc_board(white, black);
            for file in File::ALL {
                let on = |sq| board.colored_piece_on(sq).map(|p| (p.color, p.piece));
                assert_eq!(
                    on(Square::new(file, board::Rank::First)),
                    Some((Color::White, white.piece_on(file)))
                );
                assert_eq!(
                    on(Square::new(file, board::Rank::Eighth)),
                    Some((Color::Black, black.piece_on(file)))
                );
            }
            for (color, rank) in [(Color::White, white), (Color::Black, black)] {
                let [long, short] = rank.rook_files();
                let file = |side| board.castling_rook(color, side).map(Square::file);
                assert_eq!(
                    (file(CastlingSide::Long), file(CastlingSide::Short)),
                    (Some(long), Some(short))
                );
            }
            assert_eq!(board.side_to_move(), Color::White);
            assert!(board.incremental_state_is_consistent());
            // Shredder-FEN round trip: what the game format's reader parses.
            assert_eq!(Board::from_fen(&board.to_fen(true)).expect("valid"), board);
        }
    }
}
