//! The network's shape, its input features and its quantisation, declared
//! once for the engine (integer inference) and the trainer (float training).
//!
//! Input feature of a piece, seen from `perspective` whose own king stands on
//! `king`: `bucket × 768 + relative colour × 384 + piece × 64 + relative
//! square`. The relative colour is 0 for the perspective's own pieces and 1
//! for the opponent's; the relative square is the square flipped vertically
//! (`sq ^ 56`) for Black, so both perspectives see the board from their own
//! side. The king's relative square picks the bucket ([`KING_BUCKET`]); when
//! [`MIRRORED`] and that king stands on files e–h, every square is also
//! mirrored a↔h (`sq ^ 7`), so the king always stands on files a–d and one
//! set of weights serves both wings. A [`View`] is that choice for one
//! perspective: it changes only when the perspective's own king moves, and
//! then the perspective's accumulator is computed afresh.
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

/// Piece-square features of one king bucket: 2 colours × 6 pieces × 64 squares.
pub const PIECE_SQUARES: usize = 768;
/// King buckets: how many sets of piece-square weights, chosen by the square
/// of the perspective's own king. Four, mirrored, since gen12: they overfit
/// 19.7 M positions and paid at 57.8 M with the bucket weight decay at 1
/// (docs/results/nnue.md).
pub const KING_BUCKETS: usize = 4;
/// Whether a perspective whose king stands on files e–h sees the board
/// mirrored a↔h.
pub const MIRRORED: bool = true;
/// The bucket of each relative square of the perspective's own king (a1
/// first; with [`MIRRORED`], files e–h are never looked up): a castled king
/// (a1, b1, g1, h1), one on the back rank's centre, on the second rank, higher.
#[rustfmt::skip]
pub const KING_BUCKET: [u8; 64] = [
    0, 0, 1, 1, 1, 1, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
    3, 3, 3, 3, 3, 3, 3, 3,
];
/// Whether a king move can change its perspective's [`View`] (more than one
/// bucket, or mirroring): with one unmirrored bucket the accumulator never
/// needs a refresh and the views compile away.
pub const VIEWS_VARY: bool = KING_BUCKETS > 1 || MIRRORED;
/// Input features per perspective: every bucket's piece-square features.
pub const INPUTS: usize = PIECE_SQUARES * KING_BUCKETS;
/// Output buckets: how many sets of output weights, one chosen for each
/// position by the number of pieces on the board ([`output_bucket`]). Eight
/// since gen11: within a few Elo of one output layer at 5–9 M positions, they
/// paid at 63.2 M (docs/results/nnue.md). A net of one output bucket still
/// loads: each bucket takes its one layer.
pub const OUTPUT_BUCKETS: usize = 8;

const _: () = assert!(OUTPUT_BUCKETS >= 1 && OUTPUT_BUCKETS <= 32 && KING_BUCKETS < 256);

/// The output bucket of a position with `pieces` pieces on the board (kings
/// included) in a net of `buckets` output buckets: the pieces beyond the two
/// kings in steps of ⌈32 / `buckets`⌉ (with eight: 2–5 pieces bucket 0, 6–9
/// bucket 1, …, 30–32 bucket 7; with one, always 0).
#[inline(always)]
pub const fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let step = 32usize.div_ceil(buckets);
    let bucket = pieces.saturating_sub(2) as usize / step;
    if bucket < buckets { bucket } else { buckets - 1 }
}

/// How many different [`View`]s a perspective can have: each bucket, seen
/// plain and, when [`MIRRORED`], mirrored.
pub const VIEWS: usize = KING_BUCKETS * if MIRRORED { 2 } else { 1 };

const _: () = {
    let mut sq = 0;
    while sq < 64 {
        assert!((KING_BUCKET[sq] as usize) < KING_BUCKETS);
        sq += 1;
    }
};
/// Neurons of the hidden layer (per perspective). 384 beat 256 on 14.2 M
/// positions; 512 beat 384 on 57.8 M and is gen12's (docs/nnue.md,
/// "Generations").
pub const HIDDEN: usize = 512;
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

/// The layout in words, as `tessera --version` names it: king buckets (and
/// whether mirrored), hidden neurons, output buckets.
pub fn summary() -> String {
    let kings = match KING_BUCKETS {
        1 => "1 king bucket".to_string(),
        n => format!("{n} king buckets"),
    };
    let mirrored = if MIRRORED { " (mirrored)" } else { "" };
    format!("{kings}{mirrored}, {HIDDEN} hidden neurons, {OUTPUT_BUCKETS} output buckets")
}

/// How one perspective sees the board: the first feature of its king's
/// bucket and the square mirror (0, or 7 for a↔h) that its king's file asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    base: usize,
    flip: usize,
}

