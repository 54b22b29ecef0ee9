//! Loading a labelled data set and turning each position into the sparse
//! coefficients of the evaluation, computed once.

use board::Board;
use eval::{Coefficients, NoTrace, S};

/// One training position: its coefficients are `terms[start..start + len]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry {
    /// Where this position's coefficients start in [`Dataset::terms`].
    pub start: u32,
    /// How many coefficients it has.
    pub len: u16,
    /// The game phase (0..=24).
    pub phase: u8,
    /// The endgame scale factor in 1/64ths, computed once with the starting weights.
    pub scale: u8,
    /// The game result from White's point of view (1, 0.5 or 0).
    pub result: f32,
}

impl Entry {
    /// The weight of the middlegame half of a term in this position's evaluation.
    #[inline(always)]
    pub fn mg_factor(&self) -> f64 {
        f64::from(self.phase) / 24.0
    }

    /// The weight of the endgame half.
    #[inline(always)]
    pub fn eg_factor(&self) -> f64 {
        f64::from(24 - self.phase) * f64::from(self.scale) / (64.0 * 24.0)
    }
}

/// Positions with their coefficients, stored compactly.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    /// The positions.
    pub entries: Vec<Entry>,
    /// Every position's `(weight index, White-minus-Black coefficient)` pairs, back to back.
    pub terms: Vec<(u16, i16)>,
}

impl Dataset {
    /// The coefficients of `entry`.
    #[inline(always)]
    pub fn terms_of(&self, entry: &Entry) -> &[(u16, i16)] {
        &self.terms[entry.start as usize..entry.start as usize + entry.len as usize]
    }

    /// Adds a position given its coefficients directly (for synthetic data and tests).
    pub fn push(&mut self, terms: &[(u16, i16)], phase: u8, scale: u8, result: f32) {
        self.entries.push(Entry {
            start: self.terms.len() as u32,
            len: terms.len() as u16,
            phase,
            scale,
            result,
        });
        self.terms.extend_from_slice(terms);
    }

    /// Adds `board` with result `result`, tracing the evaluation with `weights`.
    pub fn push_board(&mut self, board: &Board, weights: &[S], result: f32) {
        let pawns = eval::pawn_structure(board, weights, &mut NoTrace);
        let mut trace = Coefficients::new();
        // With an active trace, evaluate_pair records the pawn features itself.
        let pair = eval::evaluate_pair(board, weights, &pawns, &mut trace);
        trace.finish();
        let scale = eval::endgame_scale(board, pair.eg());
        self.push(&trace.terms, eval::phase(board) as u8, scale as u8, result);
    }

    /// Appends another data set.
    pub fn append(&mut self, other: Dataset) {
        let base = self.terms.len() as u32;
        self.entries
            .extend(other.entries.into_iter().map(|e| Entry { start: e.start + base, ..e }));
        self.terms.extend(other.terms);
    }

