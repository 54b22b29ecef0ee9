//! `tessera datagen`: self-play games at a fixed node count, writing the quiet
//! positions they pass through, labelled with the game's result, for the
//! Texel tuner (`tessera tune`).
//!
//! Each game starts from a random line of the openings file followed by a few
//! random legal plies, then both sides search `--nodes` nodes per move. Output
//! lines are `FEN | RESULT`, where `RESULT` is `1.0`, `0.5` or `0.0` from
//! White's point of view. Games are numbered, each game's randomness comes from
//! the seed and its number only, and games are written in order, so a run is
//! reproducible for a given seed (exactly so with one thread).
//!
//! See `docs/tuning.md`.

use board::{Board, Color, GameStatus, Move, MoveList, Position};
use search::{SearchJob, SearchLimits, Silent, ThreadPool};
use std::collections::{BTreeMap, HashMap};
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The default openings file (relative to the working directory).
pub const DEFAULT_OPENINGS: &str = "../shared/data/openings.epd";
/// A game is drawn after this many plies.
const MAX_PLIES: usize = 300;
/// A side is adjudicated the winner after [`WIN_PLIES`] consecutive scores this large.
const WIN_SCORE: i32 = 2000;
/// See [`WIN_SCORE`].
const WIN_PLIES: u32 = 4;
/// Transposition table size of each game thread's pool, in MB.
const HASH_MB: usize = 8;

/// A small, fast, seedable PRNG (SplitMix64).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Parses `--name value` pairs. Every flag takes a value; unknown flags are errors.
pub fn parse_flags(args: &[String], known: &[&str]) -> Result<HashMap<String, String>, String> {
    let mut map = HashMap::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let Some(name) = arg.strip_prefix("--") else {
            return Err(format!("unexpected argument '{arg}'"));
        };
        if !known.contains(&name) {
            return Err(format!("unknown option '--{name}'"));
        }
        let Some(value) = it.next() else {
            return Err(format!("option '--{name}' needs a value"));
        };
        map.insert(name.to_string(), value.clone());
    }
    Ok(map)
}

/// The value of flag `name` parsed as `T`, or `default` when absent.
pub fn flag<T: std::str::FromStr>(
    flags: &HashMap<String, String>,
    name: &str,
    default: T,
) -> Result<T, String> {
    match flags.get(name) {
        None => Ok(default),
        Some(v) => v.parse().map_err(|_| format!("bad value '{v}' for --{name}")),
    }
}

/// The game result from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Drawn.
    Draw,
    /// Black won.
    BlackWins,
}

impl Outcome {
    /// The label written after each position.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1.0",
            Outcome::Draw => "0.5",
            Outcome::BlackWins => "0.0",
        }
    }

    fn win_for(color: Color) -> Outcome {
        if color == Color::White { Outcome::WhiteWins } else { Outcome::BlackWins }
    }
}

/// The settings of a run.
#[derive(Debug, Clone)]
struct Config {
    games: usize,
    nodes: u64,
    seed: u64,
    threads: usize,
    random_plies: usize,
}

/// One finished game: its result and the FENs of the positions kept.
struct Game {
    outcome: Outcome,
    fens: Vec<String>,
}

/// Runs `tessera datagen`.
pub fn run(args: &[String]) -> ExitCode {
    match run_inner(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("datagen: {e}");
            eprintln!(
                "usage: tessera datagen --out FILE [--games N] [--nodes K] [--seed S] \
                 [--threads T] [--openings PATH] [--random-plies R]"
            );
            ExitCode::FAILURE
        }
    }
}