impl View {
    /// This view's number, below [`VIEWS`]: bucket, then mirror.
    #[inline(always)]
    pub const fn index(self) -> usize {
        let mirrored = if self.flip != 0 { 1 } else { 0 };
        if MIRRORED { self.base / PIECE_SQUARES * 2 + mirrored } else { self.base / PIECE_SQUARES }
    }
}

/// The view of `perspective` whose own king stands on `king`.
#[inline(always)]
pub const fn view(perspective: Color, king: Square) -> View {
    if !VIEWS_VARY {
        return View { base: 0, flip: 0 };
    }
    let relative = match perspective {
        Color::White => king as usize,
        Color::Black => king as usize ^ 56,
    };
    let flip = if MIRRORED && relative & 7 >= 4 { 7 } else { 0 };
    View { base: KING_BUCKET[relative ^ flip] as usize * PIECE_SQUARES, flip }
}

/// The input feature of a `color` `piece` on `sq`, seen from `perspective`
/// with `view` (its own king's [`view`]).
#[inline(always)]
pub const fn feature_index(
    perspective: Color,
    view: View,
    color: Color,
    piece: Piece,
    sq: Square,
) -> usize {
    let (relative_color, relative_sq) = match perspective {
        Color::White => (color as usize, sq as usize),
        Color::Black => (1 - color as usize, sq as usize ^ 56),
    };
    view.base + relative_color * 384 + piece as usize * 64 + (relative_sq ^ view.flip)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perspectives_mirror_each_other() {
        // White's pawn on e2 seen by White (king e1) is Black's pawn on e7 seen
        // by Black (king e8).
        let (white, black) = (view(Color::White, Square::E1), view(Color::Black, Square::E8));
        assert_eq!(white, black);
        assert_eq!(
            feature_index(Color::White, white, Color::White, Piece::Pawn, Square::E2),
            feature_index(Color::Black, black, Color::Black, Piece::Pawn, Square::E7)
        );
        let a1 = view(Color::White, Square::A1);
        assert_eq!(feature_index(Color::White, a1, Color::White, Piece::Pawn, Square::A1), 0);
        assert_eq!(
            feature_index(Color::White, a1, Color::Black, Piece::King, Square::H8),
            PIECE_SQUARES - 1
        );
        for perspective in Color::ALL {
            for king in Square::ALL {
                let v = view(perspective, king);
                let mut seen = vec![false; INPUTS];
                for c in Color::ALL {
                    for piece in Piece::ALL {
                        for sq in Square::ALL {
                            let i = feature_index(perspective, v, c, piece, sq);
                            assert!(i < INPUTS);
                            assert!(!seen[i], "one index per feature");
                            seen[i] = true;
                            // The board mirrored a<->h with the king: the same feature.
                            let mirrored =
                                view(perspective, Square::index_const(king as usize ^ 7));
                            let j = feature_index(
                                perspective,
                                mirrored,
                                c,
                                piece,
                                Square::index_const(sq as usize ^ 7),
                            );
                            assert_eq!(i == j, MIRRORED);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_king_picks_its_bucket_and_wing() {
        for king in Square::ALL {
            // Black's king on the square mirrored top to bottom sees the same.
            let (w, b) = (view(Color::White, king), view(Color::Black, king.flip_rank()));
            assert_eq!(w, b);
            let flip = if MIRRORED && king.file() as usize >= 4 { 7 } else { 0 };
            assert_eq!(w.flip, flip);
            assert_eq!(w.base, KING_BUCKET[king as usize ^ flip] as usize * PIECE_SQUARES);
        }
    }

    #[test]
    fn output_buckets_split_the_material_evenly() {
        for (pieces, bucket) in [(2, 0), (5, 0), (6, 1), (29, 6), (30, 7), (32, 7)] {
            assert_eq!(output_bucket(pieces, 8), bucket, "{pieces} pieces");
        }
        for buckets in [1, 2, 4, 8] {
            let used: std::collections::BTreeSet<_> =
                (2..=32).map(|pieces| output_bucket(pieces, buckets)).collect();
            assert_eq!(used.len(), buckets, "every one of {buckets} buckets holds positions");
        }
        assert!((0..=40).all(|pieces| output_bucket(pieces, 1) == 0));
    }

    #[test]
    fn each_view_has_its_own_index() {
        // Two kings see the board alike exactly when their views share an index.
        let mut seen = [None; VIEWS];
        for king in Square::ALL {
            let v = view(Color::White, king);
            assert!(v.index() < VIEWS, "{king:?}");
            assert_eq!(*seen[v.index()].get_or_insert(v), v, "{king:?}");
        }
    }
}
