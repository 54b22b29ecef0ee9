//! Reading training data: games in the `gamedata` format (plain `.bin` or
//! `.bin.xz`) and the older text format (`FEN | score | result | bestmove`,
//! plain or `.txt.xz`), filtered into [`Sample`]s, with whole games held out
//! for validation.
//!
//! Filtering happens here, when the data is read, so the files stay reusable:
//! a position is skipped when the side to move is in check, when the move
//! played captures or promotes (the score is then about the exchange, not the
//! position), in the first [`Filter::min_ply`] plies of the game, and when the
//! score is beyond ±[`Filter::max_score`] (mates and lost causes).

use crate::sample::Sample;
use board::{Board, Color};
use gamedata::{Game, GameReader, GameResult};
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};

/// Which recorded positions become samples.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    /// Skip positions before this ply of the game (counted from the standard
    /// start position, i.e. `2 × (fullmove − 1)` plus one if Black is to move).
    pub min_ply: u32,
    /// Skip positions whose score is beyond this (centipawns).
    pub max_score: i32,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter { min_ply: 16, max_score: 2000 }
    }
}

/// What a filter kept and dropped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FilterStats {
    /// Games read.
    pub games: u64,
    /// Positions read.
    pub positions: u64,
    /// Kept as samples.
    pub kept: u64,
    /// Dropped: side to move in check.
    pub in_check: u64,
    /// Dropped: the move played captures or promotes.
    pub noisy: u64,
    /// Dropped: too early in the game.
    pub early: u64,
    /// Dropped: score beyond the limit.
    pub extreme: u64,
}

impl FilterStats {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &FilterStats) {
        self.games += other.games;
        self.positions += other.positions;
        self.kept += other.kept;
        self.in_check += other.in_check;
        self.noisy += other.noisy;
        self.early += other.early;
        self.extreme += other.extreme;
    }
}

/// The ply of `board` counted from the standard start position.
pub fn game_ply(board: &Board) -> u32 {
    2 * (u32::from(board.fullmove_number()) - 1) + (board.side_to_move() == Color::Black) as u32
}

/// Appends the samples of `game` that pass `filter` to `out`.
pub fn samples_of(game: &Game, filter: &Filter, out: &mut Vec<Sample>, stats: &mut FilterStats) {
    stats.games += 1;
    for (_, board, ply) in game.positions() {
        stats.positions += 1;
        let white_score = i32::from(ply.white_score);
        if board.in_check() {
            stats.in_check += 1;
        } else if board.is_noisy(ply.mv) {
            stats.noisy += 1;
        } else if game_ply(&board) < filter.min_ply {
            stats.early += 1;
        } else if white_score.abs() > filter.max_score {
            stats.extreme += 1;
        } else {
            stats.kept += 1;
            let white = board.side_to_move() == Color::White;
            let score = if white { white_score } else { -white_score };
            let result = match (game.result, white) {
                (GameResult::Draw, _) => 1,
                (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 2,
                _ => 0,
            };
            out.push(Sample::new(&board, score as i16, result));
        }
    }
}

/// Opens a data file for reading, decompressing `.xz` files through the `xz`
/// tool (which reads the file this opened: what [`infile::InputFile::open`]
/// checked, only a regular file, is what it decompresses).
pub fn open(path: &Path) -> Result<Box<dyn Read + Send>, String> {
    let name = path.display();
    let file = infile::InputFile::open(path)?.into_file();
    if path.extension().is_some_and(|e| e == "xz") {
        let mut child = Command::new("xz")
            .arg("-dc")
            .stdin(file)
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run xz for {name}: {e}"))?;
        let stdout = child.stdout.take().ok_or_else(|| format!("no output from xz for {name}"))?;
        Ok(Box::new(Decompressed {
            output: BufReader::with_capacity(1 << 20, stdout),
            child: Some(child),
        }))
    } else {
        Ok(Box::new(BufReader::with_capacity(1 << 20, file)))
    }
}

/// The output of an `xz -dc` child. Its end is the end of the data only when
/// `xz` succeeded: a file it cannot decompress (corrupt, truncated, not xz)
/// gives a short or empty stream and a failed exit, which this turns into an
/// error at the end of the stream instead of a quietly shorter file. The
/// child is always reaped: at the end of its output, or when the reader is
/// dropped before that (killed first).
struct Decompressed {
    output: BufReader<ChildStdout>,
    /// `None` once reaped.
    child: Option<Child>,
}

impl Read for Decompressed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.output.read(buf)?;
        if n == 0
            && !buf.is_empty()
            && let Some(mut child) = self.child.take()
        {
            let status = child.wait()?;
            if !status.success() {
                return Err(io::Error::other(format!("xz could not decompress it ({status})")));
            }
        }
        Ok(n)
    }
}

