//! `tessera datagen`: self-play games for training the evaluation network.
//!
//! Each game starts from 8 or 9 random legal plies (after a random line of
//! `--openings`, if given, or, in `--dfrc` percent of the games, a double
//! Fischer random position: [`dfrc_start`], [`BackRank`]), kept only when a
//! verification search scores the position within ±`MAX_OPENING_SCORE` cp.
//! Then both sides search with a soft limit of `--nodes` nodes a move (one
//! search thread per game, `--threads` games at once). Every searched position
//! is recorded with its score and the game's result in the binary game format
//! of the `gamedata` crate; filtering is left to the reader. Games are written
//! in the order of their numbers and each game's randomness depends only on
//! the seed and its number, so a run is reproducible from its seed. See
//! `docs/datagen.md`.

mod dfrc;

pub use dfrc::{BackRank, dfrc_board};

use board::{Board, Color, GameStatus, Position};
use gamedata::{Game, GameResult, Ply, write_game};
use search::{SearchJob, SearchLimits, Silent, ThreadPool};
use std::collections::BTreeMap;
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A game is adjudicated a draw at this many plies.
const MAX_PLIES: usize = 400;
/// A side is adjudicated the winner after [`WIN_PLIES`] consecutive scores this large.
const WIN_SCORE: i32 = 2000;
/// See [`WIN_SCORE`].
const WIN_PLIES: u32 = 4;
/// After [`DRAW_AFTER_PLY`] plies, a game whose score stays within ±[`DRAW_SCORE`]
/// for [`DRAW_PLIES`] consecutive plies is adjudicated a draw.
const DRAW_SCORE: i32 = 10;
/// See [`DRAW_SCORE`].
const DRAW_PLIES: u32 = 10;
/// See [`DRAW_SCORE`].
const DRAW_AFTER_PLY: usize = 80;
/// Random openings scoring beyond this (centipawns) are played again.
const MAX_OPENING_SCORE: i32 = 400;
/// The depth of the search that checks a random opening.
const OPENING_CHECK_DEPTH: i32 = 8;
/// The hard node limit of a move, as a multiple of the soft limit.
const HARD_NODES_FACTOR: u64 = 8;
/// Transposition table size of each game thread's pool, in MB.
const HASH_MB: usize = 8;
/// The share of games, in percent, that start from a DFRC position unless
/// `--dfrc` says otherwise (docs/datagen.md says why 15).
pub const DEFAULT_DFRC_PERCENT: u8 = 15;

use crate::cli::{DATAGEN_FLAGS, flag, parse_flags};
use crate::rng::Rng;

/// The settings of a run.
#[derive(Debug, Clone)]
struct Config {
    games: usize,
    soft_nodes: u64,
    seed: u64,
    threads: usize,
    random_plies: usize,
    /// The share of games, in percent (0 to 100), that start from a DFRC position.
    dfrc_percent: u8,
}

/// Runs `tessera datagen`.
pub fn run(args: &[String]) -> ExitCode {
    match run_inner(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("datagen: {e}");
            eprintln!("{}", crate::cli::usage("datagen"));
            ExitCode::FAILURE
        }
    }
}

fn run_inner(args: &[String]) -> Result<(), String> {
    let flags = parse_flags(args, DATAGEN_FLAGS)?;
    let out = flags["out"].clone();
    let dfrc_percent = flag(&flags, "dfrc", DEFAULT_DFRC_PERCENT)?;
    if dfrc_percent > 100 {
        return Err(format!("--dfrc is a percentage of the games, 0 to 100, not {dfrc_percent}"));
    }
    let config = Config {
        games: flag(&flags, "games", 100usize)?,
        soft_nodes: flag(&flags, "nodes", 2500u64)?.max(1),
        seed: flag(&flags, "seed", 1u64)?,
        threads: flag(&flags, "threads", 1usize)?.clamp(1, 256),
        random_plies: flag(&flags, "random-plies", 8usize)?,
        dfrc_percent,
    };
    let openings = match flags.get("openings") {
        Some(path) => load_openings(path)?,
        None => vec![Board::startpos()],
    };
    let file = std::fs::File::create(&out).map_err(|e| format!("cannot create '{out}': {e}"))?;
    let mut writer = BufWriter::new(file);
    eprintln!(
        "datagen: {} games, {} nodes/move (soft), {} thread(s), seed {}, {} opening(s), \
         {}% DFRC starts, {}-{} random plies -> {out}",
        config.games,
        config.soft_nodes,
        config.threads,
        config.seed,
        openings.len(),
        config.dfrc_percent,
        config.random_plies,
        config.random_plies + 1
    );

    let openings = Arc::new(openings);
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<(usize, Result<Played, String>)>();
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
    let mut progress = Progress::new(config.games);
    let mut pending = BTreeMap::new();
    let mut error = None;
    for (index, game) in rx {
        match game {
            Ok(g) => pending.insert(index, g),
            Err(e) => {
                error = Some(format!("game {index}: {e}"));
                break;
            }
        };
        while let Some(played) = pending.remove(&progress.games) {
            write_game(&mut writer, &played.game).map_err(|e| format!("write error: {e}"))?;
            writer.flush().map_err(|e| format!("write error: {e}"))?;
            progress.add(&played);
        }
        progress.maybe_report();
    }
    // Stop the workers early on error: they see the closed channel after their game.
    if let Some(e) = error {
        next.store(usize::MAX / 2, Ordering::Relaxed);
        return Err(e);
    }
    for w in workers {
        w.join().map_err(|_| "a game thread panicked".to_string())?;
    }
    progress.report();
    Ok(())
}

