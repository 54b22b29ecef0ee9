//! FEN parsing and printing, with X-FEN and Shredder-FEN castling fields for Chess960;
//! and the start position, [`Board::startpos`] (the default board), read from its FEN.
//!
//! Parsing never panics: every malformed input is a [`FenError`] naming the bad
//! field. Four fields (EPD style) are accepted; the clocks then default to `0 1`.

use crate::{Bitboard, Board, CastlingRights, CastlingSide, Color, ColoredPiece, File, Piece};
use crate::{Rank, Square, zobrist};
use std::fmt;

/// The FEN of the standard start position.
pub const STARTPOS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// The text has characters outside printable ASCII.
    NotAscii,
    /// Fewer than 4 or more than 6 space-separated fields.
    FieldCount {
        /// How many fields were found.
        found: usize,
    },
    /// The piece placement field is malformed.
    Placement {
        /// What is wrong with it.
        reason: String,
    },
    /// The side-to-move field is not `w` or `b`.
    SideToMove {
        /// The field as given.
        field: String,
    },
    /// The castling field is malformed or names a rook that is not there.
    Castling {
        /// The field as given.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The en-passant field is malformed or impossible.
    EnPassant {
        /// The field as given.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The halfmove clock is not a number in `0..=MAX_HALFMOVE_CLOCK`.
    HalfmoveClock {
        /// The field as given.
        field: String,
    },
    /// The fullmove number is not a number in `1..=u16::MAX`.
    FullmoveNumber {
        /// The field as given.
        field: String,
    },
    /// The fields are well formed but describe an impossible position.
    IllegalPosition {
        /// What is wrong with it.
        reason: String,
    },
}

/// The largest halfmove clock accepted (the game is drawn long before).
pub const MAX_HALFMOVE_CLOCK: u16 = 1000;

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::NotAscii => write!(f, "FEN contains non-ASCII or control characters"),
            FenError::FieldCount { found } => {
                write!(f, "FEN has {found} fields; expected 4 to 6")
            }
            FenError::Placement { reason } => write!(f, "bad piece placement field: {reason}"),
            FenError::SideToMove { field } => {
                write!(f, "bad side-to-move field '{field}': expected 'w' or 'b'")
            }
            FenError::Castling { field, reason } => {
                write!(f, "bad castling field '{field}': {reason}")
            }
            FenError::EnPassant { field, reason } => {
                write!(f, "bad en-passant field '{field}': {reason}")
            }
            FenError::HalfmoveClock { field } => {
                write!(f, "bad halfmove clock '{field}': expected 0 to {MAX_HALFMOVE_CLOCK}")
            }
            FenError::FullmoveNumber { field } => {
                write!(f, "bad fullmove number '{field}': expected 1 to {}", u16::MAX)
            }
            FenError::IllegalPosition { reason } => write!(f, "illegal position: {reason}"),
        }
    }
}

impl std::error::Error for FenError {}

fn placement_error(reason: impl Into<String>) -> FenError {
    FenError::Placement { reason: reason.into() }
}

impl Default for Board {
    fn default() -> Self {
        Board::startpos()
    }
}

impl Board {
    /// The standard start position.
    pub fn startpos() -> Board {
        Board::from_fen(STARTPOS_FEN).expect("the start position FEN is valid")
    }

