//! Legal move generation.
//!
//! Moves are produced as [`PieceMoves`] chunks, one per moving piece: the piece,
//! its square and the set of legal destinations. Counting moves is then a
//! popcount (perft bulk counting), and expanding a chunk into [`Move`]s is
//! cheap. Legality comes from two masks computed once per position: the
//! *check mask* (in single check, a move must capture the checker or block)
//! and the *pin masks* (a pinned piece stays on the line through its king).
//! King moves test the destination with the king removed from the board;
//! castling and en passant, the rare cases, get full tests.

use crate::attacks::*;
use crate::{Bitboard, Board, CastlingSide, Color, Move, MoveKind, MoveList, Piece, Rank, Square};

/// The legal moves of one piece: `piece` on `from` may go to each square of `to`.
///
/// For a king, a destination holding its own rook means castling; for a pawn,
/// a destination equal to the en-passant square means en passant, and a pawn
/// on its seventh rank promotes (each destination is four moves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieceMoves {
    /// The moving piece.
    pub piece: Piece,
    /// Its square.
    pub from: Square,
    /// Its legal destinations.
    pub to: Bitboard,
}

impl PieceMoves {
    /// Whether the chunk's moves are promotions.
    #[inline(always)]
    fn promotes(&self, us: Color) -> bool {
        self.piece == Piece::Pawn && us.relative_rank(self.from.rank()) == Rank::Seventh
    }

    /// The number of moves in the chunk.
    #[inline(always)]
    pub fn len_for(&self, us: Color) -> usize {
        let n = self.to.count() as usize;
        if self.promotes(us) { n * 4 } else { n }
    }
}

const PROMOTIONS: [Piece; 4] = [Piece::Queen, Piece::Knight, Piece::Rook, Piece::Bishop];

impl Board {
    /// Calls `listener` with the legal moves of each piece of the side to move;
    /// `listener` returns `true` to stop early. Returns whether it stopped early.
    #[inline(always)]
    pub fn generate_moves(&self, listener: impl FnMut(PieceMoves) -> bool) -> bool {
        self.generate_moves_for(Bitboard::FULL, listener)
    }

    /// Like [`Board::generate_moves`], for the pieces standing on `mask` only.
    #[inline(always)]
    pub fn generate_moves_for(
        &self,
        mask: Bitboard,
        mut listener: impl FnMut(PieceMoves) -> bool,
    ) -> bool {
        let us = self.side;
        let ours = self.colors[us];
        let theirs = self.colors[!us];
        let occ = ours | theirs;
        let king = self.king(us);

        if mask.has(king) {
            let to = self.king_destinations(king, occ, ours);
            if to.any() && listener(PieceMoves { piece: Piece::King, from: king, to }) {
                return true;
            }
        }
        if self.checkers.has_many() {
            return false;
        }
        let target = !ours & self.check_mask(king);
        let pinned = self.pinned;

        for from in self.colored_pieces(us, Piece::Knight) & !pinned & mask {
            let to = knight_attacks(from) & target;
            if to.any() && listener(PieceMoves { piece: Piece::Knight, from, to }) {
                return true;
            }
        }
        for piece in [Piece::Bishop, Piece::Rook, Piece::Queen] {
            for from in self.colored_pieces(us, piece) & mask {
                let mut to = match piece {
                    Piece::Bishop => bishop_attacks(from, occ),
                    Piece::Rook => rook_attacks(from, occ),
                    _ => queen_attacks(from, occ),
                } & target;
                if pinned.has(from) {
                    to &= line(king, from);
                }
                if to.any() && listener(PieceMoves { piece, from, to }) {
                    return true;
                }
            }
        }
        for from in self.colored_pieces(us, Piece::Pawn) & mask {
            let single = from.bitboard().forward(us) & !occ;
            let mut to = single | (pawn_attacks(us, from) & theirs);
            if us.relative_rank(from.rank()) == Rank::Second {
                to |= single.forward(us) & !occ;
            }
            to &= target;
            if pinned.has(from) {
                to &= line(king, from);
            }
            if let Some(ep) = self.en_passant
                && pawn_attacks(us, from).has(ep)
                && self.en_passant_is_legal(from, ep)
            {
                to |= ep.bitboard();
            }
            if to.any() && listener(PieceMoves { piece: Piece::Pawn, from, to }) {
                return true;
            }
        }
        false
    }

