//! UCI move text: `e2e4`, `e7e8q`; castling as `e1g1` in standard chess and as
//! king-takes-rook (`e1h1`) in Chess960.

use crate::{Board, CastlingSide, Move, Piece, Square};
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
    /// The UCI text of `mv`. Castling is written as the king's move to its
    /// destination in standard chess, and as king-takes-rook in Chess960.
    pub fn move_to_uci(&self, mv: Move, chess960: bool) -> String {
        let to = if mv.is_castling() && !chess960 {
            let side = if mv.to().file() > mv.from().file() {
                CastlingSide::Short
            } else {
                CastlingSide::Long
            };
            Square::new(side.king_to(), mv.from().rank())
        } else {
            mv.to()
        };
        let mut s = format!("{}{}", mv.from(), to);
        if let Some(p) = mv.promotion() {
            s.push(p.to_char());
        }
        s
    }

    /// Parses UCI move text and returns the legal move it names. In standard
    /// chess both `e1g1` and `e1h1` are read as castling; in Chess960 only the
    /// king-takes-rook form is castling (`e1g1` may be a plain king move there).
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
            if mv.from() != from || mv.promotion() != promotion {
                return false;
            }
            if mv.to() == to {
                return true;
            }
            // Standard notation for castling: the king's destination square.
            !chess960 && mv.is_castling() && self.move_to_uci(mv, false)[2..4] == text[2..4]
        });
        found.ok_or_else(|| MoveError::Illegal { text: text.to_string() })
    }
}