    /// Splits off the positions from index `at` on (like `Vec::split_off`).
    pub fn split_off(&mut self, at: usize) -> Dataset {
        let at = at.min(self.entries.len());
        let mut tail = Dataset::default();
        for e in &self.entries[at..] {
            tail.push(self.terms_of(e), e.phase, e.scale, e.result);
        }
        if let Some(first) = self.entries.get(at) {
            self.terms.truncate(first.start as usize);
        }
        self.entries.truncate(at);
        tail
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Parses one data line: a FEN followed by the result, either `FEN | 1.0`
/// (what `tessera datagen` writes) or `FEN [1.0]`; the result may also be
/// written `1-0`, `1/2-1/2` or `0-1`. Returns `None` for blank and `#` lines.
pub fn parse_line(line: &str) -> Option<Result<(Board, f32), String>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    Some(parse_record(line))
}

fn parse_record(line: &str) -> Result<(Board, f32), String> {
    let (fen, result) = if let Some((fen, result)) = line.rsplit_once('|') {
        (fen, result)
    } else if let Some((fen, rest)) = line.rsplit_once('[') {
        (fen, rest.strip_suffix(']').ok_or("missing ']'")?)
    } else {
        return Err("no result (expected 'FEN | 1.0' or 'FEN [1.0]')".to_string());
    };
    let result = match result.trim().trim_matches('"') {
        "1-0" => 1.0,
        "0-1" => 0.0,
        "1/2-1/2" => 0.5,
        r => r.parse::<f32>().map_err(|_| format!("bad result '{r}'"))?,
    };
    if !(0.0..=1.0).contains(&result) {
        return Err(format!("result {result} outside 0..=1"));
    }
    let board = Board::from_fen(fen.trim()).map_err(|e| format!("bad FEN ({e:?})"))?;
    Ok((board, result))
}

/// Parses `text` (one record per line) into a data set traced with `weights`.
/// Returns the data set and the number of lines skipped as malformed
/// (reporting the first few to stderr).
pub fn load_text(text: &str, weights: &[S]) -> (Dataset, usize) {
    let mut data = Dataset::default();
    let mut bad = 0;
    for (n, line) in text.lines().enumerate() {
        match parse_line(line) {
            None => {}
            Some(Ok((board, result))) => data.push_board(&board, weights, result),
            Some(Err(e)) => {
                bad += 1;
                if bad <= 5 {
                    eprintln!("tune: line {}: {e}", n + 1);
                }
            }
        }
    }
    (data, bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_formats_and_pgn_results() {
        let fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
        for (line, want) in [
            (format!("{fen} | 1.0"), 1.0),
            (format!("{fen} [0.5]"), 0.5),
            (format!("{fen} | 0-1"), 0.0),
            (format!("{fen} [1/2-1/2]"), 0.5),
            (format!("  {fen}|0.0  "), 0.0),
        ] {
            let (board, result) = parse_line(&line).expect("a record").expect("valid");
            assert_eq!(board.to_fen(false), fen);
            assert_eq!(result, want, "{line}");
        }
        assert!(parse_line("").is_none());
        assert!(parse_line("# comment").is_none());
        assert!(parse_line(fen).expect("a record").is_err());
        assert!(parse_line(&format!("{fen} | 2.0")).expect("a record").is_err());
        assert!(parse_line("not a fen | 1.0").expect("a record").is_err());
    }

    #[test]
    fn split_off_keeps_every_position_intact() {
        let mut data = Dataset::default();
        for i in 0..10i16 {
            data.push(&[(i as u16, i), (100, -i)][..(i as usize % 2 + 1)], i as u8, 64, 0.5);
        }
        let whole = data.clone();
        let tail = data.split_off(7);
        assert_eq!((data.len(), tail.len()), (7, 3));
        for (i, e) in data.entries.iter().chain(&tail.entries).enumerate() {
            let set = if i < 7 { &data } else { &tail };
            assert_eq!(set.terms_of(e), whole.terms_of(&whole.entries[i]));
            assert_eq!(e.phase, i as u8);
        }
        assert_eq!(data.terms.len() + tail.terms.len(), whole.terms.len());
    }

    #[test]
    fn traced_positions_reproduce_the_engine_evaluation() {
        let fens = [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
            "8/5pk1/6p1/7p/7P/6P1/5PK1/8 b - - 0 1",
            "4k3/8/8/8/8/8/8/3NK3 w - - 0 1",
        ];
        let w = &eval::WEIGHTS[..];
        let text: String = fens.iter().map(|f| format!("{f} | 0.5\n")).collect();
        let (data, bad) = load_text(&text, w);
        assert_eq!((data.len(), bad), (3, 0));
        for (fen, e) in fens.iter().zip(&data.entries) {
            let board = Board::from_fen(fen).expect("valid FEN");
            let (mut mg, mut eg) = (0i64, 0i64);
            for &(i, c) in data.terms_of(e) {
                mg += i64::from(w[i as usize].mg()) * i64::from(c);
                eg += i64::from(w[i as usize].eg()) * i64::from(c);
            }
            let white = (mg * i64::from(e.phase)
                + eg * i64::from(e.scale) / 64 * i64::from(24 - e.phase))
                / 24;
            let engine = eval::evaluate(&board, &mut eval::PawnCache::default());
            let stm = if board.side_to_move() == board::Color::White { white } else { -white };
            assert!((stm - i64::from(engine)).abs() <= 1, "{fen}: {stm} vs {engine}");
        }
    }
}
