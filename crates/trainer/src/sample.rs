//! `Sample`: one training position in 32 bytes, with its labels.

use board::{Board, Color, Piece, Square};
use eval::nnue::{feature_index, view};

/// A position with its search score and game result, both from the side to
/// move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Sample {
    /// Occupied squares.
    occupancy: u64,
    /// One nibble per occupied square in square order: piece index, plus 8 for Black.
    pieces: [u8; 16],
    /// The search score in centipawns, side to move's point of view.
    pub score: i16,
    /// The game result for the side to move: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// 0 when White is to move, 1 when Black is.
    side_to_move: u8,
    _padding: [u8; 4],
}

const _: () = assert!(std::mem::size_of::<Sample>() == 32);

impl Sample {
    /// The sample of `board` with `score` and `result` (0 loss / 1 draw / 2 win)
    /// for the side to move.
    pub fn new(board: &Board, score: i16, result: u8) -> Sample {
        let occupancy = board.occupied().0;
        let mut pieces = [0u8; 16];
        let mut bits = occupancy;
        let mut n = 0;
        while bits != 0 && n < 32 {
            let sq = Square::index_const(bits.trailing_zeros() as usize);
            bits &= bits - 1;
            if let Some(p) = board.colored_piece_on(sq) {
                pieces[n / 2] |= (p.piece as u8 | (p.color as u8) << 3) << (4 * (n % 2));
            }
            n += 1;
        }
        Sample {
            occupancy,
            pieces,
            score,
            result,
            side_to_move: board.side_to_move() as u8,
            _padding: [0; 4],
        }
    }

    /// Each occupied square (index 0..64, in square order) with its nibble:
    /// the piece index, plus 8 for Black.
    #[inline]
    fn nibbles(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        let mut bits = self.occupancy;
        (0..32).map_while(move |n| {
            if bits == 0 {
                return None;
            }
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some((sq, self.pieces[n / 2] >> (4 * (n % 2)) & 15))
        })
    }

    /// Each piece on the board: its square, colour and kind.
    #[inline]
    fn pieces(&self) -> impl Iterator<Item = (Square, Color, Piece)> + '_ {
        self.nibbles().map(|(sq, nibble)| {
            let color = if nibble & 8 != 0 { Color::Black } else { Color::White };
            let piece = Piece::try_index(usize::from(nibble & 7)).unwrap_or(Piece::Pawn);
            (Square::index_const(sq), color, piece)
        })
    }

    /// The number of pieces on the board, kings included.
    pub fn piece_count(&self) -> u32 {
        self.occupancy.count_ones()
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        if self.side_to_move == 0 { Color::White } else { Color::Black }
    }

    /// The position (without castling rights or en-passant square, which the
    /// sample does not keep).
    pub fn board(&self) -> Board {
        let mut grid = [' '; 64];
        for (sq, color, piece) in self.pieces() {
            let c = piece.to_char();
            grid[sq.index()] = if color == Color::Black { c } else { c.to_ascii_uppercase() };
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match grid[rank * 8 + file] {
                    ' ' => empty += 1,
                    c => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(c);
                    }
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if self.side_to_move == 0 { " w - - 0 1" } else { " b - - 0 1" });
        Board::from_fen(&fen).unwrap_or_default()
    }

    /// Calls `f(ours, theirs)` with each piece's input feature as seen by the
    /// side to move and by the other side.
    #[inline]
    pub fn for_each_feature(&self, mut f: impl FnMut(usize, usize)) {
        let stm = self.side_to_move();
        let mut kings = [Square::A1; 2];
        for (sq, color, piece) in self.pieces() {
            if piece == Piece::King {
                kings[color as usize] = sq;
            }
        }
        let ours = view(stm, kings[stm as usize]);
        let theirs = view(!stm, kings[!stm as usize]);
        for (sq, color, piece) in self.pieces() {
            f(
                feature_index(stm, ours, color, piece, sq),
                feature_index(!stm, theirs, color, piece, sq),
            );
        }
    }

    /// The same position with the files mirrored (a↔h, b↔g, …), with the same
    /// labels. Chess is symmetric under that mirror except for castling rights,
    /// which the network does not see, so a mirrored sample is as true as the
    /// original: the trainer's `--mirror` doubles the data with them.
    pub fn mirrored(&self) -> Sample {
        let mut nibbles = [None; 64];
        for (sq, nibble) in self.nibbles() {
            nibbles[sq ^ 7] = Some(nibble);
        }
        let mut occupancy = 0u64;
        let mut pieces = [0u8; 16];
        let mut n = 0;
        for (sq, nibble) in nibbles.iter().enumerate() {
            if let Some(nibble) = nibble {
                occupancy |= 1 << sq;
                pieces[n / 2] |= nibble << (4 * (n % 2));
                n += 1;
            }
        }
        Sample { occupancy, pieces, ..*self }
    }

    /// The training target: `λ · result + (1 − λ) · sigmoid(score / scale)`.
    #[inline]
    pub fn target(&self, lambda: f32, scale: f32) -> f32 {
        let result = f32::from(self.result) / 2.0;
        let expected = 1.0 / (1.0 + (-f32::from(self.score) / scale).exp());
        lambda * result + (1.0 - lambda) * expected
    }
}