/// Counts of what has been written, reported on stderr.
struct Progress {
    total: usize,
    games: usize,
    positions: usize,
    results: [usize; 3],
    dfrc_games: usize,
    nodes: GameNodes,
    start: Instant,
    last_report: Instant,
}

impl Progress {
    fn new(total: usize) -> Progress {
        let now = Instant::now();
        Progress {
            total,
            games: 0,
            positions: 0,
            results: [0; 3],
            dfrc_games: 0,
            nodes: GameNodes::default(),
            start: now,
            last_report: now,
        }
    }

    fn add(&mut self, played: &Played) {
        self.games += 1;
        self.positions += played.game.plies.len();
        self.results[played.game.result as usize] += 1;
        self.dfrc_games += usize::from(played.dfrc.is_some());
        self.nodes.moves += played.nodes.moves;
        self.nodes.openings += played.nodes.openings;
    }

    fn maybe_report(&mut self) {
        if self.last_report.elapsed() >= Duration::from_secs(10) {
            self.report();
        }
    }

    fn report(&mut self) {
        self.last_report = Instant::now();
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        let games_per_sec = self.games as f64 / secs;
        let eta = if self.games > 0 {
            format!("{:.0} s", (self.total - self.games) as f64 / games_per_sec)
        } else {
            "?".to_string()
        };
        let positions = self.positions.max(1) as f64;
        let all_nodes = (self.nodes.moves + self.nodes.openings) as f64;
        eprintln!(
            "games {}/{}  positions {}  W/D/L {}/{}/{}  DFRC {}  {:.0} positions/s  \
             nodes/position {:.0} (+{:.0} opening checks)  {:.0} nodes/s  elapsed {:.0} s  ETA {eta}",
            self.games,
            self.total,
            self.positions,
            self.results[GameResult::WhiteWins as usize],
            self.results[GameResult::Draw as usize],
            self.results[GameResult::BlackWins as usize],
            self.dfrc_games,
            self.positions as f64 / secs,
            self.nodes.moves as f64 / positions,
            self.nodes.openings as f64 / positions,
            all_nodes / secs,
            secs,
        );
    }
}

/// The bounds of a book of openings (`datagen --openings`, `genfens`'s book):
/// an EPD line is well under 4 KiB, and the largest public books are under
/// 200 MB.
pub const BOOK_LIMITS: infile::TextLimits = infile::TextLimits { line: 4096, total: 256 << 20 };

