//! Every search switch on at once, those still being measured included: the
//! search stays sound. In debug builds each move also checks the incremental
//! accumulator against a fresh one (`eval::nnue::Accumulator::play`).

use board::{Board, Position};
use search::{Features, SearchJob, SearchLimits, SearchOutcome, Silent, ThreadPool};
use std::sync::Arc;
use tt::MATE;

fn search(pool: &ThreadPool, fen: &str, depth: i32) -> (Board, SearchOutcome) {
    let board = Board::from_fen(fen).expect("valid FEN");
    let limits = SearchLimits { depth: Some(depth), ..SearchLimits::default() };
    let job = SearchJob { features: Features::ALL, ..SearchJob::new(Position::new(board), limits) };
    (board, pool.search_sync(job).expect("the search ends"))
}

#[test]
fn every_switch_on_finds_mates_and_plays_legal_moves() {
    let pool = ThreadPool::new(1, 16, Arc::new(Silent));
    // Mates in one and two: the score says mate, the move starts it.
    for (fen, first, plies) in [
        ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", 1),
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 1),
        ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10", "d5f6", 3),
    ] {
        let (board, outcome) = search(&pool, fen, 8);
        let best = outcome.best.expect("a legal move");
        assert_eq!(board.move_to_uci(best, false), first, "{fen}");
        assert_eq!(outcome.score, MATE - plies, "{fen}");
    }
    // Positions rich in castling, en passant, promotions and checks.
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let (board, outcome) = search(&pool, fen, 8);
        assert!(outcome.best.is_some_and(|m| board.is_legal(m)), "{fen}");
    }
}
