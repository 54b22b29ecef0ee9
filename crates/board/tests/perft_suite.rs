//! Every position of `data/perft.epd` against its reference counts.

mod common;

use board::{Board, divide_parallel, perft};

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
            let nodes: u64 = divide_parallel(&board, depth).iter().map(|(_, n)| n).sum();
            assert_eq!(nodes, expected, "{} depth {depth}", case.fen);
        }
    }
}
