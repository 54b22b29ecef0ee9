//! Castling rights, stored as the file of each castling rook so that Chess960 and
//! standard chess share one representation.

use crate::{Color, File};

/// Which side of the king a castling rook stands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the h-file (O-O): the king ends on g, the rook on f.
    Short = 0,
    /// Towards the a-file (O-O-O): the king ends on c, the rook on d.
    Long = 1,
}

impl CastlingSide {
    /// Both sides.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::Short, CastlingSide::Long];

    /// The file the king ends on.
    pub const fn king_to(self) -> File {
        match self {
            CastlingSide::Short => File::G,
            CastlingSide::Long => File::C,
        }
    }

    /// The file the rook ends on.
    pub const fn rook_to(self) -> File {
        match self {
            CastlingSide::Short => File::F,
            CastlingSide::Long => File::D,
        }
    }
}

/// For each color and side, the file of the rook that may still castle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights {
    rooks: [[Option<File>; 2]; 2],
}

impl CastlingRights {
    /// No rights at all.
    pub const NONE: CastlingRights = CastlingRights { rooks: [[None; 2]; 2] };

    /// The rights of the standard start position.
    pub const STANDARD: CastlingRights =
        CastlingRights { rooks: [[Some(File::H), Some(File::A)], [Some(File::H), Some(File::A)]] };

    /// The file of the rook `color` may castle with on `side`, if the right is held.
    #[inline(always)]
    pub const fn rook(self, color: Color, side: CastlingSide) -> Option<File> {
        self.rooks[color as usize][side as usize]
    }

    /// Grants (`Some`) or removes (`None`) a right.
    #[inline(always)]
    pub fn set(&mut self, color: Color, side: CastlingSide, file: Option<File>) {
        self.rooks[color as usize][side as usize] = file;
    }

    /// Removes both rights of `color`.
    #[inline(always)]
    pub fn clear(&mut self, color: Color) {
        self.rooks[color as usize] = [None, None];
    }

    /// Whether `color` holds any right.
    #[inline(always)]
    pub const fn any(self, color: Color) -> bool {
        self.rooks[color as usize][0].is_some() || self.rooks[color as usize][1].is_some()
    }

    /// The rights as four bits: bit `2 * color + side`.
    #[inline(always)]
    pub const fn mask(self) -> u8 {
        (self.rooks[0][0].is_some() as u8)
            | (self.rooks[0][1].is_some() as u8) << 1
            | (self.rooks[1][0].is_some() as u8) << 2
            | (self.rooks[1][1].is_some() as u8) << 3
    }
}
