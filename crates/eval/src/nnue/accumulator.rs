//! The accumulator: the first layer's output for both perspectives, kept up
//! to date with each move by adding and subtracting weight rows.
//!
//! A move changes at most four features (castling: king and rook leave and
//! arrive; a capture: the mover leaves and arrives, the victim leaves). A
//! child's accumulator is its parent's plus the rows of the features that
//! appear minus those that disappear — a few hundred additions, where a fresh
//! one costs one row per piece. When a king moves to another bucket or wing
//! its own perspective's [`View`] changes and that perspective is built
//! again: from scratch by [`Accumulator::play`], from the
//! [`AccumulatorCache`] by the search's [`Accumulator::play_into`]. Both
//! check in debug builds that the result equals [`Accumulator::new`] on the
//! new board.

use super::cache::AccumulatorCache;
use super::layout::{HIDDEN, VIEWS_VARY, View, feature_index, view};
use super::network::{Network, fresh};
use super::simd::{self, Path};
use board::{Board, CastlingSide, Color, Move, MoveKind, Piece, Square};

/// The first layer's output, `[White's perspective, Black's perspective]`:
/// made for a board by [`Accumulator::new`], and for a child by
/// [`Accumulator::play`] or [`Accumulator::apply`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// The pre-activation values of each perspective's H neurons.
    pub(super) values: [[i16; HIDDEN]; 2],
}

/// A piece on a square: one input feature per perspective.
type Placed = (Color, Piece, Square);

/// The features a move adds and removes, and how each perspective sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveDelta {
    added: [Placed; 2],
    added_len: usize,
    removed: [Placed; 2],
    removed_len: usize,
    /// Each perspective's view after the move.
    views: [View; 2],
    /// Whether a perspective's view changed: its accumulator is computed afresh.
    refresh: [bool; 2],
}

impl MoveDelta {
    const NONE: Placed = (Color::White, Piece::Pawn, Square::A1);

    /// The features `mv` (legal in `board`) adds and removes.
    ///
    /// # Panics
    ///
    /// If `mv` is a normal move or a promotion from an empty square.
    pub fn new(board: &Board, mv: Move) -> MoveDelta {
        let us = board.side_to_move();
        let (from, to) = (mv.from(), mv.to());
        let views = [
            view(Color::White, board.king(Color::White)),
            view(Color::Black, board.king(Color::Black)),
        ];
        let mut delta = MoveDelta {
            added: [Self::NONE; 2],
            added_len: 0,
            removed: [Self::NONE; 2],
            removed_len: 0,
            views,
            refresh: [false; 2],
        };
        match mv.kind() {
            MoveKind::Castling => {
                let side =
                    if to.file() > from.file() { CastlingSide::Short } else { CastlingSide::Long };
                let rank = us.back_rank();
                delta.remove((us, Piece::King, from));
                delta.remove((us, Piece::Rook, to));
                delta.add((us, Piece::King, Square::new(side.king_to(), rank)));
                delta.add((us, Piece::Rook, Square::new(side.rook_to(), rank)));
            }
            MoveKind::EnPassant => {
                delta.remove((us, Piece::Pawn, from));
                delta.remove((!us, Piece::Pawn, Square::new(to.file(), from.rank())));
                delta.add((us, Piece::Pawn, to));
            }
            MoveKind::Normal | MoveKind::Promotion => {
                let Some(piece) = board.piece_on(from) else {
                    panic!("{mv:?} moves no piece in {}", board.to_fen(true));
                };
                delta.remove((us, piece, from));
                if let Some(captured) = board.piece_on(to) {
                    delta.remove((!us, captured, to));
                }
                delta.add((us, mv.promotion().unwrap_or(piece), to));
            }
        }
        if VIEWS_VARY {
            let added = &delta.added[..delta.added_len];
            if let Some(&(_, _, to)) = added.iter().find(|&&(_, piece, _)| piece == Piece::King) {
                delta.views[us as usize] = view(us, to);
                delta.refresh[us as usize] = delta.views[us as usize] != views[us as usize];
            }
        }
        delta
    }

    /// Whether a perspective must be computed afresh after the move.
    pub fn needs_refresh(&self) -> bool {
        self.refresh[0] || self.refresh[1]
    }

    fn add(&mut self, placed: Placed) {
        self.added[self.added_len] = placed;
        self.added_len += 1;
    }

    fn remove(&mut self, placed: Placed) {
        self.removed[self.removed_len] = placed;
        self.removed_len += 1;
    }

    /// The same delta without the last feature it removes (for tests that
    /// prove the debug check catches a wrong update).
    #[cfg(test)]
    fn forget_last_removal(mut self) -> MoveDelta {
        self.removed_len = self.removed_len.saturating_sub(1);
        self
    }
}

