//! Games of Tessera against Tessera from PGN, as training games.
//!
//! Matches between two builds of the engine (net screens, thread-scaling and
//! tuning runs) leave a PGN in which every engine move carries the mover's
//! search result as a comment, the way cutechess-cli and `match.py` write it:
//! `{+0.35/12 0.123s}` (score in pawns from the mover's view, depth, time) or
//! `{-M4/20 0.050s}` (mated in 4 moves). Those are labels like the ones
//! `tessera datagen` records, so such games become [`Game`]s:
//!
//! - the game starts at its `FEN` tag (or the standard start) and its leading
//!   plies without a score (opening book moves) are played before the first
//!   recorded position;
//! - every later ply needs a score; the game is recorded up to the first one
//!   without (an engine that sent none), and dropped if that leaves nothing;
//! - only finished games count: the result must be `1-0`, `0-1` or `1/2-1/2`,
//!   and a `Termination` tag, if any, must be `normal` or `adjudication` (not a
//!   time forfeit, crash or illegal move, whose result says nothing about the
//!   position);
//! - both players must be named as Tessera by the caller: games against
//!   other engines are not Tessera's data.

use board::{Board, Color};
use gamedata::{Game, GameResult, Ply};
use std::collections::HashSet;

/// A game as PGN text gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs, in order.
    pub tags: Vec<(String, String)>,
    /// The moves in SAN, each with the comment that follows it (empty if none).
    pub moves: Vec<(String, String)>,
    /// The result token that ends the movetext (`*` if none).
    pub result: String,
}

impl PgnGame {
    /// The value of tag `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Splits PGN text into games. Comments before the first move, `;` comments,
/// variations and numeric annotation glyphs are skipped.
pub fn parse_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_movetext = false;
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            '[' if !in_movetext || game.moves.is_empty() && game.tags.is_empty() => {
                chars.next();
                let inside: String = chars.by_ref().take_while(|&c| c != ']').collect();
                if let Some(tag) = parse_tag(&inside) {
                    game.tags.push(tag);
                }
            }
            '[' => {
                // A tag after movetext without a result: the next game begins.
                games.push(std::mem::take(&mut game));
                in_movetext = false;
            }
            '{' => {
                chars.next();
                let comment: String = chars.by_ref().take_while(|&c| c != '}').collect();
                if let Some(last) = game.moves.last_mut() {
                    if !last.1.is_empty() {
                        last.1.push(' ');
                    }
                    last.1.push_str(comment.trim());
                }
            }
            ';' => {
                chars.by_ref().take_while(|&c| c != '\n').for_each(drop);
            }
            '(' => {
                let mut depth = 0;
                for c in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            _ => {
                let mut token = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || "{}();[".contains(c) {
                        break;
                    }
                    token.push(c);
                    chars.next();
                }
                in_movetext = true;
                match token.as_str() {
                    "1-0" | "0-1" | "1/2-1/2" | "*" => {
                        game.result = token;
                        games.push(std::mem::take(&mut game));
                        in_movetext = false;
                    }
                    t if t.starts_with('$') => {}
                    t => {
                        // Move numbers ("12." or "12...") may be glued to the move.
                        let san = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                        if !san.is_empty() {
                            game.moves.push((san.to_string(), String::new()));
                        }
                    }
                }
            }
        }
    }
    if !game.moves.is_empty() || !game.tags.is_empty() {
        if game.result.is_empty() {
            game.result = "*".to_string();
        }
        games.push(game);
    }
    games
}

/// `Name "value"` (with `\"` and `\\` escapes).
fn parse_tag(inside: &str) -> Option<(String, String)> {
    let (name, rest) = inside.trim().split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name.to_string(), rest.replace("\\\"", "\"").replace("\\\\", "\\")))
}

