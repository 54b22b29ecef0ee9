//! Null move pruning in zugzwang: from `nmp_verify_depth()` on a null-move cutoff
//! is verified by a search in which the side that passed may not pass again.

use board::{Board, Position};
use search::{SearchJob, SearchLimits, Silent, ThreadPool};
use std::sync::Arc;

fn best_move(fen: &str, depth: i32) -> String {
    let pool = ThreadPool::new(1, 16, Arc::new(Silent));
    let board = Board::from_fen(fen).expect("valid FEN");
    let limits = SearchLimits { depth: Some(depth), ..SearchLimits::default() };
    let job = SearchJob::new(Position::new(board), limits);
    let outcome = pool.search_sync(job).expect("the search ends");
    let best = outcome.best.expect("a legal move");
    board.move_to_uci(best, false)
}

/// Polgar–Kasparov 1996 (ZPTS.15 in zugzwang.epd): 1...Ne8! mates in 8; the
/// mating net needs quiet waiting moves that put White in zugzwang. When the
/// verification search could be answered by another null move (before this test),
/// the search played 1...Rb6 at every depth up to 20 at least; with the guard it
/// finds 1...Ne8 (depth 16 before the singular extensions and the techniques
/// added with them; depth 21 with them). At depth 22,
/// removing the guard gives 1...Rb5 (and 1...Rb6 at 24).
#[test]
fn verified_null_move_finds_the_zugzwang_mate() {
    let fen = "1r4RK/2n5/7k/8/8/8/8/8 b - - 0 1";
    assert_eq!(best_move(fen, 22), "c7e8");
}