/// Reads the opening FENs: one per line (EPD operations after the four FEN
/// fields are ignored); blank lines and `#` comments are skipped. The file is
/// read within [`BOOK_LIMITS`], and only if it is a regular file.
pub fn load_openings(path: &str) -> Result<Vec<Board>, String> {
    let text = infile::InputFile::open(path)
        .and_then(|file| file.read_text(BOOK_LIMITS))
        .map_err(|e| format!("openings {e}"))?;
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
            Err(e) => return Err(format!("{path}:{}: bad FEN ({e})", n + 1)),
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

/// The back ranks of game `index` when it is one of the `percent` percent that
/// start from a DFRC position: White's and Black's, each a Scharnagl number
/// drawn uniformly from `0..960`. The draw has a generator of its own (not
/// the game's), so every other game plays exactly as it would with no DFRC
/// share at all: the same seed gives the same standard games whatever
/// `--dfrc` is.
pub fn dfrc_start(seed: u64, index: usize, percent: u8) -> Option<(BackRank, BackRank)> {
    let mut mix = Rng::new(seed ^ (index as u64).wrapping_mul(0x8CB9_2BA7_2F3D_8DD7));
    let mut rng = Rng::new(mix.next_u64() ^ 0xDF2C_0960_DF2C_0960);
    if rng.below(100) >= usize::from(percent) {
        return None;
    }
    let mut back_rank = || {
        let n = rng.below(usize::from(BackRank::COUNT)) as u16;
        BackRank::from_scharnagl(n).expect("below COUNT")
    };
    let white = back_rank();
    Some((white, back_rank()))
}

/// Whether the game is over here, and how.
fn finished(pos: &Position) -> Option<GameResult> {
    let board = pos.board();
    match board.status() {
        GameStatus::Checkmate => Some(GameResult::win_for(!board.side_to_move())),
        GameStatus::Ongoing if !pos.is_draw_by_rule() => None,
        _ => Some(GameResult::Draw),
    }
}

/// A random opening line followed by `plies` random legal moves, never leaving
/// a finished game.
pub fn random_opening(rng: &mut Rng, openings: &[Board], plies: usize) -> Position {
    'retry: loop {
        let mut pos = Position::new(openings[rng.below(openings.len())]);
        for _ in 0..plies {
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

/// What one search of datagen found.
struct Searched {
    best: board::Move,
    /// The score for the side to move.
    score: i32,
    nodes: u64,
}

/// Nodes a game cost: the searches of its moves, and the verification
/// searches of its random openings (rejected ones included).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct GameNodes {
    moves: u64,
    openings: u64,
}

/// A search of `pos` under `limits` on `pool`.
fn search(pool: &ThreadPool, pos: &Position, limits: SearchLimits) -> Result<Searched, String> {
    let job = SearchJob::new(pos.clone(), limits);
    let board = pos.board();
    let result = pool.search_sync(job).ok_or("the search did not finish")?;
    match result.best {
        Some(best) if board.is_legal(best) => {
            Ok(Searched { best, score: result.score, nodes: result.nodes })
        }
        Some(_) => Err(format!("illegal best move in {}", board.to_fen(true))),
        None => Err(format!("no best move in {}", board.to_fen(true))),
    }
}

/// A random opening (`random_plies` or one more) that a verification search
/// scores within ±[`MAX_OPENING_SCORE`], with the random line as its history
/// (back to the start position, book line or DFRC position it came from; the
/// verification search does not see it).
/// Also returns the nodes its verification searches took.
pub(crate) fn balanced_opening(
    pool: &mut ThreadPool,
    rng: &mut Rng,
    openings: &[Board],
    random_plies: usize,
) -> Result<(Position, u64), String> {
    let mut nodes = 0;
    loop {
        let plies = random_plies + rng.below(2);
        let line = random_opening(rng, openings, plies);
        let mut pos = line.clone();
        pos.truncate_history();
        pool.clear();
        let limits = SearchLimits { depth: Some(OPENING_CHECK_DEPTH), ..SearchLimits::default() };
        let checked = search(pool, &pos, limits)?;
        nodes += checked.nodes;
        if checked.score.abs() <= MAX_OPENING_SCORE {
            return Ok((line, nodes));
        }
    }
}

/// Watches the scores of a game for the adjudication rules.
#[derive(Default)]
struct Adjudicator {
    win_streak: Option<(Color, u32)>,
    draw_streak: u32,
}

impl Adjudicator {
    /// Takes the score of ply `ply` (White's point of view); returns the result
    /// when the game is adjudicated.
    fn observe(&mut self, ply: usize, white_score: i32) -> Option<GameResult> {
        let winning = match white_score {
            s if s >= WIN_SCORE => Some(Color::White),
            s if s <= -WIN_SCORE => Some(Color::Black),
            _ => None,
        };
        self.win_streak = match (winning, self.win_streak) {
            (None, _) => None,
            (Some(c), Some((s, n))) if c == s => Some((c, n + 1)),
            (Some(c), _) => Some((c, 1)),
        };
        if let Some((color, n)) = self.win_streak
            && n >= WIN_PLIES
        {
            return Some(GameResult::win_for(color));
        }
        self.draw_streak = if white_score.abs() <= DRAW_SCORE { self.draw_streak + 1 } else { 0 };
        if ply >= DRAW_AFTER_PLY && self.draw_streak >= DRAW_PLIES {
            return Some(GameResult::Draw);
        }
        None
    }
}

/// A game as played: the game with every searched position, its DFRC back
/// ranks if it started from a DFRC position, and the nodes it took.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Played {
    game: Game,
    dfrc: Option<(BackRank, BackRank)>,
    nodes: GameNodes,
}

/// Plays game `index`.
fn play_game(
    pool: &mut ThreadPool,
    openings: &[Board],
    config: &Config,
    index: usize,
) -> Result<Played, String> {
    let mut rng = game_rng(config.seed, index);
    let dfrc = dfrc_start(config.seed, index, config.dfrc_percent);
    let dfrc_board = dfrc.map(|(white, black)| dfrc_board(white, black));
    let roots = dfrc_board.as_ref().map_or(openings, std::slice::from_ref);
    let (mut pos, opening_nodes) = balanced_opening(pool, &mut rng, roots, config.random_plies)?;
    pos.truncate_history();
    let mut nodes = GameNodes { moves: 0, openings: opening_nodes };
    pool.clear();
    let start = *pos.board();
    let mut plies = Vec::new();
    let mut adjudicator = Adjudicator::default();
    let limits = SearchLimits {
        soft_nodes: Some(config.soft_nodes),
        nodes: Some(config.soft_nodes * HARD_NODES_FACTOR),
        ..SearchLimits::default()
    };
    let result = loop {
        if let Some(result) = finished(&pos) {
            break result;
        }
        if plies.len() >= MAX_PLIES {
            break GameResult::Draw;
        }
        let Searched { best, score, nodes: searched } = search(pool, &pos, limits.clone())?;
        nodes.moves += searched;
        let white_score = if pos.board().side_to_move() == Color::White { score } else { -score };
        plies.push(Ply { mv: best, white_score: white_score.clamp(-32000, 32000) as i16 });
        pos.push(best);
        if let Some(result) = adjudicator.observe(plies.len() - 1, white_score) {
            break result;
        }
    };
    Ok(Played { game: Game { start, result, plies }, dfrc, nodes })
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
    fn random_openings_are_playable() {
        let openings = [Board::startpos()];
        let mut rng = Rng::new(7);
        for _ in 0..20 {
            let pos = random_opening(&mut rng, &openings, 8);
            assert_eq!(pos.ply_count(), 8);
            assert!(finished(&pos).is_none());
        }
    }

    #[test]
    fn adjudication_rules() {
        // Four plies at +2000 or more: White wins; a break in the streak restarts it.
        let mut a = Adjudicator::default();
        assert_eq!(a.observe(10, 2500), None);
        assert_eq!(a.observe(11, 2100), None);
        assert_eq!(a.observe(12, 1900), None);
        for ply in 13..16 {
            assert_eq!(a.observe(ply, -3000), None);
        }
        assert_eq!(a.observe(16, -2000), Some(GameResult::BlackWins));
        // Quiet scores only count as a draw from ply 80 on.
        let mut a = Adjudicator::default();
        for ply in 70..79 {
            assert_eq!(a.observe(ply, 5), None);
        }
        assert_eq!(a.observe(79, 0), None, "ten quiet plies, but before ply 80");
        assert_eq!(a.observe(80, -10), Some(GameResult::Draw));
    }

    #[test]
    fn a_game_records_every_searched_position() {
        let mut pool = ThreadPool::new(1, 1, Arc::new(Silent));
        let config = Config {
            games: 1,
            soft_nodes: 300,
            seed: 3,
            threads: 1,
            random_plies: 8,
            dfrc_percent: 0,
        };
        let Played { game, dfrc, nodes } =
            play_game(&mut pool, &[Board::startpos()], &config, 0).expect("a game");
        assert_eq!(dfrc, None);
        assert!(!game.plies.is_empty());
        assert!(
            nodes.moves >= 300 * game.plies.len() as u64,
            "every move searched past the soft limit"
        );
        assert!(nodes.openings > 0, "the opening was verified");
        // The same seed and number give the same game.
        let again = play_game(&mut pool, &[Board::startpos()], &config, 0).expect("a game");
        assert_eq!(Played { game: game.clone(), dfrc, nodes }, again);
        // It survives the round trip, every move legal.
        let mut bytes = Vec::new();
        write_game(&mut bytes, &game).expect("writes");
        let back = gamedata::GameReader::new(bytes.as_slice()).next().expect("one game");
        assert_eq!(back.expect("valid"), game);
        // The start position is 8 or 9 plies from the start position.
        let fullmove = game.start.fullmove_number();
        assert!(fullmove == 5 && matches!(game.start.side_to_move(), Color::White | Color::Black));
    }

    #[test]
    fn the_dfrc_share_is_drawn_apart_from_the_games_randomness() {
        let count = |percent| (0..2000).filter(|&i| dfrc_start(9, i, percent).is_some()).count();
        assert_eq!(count(0), 0);
        assert_eq!(count(100), 2000);
        let share = count(DEFAULT_DFRC_PERCENT);
        assert!((200..400).contains(&share), "{share} of 2000 games at 15%");
        // A game is DFRC at a share when it is at every larger one, with the same back ranks.
        for i in 0..200 {
            if let Some(ranks) = dfrc_start(9, i, 10) {
                assert_eq!(dfrc_start(9, i, 50), Some(ranks));
            }
        }
        let numbers: std::collections::HashSet<_> =
            (0..200).filter_map(|i| dfrc_start(9, i, 100)).collect();
        assert!(numbers.len() > 190, "the back ranks vary: {}", numbers.len());
    }

    #[test]
    fn a_standard_game_plays_the_same_whatever_the_dfrc_share() {
        let index = (0..).find(|&i| dfrc_start(4, i, 50).is_none()).expect("a standard game");
        let config = |dfrc_percent| Config {
            games: index + 1,
            soft_nodes: 200,
            seed: 4,
            threads: 1,
            random_plies: 8,
            dfrc_percent,
        };
        let mut pool = ThreadPool::new(1, HASH_MB, Arc::new(Silent));
        let openings = [Board::startpos()];
        let without = play_game(&mut pool, &openings, &config(0), index).expect("a game");
        let with = play_game(&mut pool, &openings, &config(50), index).expect("a game");
        assert_eq!(without, with);
    }

    #[test]
    fn a_dfrc_run_writes_dfrc_games_that_decode_to_the_generators_boards() {
        let dir = std::env::temp_dir().join(format!("tessera-datagen-dfrc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let (seed, games) = (5, 2);
        let run = |name: &str| {
            let out = dir.join(name).to_string_lossy().to_string();
            let args =
                ["--out", &out, "--games", "2", "--nodes", "200", "--seed", "5", "--dfrc", "100"];
            run_inner(&args.map(String::from)).expect("datagen runs");
            std::fs::read(&out).expect("the shard")
        };
        let bytes = run("a.bin");
        assert_eq!(bytes, run("b.bin"), "the same seed writes the same bytes");
        std::fs::remove_dir_all(&dir).expect("removed");

        let decoded: Vec<Game> = gamedata::GameReader::new(bytes.as_slice())
            .collect::<Result<_, _>>()
            .expect("every game decodes");
        assert_eq!(decoded.len(), games);
        let config =
            Config { games, soft_nodes: 200, seed, threads: 1, random_plies: 8, dfrc_percent: 100 };
        let mut pool = ThreadPool::new(1, HASH_MB, Arc::new(Silent));
        for (index, game) in decoded.iter().enumerate() {
            let (white, black) = dfrc_start(seed, index, 100).expect("every game is DFRC");
            let dfrc = dfrc_board(white, black);
            // The recorded start is 8 or 9 random plies from that DFRC position.
            let (mut line, _) =
                balanced_opening(&mut pool, &mut game_rng(seed, index), &[dfrc], 8).expect("opens");
            assert_eq!(*line.board(), game.start, "game {index}");
            assert!(matches!(line.ply_count(), 8 | 9));
            while line.ply_count() > 0 {
                line.pop();
            }
            assert_eq!(*line.board(), dfrc);
            // The generator's game, position by position, is what was decoded.
            let played =
                play_game(&mut pool, &[Board::startpos()], &config, index).expect("a game");
            assert_eq!(played.dfrc, Some((white, black)));
            assert_eq!(played.game, *game);
            let mut generator = Position::new(played.game.start);
            for (ply, board, recorded) in game.positions() {
                let had = generator.board();
                assert_eq!(board.to_fen(true), had.to_fen(true), "game {index}, ply {ply}");
                assert_eq!(board, *had);
                assert_eq!(recorded, played.game.plies[ply]);
                generator.push(recorded.mv);
            }
        }
    }
}
