//! UCI output: the reporter that turns search reports into `info` and
//! `bestmove` lines, and the shared, line-atomic output stream.

use board::Move;
use search::{CurrentMove, Reporter, SearchInfo, SearchOutcome};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tt::{Bound, DECISIVE_BOUND, MATE, MATE_BOUND, TB_WIN};

/// An output stream shared by the UCI loop and the search's main thread.
/// Each line is written and flushed under the lock, so lines never interleave.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Wraps a writer.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line and flushes it.
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// `text` made fit for one output line: control characters become `?`, and
/// beyond 300 characters only the start and the end are kept, so that an
/// error about a huge input line does not echo it whole.
pub fn shorten(text: &str) -> String {
    const HEAD: usize = 200;
    const TAIL: usize = 80;
    let clean = |c: char| if c.is_control() { '?' } else { c };
    let count = text.chars().count();
    if count <= HEAD + TAIL + 20 {
        return text.chars().map(clean).collect();
    }
    let head: String = text.chars().take(HEAD).map(clean).collect();
    let tail: String = text.chars().skip(count - TAIL).map(clean).collect();
    format!("{head} [... {} characters left out ...] {tail}", count - HEAD - TAIL)
}

/// A tablebase win reached `n` plies from the root is reported as
/// `cp TB_WIN_CP - n` (Stockfish's convention: GUIs show "200.00" or "TB win").
pub const TB_WIN_CP: i32 = 20_000;

/// Formats a score for UCI: `cp N` or `mate N` (moves, negative when being
/// mated); a tablebase win `n` plies away is `cp 20000 - n`.
pub fn format_score(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else if score >= DECISIVE_BOUND {
        format!("cp {}", TB_WIN_CP - (TB_WIN - score))
    } else if score <= -DECISIVE_BOUND {
        format!("cp {}", -TB_WIN_CP + (TB_WIN + score))
    } else {
        format!("cp {score}")
    }
}

/// The UCI reporter.
pub struct UciReporter {
    /// Where lines go.
    pub out: Output,
    /// Whether moves are written in Chess960 notation.
    pub chess960: AtomicBool,
    /// Whether `info` lines carry `wdl W D L` (`UCI_ShowWDL`).
    pub show_wdl: AtomicBool,
}

impl UciReporter {
    fn moves(&self, root: &board::Board, pv: &[Move]) -> String {
        let chess960 = self.chess960.load(Ordering::Relaxed);
        let mut board = *root;
        let mut text = Vec::with_capacity(pv.len());
        for &mv in pv {
            if !board.is_legal(mv) {
                break;
            }
            text.push(board.move_to_uci(mv, chess960));
            board.play_unchecked(mv);
        }
        text.join(" ")
    }
}

impl Reporter for UciReporter {
    fn info(&self, info: &SearchInfo) {
        let bound = match info.bound {
            Bound::Lower => " lowerbound",
            Bound::Upper => " upperbound",
            _ => "",
        };
        let wdl = if self.show_wdl.load(Ordering::Relaxed) {
            format!(" wdl {} {} {}", info.wdl.win, info.wdl.draw, info.wdl.loss)
        } else {
            String::new()
        };
        // A line without moves gets no `pv` token at all: `pv` must be followed by a move.
        let moves = self.moves(&info.root, &info.pv);
        let pv = if moves.is_empty() { String::new() } else { format!(" pv {moves}") };
        self.out.line(&format!(
            "info depth {} seldepth {} multipv {} score {}{bound}{wdl} nodes {} nps {} hashfull {} tbhits {} time {}{pv}",
            info.depth,
            info.seldepth,
            info.multipv,
            format_score(info.score),
            info.nodes,
            info.nps(),
            info.hashfull,
            info.tbhits,
            info.elapsed.as_millis(),
        ));
    }

    fn current_move(&self, current: &CurrentMove) {
        let chess960 = self.chess960.load(Ordering::Relaxed);
        self.out.line(&format!(
            "info currmove {} currmovenumber {}",
            current.root.move_to_uci(current.mv, chess960),
            current.number
        ));
    }

    fn best_move(&self, outcome: &SearchOutcome) {
        let chess960 = self.chess960.load(Ordering::Relaxed);
        let (best, ponder) = (outcome.best, outcome.ponder);
        let line = match best {
            None => "bestmove 0000".to_string(),
            Some(best) => {
                let mut line = format!("bestmove {}", outcome.root.move_to_uci(best, chess960));
                if let Some(ponder) = ponder {
                    let mut after = outcome.root;
                    after.play_unchecked(best);
                    line.push_str(&format!(" ponder {}", after.move_to_uci(ponder, chess960)));
                }
                line
            }
        };
        self.out.line(&line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_format_as_centipawns_tablebase_wins_and_mates() {
        assert_eq!(format_score(35), "cp 35");
        assert_eq!(format_score(-DECISIVE_BOUND + 1), format!("cp {}", -DECISIVE_BOUND + 1));
        assert_eq!(format_score(TB_WIN), "cp 20000");
        assert_eq!(format_score(TB_WIN - 7), "cp 19993");
        assert_eq!(format_score(-TB_WIN + 7), "cp -19993");
        assert_eq!(format_score(MATE - 1), "mate 1");
        assert_eq!(format_score(-MATE + 2), "mate -1");
    }
}