impl Accumulator {
    /// The accumulator of `board`, computed from scratch.
    pub fn new(net: &Network, board: &Board) -> Accumulator {
        Accumulator { values: Color::ALL.map(|perspective| fresh(net, board, perspective)) }
    }

    /// This accumulator (of `board`) with the piece on `sq` taken off: the
    /// position without it, as the network sees it. Not a king's square,
    /// whose piece decides how each side sees the board.
    pub fn without_piece(&self, net: &Network, board: &Board, sq: Square) -> Accumulator {
        let (Some(color), Some(piece)) = (board.color_on(sq), board.piece_on(sq)) else {
            return *self;
        };
        debug_assert!(piece != Piece::King, "the king on {sq} cannot be taken off");
        let mut out = *self;
        for perspective in Color::ALL {
            let v = view(perspective, board.king(perspective));
            let row = &net.feature_weights[feature_index(perspective, v, color, piece, sq)];
            for (x, &w) in out.values[perspective as usize].iter_mut().zip(row) {
                *x = x.wrapping_sub(w);
            }
        }
        out
    }

    /// The accumulator after `mv` (legal in `board`, whose accumulator this is),
    /// a perspective whose view changes built from scratch.
    pub fn play(&self, net: &Network, board: &Board, mv: Move) -> Accumulator {
        let mut after = *board;
        after.play_unchecked(mv);
        let child = self.apply(net, &MoveDelta::new(board, mv), &after);
        debug_assert!(
            child == Accumulator::new(net, &after),
            "incremental accumulator differs from a fresh one after {mv:?} in {}",
            board.to_fen(true)
        );
        child
    }

    /// [`Accumulator::play`] written into `child` (any accumulator, wholly
    /// overwritten), a perspective whose view changes built from `cache`: the
    /// search's form, which fills its stack slot in place instead of zeroing
    /// a temporary and copying it there.
    #[inline]
    pub fn play_into(
        &self,
        net: &Network,
        board: &Board,
        mv: Move,
        child: &mut Accumulator,
        cache: &mut AccumulatorCache,
    ) {
        let delta = MoveDelta::new(board, mv);
        let after = || {
            let mut after = *board;
            after.play_unchecked(mv);
            after
        };
        self.incremental_on(simd::UPDATE, net, &delta, child);
        if delta.needs_refresh() {
            let after = after();
            for perspective in Color::ALL {
                if delta.refresh[perspective as usize] {
                    cache.refresh(
                        net,
                        &after,
                        perspective,
                        &mut child.values[perspective as usize],
                    );
                }
            }
        }
        debug_assert!(
            *child == Accumulator::new(net, &after()),
            "incremental accumulator differs from a fresh one after {mv:?} in {}",
            board.to_fen(true)
        );
    }

    /// The accumulator with `delta` applied; `child` is the board after the
    /// move, read only by a perspective whose view changed.
    #[inline]
    pub fn apply(&self, net: &Network, delta: &MoveDelta, child: &Board) -> Accumulator {
        let mut out = *self;
        self.incremental_on(simd::UPDATE, net, delta, &mut out);
        for perspective in Color::ALL {
            if delta.refresh[perspective as usize] {
                out.values[perspective as usize] = fresh(net, child, perspective);
            }
        }
        out
    }

