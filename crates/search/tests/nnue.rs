//! The network in the search: in debug builds every move the search makes
//! checks that the incremental accumulator equals a fresh one (the assertion
//! in `eval::nnue::Accumulator::play`). A mismatch panics a search thread, so
//! the search never reports: the test fails on its deadline.

use board::{Board, Position};
use search::{SearchJob, SearchLimits, Silent, ThreadPool};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

/// Positions rich in castling (standard and Chess960), en passant, promotions
/// with and without capture, and checks.
const POSITIONS: [&str; 6] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "1rk4r/8/8/8/8/8/8/1RK4R w HBhb - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
];

#[test]
fn the_search_keeps_the_accumulators_exact() {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let pool = ThreadPool::new(2, 16, Arc::new(Silent));
        let mut nodes = 0;
        for fen in POSITIONS {
            let board = Board::from_fen(fen).expect("valid FEN");
            let limits = SearchLimits { depth: Some(8), ..SearchLimits::default() };
            let job = SearchJob::new(Position::new(board), limits);
            let outcome = pool.search_sync(job).expect("the search ends");
            assert!(outcome.best.is_some_and(|m| board.is_legal(m)));
            nodes += outcome.nodes;
        }
        let _ = tx.send(nodes);
    });
    let nodes = rx.recv_timeout(Duration::from_secs(120)).expect("every search finished");
    assert!(nodes > 10_000, "{nodes} nodes");
}
