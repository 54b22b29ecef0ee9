//! A quantised network of any hidden size and number of output buckets, as
//! its file holds it: what the trainer writes, whether or not the engine at
//! hand has that shape (an engine built with `HIDDEN` and `OUTPUT_BUCKETS`
//! equal to them reads the file as its [`Network`](eval::nnue::Network)).
//!
//! The file format is declared once, in `eval::nnue::network` (its byte
//! table): the header comes from [`eval::nnue::header`], and the evaluation's
//! output layer is [`eval::nnue::output_layer`], the engine's own.

use eval::nnue::{INPUTS, file_len, header, output_bucket, output_layer};

/// A quantised network of any hidden size and number of output buckets. Its
/// [`NetworkFile::evaluate`] is the engine's integer evaluation, computed
/// from scratch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkFile {
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Output buckets.
    pub output_buckets: usize,
    /// First layer: [`INPUTS`] × `hidden`, feature-major.
    pub feature_weights: Vec<i16>,
    /// First-layer biases: `hidden`.
    pub feature_biases: Vec<i16>,
    /// Output weights: `output_buckets × 2 × hidden`, bucket by bucket, each
    /// the side to move's accumulator first.
    pub output_weights: Vec<i16>,
    /// Output biases, one per bucket, in units of `QA × QB`.
    pub output_bias: Vec<i32>,
}

impl NetworkFile {
    /// A network of zeros with `hidden` neurons and `output_buckets`.
    pub fn zeroed(hidden: usize, output_buckets: usize) -> NetworkFile {
        NetworkFile {
            hidden,
            output_buckets,
            feature_weights: vec![0; INPUTS * hidden],
            feature_biases: vec![0; hidden],
            output_weights: vec![0; output_buckets * 2 * hidden],
            output_bias: vec![0; output_buckets],
        }
    }

    /// The network as a file: the header for its shape, then the weights in
    /// the file's order (first layer, its biases, output weights) and the
    /// output biases.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_len(self.hidden, self.output_buckets));
        out.extend_from_slice(&header(self.hidden, self.output_buckets));
        let weights = self.feature_weights.iter().chain(&self.feature_biases);
        for w in weights.chain(&self.output_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The evaluation in centipawns for the side to move of a position with
    /// `pieces` pieces (kings included) whose input features are `ours`
    /// (seen by the side to move) and `theirs`, exactly as the engine's
    /// `Network::evaluate` computes it for a net of its shape.
    pub fn evaluate(&self, ours: &[usize], theirs: &[usize], pieces: u32) -> i32 {
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
        let bucket = output_bucket(pieces, self.output_buckets);
        let layer = &self.output_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
        output_layer(&us, &them, [&layer[..h], &layer[h..]], self.output_bias[bucket])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::{Board, Color, Piece};
    use eval::nnue::{
        Accumulator, HIDDEN, NetError, Network, OUTPUT_BUCKETS, QA, QB, SCALE, feature_index, view,
    };

    /// `net` as a [`NetworkFile`] of its shape.
    fn as_file(net: &Network) -> NetworkFile {
        NetworkFile {
            hidden: HIDDEN,
            output_buckets: OUTPUT_BUCKETS,
            feature_weights: net.feature_weights.iter().flatten().copied().collect(),
            feature_biases: net.feature_biases.to_vec(),
            output_weights: net.output_weights.iter().flatten().flatten().copied().collect(),
            output_bias: net.output_bias.to_vec(),
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
            let expected = net.evaluate(&Accumulator::new(&net, &board), &board);
            let pieces = board.occupied().count();
            let found = file.evaluate(&features(&board, stm), &features(&board, !stm), pieces);
            assert_eq!(found, expected, "{fen}");
        }
    }

    #[test]
    fn a_network_file_of_another_size_says_its_size() {
        let hidden = HIDDEN + 128;
        let bytes = NetworkFile::zeroed(hidden, OUTPUT_BUCKETS).to_bytes();
        assert_eq!(bytes.len(), Network::FILE_LEN + 2 * 128 * (INPUTS + 1 + 2 * OUTPUT_BUCKETS));
        assert_eq!(bytes.len(), file_len(hidden, OUTPUT_BUCKETS));
        assert_eq!(usize::from(u16::from_le_bytes([bytes[6], bytes[7]])), hidden);
        let refused = Network::from_bytes_boxed(&bytes).err();
        assert_eq!(refused, Some(NetError::Hidden { found: hidden as u16 }));
    }

    #[test]
    fn a_network_file_with_output_buckets_evaluates_by_its_bucket() {
        // Bucket b's bias alone is b × 100 cp: the evaluation names the bucket
        // used; the file says its buckets, and an engine of another count refuses it.
        let buckets = if OUTPUT_BUCKETS == 8 { 4 } else { 8 };
        let mut file = NetworkFile::zeroed(HIDDEN, buckets);
        for (b, bias) in file.output_bias.iter_mut().enumerate() {
            *bias = b as i32 * 100 * QA * QB / SCALE;
        }
        for (fen, pieces) in [
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 2),
            ("r3k3/pp6/8/8/8/8/PP6/R3K3 w - - 0 1", 8),
            (board::STARTPOS_FEN, 32),
        ] {
            let board = Board::from_fen(fen).expect("valid");
            let stm = board.side_to_move();
            let found = file.evaluate(&features(&board, stm), &features(&board, !stm), pieces);
            assert_eq!(found, output_bucket(pieces, buckets) as i32 * 100, "{fen}");
        }
        let bytes = file.to_bytes();
        assert_eq!(bytes.len(), file_len(HIDDEN, buckets));
        let refused = Network::from_bytes_boxed(&bytes).err();
        assert!(matches!(refused, Some(NetError::Layout { .. })), "{refused:?}");
    }
}