fn run_inner(args: &[String]) -> Result<(), String> {
    let flags = parse_flags(
        args,
        &["games", "nodes", "out", "seed", "threads", "openings", "random-plies"],
    )?;
    let out = flags.get("out").ok_or("--out FILE is required")?.clone();
    let config = Config {
        games: flag(&flags, "games", 100usize)?,
        nodes: flag(&flags, "nodes", 5000u64)?.max(1),
        seed: flag(&flags, "seed", 1u64)?,
        threads: flag(&flags, "threads", 1usize)?.clamp(1, 256),
        random_plies: flag(&flags, "random-plies", 4usize)?,
    };
    let openings_path = flag(&flags, "openings", DEFAULT_OPENINGS.to_string())?;
    let openings = load_openings(&openings_path)?;
    let file = std::fs::File::create(&out).map_err(|e| format!("cannot create '{out}': {e}"))?;
    let mut writer = BufWriter::new(file);
    eprintln!(
        "datagen: {} games, {} nodes/move, {} thread(s), seed {}, \
         {} openings from {openings_path}, {} random plies -> {out}",
        config.games,
        config.nodes,
        config.threads,
        config.seed,
        openings.len(),
        config.random_plies
    );

    let openings = Arc::new(openings);
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<(usize, Result<Game, String>)>();
    let mut workers = Vec::new();
    for _ in 0..config.threads.min(config.games.max(1)) {
        let (openings, next, tx, config) =
            (Arc::clone(&openings), Arc::clone(&next), tx.clone(), config.clone());
        workers.push(std::thread::spawn(move || {
            let mut pool = ThreadPool::new(1, HASH_MB, Arc::new(Silent));
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= config.games {
                    break;
                }
                let game = play_game(&mut pool, &openings, &config, index);
                if tx.send((index, game)).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);

    // Write games in index order as they come in, so the output does not depend
    // on which thread finished first.
    let start = Instant::now();
    let mut pending = BTreeMap::new();
    let mut next_to_write = 0;
    let (mut positions, mut wdl) = (0usize, [0usize; 3]);
    let mut last_report = Instant::now();
    let mut error = None;
    for (index, game) in rx {
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                error = Some(format!("game {index}: {e}"));
                break;
            }
        };
        pending.insert(index, game);
        while let Some(game) = pending.remove(&next_to_write) {
            for fen in &game.fens {
                writeln!(writer, "{fen} | {}", game.outcome.label())
                    .map_err(|e| format!("write error: {e}"))?;
            }
            writer.flush().map_err(|e| format!("write error: {e}"))?;
            positions += game.fens.len();
            wdl[game.outcome as usize] += 1;
            next_to_write += 1;
        }
        if last_report.elapsed() >= Duration::from_secs(2) || next_to_write == config.games {
            last_report = Instant::now();
            report(next_to_write, config.games, positions, wdl, start.elapsed());
        }
    }
    // Stop the workers early on error: they see the closed channel after their game.
    if let Some(e) = error {
        next.store(usize::MAX / 2, Ordering::Relaxed);
        return Err(e);
    }
    for w in workers {
        w.join().map_err(|_| "a game thread panicked".to_string())?;
    }
    if next_to_write == 0 {
        report(0, config.games, 0, wdl, start.elapsed());
    }
    Ok(())
}

fn report(games: usize, total: usize, positions: usize, wdl: [usize; 3], elapsed: Duration) {
    let secs = elapsed.as_secs_f64().max(1e-9);
    eprintln!(
        "games {games}/{total}  positions {positions}  W/D/L {}/{}/{}  {:.1} positions/s  \
         {:.2} games/s  {:.0} s",
        wdl[Outcome::WhiteWins as usize],
        wdl[Outcome::Draw as usize],
        wdl[Outcome::BlackWins as usize],
        positions as f64 / secs,
        games as f64 / secs,
        secs
    );
}

/// Reads the opening FENs: one per line (EPD operations after the four FEN
/// fields are ignored); blank lines and `#` comments are skipped.
fn load_openings(path: &str) -> Result<Vec<Board>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("cannot read openings '{path}': {e}"))?;
    let mut boards = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let board = Board::from_fen(line).or_else(|_| {
            // An EPD line: four FEN fields, then operations.
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            Board::from_fen(&format!("{} 0 1", fields.join(" ")))
        });
        match board {
            Ok(b) => boards.push(b),
            Err(e) => return Err(format!("{path}:{}: bad FEN ({e:?})", n + 1)),
        }
    }
    if boards.is_empty() {
        return Err(format!("no openings in '{path}'"));
    }
    Ok(boards)
}

/// The random generator of game `index`.
fn game_rng(seed: u64, index: usize) -> Rng {
    let mut mix = Rng::new(seed ^ (index as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93));
    Rng::new(mix.next_u64())
}

/// Whether the game is over here, and how.
fn finished(pos: &Position) -> Option<Outcome> {
    let board = pos.board();
    match board.status() {
        GameStatus::Checkmate => Some(Outcome::win_for(!board.side_to_move())),
        GameStatus::Ongoing if !pos.is_draw_by_rule() => None,
        _ => Some(Outcome::Draw),
    }
}

/// A random opening line followed by `random_plies` random legal moves, never
/// leaving a finished game.
fn starting_position(rng: &mut Rng, openings: &[Board], random_plies: usize) -> Position {
    'retry: loop {
        let mut pos = Position::new(openings[rng.below(openings.len())]);
        for _ in 0..random_plies {
            let moves = pos.board().legal_moves();
            if moves.is_empty() {
                continue 'retry;
            }
            pos.push(moves.as_slice()[rng.below(moves.len())]);
        }
        if finished(&pos).is_none() {
            return pos;
        }
    }
}

