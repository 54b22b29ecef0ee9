//! Static evaluation for Tessera: a tapered (middlegame/endgame) sum of
//! weighted features — material, piece-square tables, mobility, pawn structure
//! (cached by pawn key), passed pawns, king safety, threats, bishop pair, rooks
//! on open files and tempo.
//!
//! All weights live in one flat vector ([`WEIGHTS`], laid out by [`layout`]),
//! and the evaluation is generic over a [`Trace`], so the Texel tuner reads
//! each feature's coefficient from the very code the engine runs.

#![warn(missing_docs)]

mod evaluate;
pub mod layout;
pub mod nnue;
mod pawns;
mod score;
mod trace;
mod weights;

pub use evaluate::{MAX_EVAL, distance, endgame_scale, evaluate, evaluate_pair, phase};
pub use pawns::{PawnCache, PawnInfo, pawn_structure};
pub use score::{MAX_PHASE, S};
pub use trace::{Coefficients, NoTrace, Trace};
pub use weights::WEIGHTS;

#[cfg(test)]
mod tests {
    use super::*;
    use board::Board;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Board::from_fen(fen).expect("valid FEN"), &mut PawnCache::default())
    }

    #[test]
    fn startpos_is_balanced_and_symmetric() {
        let white = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let black = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(white, black, "tempo is the only asymmetry and both sides get it");
        assert!(white.abs() < 50);
    }

    #[test]
    fn mirrored_positions_evaluate_equally() {
        let a = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
        let b = "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4";
        assert_eq!(eval_fen(a), eval_fen(b));
    }

    #[test]
    fn extra_queen_is_winning() {
        assert!(eval_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 700);
        assert!(eval_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -700);
    }

    #[test]
    fn trace_reproduces_the_evaluation() {
        let board =
            Board::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9")
                .expect("valid FEN");
        let mut trace = Coefficients::new();
        let pawns = pawn_structure(&board, &WEIGHTS, &mut NoTrace);
        let pair = evaluate_pair(&board, &WEIGHTS, &pawns, &mut trace);
        trace.finish();
        let mut rebuilt = S::ZERO;
        for &(i, c) in &trace.terms {
            rebuilt += WEIGHTS[i as usize] * c as i32;
        }
        assert_eq!(rebuilt, pair);
    }
}
