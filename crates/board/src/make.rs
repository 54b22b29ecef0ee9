//! Playing moves: checked, unchecked (for the search) and the null move.
//!
//! The key, pawn key, material counts, castling rights and clocks are updated
//! incrementally; the en-passant square and the check/pin state are recomputed.
//! In debug builds every move asserts that the incremental state equals a
//! recomputation from scratch.

use crate::attacks::pawn_attacks;
use crate::{
    Board, CastlingSide, Color, MAX_HALFMOVE_CLOCK, Move, MoveKind, Piece, Square, zobrist,
};

/// The error of [`Board::try_play`]: the move is not legal in this position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IllegalMove(pub Move);

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "illegal move {:?}", self.0)
    }
}

impl std::error::Error for IllegalMove {}

impl Board {
    /// Plays `mv` after checking that it is legal; on error the board is unchanged.
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.is_legal(mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(IllegalMove(mv))
        }
    }

    /// Plays `mv`, panicking if it is illegal.
    pub fn play(&mut self, mv: Move) {
        if let Err(e) = self.try_play(mv) {
            panic!("{e} in {}", self.to_fen(true));
        }
    }

    /// Plays `mv`, which must be legal (from the move generator or checked with
    /// [`Board::is_legal`]). An illegal move leaves the board in an unspecified
    /// (but memory-safe) state.
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.side;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let Some(piece) = self.piece_on(from) else {
            debug_assert!(false, "no piece on {from} for {mv:?}");
            return;
        };
        let old_castling = self.castling;

        if let Some(ep) = self.en_passant.take() {
            self.key ^= zobrist::en_passant(ep.file());
        }
        // Capped where the FEN parser's range ends, so every board's FEN reads back.
        self.halfmove_clock = (self.halfmove_clock + 1).min(MAX_HALFMOVE_CLOCK);
        let mut double_push = None;

        match mv.kind() {
            MoveKind::Castling => {
                let side =
                    if to.file() > from.file() { CastlingSide::Short } else { CastlingSide::Long };
                let rank = us.back_rank();
                self.remove(us, Piece::King, from);
                self.remove(us, Piece::Rook, to);
                self.put(us, Piece::King, Square::new(side.king_to(), rank));
                self.put(us, Piece::Rook, Square::new(side.rook_to(), rank));
                self.castling.clear(us);
            }
            kind => {
                if kind == MoveKind::EnPassant {
                    let captured = Square::new(to.file(), from.rank());
                    self.remove(them, Piece::Pawn, captured);
                } else if let Some(captured) = self.piece_on(to) {
                    self.remove(them, captured, to);
                    self.halfmove_clock = 0;
                    self.clear_castling_for_rook(them, to);
                }
                self.remove(us, piece, from);
                self.put(us, mv.promotion().unwrap_or(piece), to);
                match piece {
                    Piece::Pawn => {
                        self.halfmove_clock = 0;
                        if (to as u8).abs_diff(from as u8) == 16 {
                            double_push =
                                Some(Square::index_const((from as usize + to as usize) / 2));
                        }
                    }
                    Piece::King => self.castling.clear(us),
                    Piece::Rook => self.clear_castling_for_rook(us, from),
                    _ => {}
                }
            }
        }

        if self.castling != old_castling {
            self.key ^= zobrist::castling(old_castling) ^ zobrist::castling(self.castling);
        }
        self.side = them;
        self.key ^= zobrist::SIDE;
        if us == Color::Black {
            self.fullmove_number = self.fullmove_number.saturating_add(1);
        }
        self.update_check_info();
        if let Some(ep) = double_push {
            self.set_en_passant_if_capturable(ep);
        }
        debug_assert!(
            self.incremental_state_is_consistent(),
            "after {mv:?}: {}",
            self.to_fen(true)
        );
    }

    /// Passes the turn (for null-move pruning). Must not be called in check.
    /// The halfmove clock is reset so repetition detection never looks across
    /// a null move.
    pub fn play_null(&mut self) {
        debug_assert!(!self.in_check());
        if let Some(ep) = self.en_passant.take() {
            self.key ^= zobrist::en_passant(ep.file());
        }
        self.side = !self.side;
        self.key ^= zobrist::SIDE;
        self.halfmove_clock = 0;
        self.update_check_info();
        debug_assert!(self.incremental_state_is_consistent());
    }

    /// Removes the castling right of `color` that uses a rook on `sq`, if any.
    #[inline(always)]
    fn clear_castling_for_rook(&mut self, color: Color, sq: Square) {
        if sq.rank() != color.back_rank() {
            return;
        }
        for side in CastlingSide::ALL {
            if self.castling.rook(color, side) == Some(sq.file()) {
                self.castling.set(color, side, None);
            }
        }
    }

    /// Sets the en-passant square `ep` (behind a pawn that just advanced two
    /// squares) only if the side to move has a legal capture onto it, and hashes it.
    pub(crate) fn set_en_passant_if_capturable(&mut self, ep: Square) {
        let us = self.side;
        let candidates = pawn_attacks(!us, ep) & self.colored_pieces(us, Piece::Pawn);
        if Iterator::any(&mut candidates.into_iter(), |from| self.en_passant_is_legal(from, ep)) {
            self.en_passant = Some(ep);
            self.key ^= zobrist::en_passant(ep.file());
        }
    }
}
