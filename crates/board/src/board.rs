//! `Board`: the position of the pieces and the state needed to move them.
//!
//! The board is `Copy` (112 bytes): the search plays moves by copy-make,
//! and [`crate::Position`] keeps the stack of boards for repetition detection.
//!
//! Which fields are updated incrementally by [`Board::play_unchecked`] and which
//! are recomputed:
//!
//! | field                         | how                                           |
//! |-------------------------------|-----------------------------------------------|
//! | pieces, colors                | incrementally (XOR of the squares changed)    |
//! | key, pawn key                 | incrementally                                 |
//! | castling rights, clocks       | incrementally                                 |
//! | en-passant square             | recomputed: set only if a capture is legal    |
//! | checkers, pinned              | recomputed after every move                   |

use crate::attacks::*;
use crate::{Bitboard, ByColor, ByPiece, CastlingRights, CastlingSide, Color, ColoredPiece};
use crate::{File, Move, Piece, Rank, Square, zobrist};

/// A chess position: piece placement, side to move, castling rights, en-passant
/// square, clocks, keys and the check/pin state of the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    pub(crate) pieces: ByPiece<Bitboard>,
    pub(crate) colors: ByColor<Bitboard>,
    pub(crate) side: Color,
    pub(crate) castling: CastlingRights,
    pub(crate) en_passant: Option<Square>,
    pub(crate) halfmove_clock: u16,
    pub(crate) fullmove_number: u16,
    pub(crate) key: u64,
    pub(crate) pawn_key: u64,
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
}

impl Board {
    /// An empty board (no kings: not a legal position; used while parsing).
    pub(crate) fn empty() -> Board {
        Board {
            pieces: ByPiece::default(),
            colors: ByColor::default(),
            side: Color::White,
            castling: CastlingRights::NONE,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            key: 0,
            pawn_key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        }
    }