/// The score in a move's comment, in centipawns from the mover's point of view:
/// `+0.35/12 0.123s` is 35; mate in N moves (`+M3`, `-M2`) is stored as the
/// search gives mates, ±(32000 − plies to mate). `None` when the comment holds
/// no score (`book`, `?/0`, empty).
pub fn comment_score(comment: &str) -> Option<i32> {
    let word = comment.split_whitespace().next()?;
    let score = word.split('/').next()?;
    let (sign, magnitude) = match score.as_bytes().first()? {
        b'+' => (1, &score[1..]),
        b'-' => (-1, &score[1..]),
        _ => (1, score),
    };
    if let Some(moves) = magnitude.strip_prefix('M') {
        let moves: i32 = moves.parse().ok().filter(|&m| m > 0)?;
        let plies = if sign > 0 { 2 * moves - 1 } else { 2 * moves };
        return Some(sign * (MATE - plies.min(MATE_RANGE)));
    }
    let pawns: f64 = magnitude.parse().ok().filter(|p: &f64| p.is_finite())?;
    let cp = (pawns * 100.0).round().min(f64::from(MAX_CP)) as i32;
    Some(sign * cp)
}

/// The score of a mate on the board, as the game format stores it.
const MATE: i32 = 32000;
/// Mates are stored within this many plies of [`MATE`].
const MATE_RANGE: i32 = 1000;
/// Larger non-mate scores are clamped to this, below every mate score.
const MAX_CP: i32 = MATE - MATE_RANGE - 1;

/// Why a PGN game did not become a training game.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Skipped {
    /// A player is not one of the Tessera builds named by the caller.
    NotSelfPlay,
    /// The game did not end on the board or by adjudication (`*`, a time
    /// forfeit, a crash, an illegal move).
    Unfinished,
    /// No ply carries a score.
    NoScores,
    /// A bad FEN tag or a move that is not legal SAN in its position.
    Invalid(String),
}

