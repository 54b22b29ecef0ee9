//! Games: writing them, reading them back, and replaying their positions.

use crate::{GameResult, PackedBoard, UnpackError};
use board::{Board, Move};
use std::fmt;
use std::io::{self, Read, Write};

/// One recorded ply: the move played and the search score of the position
/// before it (centipawns, White's point of view).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// The score the search gave the position, from White's point of view.
    pub white_score: i16,
}

/// A recorded game: the position it starts from, the result, and every ply.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Game {
    /// The first recorded position.
    pub start: Board,
    /// How the game ended.
    pub result: GameResult,
    /// The plies in order.
    pub plies: Vec<Ply>,
}

impl Game {
    /// Every recorded position with the ply played from it and its index in the
    /// game (0 for the start position).
    pub fn positions(&self) -> impl Iterator<Item = (usize, Board, Ply)> + '_ {
        let mut board = self.start;
        self.plies.iter().enumerate().map(move |(i, &ply)| {
            let here = board;
            board.play_unchecked(ply.mv);
            (i, here, ply)
        })
    }

    /// The number of bytes the game takes in a file.
    pub fn encoded_len(&self) -> usize {
        32 + 4 * (self.plies.len() + 1)
    }
}

/// Writes `game`. Fails (writing nothing) if the start position cannot be packed
/// or a ply is the null move.
pub fn write_game(out: &mut impl Write, game: &Game) -> io::Result<()> {
    let packed = PackedBoard::pack(&game.start, game.result).ok_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, "the start position cannot be packed")
    })?;
    if game.plies.iter().any(|p| p.mv.is_null()) {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "a null move cannot be recorded"));
    }
    let mut bytes = Vec::with_capacity(game.encoded_len());
    bytes.extend_from_slice(&packed.0);
    for ply in game.plies.iter().chain(std::iter::once(&Ply { mv: Move::NULL, white_score: 0 })) {
        bytes.extend_from_slice(&ply.mv.bits().to_le_bytes());
        bytes.extend_from_slice(&ply.white_score.to_le_bytes());
    }
    out.write_all(&bytes)
}

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadError {
    /// The underlying reader failed.
    Io(io::Error),
    /// The file ends inside a game.
    Truncated {
        /// The game's number in the file (from 0).
        game: usize,
    },
    /// A start position does not decode.
    BadBoard {
        /// The game's number in the file (from 0).
        game: usize,
        /// What is wrong.
        error: UnpackError,
    },
    /// A recorded move is not legal where it was played.
    IllegalMove {
        /// The game's number in the file (from 0).
        game: usize,
        /// The ply's index in the game.
        ply: usize,
        /// The position, as FEN.
        fen: String,
        /// The move's bits.
        bits: u16,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "read error: {e}"),
            ReadError::Truncated { game } => write!(f, "game {game}: the file ends inside it"),
            ReadError::BadBoard { game, error } => write!(f, "game {game}: {error}"),
            ReadError::IllegalMove { game, ply, fen, bits } => {
                write!(f, "game {game}, ply {ply}: move {bits:#06x} is not legal in {fen}")
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads games one after another, checking every move's legality.
pub struct GameReader<R> {
    input: R,
    games_read: usize,
    failed: bool,
}

impl<R: Read> GameReader<R> {
    /// A reader of the games in `input` (buffer it: games are read in small pieces).
    pub fn new(input: R) -> GameReader<R> {
        GameReader { input, games_read: 0, failed: false }
    }

    /// Reads exactly `buf.len()` bytes; `Ok(false)` at a clean end of input
    /// (only allowed when `at_boundary`).
    fn fill(&mut self, buf: &mut [u8], at_boundary: bool) -> Result<bool, ReadError> {
        let mut filled = 0;
        while filled < buf.len() {
            match self.input.read(&mut buf[filled..]) {
                Ok(0) if filled == 0 && at_boundary => return Ok(false),
                Ok(0) => return Err(ReadError::Truncated { game: self.games_read }),
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ReadError::Io(e)),
            }
        }
        Ok(true)
    }

    fn read_game(&mut self) -> Result<Option<Game>, ReadError> {
        let game_index = self.games_read;
        let mut header = [0u8; 32];
        if !self.fill(&mut header, true)? {
            return Ok(None);
        }
        let packed = PackedBoard(header);
        let bad = |error| ReadError::BadBoard { game: game_index, error };
        let start = packed.unpack().map_err(bad)?;
        let result = packed.result().map_err(bad)?;
        let mut board = start;
        let mut plies = Vec::with_capacity(160);
        loop {
            let mut record = [0u8; 4];
            self.fill(&mut record, false)?;
            let bits = u16::from_le_bytes([record[0], record[1]]);
            let white_score = i16::from_le_bytes([record[2], record[3]]);
            if bits == 0 {
                break;
            }
            let mv = Move::from_bits(bits);
            if !board.is_legal(mv) {
                return Err(ReadError::IllegalMove {
                    game: game_index,
                    ply: plies.len(),
                    fen: board.to_fen(true),
                    bits,
                });
            }
            board.play_unchecked(mv);
            plies.push(Ply { mv, white_score });
        }
        self.games_read += 1;
        Ok(Some(Game { start, result, plies }))
    }
}

impl<R: Read> Iterator for GameReader<R> {
    type Item = Result<Game, ReadError>;

    /// The next game; after an error, `None`.
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let next = self.read_game().transpose();
        if matches!(next, Some(Err(_))) {
            self.failed = true;
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{RngCore, SeedableRng};

    /// A random legal game from the start position.
    fn random_game(rng: &mut rand_pcg::Pcg64, max_plies: usize) -> Game {
        let start = Board::startpos();
        let mut board = start;
        let mut plies = Vec::new();
        for _ in 0..max_plies {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves.as_slice()[rng.next_u64() as usize % moves.len()];
            plies.push(Ply { mv, white_score: (rng.next_u32() as i16) / 2 });
            board.play_unchecked(mv);
        }
        let result = GameResult::from_byte((rng.next_u32() % 3) as u8).expect("0..3");
        Game { start, result, plies }
    }

    #[test]
    fn games_round_trip() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
        let games: Vec<Game> = (0..200).map(|i| random_game(&mut rng, i % 150)).collect();
        let mut bytes = Vec::new();
        for g in &games {
            write_game(&mut bytes, g).expect("writes");
        }
        assert_eq!(bytes.len(), games.iter().map(Game::encoded_len).sum::<usize>());
        let back: Vec<Game> =
            GameReader::new(bytes.as_slice()).collect::<Result<_, _>>().expect("reads back");
        assert_eq!(back, games);
        // Replaying a game visits each position with the move played from it.
        let g = &back[120];
        let mut board = g.start;
        for (i, here, ply) in g.positions() {
            assert_eq!(here, board, "ply {i}");
            board.play_unchecked(ply.mv);
        }
    }

    #[test]
    fn damage_is_reported() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
        let game = random_game(&mut rng, 40);
        let mut bytes = Vec::new();
        write_game(&mut bytes, &game).expect("writes");
        // Cut anywhere inside: truncated, never a silently shorter game.
        for cut in [1, 31, 32, 33, bytes.len() - 1] {
            let result: Vec<_> = GameReader::new(&bytes[..cut]).collect();
            assert!(
                matches!(result.as_slice(), [Err(ReadError::Truncated { game: 0 })]),
                "cut at {cut}"
            );
        }
        // A move changed to one that is not legal (a1a8 with the rook blocked).
        let mut bad = bytes.clone();
        let a1a8 = board::Move::new(board::Square::A1, board::Square::A8).bits();
        bad[32..34].copy_from_slice(&a1a8.to_le_bytes());
        let result: Vec<_> = GameReader::new(bad.as_slice()).collect();
        assert!(matches!(result.as_slice(), [Err(ReadError::IllegalMove { ply: 0, .. })]));
        // An empty input holds no games.
        assert_eq!(GameReader::new(&[][..]).count(), 0);
    }
}
