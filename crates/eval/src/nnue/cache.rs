//! The accumulator cache: a king move that changes its perspective's
//! [`View`](super::View) (another king bucket, or the other wing when mirrored) needs that
//! perspective's accumulator half for a board the parent's half does not
//! describe. Built from scratch that costs one weight row per piece; the
//! cache keeps, for each perspective and view, the half it last built and the
//! pieces it was built from, and brings that half up to date with the rows of
//! the pieces that have appeared or gone since — a handful, where a king
//! returns to a bucket it left a few moves before.
//!
//! With one unmirrored king bucket ([`VIEWS_VARY`](super::VIEWS_VARY) false)
//! no view ever changes and the search never asks the cache; the cache is
//! still exact for any board, which its tests check.

use super::layout::{HIDDEN, VIEWS, feature_index, view};
use super::network::Network;
use board::{Board, Color, Piece, Square};

/// One perspective's accumulator half for one view, and the pieces (by colour
/// and piece) it holds the weight rows of.
#[derive(Clone, Copy)]
struct Entry {
    values: [i16; HIDDEN],
    pieces: [[u64; 6]; 2],
}

/// For each perspective and each [`View`](super::View), the last accumulator
/// half a refresh produced and the pieces it was built from (one per search
/// thread: the search owns it beside its accumulator stack).
pub struct AccumulatorCache {
    entries: Box<[[Entry; VIEWS]; 2]>,
}

impl AccumulatorCache {
    /// An empty cache for `net`: each entry is the half of an empty board
    /// (the biases), so its first refresh adds every piece.
    pub fn new(net: &Network) -> AccumulatorCache {
        let empty = Entry { values: net.feature_biases, pieces: [[0; 6]; 2] };
        AccumulatorCache { entries: Box::new([[empty; VIEWS]; 2]) }
    }

    /// Empties the cache for `net` (a new search, which may evaluate with
    /// another network than the last).
    pub fn reset(&mut self, net: &Network) {
        for entry in self.entries.iter_mut().flatten() {
            entry.values = net.feature_biases;
            entry.pieces = [[0; 6]; 2];
        }
    }

    /// Writes `perspective`'s accumulator half of `board` into `out`: the
    /// cached half for the view of `perspective`'s king, with the rows of the
    /// pieces that differ added and subtracted (and the entry then describes
    /// `board`). Equal to the half [`Accumulator::new`](super::Accumulator::new)
    /// computes.
    pub fn refresh(
        &mut self,
        net: &Network,
        board: &Board,
        perspective: Color,
        out: &mut [i16; HIDDEN],
    ) {
        let v = view(perspective, board.king(perspective));
        let entry = &mut self.entries[perspective as usize][v.index()];
        for color in Color::ALL {
            for piece in Piece::ALL {
                let now = board.colored_pieces(color, piece).0;
                let cached = &mut entry.pieces[color as usize][piece as usize];
                let row = |sq: u64| {
                    let sq = Square::index_const(sq as usize);
                    &net.feature_weights[feature_index(perspective, v, color, piece, sq)]
                };
                for sq in squares(now & !*cached) {
                    for (x, &w) in entry.values.iter_mut().zip(row(sq)) {
                        *x = x.wrapping_add(w);
                    }
                }
                for sq in squares(*cached & !now) {
                    for (x, &w) in entry.values.iter_mut().zip(row(sq)) {
                        *x = x.wrapping_sub(w);
                    }
                }
                *cached = now;
            }
        }
        *out = entry.values;
    }
}

/// The squares of a bitboard, lowest first.
fn squares(mut bits: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        let sq = bits.trailing_zeros() as u64;
        bits &= bits.wrapping_sub(1);
        (sq < 64).then_some(sq)
    })
}

#[cfg(test)]
mod tests {
    use super::super::network::fresh;
    use super::*;

    /// Plays `plies` pseudo-random legal moves from `fen` (a fixed generator),
    /// calling `visit` on every board on the way, the first included.
    fn random_game(fen: &str, seed: u64, plies: usize, mut visit: impl FnMut(&Board)) {
        let mut board = Board::from_fen(fen).expect("valid FEN");
        let mut state = seed;
        visit(&board);
        for _ in 0..plies {
            let moves = board.legal_moves();
            if moves.as_slice().is_empty() {
                break;
            }
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let pick = (state >> 33) as usize % moves.as_slice().len();
            board.play_unchecked(moves.as_slice()[pick]);
            visit(&board);
        }
    }

    const STARTS: [&str; 3] = [
        board::STARTPOS_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        // Kings in the open, crossing buckets and wings under any layout.
        "r1b5/1p3k2/8/3KP3/8/8/1P5q/7R w - - 0 1",
    ];

    #[test]
    fn a_cached_refresh_equals_a_fresh_one() {
        // One cache through whole games: each refresh starts from whatever
        // board the entry last described, many moves and captures before.
        let net = Network::pseudo_random(21);
        let mut cache = AccumulatorCache::new(&net);
        let mut out = [0; HIDDEN];
        let mut boards = 0;
        for (k, fen) in STARTS.iter().enumerate() {
            for seed in 0..8 {
                random_game(fen, seed * 31 + k as u64, 120, |board| {
                    for perspective in Color::ALL {
                        cache.refresh(&net, board, perspective, &mut out);
                        assert_eq!(out, fresh(&net, board, perspective), "{}", board.to_fen(true));
                    }
                    boards += 1;
                });
            }
        }
        assert!(boards > 1500, "{boards} boards");
    }

    #[test]
    fn a_reset_forgets_the_last_network() {
        // An entry built for one net is wrong for another: `reset` must empty it.
        let (first, second) = (Network::pseudo_random(1), Network::pseudo_random(2));
        let board = Board::startpos();
        let mut cache = AccumulatorCache::new(&first);
        let mut out = [0; HIDDEN];
        cache.refresh(&first, &board, Color::White, &mut out);
        cache.reset(&second);
        cache.refresh(&second, &board, Color::White, &mut out);
        assert_eq!(out, fresh(&second, &board, Color::White));
    }

    #[test]
    fn squares_lists_each_bit_once() {
        assert_eq!(squares(0).count(), 0);
        assert_eq!(squares(1 << 63 | 1 << 5 | 1).collect::<Vec<_>>(), [0, 5, 63]);
    }
}
