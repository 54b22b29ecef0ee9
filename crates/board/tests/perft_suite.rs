//! Every position of `data/perft.epd` against its reference counts.

mod common;

use board::{Board, perft};

/// The depth-limited pass: every position, every listed depth up to this many nodes.
const QUICK_NODE_LIMIT: u64 = 2_000_000;

#[test]
fn perft_suite_depth_limited() {
    let cases = common::perft_cases();
    assert!(cases.len() >= 130, "perft.epd has {} lines", cases.len());
    let mut checked = 0;
    for case in &cases {
        let board = Board::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(depth, expected) in &case.counts {
            if expected > QUICK_NODE_LIMIT {
                continue;
            }
            assert_eq!(perft(&board, depth), expected, "{} depth {depth}", case.fen);
            checked += 1;
        }
    }
    assert!(checked > 500, "only {checked} (position, depth) pairs checked");
}

/// The full suite, every listed depth (billions of nodes): run with
/// `cargo test --release -- --ignored`.
#[test]
#[ignore = "full-depth perft takes minutes; run with --release -- --ignored"]
fn perft_suite_full_depth() {
    for case in common::perft_cases() {
        let board = Board::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(depth, expected) in &case.counts {
            let nodes = perft_threaded(&board, depth);
            assert_eq!(nodes, expected, "{} depth {depth}", case.fen);
        }
    }
}

/// `perft`, each root move counted on a thread of its own.
fn perft_threaded(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    std::thread::scope(|scope| {
        let counts: Vec<_> = board
            .legal_moves()
            .iter()
            .map(|&mv| {
                scope.spawn(move || {
                    let mut child = *board;
                    child.play_unchecked(mv);
                    perft(&child, depth - 1)
                })
            })
            .collect();
        counts.into_iter().map(|count| count.join().expect("a perft thread")).sum()
    })
}
