//! `perft`: the divide output testers' scripts read, as Stockfish prints it,
//! counted in parallel and interruptible (UCI `go perft` runs beside the
//! command loop, and `stop` ends it).

use board::{Board, Move, perft};
use rayon::prelude::*;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The deepest perft accepted: perft 10 of the start position is 7·10¹³ leaves,
/// many hours of counting; deeper counts could overflow 64 bits.
pub const MAX_PERFT_DEPTH: u32 = 10;

/// Like [`board::perft`], but gives up (`None`) once `stop` is set. The flag is
/// read at every node three or more plies above the leaves, so stopping takes
/// at most one perft 2 per thread.
pub fn perft_until(board: &Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft(board, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut nodes: u64 = 0;
    for &mv in board.legal_moves().iter() {
        let mut child = *board;
        child.play_unchecked(mv);
        nodes = nodes.saturating_add(perft_until(&child, depth - 1, stop)?);
    }
    Some(nodes)
}

/// The perft count below each root move, in move generation order, counted in
/// parallel; `None` if `stop` was set before the end. Depth 0 has no root moves.
pub fn divide_until(board: &Board, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let moves: Vec<Move> = board.legal_moves().to_vec();
    moves
        .par_iter()
        .map(|&mv| {
            let mut child = *board;
            child.play_unchecked(mv);
            perft_until(&child, depth - 1, stop).map(|n| (mv, n))
        })
        .collect()
}

/// The divide: `move: count` per root move, then an empty line, `Nodes
/// searched: N` and another empty line, as Stockfish prints it (the time and
/// speed go to stderr); `None` if `stop` was set first.
pub fn divide_lines(
    board: &Board,
    depth: u32,
    chess960: bool,
    stop: &AtomicBool,
) -> Option<Vec<String>> {
    let start = Instant::now();
    let results = divide_until(board, depth, stop)?;
    // Perft 0 counts the position itself.
    let total =
        if depth == 0 { 1 } else { results.iter().fold(0u64, |t, (_, n)| t.saturating_add(*n)) };
    let mut lines: Vec<String> = results
        .iter()
        .map(|(mv, nodes)| format!("{}: {nodes}", board.move_to_uci(*mv, chess960)))
        .collect();
    lines.extend([String::new(), format!("Nodes searched: {total}"), String::new()]);
    let elapsed = start.elapsed().as_secs_f64();
    eprintln!("perft {depth}: {total} nodes in {elapsed:.3} s ({:.0} nps)", total as f64 / elapsed);
    Some(lines)
}

/// `tessera perft <depth> [fen]`.
pub fn run_cli(args: &[String]) -> ExitCode {
    let depth = args.first().and_then(|d| d.parse::<u32>().ok()).filter(|&d| d <= MAX_PERFT_DEPTH);
    let Some(depth) = depth else {
        eprintln!("{}", crate::cli::usage("perft"));
        return ExitCode::FAILURE;
    };
    let board = if args.len() > 1 {
        match Board::from_fen(&args[1..].join(" ")) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("tessera: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        Board::startpos()
    };
    let chess960 = board.has_chess960_castling();
    let never = AtomicBool::new(false);
    let lines = divide_lines(&board, depth, chess960, &never).unwrap_or_default();
    crate::cli::print_lines(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_0_is_one_node_and_stop_gives_up() {
        let stop = AtomicBool::new(false);
        let lines = divide_lines(&Board::startpos(), 0, false, &stop).expect("not stopped");
        assert_eq!(lines, ["", "Nodes searched: 1", ""]);
        assert_eq!(perft_until(&Board::startpos(), 4, &stop), Some(197_281));
        stop.store(true, Ordering::Relaxed);
        assert_eq!(perft_until(&Board::startpos(), 4, &stop), None);
        assert_eq!(divide_lines(&Board::startpos(), 5, false, &stop), None);
    }

    #[test]
    fn the_usage_line_names_the_depths_accepted() {
        let depths = format!("<depth 0..{MAX_PERFT_DEPTH}>");
        assert_eq!(crate::cli::usage("perft"), format!("usage: tessera perft {depths} [fen]"));
    }

    #[test]
    fn the_parallel_divide_is_the_board_crates_divide() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let board = Board::from_fen(kiwipete).expect("valid FEN");
        let stop = AtomicBool::new(false);
        assert_eq!(divide_until(&board, 3, &stop), Some(board::divide(&board, 3)));
    }
}