impl Drop for Decompressed {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            // Read no further: xz may be blocked writing to the pipe.
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Calls `f` with every game of the file at `path`, in order.
pub fn for_each_game(path: &Path, mut f: impl FnMut(Game)) -> Result<(), String> {
    let name = path.display();
    for game in GameReader::new(open(path)?) {
        f(game.map_err(|e| format!("{name}: {e}"))?);
    }
    Ok(())
}

/// The data files under `paths` (files as given; directories searched, not
/// recursively, for `.bin` and `.bin.xz`, and those sorted by
/// name), in the order given: the order of the samples, and so the trained
/// net, follows it.
pub fn data_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries =
                std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let mut found = Vec::new();
            for entry in entries {
                let p = entry.map_err(|e| format!("{}: {e}", path.display()))?.path();
                let name = p.to_string_lossy().to_string();
                if [".bin", ".bin.xz"].iter().any(|s| name.ends_with(s)) {
                    found.push(p);
                }
            }
            found.sort();
            files.extend(found);
        } else if path.exists() {
            files.push(path.clone());
        } else {
            return Err(format!("{}: no such file", path.display()));
        }
    }
    Ok(files)
}

/// Training and validation samples.
#[derive(Default)]
pub struct Loaded {
    /// For training.
    pub train: Vec<Sample>,
    /// Held out (whole games).
    pub validation: Vec<Sample>,
    /// What the filter did.
    pub stats: FilterStats,
}

/// Loads every file, on up to `threads` threads, holding out every
/// `validation_every`-th game of each file (0: none) for validation.
///
/// The samples come out in the order of `files`, whichever thread read which
/// file: training shuffles with a seeded generator, so the same files and seed
/// must give the same order for a run to be reproducible.
pub fn load(
    files: &[PathBuf],
    filter: &Filter,
    validation_every: u64,
    threads: usize,
) -> Result<Loaded, String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Vec<Result<Vec<(usize, Loaded)>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.clamp(1, files.len().max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(path) = files.get(i) else { break };
                        mine.push((i, load_file(path, filter, validation_every)?));
                    }
                    Ok(mine)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err("a loading thread panicked".into())))
            .collect()
    });
    let mut parts = Vec::with_capacity(files.len());
    for r in results {
        parts.extend(r?);
    }
    parts.sort_unstable_by_key(|&(i, _)| i);
    let mut all = Loaded::default();
    for (_, part) in parts {
        all.train.extend_from_slice(&part.train);
        all.validation.extend_from_slice(&part.validation);
        all.stats.add(&part.stats);
    }
    Ok(all)
}