    /// Where a piece other than the king may move in this check state: anywhere when
    /// not in check; in single check, onto the checker or a square between it and `king`.
    #[inline(always)]
    fn check_mask(&self, king: Square) -> Bitboard {
        match self.checkers.first() {
            Some(checker) => between(king, checker) | checker.bitboard(),
            None => Bitboard::FULL,
        }
    }

    /// Legal king destinations, castling included (as the castling rook's square).
    #[inline(always)]
    fn king_destinations(&self, king: Square, occ: Bitboard, ours: Bitboard) -> Bitboard {
        let them = !self.side;
        let without_king = occ ^ king.bitboard();
        let mut to = Bitboard::EMPTY;
        for sq in king_attacks(king) & !ours {
            if !self.is_attacked(sq, them, without_king) {
                to |= sq.bitboard();
            }
        }
        if self.checkers.is_empty() && self.castling.any(self.side) {
            for side in CastlingSide::ALL {
                if let Some(rook) = self.castling_rook(self.side, side)
                    && self.castling_is_legal(king, rook, side, occ)
                {
                    to |= rook.bitboard();
                }
            }
        }
        to
    }

    /// Castling: the squares the king and rook cross must be empty (but for the
    /// two of them) and no square the king stands on or crosses may be attacked,
    /// judged with both castling pieces lifted so x-rays through the rook count.
    fn castling_is_legal(
        &self,
        king: Square,
        rook: Square,
        side: CastlingSide,
        occ: Bitboard,
    ) -> bool {
        let rank = self.side.back_rank();
        let king_to = Square::new(side.king_to(), rank);
        let rook_to = Square::new(side.rook_to(), rank);
        let king_path = between(king, king_to) | king_to.bitboard();
        let rook_path = between(rook, rook_to) | rook_to.bitboard();
        let movers = king.bitboard() | rook.bitboard();
        if (occ & (king_path | rook_path) & !movers).any() {
            return false;
        }
        let lifted = occ ^ movers;
        let them = !self.side;
        king_path.into_iter().all(|sq| !self.is_attacked(sq, them, lifted))
    }