    /// Parses a FEN (standard, X-FEN or Shredder-FEN castling).
    ///
    /// ```
    /// let board = board::Board::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    /// assert_eq!(board.legal_moves().len(), 15);
    /// assert!(board::Board::from_fen("4k3/8/8/8/8/8/8/4K2R w Q - 0 1").is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        if !fen.chars().all(|c| c.is_ascii_graphic() || c == ' ' || c == '\t') {
            return Err(FenError::NotAscii);
        }
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount { found: fields.len() });
        }
        let mut board = Board::empty();
        parse_placement(&mut board, fields[0])?;
        board.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::SideToMove { field: other.to_string() }),
        };
        if board.side == Color::Black {
            board.key ^= zobrist::SIDE;
        }
        validate_material(&board)?;
        board.castling = parse_castling(&board, fields[2])?;
        board.key ^= zobrist::castling(board.castling);
        board.halfmove_clock = match fields.get(4) {
            None => 0,
            Some(f) => f
                .parse::<u16>()
                .ok()
                .filter(|&n| n <= MAX_HALFMOVE_CLOCK)
                .ok_or_else(|| FenError::HalfmoveClock { field: f.to_string() })?,
        };
        board.fullmove_number = match fields.get(5) {
            None => 1,
            Some(f) => match f.parse::<u16>() {
                // Some GUIs write 0; read it as 1 (however it is spelled: "00", "+0").
                Ok(0) => 1,
                Ok(n) => n,
                Err(_) => return Err(FenError::FullmoveNumber { field: f.to_string() }),
            },
        };
        // The side not to move must not be in check.
        let them = !board.side;
        if board.is_attacked(board.king(them), board.side, board.occupied()) {
            return Err(FenError::IllegalPosition {
                reason: format!("the side not to move ({them:?}) is in check"),
            });
        }
        board.update_check_info();
        if board.checkers.count() > 2 {
            return Err(FenError::IllegalPosition { reason: "more than two checkers".into() });
        }
        parse_en_passant(&mut board, fields[3])?;
        Ok(board)
    }

    /// The FEN of the position. With `chess960`, castling rights use X-FEN
    /// (`K`/`Q` for the outermost rook, the rook's file letter otherwise);
    /// without it, always `KQkq`. The en-passant square is written only when
    /// an en-passant capture is legal.
    pub fn to_fen(&self, chess960: bool) -> String {
        let mut s = String::with_capacity(90);
        for rank in Rank::ALL.into_iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.colored_piece_on(Square::new(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push(p.to_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank != Rank::First {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side.to_char());
        s.push(' ');
        let before = s.len();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(file) = self.castling.rook(color, side) {
                    let outermost = self.outermost_rook(color, side) == Some(file);
                    let c = if !chess960 || outermost {
                        if side == CastlingSide::Short { 'k' } else { 'q' }
                    } else {
                        file.to_char()
                    };
                    s.push(if color == Color::White { c.to_ascii_uppercase() } else { c });
                }
            }
        }
        if s.len() == before {
            s.push('-');
        }
        s.push(' ');
        match self.en_passant {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove_clock, self.fullmove_number));
        s
    }

    /// The file of the rook farthest from `color`'s king on `side`, on the back rank.
    fn outermost_rook(&self, color: Color, side: CastlingSide) -> Option<File> {
        let king = self.colored_pieces(color, Piece::King).first()?;
        let back = Bitboard::rank(color.back_rank());
        let rooks = self.colored_pieces(color, Piece::Rook) & back;
        let beyond = rooks.into_iter().filter(|r| match side {
            CastlingSide::Short => r.file() > king.file(),
            CastlingSide::Long => r.file() < king.file(),
        });
        match side {
            CastlingSide::Short => beyond.map(Square::file).max(),
            CastlingSide::Long => beyond.map(Square::file).min(),
        }
    }
}

fn parse_placement(board: &mut Board, field: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(placement_error(format!("{} ranks; expected 8", ranks.len())));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::index_const(7 - i);
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) {
                    return Err(placement_error(format!("bad empty-square count '{c}'")));
                }
                file += d as usize;
            } else {
                let p = ColoredPiece::from_char(c)
                    .ok_or_else(|| placement_error(format!("bad piece letter '{c}'")))?;
                let f = File::try_index(file).ok_or_else(|| {
                    placement_error(format!("rank {} has more than 8 files", rank.to_char()))
                })?;
                board.put(p.color, p.piece, Square::new(f, rank));
                file += 1;
            }
            if file > 8 {
                return Err(placement_error(format!(
                    "rank {} has more than 8 files",
                    rank.to_char()
                )));
            }
        }
        if file != 8 {
            return Err(placement_error(format!("rank {} has {file} files", rank.to_char())));
        }
    }
    Ok(())
}

