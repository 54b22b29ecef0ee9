//! `genfens N seed S book <file|None> [extra]`: start positions for
//! OpenBench's data generation.
//!
//! OpenBench runs `tessera "genfens N seed S book <file|None>" quit` and reads
//! `N` lines `info string genfens <FEN>`. Each position is a few random legal
//! plies from a random book line (or the start position), kept only when a
//! depth-8 search scores it within ±400 cp (the same check as `datagen`'s
//! openings). Position `i` depends only on the seed and `i`, and the check is a
//! one-thread depth-limited search on a cleared table, so a seed always gives
//! the same lines.

use crate::datagen::{balanced_opening, load_openings};
use crate::rng::Rng;
use board::Board;
use search::{Silent, ThreadPool};
use std::sync::Arc;

/// Random plies played from the start position (8 or 9, as `datagen` does).
const PLIES_FROM_STARTPOS: usize = 8;
/// Random plies played from a book line (2 or 3: book lines are openings already).
const PLIES_FROM_BOOK: usize = 2;
/// Hash for the checking search (MB).
const HASH_MB: usize = 8;

/// A parsed `genfens` request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// How many positions.
    pub count: usize,
    /// The seed: the same seed gives the same positions.
    pub seed: u64,
    /// An EPD/FEN book, one position per line; `None` starts from the start position.
    pub book: Option<String>,
}

/// Parses the words after `genfens`: `N seed S book <file|None> [extra]`
/// (extra words, which OpenBench may append, are ignored).
pub fn parse(args: &str) -> Result<Request, String> {
    const USAGE: &str = "usage: genfens N seed S book <file|None>";
    let words: Vec<&str> = args.split_whitespace().collect();
    let count = words
        .first()
        .and_then(|w| w.parse().ok())
        .ok_or_else(|| format!("genfens: expected a count; {USAGE}"))?;
    let value = |key: &str| words.iter().position(|&w| w == key).and_then(|i| words.get(i + 1));
    let seed = match value("seed") {
        Some(s) => s.parse().map_err(|_| format!("genfens: bad seed '{s}'; {USAGE}"))?,
        None => return Err(format!("genfens: expected 'seed S'; {USAGE}")),
    };
    let book = match value("book") {
        None => return Err(format!("genfens: expected 'book <file|None>'; {USAGE}")),
        Some(&"None" | &"none") => None,
        Some(path) => Some(path.to_string()),
    };
    Ok(Request { count, seed, book })
}

/// Generates the positions of `request`, handing each line
/// (`info string genfens <FEN>`) to `emit` as soon as it is found.
pub fn generate(request: &Request, mut emit: impl FnMut(&str)) -> Result<(), String> {
    let (openings, plies) = match &request.book {
        Some(path) => (load_openings(path)?, PLIES_FROM_BOOK),
        None => (vec![Board::startpos()], PLIES_FROM_STARTPOS),
    };
    let mut pool = ThreadPool::new(1, HASH_MB, Arc::new(Silent));
    for index in 0..request.count {
        let mut rng = position_rng(request.seed, index);
        let (pos, _) = balanced_opening(&mut pool, &mut rng, &openings, plies)?;
        emit(&format!("info string genfens {}", pos.board().to_fen(false)));
    }
    Ok(())
}

/// The random generator of position `index`: independent of the other positions.
fn position_rng(seed: u64, index: usize) -> Rng {
    let mut mix = Rng::new(seed ^ (index as u64).wrapping_mul(0x9FB2_1C65_1E98_DF25));
    Rng::new(mix.next_u64() ^ 0x6A09_E667_F3BC_C909)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(request: &Request) -> Vec<String> {
        let mut out = Vec::new();
        generate(request, |l| out.push(l.to_string())).unwrap();
        out
    }

    #[test]
    fn parses_openbench_requests() {
        assert_eq!(
            parse("10 seed 1 book None").unwrap(),
            Request { count: 10, seed: 1, book: None }
        );
        assert_eq!(
            parse("3 seed 99 book books/x.epd extra words").unwrap(),
            Request { count: 3, seed: 99, book: Some("books/x.epd".into()) }
        );
        assert!(parse("").is_err());
        assert!(parse("ten seed 1 book None").is_err());
        assert!(parse("10 seed x book None").is_err());
        assert!(parse("10 book None").is_err());
        assert!(parse("10 seed 1").is_err());
    }

    #[test]
    fn the_same_seed_gives_the_same_varied_legal_positions() {
        let request = Request { count: 4, seed: 1, book: None };
        let first = lines(&request);
        assert_eq!(first, lines(&request));
        assert_eq!(first.len(), 4);
        let fens: Vec<&str> =
            first.iter().map(|l| l.strip_prefix("info string genfens ").unwrap()).collect();
        for fen in &fens {
            let board = Board::from_fen(fen).unwrap();
            assert!(board.has_legal_move(), "{fen}");
            assert!(board.fullmove_number() >= 5, "8-9 random plies were played: {fen}");
        }
        let mut distinct = fens.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), fens.len(), "{fens:?}");
        assert_ne!(first, lines(&Request { seed: 2, ..request }));
    }

    #[test]
    fn book_positions_start_from_book_lines() {
        let book = concat!(env!("CARGO_MANIFEST_DIR"), "/data/openings.epd");
        let request = Request { count: 2, seed: 5, book: Some(book.into()) };
        let first = lines(&request);
        assert_eq!(first, lines(&request));
        for line in &first {
            let fen = line.strip_prefix("info string genfens ").unwrap();
            // The book's lines are 4 plies deep; 2-3 random plies follow.
            let board = Board::from_fen(fen).unwrap();
            assert!(board.fullmove_number() >= 4, "{fen}");
        }
        let missing = Request { book: Some("/nonexistent/book.epd".into()), ..request };
        assert!(generate(&missing, |_| {}).unwrap_err().contains("cannot open"));
    }
}
