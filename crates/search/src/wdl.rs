//! Win/draw/loss probabilities from a search score and the material on the
//! board, for `UCI_ShowWDL` (`info ... wdl W D L`, per mille).
//!
//! The model is Stockfish's, fitted on Tessera's own games by
//! `scripts/wdl_fit.py` (figures and plot in docs/wdl.md):
//!
//! ```text
//! win(s, m)  = 1 / (1 + exp((a(m) - s) / b(m)))
//! loss(s, m) = 1 / (1 + exp((a(m) + s) / b(m)))      draw = 1 - win - loss
//! a(m) = ((A0·x + A1)·x + A2)·x + A3,  b(m) likewise,  x = clamp(m, 17, 78) / 58
//! ```
//!
//! `s` is the score in centipawns for the side to move, `m` the material of
//! both sides (pawn 1, knight 3, bishop 3, rook 5, queen 9). A mate score or a
//! tablebase win or loss is a certain result. The coefficients come from
//! self-play with the network gen1 (generation-2 data, shards s4000 and s4001
//! of commit 273d5de, 2889 games, 358 K positions); re-fit when the evaluation
//! changes its scale.

use board::{Board, Color, Piece};

/// Coefficients of `a(m)`: the score (cp) at which a win is as likely as not.
const A: [f64; 4] = [446.9499, -366.2648, -756.9978, 824.9439];
/// Coefficients of `b(m)`: how fast the probability moves with the score (cp).
const B: [f64; 4] = [150.1198, -106.9366, -176.0488, 242.1342];

/// The material range the model was fitted on, and its normalisation.
const MATERIAL_MIN: i32 = 17;
const MATERIAL_MAX: i32 = 78;
const MATERIAL_NORM: f64 = 58.0;

/// Win, draw and loss for the side to move, per mille; they sum to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WdlPerMille {
    /// Wins, per mille.
    pub win: u16,
    /// Draws, per mille.
    pub draw: u16,
    /// Losses, per mille.
    pub loss: u16,
}

/// The model's material count of a board (both sides, kings not counted).
pub fn material(board: &Board) -> i32 {
    [(Piece::Pawn, 1), (Piece::Knight, 3), (Piece::Bishop, 3), (Piece::Rook, 5), (Piece::Queen, 9)]
        .iter()
        .map(|&(piece, value)| {
            value * (board.count(Color::White, piece) + board.count(Color::Black, piece)) as i32
        })
        .sum()
}

fn poly(c: &[f64; 4], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

/// WDL for the side to move with search score `score` (centipawns, or a
/// decisive score beyond [`tt::DECISIVE_BOUND`]: a mate or a tablebase result)
/// and model material `material`.
pub fn wdl(score: i32, material: i32) -> WdlPerMille {
    if score >= tt::DECISIVE_BOUND {
        return WdlPerMille { win: 1000, draw: 0, loss: 0 };
    }
    if score <= -tt::DECISIVE_BOUND {
        return WdlPerMille { win: 0, draw: 0, loss: 1000 };
    }
    let x = material.clamp(MATERIAL_MIN, MATERIAL_MAX) as f64 / MATERIAL_NORM;
    let (a, b) = (poly(&A, x), poly(&B, x).max(1.0));
    let s = score as f64;
    let win = (1000.0 / (1.0 + ((a - s) / b).exp())).round() as i32;
    let loss = (1000.0 / (1.0 + ((a + s) / b).exp())).round() as i32;
    // With a(m) > 0 (true over the fitted range) win + loss <= 1000 before
    // rounding, which can overshoot by one; a re-fit with a(m) < 0 somewhere
    // would overshoot more. Either way the excess comes off both in proportion.
    let (win, loss) = if win + loss > 1000 {
        let w = (win * 1000 + (win + loss) / 2) / (win + loss);
        (w, 1000 - w)
    } else {
        (win, loss)
    };
    WdlPerMille { win: win as u16, draw: (1000 - win - loss) as u16, loss: loss as u16 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_to_1000_and_is_monotone_in_the_score() {
        for m in (0..=80).step_by(4) {
            let mut previous = wdl(-3000, m);
            for score in -3000..=3000 {
                let w = wdl(score, m);
                assert_eq!(w.win as u32 + w.draw as u32 + w.loss as u32, 1000, "{score} {m}");
                assert!(w.win >= previous.win && w.loss <= previous.loss, "{score} {m}");
                previous = w;
            }
        }
    }

    #[test]
    fn symmetric_and_certain_at_the_ends() {
        for m in [17, 40, 58, 78] {
            for score in [0, 35, 120, 400] {
                let (w, l) = (wdl(score, m), wdl(-score, m));
                assert_eq!((w.win, w.draw, w.loss), (l.loss, l.draw, l.win));
            }
            assert_eq!(wdl(0, m).win, wdl(0, m).loss);
            assert!(wdl(2000, m).win > 990);
        }
        assert_eq!(wdl(tt::MATE - 5, 40), WdlPerMille { win: 1000, draw: 0, loss: 0 });
        assert_eq!(wdl(-tt::MATE + 8, 40), WdlPerMille { win: 0, draw: 0, loss: 1000 });
        assert_eq!(wdl(tt::TB_WIN - 9, 14), WdlPerMille { win: 1000, draw: 0, loss: 0 });
        assert_eq!(wdl(-tt::TB_WIN + 9, 14), WdlPerMille { win: 0, draw: 0, loss: 1000 });
    }

    #[test]
    fn fewer_pieces_more_draws_at_the_same_score() {
        // The fitted games: an endgame edge converts less often than a middlegame one.
        assert!(wdl(100, 20).draw > wdl(100, 60).draw);
    }

    #[test]
    fn material_counts_both_sides() {
        assert_eq!(material(&Board::startpos()), 78);
        assert_eq!(material(&Board::from_fen("8/8/8/8/8/2k5/8/KQ2r3 w - - 0 1").unwrap()), 14);
    }
}