/// Kings, pawns and material that a game could have reached: one king a side,
/// no pawn on a back rank, at most 16 men and 8 pawns a side, and no more
/// promoted pieces than missing pawns. The material bounds are what makes
/// [`crate::MAX_MOVES`] an upper bound on the legal moves of every accepted
/// position and of every position reached from it.
fn validate_material(board: &Board) -> Result<(), FenError> {
    for color in Color::ALL {
        let kings = board.colored_pieces(color, Piece::King).count();
        if kings != 1 {
            return Err(FenError::IllegalPosition {
                reason: format!("{color:?} has {kings} kings; expected 1"),
            });
        }
    }
    let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
    if (board.pieces(Piece::Pawn) & back_ranks).any() {
        return Err(FenError::IllegalPosition {
            reason: "pawn on the first or eighth rank".into(),
        });
    }
    for color in Color::ALL {
        let men = board.colors(color).count();
        let pawns = board.colored_pieces(color, Piece::Pawn).count();
        if men > 16 || pawns > 8 {
            return Err(FenError::IllegalPosition {
                reason: format!("{color:?} has {men} men and {pawns} pawns; at most 16 and 8"),
            });
        }
        let promoted = promoted_at_least(board, color);
        if promoted > 8 - pawns {
            return Err(FenError::IllegalPosition {
                reason: format!(
                    "{color:?} has at least {promoted} promoted pieces but only {} missing pawns",
                    8 - pawns
                ),
            });
        }
    }
    Ok(())
}

/// The fewest promotions that explain `color`'s pieces: every knight and rook
/// beyond two, queen beyond one, and bishop beyond one per square colour.
fn promoted_at_least(board: &Board, color: Color) -> u32 {
    let beyond = |bb: Bitboard, start: u32| bb.count().saturating_sub(start);
    let bishops = board.colored_pieces(color, Piece::Bishop);
    beyond(board.colored_pieces(color, Piece::Knight), 2)
        + beyond(board.colored_pieces(color, Piece::Rook), 2)
        + beyond(board.colored_pieces(color, Piece::Queen), 1)
        + beyond(bishops & Bitboard::LIGHT_SQUARES, 1)
        + beyond(bishops & Bitboard::DARK_SQUARES, 1)
}

fn parse_castling(board: &Board, field: &str) -> Result<CastlingRights, FenError> {
    let mut rights = CastlingRights::NONE;
    if field == "-" {
        return Ok(rights);
    }
    let err = |reason: String| FenError::Castling { field: field.to_string(), reason };
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let king = board.king(color);
        if king.rank() != color.back_rank() {
            return Err(err(format!("{color:?} king is not on its back rank")));
        }
        let (side, file) = match c.to_ascii_lowercase() {
            'k' => (CastlingSide::Short, board.outermost_rook(color, CastlingSide::Short)),
            'q' => (CastlingSide::Long, board.outermost_rook(color, CastlingSide::Long)),
            letter => {
                let file = File::from_char(letter)
                    .ok_or_else(|| err(format!("unknown castling letter '{c}'")))?;
                let side = if file > king.file() {
                    CastlingSide::Short
                } else if file < king.file() {
                    CastlingSide::Long
                } else {
                    return Err(err(format!("'{c}' names the king's own file")));
                };
                let sq = Square::new(file, color.back_rank());
                if board.colored_piece_on(sq) != Some(ColoredPiece { color, piece: Piece::Rook }) {
                    return Err(err(format!("no {color:?} rook on {sq} for '{c}'")));
                }
                (side, Some(file))
            }
        };
        let file = file.ok_or_else(|| err(format!("no {color:?} rook for '{c}'")))?;
        if rights.rook(color, side).is_some() {
            return Err(err(format!("right '{c}' given twice")));
        }
        rights.set(color, side, Some(file));
    }
    Ok(rights)
}

fn parse_en_passant(board: &mut Board, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let err =
        |reason: &str| FenError::EnPassant { field: field.to_string(), reason: reason.into() };
    let ep: Square = field.parse().map_err(|_| err("not a square"))?;
    let us = board.side;
    if ep.rank() != us.relative_rank(Rank::Sixth) {
        return Err(err(if us == Color::White {
            "must be on rank 6 when White is to move"
        } else {
            "must be on rank 3 when Black is to move"
        }));
    }
    let pawn = ep.bitboard().forward(!us);
    let origin = ep.bitboard().forward(us);
    if (board.colored_pieces(!us, Piece::Pawn) & pawn).is_empty() {
        return Err(err("no pawn that just advanced two squares"));
    }
    if (board.occupied() & (ep.bitboard() | origin)).any() {
        return Err(err("the squares the pawn crossed are not empty"));
    }
    board.set_en_passant_if_capturable(ep);
    Ok(())
}
