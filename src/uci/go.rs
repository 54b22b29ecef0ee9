//! `go`: every `go` that asks for a search is answered with exactly one
//! `bestmove`, so parsing it never fails. As the UCI protocol says, what is not
//! understood is ignored (and named in one `info string error` line); numbers
//! may be decimals or out of range (they are rounded down and clamped).

use board::{Board, Color};
use search::SearchLimits;
use std::time::Duration;

/// The longest clock figure used, in ms (a year): bigger ones are clamped.
const MAX_MS: f64 = 365.0 * 24.0 * 3600.0 * 1000.0;

/// A `go` that asks for a search.
#[derive(Debug)]
pub struct Go {
    /// What was understood.
    pub limits: SearchLimits,
    /// What was ignored and why, one entry each, for the error line.
    pub ignored: Vec<String>,
}

/// A number token, leniently: an integer or a decimal, clamped to `min..=max`
/// and rounded down. `None` for anything else (including NaN).
fn number(token: Option<&&str>, min: f64, max: f64) -> Option<f64> {
    let value: f64 = token?.parse().ok()?;
    if value.is_nan() {
        return None;
    }
    Some(value.clamp(min, max).floor())
}

/// Parses the tokens after `go` (not `go perft`).
pub fn parse_go(tokens: &[&str], board: &Board, chess960: bool) -> Go {
    let mut limits = SearchLimits::default();
    let mut ignored = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        i += 1;
        let value = tokens.get(i);
        // A key's number, which consumes the token; a missing or malformed one
        // ignores the key and leaves the next token to be read as a key.
        let mut take = |min: f64, max: f64| match number(value, min, max) {
            Some(v) => {
                i += 1;
                Some(v)
            }
            None => {
                ignored.push(format!("'{key}' without a number"));
                None
            }
        };
        let ms = |v: f64| Duration::from_millis(v as u64);
        match key {
            "wtime" => {
                if let Some(v) = take(0.0, MAX_MS) {
                    limits.time[Color::White as usize] = Some(ms(v));
                }
            }
            "btime" => {
                if let Some(v) = take(0.0, MAX_MS) {
                    limits.time[Color::Black as usize] = Some(ms(v));
                }
            }
            "winc" => {
                if let Some(v) = take(0.0, MAX_MS) {
                    limits.increment[Color::White as usize] = ms(v);
                }
            }
            "binc" => {
                if let Some(v) = take(0.0, MAX_MS) {
                    limits.increment[Color::Black as usize] = ms(v);
                }
            }
            "movetime" => {
                if let Some(v) = take(0.0, MAX_MS) {
                    limits.move_time = Some(ms(v));
                }
            }
            "movestogo" => {
                if let Some(v) = take(1.0, 10_000.0) {
                    limits.moves_to_go = Some(v as u32);
                }
            }
            "depth" => {
                if let Some(v) = take(1.0, f64::from(search::params::MAX_ITERATION_DEPTH)) {
                    limits.depth = Some(v as i32);
                }
            }
            "nodes" => {
                if let Some(v) = take(1.0, u64::MAX as f64) {
                    limits.nodes = Some(v as u64);
                }
            }
            "mate" => {
                // No mate further from the root than a score can say is asked for.
                if let Some(v) = take(1.0, f64::from(tt::MAX_SCORE_PLY)) {
                    limits.mate = Some(v as u32);
                }
            }
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                let mut illegal = Vec::new();
                while let Some(text) = tokens.get(i) {
                    match board.parse_uci_move(text, chess960) {
                        Ok(mv) => limits.search_moves.push(mv),
                        Err(board::MoveError::Syntax { .. }) => break,
                        Err(board::MoveError::Illegal { .. }) => illegal.push(*text),
                    }
                    i += 1;
                }
                if !illegal.is_empty() {
                    ignored.push(format!("searchmoves {} (not legal here)", illegal.join(" ")));
                }
                if limits.search_moves.is_empty() {
                    ignored.push("searchmoves without a legal move: searching all moves".into());
                }
            }
            other => ignored.push(format!("'{other}'")),
        }
    }
    // A `go` whose limits were all lost would search without end, and a GUI
    // waiting for its move would lose on time: search a little instead.
    let unbounded = !limits.has_limit(board.side_to_move()) && !limits.infinite && !limits.ponder;
    if unbounded && !ignored.is_empty() {
        limits.depth = Some(1);
        ignored.push("no limit left: searching to depth 1".into());
    }
    Go { limits, ignored }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(text: &str) -> Go {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        parse_go(&tokens, &Board::startpos(), false)
    }

    #[test]
    fn what_is_not_understood_is_ignored() {
        let g = go("wtime 1000 btime 1000 foo 5");
        assert_eq!(g.limits.time, [Some(Duration::from_millis(1000)); 2]);
        assert_eq!(g.ignored, ["'foo'", "'5'"]);
        let g = go("wtime 1000.5 btime 1000");
        assert_eq!(g.limits.time[0], Some(Duration::from_millis(1000)));
        assert!(g.ignored.is_empty());
        let g = go("depth");
        assert_eq!(g.limits.depth, Some(1), "nothing left to bound the search");
        assert_eq!(g.ignored.len(), 2);
        let g = go("depth infinite");
        assert!(g.limits.infinite && g.limits.depth.is_none(), "{g:?}");
        let g = go("searchmoves e2e4 e2e5 depth 3");
        assert_eq!(g.limits.search_moves.len(), 1);
        assert_eq!(g.limits.depth, Some(3));
        assert_eq!(g.ignored.len(), 1);
    }

    #[test]
    fn numbers_are_clamped() {
        let g = go("mate 4294967295 nodes 99999999999999999999999 movestogo 0 wtime -5");
        assert_eq!(g.limits.mate, Some(tt::MAX_SCORE_PLY as u32));
        let deepest = search::params::MAX_ITERATION_DEPTH;
        assert_eq!(go("depth 1000").limits.depth, Some(deepest), "the search's own limit");
        assert_eq!(g.limits.nodes, Some(u64::MAX));
        assert_eq!(g.limits.moves_to_go, Some(1));
        assert_eq!(g.limits.time[0], Some(Duration::ZERO));
        let g = go("winc 1e300 wtime 1000 movetime NaN");
        assert_eq!(g.limits.increment[0], Duration::from_millis(MAX_MS as u64));
        assert_eq!(g.ignored, ["'movetime' without a number", "'NaN'"]);
        assert!(
            go("").ignored.is_empty() && go("").limits.depth.is_none(),
            "plain go is unbounded"
        );
    }
}
