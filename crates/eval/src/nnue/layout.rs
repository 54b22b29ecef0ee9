//! The network's shape, its input features and its quantisation, declared
//! once for the engine (integer inference) and the trainer (float training).
//!
//! Input feature of a piece, seen from `perspective`:
//! `relative colour × 384 + piece × 64 + relative square`, where the relative
//! colour is 0 for the perspective's own pieces and 1 for the opponent's, and
//! the relative square is the square flipped vertically (`sq ^ 56`) for Black.
//! Both perspectives thus see the board from their own side.
//!
//! Quantisation: the first layer's weights and biases are stored as
//! `round(w × QA)` (i16), the output weights as `round(w × QB)` (i16) and the
//! output bias as `round(b × QA × QB)` (i32). SCReLU, `clamp(x, 0, 1)²`,
//! becomes `clamp(x, 0, QA)²` in integers; the output, in units of
//! `QA × QA × QB`, is scaled to centipawns by [`SCALE`]. Weights are clipped to
//! ±[`WEIGHT_CLIP`] in training so every product fits its integer type:
//! `clamp(x) × w` fits i16 (255 × 127 < 32768; an output weight rounds to at
//! most 127), a sum of [`DOT_CHUNK`] such products times `clamp(x)` fits i32
//! (256 × 255 × 255 × 127 < 2³¹), and the chunks' sums and the two
//! perspectives' are added in i64.

use board::{Color, Piece, Square};

/// Input features per perspective: 2 colours × 6 pieces × 64 squares.
pub const INPUTS: usize = 768;
/// Neurons of the hidden layer (per perspective). 384 beat 256 on 14.2 M
/// positions (docs/nnue.md, "Generations").
pub const HIDDEN: usize = 384;
/// Neurons whose output products are summed in i32 before the sum is widened
/// to i64: the most that cannot overflow (see the module comment).
pub const DOT_CHUNK: usize = 256;
/// The first layer's quantisation factor (and the activation's clamp).
pub const QA: i32 = 255;
/// The output layer's quantisation factor.
pub const QB: i32 = 64;
/// Centipawns per unit of network output: the trainer fits
/// `sigmoid(output)` to `sigmoid(score / SCALE)`.
pub const SCALE: i32 = 400;
/// The largest absolute weight training allows (keeps quantisation safe).
pub const WEIGHT_CLIP: f32 = 1.98;

// The integer output layer's bound (see the module comment): a sum of
// DOT_CHUNK products `clamp(x)² × w` must fit an i32.
const _: () = assert!(
    DOT_CHUNK as i64 * (QA as i64 * QA as i64) * ((WEIGHT_CLIP as f64 * QB as f64) as i64 + 1)
        <= i32::MAX as i64
);

/// The input feature of a `color` `piece` on `sq`, seen from `perspective`.
#[inline(always)]
pub const fn feature_index(perspective: Color, color: Color, piece: Piece, sq: Square) -> usize {
    let (relative_color, relative_sq) = match perspective {
        Color::White => (color as usize, sq as usize),
        Color::Black => (1 - color as usize, sq as usize ^ 56),
    };
    relative_color * 384 + piece as usize * 64 + relative_sq
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perspectives_mirror_each_other() {
        // White's pawn on e2 seen by White is Black's pawn on e7 seen by Black.
        assert_eq!(
            feature_index(Color::White, Color::White, Piece::Pawn, Square::E2),
            feature_index(Color::Black, Color::Black, Piece::Pawn, Square::E7)
        );
        assert_eq!(feature_index(Color::White, Color::White, Piece::Pawn, Square::A1), 0);
        assert_eq!(feature_index(Color::White, Color::Black, Piece::King, Square::H8), INPUTS - 1);
        let mut seen = vec![false; INPUTS];
        for p in Color::ALL {
            for c in Color::ALL {
                for piece in Piece::ALL {
                    for sq in Square::ALL {
                        let i = feature_index(p, c, piece, sq);
                        assert!(i < INPUTS);
                        if p == Color::White {
                            assert!(!seen[i], "one index per feature");
                            seen[i] = true;
                        }
                    }
                }
            }
        }
    }
}