    /// `delta` applied incrementally, on a given `path`, to each perspective
    /// whose view stays, written into `child` (a perspective that must be
    /// refreshed is left as it was). Tests compare the paths.
    ///
    /// # Panics
    ///
    /// If this CPU lacks `path`.
    #[inline(always)]
    pub(super) fn incremental_on(
        &self,
        path: Path,
        net: &Network,
        delta: &MoveDelta,
        child: &mut Accumulator,
    ) {
        for perspective in Color::ALL {
            if delta.refresh[perspective as usize] {
                continue;
            }
            let v = delta.views[perspective as usize];
            let rows = |list: &[Placed]| {
                let mut out = [&net.feature_weights[0]; 2];
                for (slot, &(color, piece, sq)) in out.iter_mut().zip(list) {
                    *slot = &net.feature_weights[feature_index(perspective, v, color, piece, sq)];
                }
                out
            };
            let add = rows(&delta.added[..delta.added_len]);
            let sub = rows(&delta.removed[..delta.removed_len]);
            let parent = &self.values[perspective as usize];
            let out = &mut child.values[perspective as usize];
            match (delta.added_len, delta.removed_len) {
                (1, 1) => path.update::<1, 1>(out, parent, add, sub),
                (1, 2) => path.update::<1, 2>(out, parent, add, sub),
                (2, 2) => path.update::<2, 2>(out, parent, add, sub),
                (a, r) => unreachable!("a move adds 1-2 and removes 1-2 features, not {a}/{r}"),
            }
        }
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    /// Walks a few plies of every line from a set of positions rich in special
    /// moves, comparing the incremental accumulator with a fresh one at every node.
    fn walk(net: &Network, board: &Board, acc: &Accumulator, depth: u32, nodes: &mut u64) {
        assert_eq!(*acc, Accumulator::new(net, board), "{}", board.to_fen(true));
        *nodes += 1;
        if depth == 0 {
            return;
        }
        for &mv in board.legal_moves().as_slice() {
            let mut next = *board;
            next.play_unchecked(mv);
            let child = acc.apply(net, &MoveDelta::new(board, mv), &next);
            walk(net, &next, &child, depth - 1, nodes);
        }
    }

    const POSITIONS: [&str; 6] = [
        board::STARTPOS_FEN,
        // Kiwipete: castling both ways, en passant, promotions nearby.
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        // Promotions with and without capture.
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        // En passant available.
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        // Chess960 castling with the rook beside the king.
        "1rk4r/8/8/8/8/8/8/1RK4R w HBhb - 0 1",
        // Kings in the open: moves across buckets and wings.
        "r1b5/1p3k2/8/3KP3/8/8/1P5q/7R w - - 0 1",
    ];

    #[test]
    fn incremental_equals_fresh_at_every_node() {
        let net = Network::pseudo_random(7);
        let mut nodes = 0;
        for fen in POSITIONS {
            let board = Board::from_fen(fen).expect("valid FEN");
            walk(&net, &board, &Accumulator::new(&net, &board), 3, &mut nodes);
        }
        assert!(nodes > 100_000, "{nodes} nodes");
    }

    #[test]
    fn a_wrong_update_is_caught() {
        // Forgetting the captured piece leaves a different accumulator: the
        // comparison that `play` makes in debug builds must see it.
        let net = Network::pseudo_random(9);
        let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").expect("valid FEN");
        let capture = board.parse_uci_move("e4d5", false).expect("legal");
        let acc = Accumulator::new(&net, &board);
        let mut after = board;
        after.play_unchecked(capture);
        let fresh = Accumulator::new(&net, &after);
        assert_eq!(acc.apply(&net, &MoveDelta::new(&board, capture), &after), fresh);
        let broken = MoveDelta::new(&board, capture).forget_last_removal();
        assert_ne!(acc.apply(&net, &broken, &after), fresh);
    }

    #[test]
    fn a_king_that_changes_bucket_or_wing_is_refreshed() {
        // King moves across the files and ranks where a layout may change
        // bucket or wing (d1-e1 the wing, e1-e2 and e2-d3 the rank). Where the
        // view changes, the move updated incrementally, without the refresh,
        // gives a different accumulator (with one unmirrored bucket no view
        // ever changes).
        let net = Network::pseudo_random(11);
        for (fen, uci) in [
            ("4k3/8/8/8/8/8/8/3K4 w - - 0 1", "d1e1"),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2"),
            ("4k3/8/8/8/8/8/4K3/8 w - - 0 1", "e2d3"),
            ("4k3/8/8/8/8/8/8/6K1 w - - 0 1", "g1h1"),
            ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"),
        ] {
            let board = Board::from_fen(fen).expect("valid FEN");
            let mv = board.parse_uci_move(uci, false).expect("legal");
            let delta = MoveDelta::new(&board, mv);
            let king_to = if uci == "e1c1" { Square::C1 } else { mv.to() };
            let changes = view(Color::White, mv.from()) != view(Color::White, king_to);
            assert_eq!(delta.refresh, [changes, false], "{uci}");
            let mut after = board;
            after.play_unchecked(mv);
            let acc = Accumulator::new(&net, &board);
            assert_eq!(acc.apply(&net, &delta, &after), Accumulator::new(&net, &after));
            let stale = MoveDelta { refresh: [false; 2], ..delta };
            let incremental = acc.apply(&net, &stale, &after);
            assert_eq!(incremental == Accumulator::new(&net, &after), !changes, "{uci}");
        }
    }

    #[test]
    #[should_panic(expected = "moves no piece")]
    fn a_move_from_an_empty_square_is_refused() {
        // Not a pawn taken on faith: the delta of a move that moves nothing is a fault.
        let _ = MoveDelta::new(&Board::startpos(), Move::new(Square::E4, Square::E5));
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "incremental accumulator differs")]
    fn play_asserts_in_debug_builds() {
        // An accumulator that is not the board's: `play` must notice.
        let net = Network::pseudo_random(9);
        let board = Board::startpos();
        let mut acc = Accumulator::new(&net, &board);
        acc.values[0][0] = acc.values[0][0].wrapping_add(1);
        let _ = acc.play(&net, &board, board.legal_moves().as_slice()[0]);
    }
}
