//! UCI move text: `e2e4`, `e7e8q`; castling as `e1g1` in standard chess and as
//! king-takes-rook (`e1h1`) in Chess960 and wherever `e1g1` would be ambiguous.

use crate::{Board, CastlingSide, File, Move, Piece, Square};
use std::fmt;

/// Why a UCI move text was rejected. Syntax and legality are separate errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not of the form `<from><to>[promotion]`.
    Syntax {
        /// The text as given.
        text: String,
    },
    /// The text is well formed but no legal move matches it.
    Illegal {
        /// The text as given.
        text: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax { text } => write!(f, "'{text}' is not a UCI move"),
            MoveError::Illegal { text } => write!(f, "'{text}' is not a legal move here"),
        }
    }
}

impl std::error::Error for MoveError {}

impl Board {
    /// The UCI text of `mv`. Castling is written as king-takes-rook (`e1h1`) in
    /// Chess960, and as the king's destination (`e1g1`, `e1c1`) in standard
    /// chess when it is standard castling (king on the e-file, rook in the
    /// corner). Any other castling, which a standard-chess FEN with castling
    /// rights can set up (`6KR w K`, `RK6 w Q`), is written king-takes-rook in
    /// both modes: its king destination can equal the king's square (`g1g1`) or a
    /// plain king move (`b1c1`), and a move's text must name exactly one move.
    pub fn move_to_uci(&self, mv: Move, chess960: bool) -> String {
        let to = match standard_castling_destination(mv) {
            Some(king_to) if !chess960 => king_to,
            _ => mv.to(),
        };
        let mut s = format!("{}{}", mv.from(), to);
        if let Some(p) = mv.promotion() {
            s.push(p.to_char());
        }
        s
    }

    /// Parses UCI move text and returns the legal move it names. King-takes-rook
    /// is castling in both modes; in standard chess the king's destination
    /// (`e1g1`) is read as standard castling too (in Chess960 `e1g1` is only ever
    /// a plain king move). Each text names at most one move.
    pub fn parse_uci_move(&self, text: &str, chess960: bool) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax { text: text.to_string() };
        if !(4..=5).contains(&text.len()) || !text.is_ascii() {
            return Err(syntax());
        }
        let from: Square = text[0..2].parse().map_err(|_| syntax())?;
        let to: Square = text[2..4].parse().map_err(|_| syntax())?;
        let promotion = match text.get(4..5) {
            None => None,
            Some(p) => match p.chars().next().and_then(Piece::from_char) {
                Some(piece @ (Piece::Knight | Piece::Bishop | Piece::Rook | Piece::Queen)) => {
                    Some(piece)
                }
                _ => return Err(syntax()),
            },
        };
        let found = self.legal_moves().iter().copied().find(|&mv| {
            mv.from() == from
                && mv.promotion() == promotion
                && (mv.to() == to || (!chess960 && standard_castling_destination(mv) == Some(to)))
        });
        found.ok_or_else(|| MoveError::Illegal { text: text.to_string() })
    }
}

/// For standard castling (a king on the e-file castling with a rook on the a- or
/// h-file), the square the king lands on; `None` for every other move.
fn standard_castling_destination(mv: Move) -> Option<Square> {
    if !mv.is_castling() || mv.from().file() != File::E {
        return None;
    }
    let side = match mv.to().file() {
        File::H => CastlingSide::Short,
        File::A => CastlingSide::Long,
        _ => return None,
    };
    Some(Square::new(side.king_to(), mv.from().rank()))
}
