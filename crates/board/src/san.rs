//! Standard algebraic notation (SAN), as PGN writes moves: `Nf3`, `exd5`,
//! `Rad1`, `e8=Q+`, `O-O-O#`.
//!
//! Writing follows the PGN standard: the piece letter (none for pawns), the
//! least disambiguation that names one move (file, else rank, else both), `x`
//! for captures (a pawn's capture starts with its file), `=` and the piece of a
//! promotion, castling as `O-O` / `O-O-O` (also in Chess960), then `+` or `#`.
//!
//! Reading is the inverse and tolerant of what PGN writers add: check and mate
//! marks, annotation glyphs (`!`, `?`), castling written with zeros (`0-0`) and
//! a promotion without `=` (`e8Q`) are accepted; a text must name exactly one
//! legal move.

use crate::{Board, GameStatus, Move, Piece, Square};
use std::fmt;

/// Why a SAN text was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SanError {
    /// The text as given.
    pub text: String,
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' names no legal move here", self.text)
    }
}

impl std::error::Error for SanError {}

impl Board {
    /// The SAN of the legal move `mv`, with `+` or `#` when it gives check or mate.
    pub fn move_to_san(&self, mv: Move) -> String {
        let mut san = self.san_without_check(mv);
        let mut after = *self;
        after.play(mv);
        if after.in_check() {
            san.push(if after.status() == GameStatus::Checkmate { '#' } else { '+' });
        }
        san
    }

    /// Parses SAN and returns the one legal move it names.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let error = || SanError { text: text.to_string() };
        let core = normalise(text).ok_or_else(error)?;
        let legal = self.legal_moves();
        let mut found = legal.iter().copied().filter(|&mv| {
            let san = self.san_without_check(mv);
            san == core || san.replace('=', "") == core
        });
        match (found.next(), found.next()) {
            (Some(mv), None) => Ok(mv),
            _ => Err(error()),
        }
    }

    /// The SAN of `mv` without the check or mate mark.
    fn san_without_check(&self, mv: Move) -> String {
        if mv.is_castling() {
            let short = mv.to().file() > mv.from().file();
            return if short { "O-O" } else { "O-O-O" }.to_string();
        }
        let piece = self.piece_on(mv.from()).expect("a legal move starts on a piece");
        let capture = mv.is_en_passant() || self.piece_on(mv.to()).is_some();
        let mut san = String::with_capacity(8);
        if piece == Piece::Pawn {
            if capture {
                san.push(mv.from().file().to_char());
            }
        } else {
            san.push(piece.to_char().to_ascii_uppercase());
            san.push_str(&self.disambiguation(mv, piece));
        }
        if capture {
            san.push('x');
        }
        push_square(&mut san, mv.to());
        if let Some(promotion) = mv.promotion() {
            san.push('=');
            san.push(promotion.to_char().to_ascii_uppercase());
        }
        san
    }

    /// What tells `mv` apart from the other legal moves of a `piece` to the same
    /// square: nothing, the file, the rank, or the whole square.
    fn disambiguation(&self, mv: Move, piece: Piece) -> String {
        let rivals: Vec<Square> = self
            .legal_moves()
            .iter()
            .filter(|&&other| {
                other.to() == mv.to()
                    && other.from() != mv.from()
                    && !other.is_castling()
                    && self.piece_on(other.from()) == Some(piece)
            })
            .map(|other| other.from())
            .collect();
        let from = mv.from();
        if rivals.is_empty() {
            String::new()
        } else if rivals.iter().all(|sq| sq.file() != from.file()) {
            from.file().to_char().to_string()
        } else if rivals.iter().all(|sq| sq.rank() != from.rank()) {
            from.rank().to_char().to_string()
        } else {
            from.to_string()
        }
    }
}

fn push_square(s: &mut String, sq: Square) {
    s.push(sq.file().to_char());
    s.push(sq.rank().to_char());
}

/// The text without check marks and annotation glyphs, castling with letters;
/// `None` when nothing is left.
fn normalise(text: &str) -> Option<String> {
    let core = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let core = match core {
        "0-0" => "O-O",
        "0-0-0" => "O-O-O",
        other => other,
    };
    (!core.is_empty()).then(|| core.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn san_of(fen: &str, uci: &str) -> String {
        let board = Board::from_fen(fen).expect("valid FEN");
        let mv = board.parse_uci_move(uci, false).expect("legal");
        let san = board.move_to_san(mv);
        assert_eq!(board.parse_san(&san), Ok(mv), "{san} reads back");
        san
    }

    #[test]
    fn writes_the_standard_forms() {
        let start = crate::STARTPOS_FEN;
        assert_eq!(san_of(start, "g1f3"), "Nf3");
        assert_eq!(san_of(start, "e2e4"), "e4");
        // Knights on b1 and f3 both reach d2: file disambiguation.
        let fen = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
        assert_eq!(san_of(fen, "b1d2"), "Nbd2");
        // Rooks on a1 and a5 both reach a3: rank disambiguation.
        let fen = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
        assert_eq!(san_of(fen, "a1a3"), "R1a3");
        // Queens on a1, a5 and e1 all reach c3: neither file nor rank is enough.
        let fen = "8/8/7k/Q7/8/8/8/Q3Q1K1 w - - 0 1";
        assert_eq!(san_of(fen, "a1c3"), "Qa1c3");
        // Pawn capture, en passant, promotion with capture and check.
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        assert_eq!(san_of(fen, "e5d6"), "exd6");
        let fen = "3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(san_of(fen, "c7d8q"), "cxd8=Q+");
        // Castling both ways; mate.
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(san_of(fen, "e1g1"), "O-O");
        assert_eq!(san_of(fen, "e1c1"), "O-O-O");
        let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        assert_eq!(san_of(fen, "a1a8"), "Ra8#");
    }

    #[test]
    fn reads_what_pgn_writers_add_and_refuses_the_rest() {
        let board = Board::startpos();
        let nf3 = board.parse_uci_move("g1f3", false).expect("legal");
        for text in ["Nf3", "Nf3!", "Nf3?!", " Nf3 "] {
            assert_eq!(board.parse_san(text), Ok(nf3), "{text}");
        }
        for text in ["", "Nf4", "Ke2", "e5", "xx", "O-O", "N"] {
            assert!(board.parse_san(text).is_err(), "{text}");
        }
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let board = Board::from_fen(fen).expect("valid FEN");
        let short = board.parse_uci_move("e1g1", false).expect("legal");
        assert_eq!(board.parse_san("0-0"), Ok(short));
        let fen = "4k3/2P5/8/8/8/8/8/4K3 w - - 0 1";
        let board = Board::from_fen(fen).expect("valid FEN");
        let queen = board.parse_uci_move("c7c8q", false).expect("legal");
        assert_eq!(board.parse_san("c8Q+"), Ok(queen));
        // Ambiguous without disambiguation: refused.
        let fen = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
        let board = Board::from_fen(fen).expect("valid FEN");
        assert!(board.parse_san("Nd2").is_err());
    }
}