    /// Whether the pawn on `from` may capture en passant on `ep` without leaving its
    /// king attacked (covers the rank "double pin" and captures that answer a check).
    pub(crate) fn en_passant_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.side;
        let captured = ep.bitboard().forward(!us);
        let occ = (self.occupied() ^ from.bitboard() ^ captured) | ep.bitboard();
        let king = self.king(us);
        let attackers = self.attackers_to(king, occ) & self.colors[!us] & !captured;
        attackers.is_empty()
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(|chunk| {
            self.push_moves(chunk, chunk.to, &mut list);
            false
        });
        list
    }

    /// Appends the legal *noisy* moves: captures (en passant included) and promotions.
    pub fn noisy_moves(&self, list: &mut MoveList) {
        let theirs = self.colors[!self.side];
        self.generate_moves(|chunk| {
            let to = chunk.to & self.noisy_targets(chunk, theirs);
            self.push_moves(chunk, to, list);
            false
        });
    }

    /// Appends the legal *quiet* moves: everything [`Board::noisy_moves`] leaves out,
    /// castling included.
    pub fn quiet_moves(&self, list: &mut MoveList) {
        let theirs = self.colors[!self.side];
        self.generate_moves(|chunk| {
            let to = chunk.to & !self.noisy_targets(chunk, theirs);
            self.push_moves(chunk, to, list);
            false
        });
    }

    #[inline(always)]
    fn noisy_targets(&self, chunk: PieceMoves, theirs: Bitboard) -> Bitboard {
        if chunk.piece != Piece::Pawn {
            theirs
        } else if chunk.promotes(self.side) {
            Bitboard::FULL
        } else {
            theirs | self.en_passant.map_or(Bitboard::EMPTY, Square::bitboard)
        }
    }

    /// Expands the destinations `to` of `chunk` into moves.
    #[inline(always)]
    fn push_moves(&self, chunk: PieceMoves, to: Bitboard, list: &mut MoveList) {
        let from = chunk.from;
        match chunk.piece {
            Piece::Pawn if chunk.promotes(self.side) => {
                for sq in to {
                    for promo in PROMOTIONS {
                        list.push(Move::with_kind(from, sq, MoveKind::Promotion, promo));
                    }
                }
            }
            Piece::Pawn => {
                for sq in to {
                    if Some(sq) == self.en_passant {
                        list.push(Move::with_kind(from, sq, MoveKind::EnPassant, Piece::Pawn));
                    } else {
                        list.push(Move::new(from, sq));
                    }
                }
            }
            Piece::King => {
                let ours = self.colors[self.side];
                for sq in to {
                    if ours.has(sq) {
                        list.push(Move::with_kind(from, sq, MoveKind::Castling, Piece::King));
                    } else {
                        list.push(Move::new(from, sq));
                    }
                }
            }
            _ => {
                for sq in to {
                    list.push(Move::new(from, sq));
                }
            }
        }
    }

    /// The number of legal moves (by popcount, without building a list).
    #[inline(always)]
    pub fn count_legal_moves(&self) -> u64 {
        let us = self.side;
        let ours = self.colors[us];
        let theirs = self.colors[!us];
        let occ = ours | theirs;
        let king = self.king(us);
        let mut n = self.king_destinations(king, occ, ours).count() as u64;
        if self.checkers.has_many() {
            return n;
        }
        let target = !ours & self.check_mask(king);
        let pinned = self.pinned;
        // Pieces other than pawns, one popcount each (pinned ones along their pin line).
        self.generate_moves_for(!self.pieces[Piece::Pawn] & !king.bitboard(), |chunk| {
            n += chunk.to.count() as u64;
            false
        });
        // Pawns that are not pinned move as a set: shifts instead of one chunk per pawn.
        let pawns = self.colored_pieces(us, Piece::Pawn);
        let free = pawns & !pinned;
        let last = Bitboard::rank(us.relative_rank(Rank::Eighth));
        let single = free.forward(us) & !occ;
        let double =
            (single & Bitboard::rank(us.relative_rank(Rank::Third))).forward(us) & !occ & target;
        let ahead = free.forward(us);
        let moves =
            [single & target, ahead.east() & theirs & target, ahead.west() & theirs & target];
        for to in moves {
            n += (to & !last).count() as u64 + 4 * (to & last).count() as u64;
        }
        n += double.count() as u64;
        // Pinned pawns one by one, along the line through their king.
        for from in pawns & pinned {
            let one = from.bitboard().forward(us) & !occ;
            let mut to = one | (pawn_attacks(us, from) & theirs);
            if us.relative_rank(from.rank()) == Rank::Second {
                to |= one.forward(us) & !occ;
            }
            to &= target & line(king, from);
            n += (to & !last).count() as u64 + 4 * (to & last).count() as u64;
        }
        // En passant, the rare case, with the full legality test.
        if let Some(ep) = self.en_passant {
            for from in pawn_attacks(!us, ep) & pawns {
                n += u64::from(self.en_passant_is_legal(from, ep));
            }
        }
        n
    }

    /// Whether `mv` is legal here. Any 16-bit value is accepted, so a move read
    /// from the hash table (possibly from another position) can be checked before
    /// it is played.
    pub fn is_legal(&self, mv: Move) -> bool {
        let from = mv.from();
        if !self.colors[self.side].has(from) {
            return false;
        }
        let mut list = MoveList::new();
        self.generate_moves_for(from.bitboard(), |chunk| {
            if chunk.to.has(mv.to()) {
                self.push_moves(chunk, mv.to().bitboard(), &mut list);
            }
            true
        });
        list.contains(mv)
    }
}