    // ---- accessors -------------------------------------------------------

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Squares of pieces of kind `piece`, both colors.
    #[inline(always)]
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        self.pieces[piece]
    }

    /// Squares of `color`'s pieces.
    #[inline(always)]
    pub fn colors(&self, color: Color) -> Bitboard {
        self.colors[color]
    }

    /// Squares of `color`'s pieces of kind `piece`.
    #[inline(always)]
    pub fn colored_pieces(&self, color: Color, piece: Piece) -> Bitboard {
        self.pieces[piece] & self.colors[color]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colors[Color::White] | self.colors[Color::Black]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.colored_pieces(color, Piece::King).lsb()
    }

    /// The kind of piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        // Bit `p` of `kinds` is set when a piece of kind `p` stands on `sq` (at
        // most one does): six shifts without a branch, where a search kind by
        // kind mispredicts on nearly every call of the move loop.
        let kinds = self
            .pieces
            .0
            .iter()
            .enumerate()
            .fold(0u32, |kinds, (p, bb)| kinds | (((bb.0 >> sq as u32) & 1) as u32) << p);
        (kinds != 0).then(|| Piece::index_const(kinds.trailing_zeros() as usize))
    }

    /// Whether `mv` (legal here) captures or promotes: a noisy move, the kind
    /// quiescence searches and move ordering scores by its victim.
    ///
    /// ```
    /// use board::Board;
    /// let board = Board::from_fen("4k3/1P6/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
    /// let noisy = |uci| board.is_noisy(board.parse_uci_move(uci, false).unwrap());
    /// assert!(noisy("e4d5") && noisy("b7b8q"));
    /// assert!(!noisy("e4e5") && !noisy("e1d2"));
    /// ```
    #[inline(always)]
    pub fn is_noisy(&self, mv: Move) -> bool {
        mv.is_en_passant()
            || mv.promotion().is_some()
            || (!mv.is_castling() && self.occupied().has(mv.to()))
    }

    /// The color of the piece on `sq`, if any.
    #[inline(always)]
    pub fn color_on(&self, sq: Square) -> Option<Color> {
        if self.colors[Color::White].has(sq) {
            Some(Color::White)
        } else if self.colors[Color::Black].has(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The piece and its color on `sq`, if any.
    pub fn colored_piece_on(&self, sq: Square) -> Option<ColoredPiece> {
        Some(ColoredPiece { color: self.color_on(sq)?, piece: self.piece_on(sq)? })
    }

    /// Castling rights still held.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en-passant target square, present only when an en-passant capture is legal.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last capture or pawn move (for the fifty-move rule).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and incremented after Black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove_number
    }

    /// The Zobrist key of the position.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key of the pawns alone (for a pawn-structure cache).
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// How many pieces of kind `piece` `color` has (a popcount: cheaper than
    /// keeping counts up to date on every move).
    #[inline(always)]
    pub fn count(&self, color: Color, piece: Piece) -> u8 {
        self.colored_pieces(color, piece).count() as u8
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces of the side to move pinned to their king.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// Whether `color` has a piece other than pawns and the king (null-move guard).
    #[inline(always)]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        (self.colors[color] & !(self.pieces[Piece::Pawn] | self.pieces[Piece::King])).any()
    }

    /// The square of the rook `color` castles with on `side`, if the right is held.
    #[inline(always)]
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        let file = self.castling.rook(color, side)?;
        Some(Square::new(file, color.back_rank()))
    }

    /// Whether the castling rights can only be written in Chess960 notation: a
    /// castling king off the e-file, or a castling rook off the a- or h-file.
    pub fn has_chess960_castling(&self) -> bool {
        Color::ALL.into_iter().any(|color| {
            self.castling.any(color)
                && (self.king(color).file() != File::E
                    || self.castling.rook(color, CastlingSide::Short).is_some_and(|f| f != File::H)
                    || self.castling.rook(color, CastlingSide::Long).is_some_and(|f| f != File::A))
        })
    }

    // ---- attacks ---------------------------------------------------------

    /// Pieces of both colors attacking `sq`, with `occ` as the occupancy.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let rooks = self.pieces[Piece::Rook] | self.pieces[Piece::Queen];
        let bishops = self.pieces[Piece::Bishop] | self.pieces[Piece::Queen];
        (rook_attacks(sq, occ) & rooks)
            | (bishop_attacks(sq, occ) & bishops)
            | (knight_attacks(sq) & self.pieces[Piece::Knight])
            | (king_attacks(sq) & self.pieces[Piece::King])
            | (pawn_attacks(Color::White, sq) & self.colored_pieces(Color::Black, Piece::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.colored_pieces(Color::White, Piece::Pawn))
    }

    /// Whether `by` attacks `sq`, with `occ` as the occupancy.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: Color, occ: Bitboard) -> bool {
        let them = self.colors[by];
        let rooks = (self.pieces[Piece::Rook] | self.pieces[Piece::Queen]) & them;
        let bishops = (self.pieces[Piece::Bishop] | self.pieces[Piece::Queen]) & them;
        (knight_attacks(sq) & self.pieces[Piece::Knight] & them).any()
            || (pawn_attacks(!by, sq) & self.pieces[Piece::Pawn] & them).any()
            || (king_attacks(sq) & self.pieces[Piece::King] & them).any()
            || (rook_attacks(sq, occ) & rooks).any()
            || (bishop_attacks(sq, occ) & bishops).any()
    }

    /// Recomputes the checkers and pinned pieces of the side to move.
    pub(crate) fn update_check_info(&mut self) {
        let us = self.side;
        let them = !us;
        let king = self.king(us);
        let their = self.colors[them];
        let occ = self.occupied();
        let mut checkers = (knight_attacks(king) & self.pieces[Piece::Knight] & their)
            | (pawn_attacks(us, king) & self.pieces[Piece::Pawn] & their);
        let snipers = ((rook_rays(king) & (self.pieces[Piece::Rook] | self.pieces[Piece::Queen]))
            | (bishop_rays(king) & (self.pieces[Piece::Bishop] | self.pieces[Piece::Queen])))
            & their;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occ;
            if blockers.is_empty() {
                checkers |= sniper.bitboard();
            } else if !blockers.has_many() {
                pinned |= blockers & self.colors[us];
            }
        }
        self.checkers = checkers;
        self.pinned = pinned;
    }

    // ---- placement -------------------------------------------------------

    /// Puts a piece on an empty square, updating the keys.
    #[inline(always)]
    pub(crate) fn put(&mut self, color: Color, piece: Piece, sq: Square) {
        let bb = sq.bitboard();
        self.pieces[piece] |= bb;
        self.colors[color] |= bb;
        let k = zobrist::piece_square(color, piece, sq);
        self.key ^= k;
        if piece == Piece::Pawn {
            self.pawn_key ^= k;
        }
    }

    /// Removes a piece known to stand on `sq`, updating the keys.
    #[inline(always)]
    pub(crate) fn remove(&mut self, color: Color, piece: Piece, sq: Square) {
        let bb = sq.bitboard();
        self.pieces[piece] ^= bb;
        self.colors[color] ^= bb;
        let k = zobrist::piece_square(color, piece, sq);
        self.key ^= k;
        if piece == Piece::Pawn {
            self.pawn_key ^= k;
        }
    }

    // ---- keys from scratch -------------------------------------------------

    /// The Zobrist key computed from scratch (the incremental key must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = self.compute_pawn_key();
        for color in Color::ALL {
            for piece in Piece::ALL {
                if piece == Piece::Pawn {
                    continue;
                }
                for sq in self.colored_pieces(color, piece) {
                    key ^= zobrist::piece_square(color, piece, sq);
                }
            }
        }
        if self.side == Color::Black {
            key ^= zobrist::SIDE;
        }
        key ^= zobrist::castling(self.castling);
        if let Some(ep) = self.en_passant {
            key ^= zobrist::en_passant(ep.file());
        }
        key
    }

    /// The pawn key computed from scratch.
    pub fn compute_pawn_key(&self) -> u64 {
        let mut key = 0;
        for color in Color::ALL {
            for sq in self.colored_pieces(color, Piece::Pawn) {
                key ^= zobrist::piece_square(color, Piece::Pawn, sq);
            }
        }
        key
    }

    /// Checks every incrementally maintained field against a recomputation.
    pub fn incremental_state_is_consistent(&self) -> bool {
        let mut fresh = *self;
        fresh.update_check_info();
        self.key == self.compute_key()
            && self.pawn_key == self.compute_pawn_key()
            && fresh.checkers == self.checkers
            && fresh.pinned == self.pinned
    }

    /// Test support only: XORs `mask` into the incremental key, so tests can show
    /// that [`Board::incremental_state_is_consistent`] (and the debug assertion
    /// after every move) catches a key that went wrong.
    #[doc(hidden)]
    pub fn xor_key_for_testing(&mut self, mask: u64) {
        self.key ^= mask;
    }

    // ---- game end ----------------------------------------------------------

    /// Whether neither side can ever deliver mate, whatever the moves (the "dead
    /// position" cases: K v K, a lone minor, same-colored bishops only, ...).
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }

    /// Whether `color` can never deliver mate (even with the opponent's help).
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.colors[color];
        let heavy = self.pieces[Piece::Pawn] | self.pieces[Piece::Rook] | self.pieces[Piece::Queen];
        if (ours & heavy).any() {
            return false;
        }
        if (ours & self.pieces[Piece::Knight]).any() {
            // A lone knight cannot mate unless the opponent has pieces to block its king in.
            let theirs = self.colors[!color];
            return ours.count() <= 2
                && (theirs & !self.pieces[Piece::King] & !self.pieces[Piece::Queen]).is_empty();
        }
        if (ours & self.pieces[Piece::Bishop]).any() {
            let bishops = self.pieces[Piece::Bishop];
            let same_color = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return same_color
                && self.pieces[Piece::Pawn].is_empty()
                && self.pieces[Piece::Knight].is_empty();
        }
        true
    }

    /// The state of the game as far as this one position can tell (no repetitions:
    /// see [`crate::Position`] for those).
    pub fn status(&self) -> GameStatus {
        if !self.has_legal_move() {
            if self.in_check() { GameStatus::Checkmate } else { GameStatus::Stalemate }
        } else if self.is_insufficient_material() {
            GameStatus::InsufficientMaterial
        } else if self.halfmove_clock >= 100 {
            GameStatus::FiftyMoveRule
        } else {
            GameStatus::Ongoing
        }
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut any = false;
        self.generate_moves(|moves| {
            any = moves.to.any();
            any
        });
        any
    }

    /// A short ASCII diagram of the board (White at the bottom).
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for rank in Rank::ALL.into_iter().rev() {
            s.push_str(" +---+---+---+---+---+---+---+---+\n");
            for file in File::ALL {
                let c = self.colored_piece_on(Square::new(file, rank)).map_or(' ', |p| p.to_char());
                s.push_str(" | ");
                s.push(c);
            }
            s.push_str(&format!(" | {}\n", rank.to_char()));
        }
        s.push_str(" +---+---+---+---+---+---+---+---+\n   a   b   c   d   e   f   g   h\n");
        s
    }
}

/// The state of the game in one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameStatus {
    /// Play goes on.
    Ongoing,
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A hundred plies without a capture or pawn move (a draw claim is available).
    FiftyMoveRule,
}
