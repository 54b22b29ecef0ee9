//! `tessera bench [depth] [threads] [hash MB]`: searches a fixed list of
//! positions to a fixed depth and prints `<nodes> nodes <nps> nps`. With one
//! thread the node count is a deterministic signature of the search: a change
//! that should not alter the search must not alter it.

use board::{Board, Position};
use search::{SearchJob, SearchLimits, SearchOutcome, Silent, ThreadPool};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// The default bench depth.
pub const DEFAULT_DEPTH: i32 = 12;

/// Varied positions: openings, middlegames with tactics, endgames, and positions
/// with checks, promotions, castling and en passant.
pub const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
    "3r1k2/4npp1/1ppr3p/p6P/P2PPPP1/1NR5/5K2/2R5 w - - 0 1",
    "2q1rr1k/3bbnnp/p2p1pp1/2pPp3/PpP1P1P1/1P2BNNP/2BQ1PRK/7R b - - 0 1",
    "rnbqkb1r/p3pppp/1p6/2ppP3/3N4/2P5/PPP1QPPP/R1B1KB1R w KQkq - 0 1",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "2r3k1/pppR1pp1/4p3/4P1P1/5P2/1P4K1/P1P5/8 w - - 0 1",
    "1nk1r1r1/pp2n1pp/4p3/q2pPp1N/b1pP1P2/B1P2R2/2P1B1PP/R2Q2K1 w - - 0 1",
    "4b3/p3kp2/6p1/3pP2p/2pP1P2/4K1P1/P3N2P/8 w - - 0 1",
    "2kr1bnr/pbpq4/2n1pp2/3p3p/3P1P1B/2N2N1Q/PPP3PP/2KR1B1R w - - 0 1",
    "3rr1k1/pp3pp1/1qn2np1/8/3p4/PP1R1P2/2P1NQPP/R1B3K1 b - - 0 1",
    "2r1nrk1/p2q1ppp/bp1p4/n1pPp3/P1P1P3/2PBB1N1/4QPPP/R4RK1 w - - 0 1",
    "r3r1k1/ppqb1ppp/8/4p1NQ/8/2P5/PP3PPP/R3R1K1 b - - 0 1",
    "r2q1rk1/4bppp/p2p4/2pP4/3pP3/3Q4/PP1B1PPP/R3R1K1 w - - 0 1",
    "rnb2r1k/pp2p2p/2pp2p1/q2P1p2/8/1Pb2NP1/PB2PPBP/R2Q1RK1 w - - 0 1",
    "2r3k1/1p2q1pp/2b1pr2/p1pp4/6Q1/1P1PP1R1/P1PN2PP/5RK1 w - - 0 1",
    "r1bqkb1r/4npp1/p1p4p/1p1pP1B1/8/1B6/PPPN1PPP/R2QK1NR w KQkq - 0 1",
    "r2qkbnr/2p2pp1/p1pp4/4p2p/4P1b1/5N1P/PPPP1PP1/RNBQ1RK1 w kq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
    "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
    "7k/p7/1R5K/6r1/6p1/6P1/8/8 w - - 0 1",
    "rnbqkb1r/pppp1ppp/8/4P3/6n1/7P/PPPNPPP1/R1BQKBNR b KQkq - 0 1",
    "r4q1k/p2bR1rp/2p2Q1N/5p2/5p2/2P5/PP3PPP/R5K1 w - - 0 1",
    "3q1rk1/p4pp1/2pb3p/3p4/6Pr/1PNQ4/P1PB1PP1/4RRK1 b - - 0 1",
    "2br2k1/2q3rn/p2NppQ1/2p1P3/Pp5R/4P3/1P3PPP/3R2K1 w - - 0 1",
    "8/8/8/3k4/8/8/3PK3/8 w - - 0 1",
    "8/8/1p6/8/2PK4/8/8/2k5 w - - 0 1",
    "8/3k4/8/8/3PK3/8/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 1",
    "8/8/4k3/8/2q5/8/4K3/4R3 w - - 0 1",
    "8/4kp2/6p1/7p/P2R3P/6P1/5PK1/r7 b - - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "8/pp2r1k1/2p1p3/3pP2p/P2P1n2/2P2N1P/1P3PK1/4R3 w - - 0 1",
    "r1bqk2r/ppp2ppp/2n5/3np3/1bB5/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 6",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
    "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR b KQkq - 0 2",
    "3k4/3P4/3K4/8/8/8/8/8 w - - 0 1",
    "8/8/8/8/8/6k1/6p1/6K1 w - - 0 1",
    "1r3rk1/5ppp/8/8/8/8/5PPP/1R3RK1 w - - 0 1",
];

/// The nodes and time of a pass over [`POSITIONS`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Totals {
    /// Nodes searched, all threads together.
    pub nodes: u64,
    /// The searches' time, from each `go` to its best move.
    pub time: Duration,
}

impl Totals {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches each of [`POSITIONS`] in turn on `pool` under `limits` (the table
/// and histories cleared before each when `clear_each`), and hands `each` the
/// position's index, board, outcome and time. A bad FEN or a search that
/// gives no outcome is an error.
pub fn search_positions(
    pool: &mut ThreadPool,
    limits: &SearchLimits,
    clear_each: bool,
    mut each: impl FnMut(usize, &Board, &SearchOutcome, Duration),
) -> Result<Totals, String> {
    let mut totals = Totals::default();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let board = Board::from_fen(fen).map_err(|_| format!("bad FEN {fen}"))?;
        if clear_each {
            pool.clear();
        }
        let job = SearchJob::new(Position::new(board), limits.clone());
        let start = job.start;
        let outcome = pool.search_sync(job).ok_or("the search did not finish")?;
        let elapsed = start.elapsed();
        totals.time += elapsed;
        totals.nodes += outcome.nodes;
        each(i, &board, &outcome, elapsed);
    }
    Ok(totals)
}

/// Runs the bench and prints the per-position and total figures.
pub fn run(args: &[String]) -> ExitCode {
    use tessera::cli::word;
    // A fourth word is refused, not ignored.
    let (Some(depth), Some(threads), Some(hash), None) = (
        word(args, 0, DEFAULT_DEPTH, 1..=64),
        word(args, 1, 1, 1..=1024),
        word(args, 2, 16, 1..=1 << 16),
        args.get(3),
    ) else {
        eprintln!("{}", tessera::cli::usage("bench"));
        return ExitCode::FAILURE;
    };
    let mut pool = ThreadPool::new(threads, hash, Arc::new(Silent));
    let limits = SearchLimits { depth: Some(depth), ..SearchLimits::default() };
    let report = |i: usize, board: &Board, outcome: &SearchOutcome, elapsed: Duration| {
        let best = outcome.best.map_or("0000".to_string(), |m| board.move_to_uci(m, false));
        eprintln!(
            "position {:2}: {:>10} nodes {:>8.1} ms  bestmove {best}",
            i + 1,
            outcome.nodes,
            elapsed.as_secs_f64() * 1e3
        );
    };
    let totals = match search_positions(&mut pool, &limits, true, report) {
        Ok(totals) => totals,
        Err(e) => {
            eprintln!("bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    eprintln!(
        "{} positions, depth {depth}, {threads} thread(s), {:.2} s",
        POSITIONS.len(),
        totals.time.as_secs_f64()
    );
    tessera::cli::print_lines([format!("{} nodes {} nps", totals.nodes, totals.nps())])
}
