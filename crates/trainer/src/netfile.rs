//! A quantised network of any hidden size, as its file holds it: what the
//! trainer writes, whether or not the engine at hand has that size (an engine
//! built with `HIDDEN` equal to it reads the file as its
//! [`Network`](eval::nnue::Network)).
//!
//! The file format is declared once, in `eval::nnue::network` (its byte
//! table): the header comes from [`eval::nnue::header`], and the evaluation's
//! output layer is [`eval::nnue::output_layer`], the engine's own.

use eval::nnue::{INPUTS, file_len, header, output_layer};

/// A quantised network of any hidden size. Its [`NetworkFile::evaluate`] is
/// the engine's integer evaluation, computed from scratch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkFile {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// First layer: [`INPUTS`] × `hidden`, feature-major.
    pub feature_weights: Vec<i16>,
    /// First-layer biases: `hidden`.
    pub feature_biases: Vec<i16>,
    /// Output weights: `2 × hidden`, the side to move's accumulator first.
    pub output_weights: Vec<i16>,
    /// Output bias, in units of `QA × QB`.
    pub output_bias: i32,
}

impl NetworkFile {
    /// A network of zeros with `hidden` neurons.
    pub fn zeroed(hidden: usize) -> NetworkFile {
        NetworkFile {
            hidden,
            feature_weights: vec![0; INPUTS * hidden],
            feature_biases: vec![0; hidden],
            output_weights: vec![0; 2 * hidden],
            output_bias: 0,
        }
    }

    /// The network as a file: the header for its size, then the weights in
    /// the file's order (first layer, its biases, output weights) and the
    /// output bias.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len(self.hidden));
        out.extend_from_slice(&header(self.hidden));
        let weights = self.feature_weights.iter().chain(&self.feature_biases);
        for w in weights.chain(&self.output_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// The evaluation in centipawns for the side to move of a position whose
    /// input features are `ours` (seen by the side to move) and `theirs`,
    /// exactly as the engine's `Network::evaluate` computes it for a net of
    /// its size.
    pub fn evaluate(&self, ours: &[usize], theirs: &[usize]) -> i32 {
        let h = self.hidden;
        let accumulate = |features: &[usize]| {
            let mut values = self.feature_biases.clone();
            for &f in features {
                for (x, &w) in values.iter_mut().zip(&self.feature_weights[f * h..(f + 1) * h]) {
                    *x = x.wrapping_add(w);
                }
            }
            values
        };
        let (us, them) = (accumulate(ours), accumulate(theirs));
        let weights = [&self.output_weights[..h], &self.output_weights[h..]];
        output_layer(&us, &them, weights, self.output_bias)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::{Board, Color, Piece};
    use eval::nnue::{Accumulator, HIDDEN, NetError, Network, feature_index, view};

    /// `net` as a [`NetworkFile`] of its size.
    fn as_file(net: &Network) -> NetworkFile {
        NetworkFile {
            hidden: HIDDEN,
            feature_weights: net.feature_weights.iter().flatten().copied().collect(),
            feature_biases: net.feature_biases.to_vec(),
            output_weights: net.output_weights.iter().flatten().copied().collect(),
            output_bias: net.output_bias,
        }
    }

    /// The input features of `board` seen by `perspective`.
    fn features(board: &Board, perspective: Color) -> Vec<usize> {
        let v = view(perspective, board.king(perspective));
        let mut out = Vec::new();
        for color in Color::ALL {
            for piece in Piece::ALL {
                for sq in board.colored_pieces(color, piece) {
                    out.push(feature_index(perspective, v, color, piece, sq));
                }
            }
        }
        out
    }

    #[test]
    fn a_network_file_of_the_engines_size_is_the_engines_network() {
        let net = Network::pseudo_random(7);
        let file = as_file(&net);
        let bytes = file.to_bytes();
        assert_eq!(bytes.len(), Network::FILE_LEN);
        assert_eq!(Network::from_bytes_boxed(&bytes).as_deref(), Ok(&*net));
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R b KQ - 3 9",
            "8/5pk1/6p1/3R4/7P/6P1/r4P2/6K1 b - - 3 40",
        ] {
            let board = Board::from_fen(fen).expect("valid");
            let stm = board.side_to_move();
            let expected = net.evaluate(&Accumulator::new(&net, &board), stm);
            let found = file.evaluate(&features(&board, stm), &features(&board, !stm));
            assert_eq!(found, expected, "{fen}");
        }
    }

    #[test]
    fn a_network_file_of_another_size_says_its_size() {
        let hidden = HIDDEN + 128;
        let bytes = NetworkFile::zeroed(hidden).to_bytes();
        assert_eq!(bytes.len(), Network::FILE_LEN + 2 * 128 * (INPUTS + 3));
        assert_eq!(bytes.len(), file_len(hidden));
        assert_eq!(usize::from(u16::from_le_bytes([bytes[6], bytes[7]])), hidden);
        let refused = Network::from_bytes_boxed(&bytes).err();
        assert_eq!(refused, Some(NetError::Hidden { found: hidden as u16 }));
    }
}