/// The training game of `pgn`, if it is a finished game between two of `players`.
pub fn to_game(pgn: &PgnGame, players: &HashSet<String>) -> Result<Game, Skipped> {
    let is_tessera = |tag| pgn.tag(tag).is_some_and(|name| players.contains(name));
    if !is_tessera("White") || !is_tessera("Black") {
        return Err(Skipped::NotSelfPlay);
    }
    let result = match pgn.result.as_str() {
        "1-0" => GameResult::WhiteWins,
        "0-1" => GameResult::BlackWins,
        "1/2-1/2" => GameResult::Draw,
        _ => return Err(Skipped::Unfinished),
    };
    if pgn.tag("Termination").is_some_and(|t| !matches!(t, "normal" | "adjudication")) {
        return Err(Skipped::Unfinished);
    }
    let mut board = match pgn.tag("FEN") {
        Some(fen) => {
            Board::from_fen(fen).map_err(|e| Skipped::Invalid(format!("FEN {fen}: {e}")))?
        }
        None => Board::startpos(),
    };
    let mut start = None;
    let mut plies = Vec::new();
    for (san, comment) in &pgn.moves {
        let mv = board
            .parse_san(san)
            .map_err(|e| Skipped::Invalid(format!("{e} in {}", board.to_fen(true))))?;
        match comment_score(comment) {
            Some(score) => {
                start.get_or_insert(board);
                let white = if board.side_to_move() == Color::White { score } else { -score };
                plies.push(Ply { mv, white_score: white as i16 });
            }
            None if start.is_some() => break,
            None => {}
        }
        board.play(mv);
    }
    match start {
        Some(start) => Ok(Game { start, result, plies }),
        None => Err(Skipped::NoScores),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game as `match.py` writes it: a FEN start, book-less, scores on every move.
    const MATCH_PY: &str = r#"[Event "?"]
[Site "?"]
[Date "2026.11.25"]
[Round "1"]
[White "new"]
[Black "old"]
[Result "0-1"]
[TimeControl "nodes=20000"]
[Termination "normal"]
[TerminationDetails "checkmate"]
[PlyCount "4"]
[SetUp "1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]

1. f3 { +0.10/10 0.020s } 1... e5 { -0.25/11 0.021s } 2. g4 { -3.50/9 0.019s }
2... Qh4# { +M1/2 0.001s; 0-1 (checkmate) } 0-1

[Event "?"]
[White "new"]
[Black "ethereal"]
[Result "1-0"]

1. e4 { +0.30/10 0.1s } 1-0
"#;

    fn players() -> HashSet<String> {
        ["new", "old"].iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_match_py_games() {
        let games = parse_pgn(MATCH_PY);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].result, "0-1");
        assert_eq!(games[0].moves.len(), 4);
        assert_eq!(games[0].moves[3].0, "Qh4#");
        assert_eq!(games[0].moves[3].1, "+M1/2 0.001s; 0-1 (checkmate)");
        let game = to_game(&games[0], &players()).expect("a self-play game");
        assert_eq!(game.result, GameResult::BlackWins);
        assert_eq!(game.start, Board::startpos());
        let scores: Vec<i16> = game.plies.iter().map(|p| p.white_score).collect();
        assert_eq!(scores, [10, 25, -350, -31999], "White's view; Black mates in one");
        // The second game is against another engine.
        assert_eq!(to_game(&games[1], &players()), Err(Skipped::NotSelfPlay));
    }

    #[test]
    fn book_moves_are_played_before_the_first_recorded_position() {
        let pgn = "[White \"new\"]\n[Black \"old\"]\n\n1. e4 e5 {book} 2. Nf3 {+0.20/8 0.01s} \
                   2... Nc6 {-0.15/8 0.01s} 3. Bb5 {?/0 0s} 3... a6 {+0.1/8 0.01s} 1/2-1/2";
        let game = to_game(&parse_pgn(pgn)[0], &players()).expect("a game");
        let mut expected = Board::startpos();
        for uci in ["e2e4", "e7e5"] {
            expected.play(expected.parse_uci_move(uci, false).expect("legal"));
        }
        assert_eq!(game.start, expected);
        assert_eq!(game.plies.len(), 2, "recorded up to the first ply without a score");
        assert_eq!(game.result, GameResult::Draw);
    }

    #[test]
    fn refuses_what_is_not_a_finished_game() {
        let base = "[White \"new\"]\n[Black \"old\"]\n";
        let cases = [
            (format!("{base}\n1. e4 {{+0.3/9 1s}} *"), Skipped::Unfinished),
            (
                format!("{base}[Termination \"time forfeit\"]\n\n1. e4 {{+0.3/9 1s}} 0-1"),
                Skipped::Unfinished,
            ),
            (format!("{base}\n1. e4 e5 1-0"), Skipped::NoScores),
        ];
        for (text, why) in cases {
            assert_eq!(to_game(&parse_pgn(&text)[0], &players()), Err(why), "{text}");
        }
        let illegal = format!("{base}\n1. e5 {{+0.3/9 1s}} 1-0");
        assert!(matches!(to_game(&parse_pgn(&illegal)[0], &players()), Err(Skipped::Invalid(_))));
    }

    #[test]
    fn comment_scores() {
        assert_eq!(comment_score("+0.35/12 0.123s"), Some(35));
        assert_eq!(comment_score("-1.07/3 0.5s"), Some(-107));
        assert_eq!(comment_score("0.00/20 1s"), Some(0));
        assert_eq!(comment_score("+M3/20 0.1s"), Some(32000 - 5));
        assert_eq!(comment_score("-M2/20 0.1s"), Some(-(32000 - 4)));
        assert_eq!(comment_score("+999.00/1 0s"), Some(MAX_CP));
        for none in ["", "book", "?/0 0s", "+M0/1 0s", "illegal move 'x'"] {
            assert_eq!(comment_score(none), None, "{none}");
        }
    }

    #[test]
    fn skips_variations_nags_and_line_comments() {
        let pgn = "[White \"new\"]\n[Black \"old\"]\n\n1. e4 $1 {+0.3/9 1s} (1. d4 {x} d5) \
                   1... c5 {-0.2/9 1s} ; a remark\n2. Nf3 {+0.25/9 1s} 1-0";
        let game = to_game(&parse_pgn(pgn)[0], &players()).expect("a game");
        assert_eq!(game.plies.len(), 3);
    }
}
