//! `perft`: the divide output testers' scripts read, as Stockfish prints it.

use board::{Board, divide_parallel};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// Prints `move: count` per root move, then `Nodes searched: N`.
pub fn write_divide(out: &mut impl Write, board: &Board, depth: u32, chess960: bool) -> u64 {
    let start = Instant::now();
    let results = divide_parallel(board, depth);
    let mut total = 0;
    for (mv, nodes) in &results {
        let _ = writeln!(out, "{}: {nodes}", board.move_to_uci(*mv, chess960));
        total += nodes;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let _ = writeln!(out);
    let _ = writeln!(out, "Nodes searched: {total}");
    let _ = writeln!(out);
    let _ = out.flush();
    eprintln!("perft {depth}: {total} nodes in {elapsed:.3} s ({:.0} nps)", total as f64 / elapsed);
    total
}

/// `tessera perft <depth> [fen]`.
pub fn run_cli(args: &[String]) -> ExitCode {
    let Some(depth) = args.first().and_then(|d| d.parse::<u32>().ok()).filter(|&d| d <= 20) else {
        eprintln!("usage: tessera perft <depth 0..20> [fen]");
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
    write_divide(&mut std::io::stdout().lock(), &board, depth, chess960);
    ExitCode::SUCCESS
}