/// A 64-bit digest of `samples` in their order (not cryptographic): whether
/// two runs read the same samples, so an interrupted run is continued only on
/// the data it began with.
pub fn digest(samples: &[Sample]) -> u64 {
    samples.iter().fold(0xcbf2_9ce4_8422_2325, |hash, s| {
        let [a, b] = [&s.pieces[..8], &s.pieces[8..]]
            .map(|half| u64::from_le_bytes(half.try_into().expect("eight bytes")));
        let labels =
            u64::from(s.score as u16) | u64::from(s.result) << 16 | u64::from(s.side_to_move) << 24;
        [s.occupancy, a, b, labels]
            .into_iter()
            .fold(hash, |h, word| (h ^ word).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(29))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_sees_every_field_and_the_order() {
        let samples: Vec<Sample> = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "4k3/8/8/3q4/8/8/8/R3K3 b - - 0 1",
        ]
        .iter()
        .enumerate()
        .map(|(i, fen)| {
            let board = Board::from_fen(fen).expect("valid FEN");
            Sample::new(&board, 40 * i as i16 - 70, i as u8 % 3)
        })
        .collect();
        let whole = digest(&samples);
        assert_eq!(digest(&samples), whole);
        let mut swapped = samples.clone();
        swapped.swap(0, 1);
        assert_ne!(digest(&swapped), whole);
        let mut rescored = samples.clone();
        rescored[3].score += 1;
        assert_ne!(digest(&rescored), whole);
        let mut result = samples.clone();
        result[2].result = (result[2].result + 1) % 3;
        assert_ne!(digest(&result), whole);
        assert_ne!(digest(&[samples[0].mirrored()]), digest(&samples[..1]));
        assert_ne!(digest(&samples[..3]), whole);
    }

    #[test]
    fn features_are_those_of_the_board() {
        let board =
            Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1")
                .expect("valid FEN");
        let sample = Sample::new(&board, -35, 2);
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        sample.for_each_feature(|a, b| {
            ours.push(a);
            theirs.push(b);
        });
        let mut expected_ours = Vec::new();
        let mut expected_theirs = Vec::new();
        for sq in Square::ALL {
            if let Some(p) = board.colored_piece_on(sq) {
                let (black, white) = (
                    view(Color::Black, board.king(Color::Black)),
                    view(Color::White, board.king(Color::White)),
                );
                expected_ours.push(feature_index(Color::Black, black, p.color, p.piece, sq));
                expected_theirs.push(feature_index(Color::White, white, p.color, p.piece, sq));
            }
        }
        assert_eq!(ours, expected_ours);
        assert_eq!(theirs, expected_theirs);
        assert_eq!(sample.side_to_move(), Color::Black);
        assert_eq!(
            sample.board().to_fen(false),
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 0 1"
        );
        // Mirrored: the files swap, the labels and side to move stay.
        let m = sample.mirrored();
        assert_eq!(
            m.board().to_fen(false),
            "r2k3r/1bpqpp1p/1pnp2nb/3NP3/3P2p1/p1Q2N2/PPPBBPPP/R2K3R b - - 0 1"
        );
        assert_eq!((m.score, m.result, m.side_to_move()), (-35, 2, Color::Black));
        assert_eq!(m.mirrored(), sample);
        // A win with score 0 and λ = 0.5: halfway between 1 and 0.5.
        let s = Sample::new(&board, 0, 2);
        assert!((s.target(0.5, 400.0) - 0.75).abs() < 1e-6);
    }
}
