//! Static evaluation for Tessera: an efficiently updatable neural network
//! ([`nnue`]) trained on Tessera's own games (see `docs/nnue.md`).
//!
//! The search keeps an [`nnue::Accumulator`] per ply and calls
//! [`nnue::Network::evaluate`]; [`evaluate`] is the from-scratch evaluation of
//! one board, for the UCI `eval` command and for tests, and [`piece_values`]
//! what each piece adds to it.

#![warn(missing_docs)]

pub mod nnue;

pub use nnue::MAX_EVAL;

use board::Board;

/// The evaluation of `board` by `net`, in centipawns from the side to move's
/// point of view, computed from scratch (the search updates accumulators
/// incrementally instead).
pub fn evaluate(net: &nnue::Network, board: &Board) -> i32 {
    let acc = nnue::Accumulator::new(net, board);
    net.evaluate(&acc, board)
}

/// What each piece is worth to the evaluation of `board`, in centipawns from
/// White's point of view: the evaluation minus the evaluation of the board
/// without that piece (kings excepted: the board needs them). `None` where a
/// square has no piece or a king. The pieces' parts need not add up to the
/// whole: the network weighs each piece against all the others.
pub fn piece_values(net: &nnue::Network, board: &Board) -> [Option<i32>; 64] {
    let acc = nnue::Accumulator::new(net, board);
    let us = board.side_to_move();
    let white_view = |eval: i32| if us == board::Color::White { eval } else { -eval };
    let whole = white_view(net.evaluate(&acc, board));
    let pieces = board.occupied().count();
    let mut values = [None; 64];
    for sq in board.occupied() {
        if board.piece_on(sq) == Some(board::Piece::King) {
            continue;
        }
        let without = net.evaluate_for(&acc.without_piece(net, board, sq), us, pieces - 1);
        values[sq as usize] = Some(whole - white_view(without));
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_is_worth_what_its_removal_costs() {
        let board = Board::from_fen("4k3/8/8/3q4/8/8/8/R3K3 w - - 0 1").unwrap();
        let values = piece_values(&nnue::EMBEDDED, &board);
        let at = |s: &str| values[s.parse::<board::Square>().unwrap() as usize];
        // The same as evaluating the smaller positions from scratch.
        let without = |fen: &str| {
            let b = Board::from_fen(fen).unwrap();
            evaluate(&nnue::EMBEDDED, &b)
        };
        let whole = evaluate(&nnue::EMBEDDED, &board);
        assert_eq!(at("a1"), Some(whole - without("4k3/8/8/3q4/8/8/8/4K3 w - - 0 1")));
        assert_eq!(at("d5"), Some(whole - without("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")));
        assert!(at("a1").unwrap() > 200 && at("d5").unwrap() < -400, "{values:?}");
        assert_eq!((at("e1"), at("e8"), at("b2")), (None, None, None));
        // Black to move: still White's point of view.
        let black = Board::from_fen("4k3/8/8/3q4/8/8/8/R3K3 b - - 0 1").unwrap();
        assert!(piece_values(&nnue::EMBEDDED, &black)[0].unwrap() > 200);
    }

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&nnue::EMBEDDED, &Board::from_fen(fen).expect("valid FEN"))
    }

    /// Swaps the colours of a FEN's pieces, flips the board vertically and
    /// gives the move to the other side (castling and en passant dropped).
    fn colour_flipped(fen: &str) -> String {
        let mut fields = fen.split(' ');
        let placement = fields.next().expect("placement");
        let side = if fields.next() == Some("w") { "b" } else { "w" };
        let ranks: Vec<String> = placement
            .split('/')
            .rev()
            .map(|rank| {
                rank.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        format!("{} {side} - - 0 1", ranks.join("/"))
    }

    #[test]
    fn the_net_sees_both_sides_alike() {
        // A perspective net: the same position with the colours swapped and the
        // other side to move is, exactly, the same evaluation.
        for fen in [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w - - 4 4",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
        ] {
            assert_eq!(eval_fen(fen), eval_fen(&colour_flipped(fen)), "{fen}");
        }
    }

    #[test]
    fn startpos_is_balanced() {
        let white = eval_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(white.abs() < 60, "{white}");
    }

    #[test]
    fn material_counts() {
        // An extra queen is worth more than a rook, for whichever side has it.
        // (The net never trains on such positions: their search scores are
        // beyond the filter's ±2000.)
        assert!(eval_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 500);
        assert!(eval_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -500);
        // A knight up is better than level, a rook up better still.
        let level = eval_fen("r3k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1");
        let knight = eval_fen("r3k3/pppp4/8/8/8/8/PPPP4/R3K1N1 w - - 0 1");
        let rook = eval_fen("r3k3/pppp4/8/8/8/8/PPPP4/R3K2R w - - 0 1");
        assert!(level < knight && knight < rook, "{level} {knight} {rook}");
    }
}