/// Whether a position searched with `best` (scoring `score`) is quiet enough to
/// keep: not in check, a quiet best move, no winning capture and no mate score.
fn keep_position(board: &Board, best: Move, score: i32) -> bool {
    if board.in_check() || search_is_noisy(board, best) || score.abs() >= tt::MATE_BOUND {
        return false;
    }
    let mut noisy = MoveList::new();
    board.noisy_moves(&mut noisy);
    !noisy.as_slice().iter().any(|&mv| board.see_ge(mv, 1))
}

/// Whether `mv` captures or promotes.
fn search_is_noisy(board: &Board, mv: Move) -> bool {
    mv.is_en_passant()
        || mv.promotion().is_some()
        || (!mv.is_castling() && board.piece_on(mv.to()).is_some())
}

/// Plays game `index` and returns its kept positions with the result.
fn play_game(
    pool: &mut ThreadPool,
    openings: &[Board],
    config: &Config,
    index: usize,
) -> Result<Game, String> {
    let mut rng = game_rng(config.seed, index);
    let mut pos = starting_position(&mut rng, openings, config.random_plies);
    pool.clear();
    let mut fens = Vec::new();
    let mut streak: Option<(Color, u32)> = None;
    let outcome = loop {
        if let Some(outcome) = finished(&pos) {
            break outcome;
        }
        if pos.ply_count() >= MAX_PLIES {
            break Outcome::Draw;
        }
        let board = *pos.board();
        let job = SearchJob {
            position: pos.clone(),
            limits: SearchLimits { nodes: Some(config.nodes), ..SearchLimits::default() },
            multipv: 1,
            move_overhead: Duration::ZERO,
            start: Instant::now(),
            features: search::Features::default(),
        };
        let result = pool.search_sync(job).ok_or("the search did not finish")?;
        let Some(best) = result.best else {
            return Err(format!("no best move in {}", board.to_fen(false)));
        };
        if !board.is_legal(best) {
            return Err(format!("illegal best move in {}", board.to_fen(false)));
        }
        if keep_position(&board, best, result.score) {
            fens.push(board.to_fen(false));
        }
        let white_score =
            if board.side_to_move() == Color::White { result.score } else { -result.score };
        let winning = if white_score >= WIN_SCORE {
            Some(Color::White)
        } else if white_score <= -WIN_SCORE {
            Some(Color::Black)
        } else {
            None
        };
        streak = match (winning, streak) {
            (None, _) => None,
            (Some(c), Some((s, n))) if c == s => Some((c, n + 1)),
            (Some(c), _) => Some((c, 1)),
        };
        if let Some((color, n)) = streak
            && n >= WIN_PLIES
        {
            break Outcome::win_for(color);
        }
        pos.push(best);
    };
    Ok(Game { outcome, fens })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        for _ in 0..1000 {
            let x = a.below(7);
            assert_eq!(x, b.below(7));
            assert!(x < 7);
        }
        assert_ne!(game_rng(1, 0).next_u64(), game_rng(1, 1).next_u64());
    }

    #[test]
    fn flags_parse() {
        let args: Vec<String> =
            ["--games", "3", "--out", "x.txt"].iter().map(|s| s.to_string()).collect();
        let f = parse_flags(&args, &["games", "out"]).expect("valid flags");
        assert_eq!(flag(&f, "games", 0usize), Ok(3));
        assert_eq!(flag(&f, "nodes", 7u64), Ok(7));
        assert!(parse_flags(&args, &["games"]).is_err());
        assert!(parse_flags(&args[..1], &["games"]).is_err());
    }

    #[test]
    fn winning_capture_positions_are_skipped() {
        // White can win the queen on d5 with the pawn: not quiet.
        let board = Board::from_fen("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1").expect("valid FEN");
        let quiet =
            board.legal_moves().as_slice().iter().copied().find(|&m| !search_is_noisy(&board, m));
        assert!(!keep_position(&board, quiet.expect("a quiet move"), 0));
        // A balanced position with a quiet best move is kept; a mate score is not.
        let board = Board::startpos();
        let mv = board.legal_moves().as_slice()[0];
        assert!(keep_position(&board, mv, 20));
        assert!(!keep_position(&board, mv, tt::MATE - 5));
    }

    #[test]
    fn starting_positions_are_playable() {
        let openings = [Board::startpos()];
        let mut rng = Rng::new(7);
        for _ in 0..20 {
            let pos = starting_position(&mut rng, &openings, 8);
            assert_eq!(pos.ply_count(), 8);
            assert!(finished(&pos).is_none());
        }
    }
}
