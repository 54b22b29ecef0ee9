//! A game's result, as the packed board stores it (one byte) and the trainer
//! scores it.

use board::Color;

/// A game's result, from White's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum GameResult {
    /// Black won.
    BlackWins = 0,
    /// Drawn.
    Draw = 1,
    /// White won.
    WhiteWins = 2,
}

impl GameResult {
    /// The result stored as `byte`, if valid.
    pub fn from_byte(byte: u8) -> Option<GameResult> {
        match byte {
            0 => Some(GameResult::BlackWins),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::WhiteWins),
            _ => None,
        }
    }

    /// A win for `color`.
    pub fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The score of the result for White: 1, 0.5 or 0.
    pub fn white_score(self) -> f32 {
        f32::from(self as u8) / 2.0
    }
}