/// One file's samples, every `validation_every`-th game (0: none) held out.
fn load_file(path: &Path, filter: &Filter, validation_every: u64) -> Result<Loaded, String> {
    let mut loaded = Loaded::default();
    let mut index = 0u64;
    for_each_game(path, |game| {
        let held_out = validation_every > 0 && index.is_multiple_of(validation_every);
        let out = if held_out { &mut loaded.validation } else { &mut loaded.train };
        samples_of(&game, filter, out, &mut loaded.stats);
        index += 1;
    })?;
    Ok(loaded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamedata::Ply;

    fn game_from(fen: &str, moves: &[&str], scores: &[i16], result: GameResult) -> Game {
        let start = Board::from_fen(fen).expect("valid FEN");
        let mut board = start;
        let mut plies = Vec::new();
        for (m, &s) in moves.iter().zip(scores) {
            let mv = board.parse_uci_move(m, false).expect("legal");
            plies.push(Ply { mv, white_score: s });
            board.play_unchecked(mv);
        }
        Game { start, result, plies }
    }

    #[test]
    fn the_filter_drops_what_it_says() {
        // Ply 20 on: e4xd5 is a capture, Qh5+ ... the position after is in check.
        let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 11";
        let game = game_from(
            fen,
            &["e4d5", "e7e6", "f1b5", "c7c6", "g1f3", "a7a6"],
            &[30, 40, 50, 3000, 20, -20],
            GameResult::BlackWins,
        );
        let mut out = Vec::new();
        let mut stats = FilterStats::default();
        samples_of(&game, &Filter::default(), &mut out, &mut stats);
        // e4d5 noisy; Bb5+ leaves Black in check (c7c6 position in check); 3000 extreme.
        assert_eq!(stats.positions, 6);
        assert_eq!(stats.noisy, 1);
        assert_eq!(stats.in_check, 1, "{stats:?}");
        assert_eq!(stats.extreme, 0, "the 3000 is the in-check position's score");
        assert_eq!(stats.kept, 4);
        // Scores and results are turned to the side to move's view.
        assert_eq!(out[0].score, -40); // Black to move after e4d5, White's +40
        assert_eq!(out[0].result, 2); // Black won
        assert_eq!(out[1].score, 50);
        assert_eq!(out[1].result, 0);
        // Early plies: the same game from move 1 is dropped entirely by min_ply 16.
        let early = game_from(board::STARTPOS_FEN, &["e2e4", "e7e5"], &[10, 10], GameResult::Draw);
        let mut stats = FilterStats::default();
        samples_of(&early, &Filter::default(), &mut out, &mut stats);
        assert_eq!((stats.early, stats.kept), (2, 0));
    }

    /// Threads read the files, but the samples keep the order of the files:
    /// a small file, a large one and a small one on two threads — the first
    /// thread finishes the first small file and takes the third while the
    /// second still reads the large one — must load as on one thread.
    #[test]
    fn loading_keeps_the_order_of_the_files() {
        let dir = std::env::temp_dir().join(format!("tessera-load-order-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 20";
        let files: Vec<PathBuf> = [(1, 10), (40_000, 20), (1, 30)]
            .iter()
            .enumerate()
            .map(|(k, &(games, score))| {
                let game = game_from(fen, &["e2e4"], &[score], GameResult::Draw);
                let mut bytes = Vec::new();
                for _ in 0..games {
                    gamedata::write_game(&mut bytes, &game).expect("packs");
                }
                let path = dir.join(format!("{k}.bin"));
                std::fs::write(&path, bytes).expect("written");
                path
            })
            .collect();
        let scores = |threads| -> Vec<i16> {
            let loaded = load(&files, &Filter::default(), 0, threads).expect("loads");
            let mut s: Vec<i16> = loaded.train.iter().map(|s| s.score).collect();
            s.dedup();
            s
        };
        assert_eq!(scores(1), vec![10, 20, 30]);
        assert_eq!(scores(2), vec![10, 20, 30]);
        // Files keep the order they are named in; a directory's are sorted.
        let named = [files[2].clone(), files[0].clone()];
        assert_eq!(data_files(&named).expect("exist"), named);
        assert_eq!(data_files(std::slice::from_ref(&dir)).expect("exists"), files);
        std::fs::remove_dir_all(&dir).ok();
    }

    /// A `.xz` file that `xz` cannot decompress is an error, not a file
    /// without games, and a good one reads whole; neither leaves its `xz`
    /// child behind.
    #[test]
    fn a_file_xz_cannot_decompress_is_an_error() {
        let dir = std::env::temp_dir().join(format!("tessera-xz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let bad = dir.join("not-xz.bin.xz");
        std::fs::write(&bad, b"these bytes are not an xz stream").expect("written");
        let Err(e) = for_each_game(&bad, |_| {}) else { panic!("a corrupt file read as empty") };
        assert!(e.contains("xz could not decompress it"), "{e}");

        let game = Game { start: Board::startpos(), result: GameResult::Draw, plies: vec![] };
        let mut bytes = Vec::new();
        gamedata::write_game(&mut bytes, &game).expect("packs");
        let good = dir.join("good.bin");
        std::fs::write(&good, &bytes).expect("written");
        let status = Command::new("xz").arg("-kf").arg(&good).status().expect("xz runs");
        assert!(status.success());
        let mut games = 0;
        for_each_game(&good.with_extension("bin.xz"), |_| games += 1).expect("reads");
        assert_eq!(games, 1);
        // Stopped early (dropped unread): the child is killed and reaped.
        drop(open(&good.with_extension("bin.xz")).expect("opens"));
        assert_eq!(zombie_children(), 0, "an xz child was left unreaped");
        std::fs::remove_dir_all(&dir).ok();
    }

    /// How many children of this process have exited without being reaped.
    fn zombie_children() -> usize {
        let me = std::process::id().to_string();
        let Ok(dir) = std::fs::read_dir("/proc") else { return 0 };
        dir.filter_map(|e| std::fs::read_to_string(e.ok()?.path().join("stat")).ok())
            .filter(|stat| {
                // pid (comm) state ppid ...: the fields after the command's closing parenthesis.
                let after = stat.rsplit_once(") ").map_or("", |(_, rest)| rest);
                let mut fields = after.split_whitespace();
                fields.next() == Some("Z") && fields.next() == Some(me.as_str())
            })
            .count()
    }

    /// A data path that is not a regular file is refused before anything is
    /// read, with or without `.xz` (which would hand it to `xz`).
    #[test]
    fn only_regular_files_are_read() {
        for path in ["/dev/zero", "/dev/zero.xz", "/tmp"] {
            let path = Path::new(path);
            let Err(e) = open(path) else { panic!("{} opened", path.display()) };
            assert!(e.contains("not a regular file") || e.contains("cannot open"), "{e}");
        }
        assert!(open(Path::new("/dev/zero")).err().unwrap().contains("a character device"));
    }
}
