//! Parsing one line of UCI input into a [`Command`], fully validated against
//! the current position, so that applying a command cannot fail halfway.

use super::options::{OptionChange, parse_change};
use board::{Board, Color, Position, STARTPOS_FEN};
use search::SearchLimits;
use std::time::Duration;

/// A parsed, valid UCI command.
#[derive(Debug)]
pub enum Command {
    /// A blank line.
    Empty,
    /// `uci`.
    Uci,
    /// `isready`.
    IsReady,
    /// `ucinewgame`.
    UciNewGame,
    /// `position ...`, already played out.
    Position(Position),
    /// A valid `setoption`.
    SetOption(OptionChange),
    /// `go perft <depth>`.
    Perft(u32),
    /// `go ...` (a search).
    Go(SearchLimits),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `d`: show the board.
    Display,
    /// `eval`: show the static evaluation.
    Eval,
    /// `quit`.
    Quit,
}

impl Command {
    /// Whether the command changes the engine's state (what a cluster's leader
    /// passes on to the other ranks): `position`, a search's `go`, `stop`,
    /// `ponderhit`, `setoption`, `ucinewgame` and `quit`.
    pub fn changes_state(&self) -> bool {
        matches!(
            self,
            Command::Position(_)
                | Command::Go(_)
                | Command::Stop
                | Command::PonderHit
                | Command::SetOption(_)
                | Command::UciNewGame
                | Command::Quit
        )
    }
}

/// Parses one input line. Errors are messages for `info string error: ...`.
pub fn parse(line: &str, current: &Position, chess960: bool) -> Result<Command, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else { return Ok(Command::Empty) };
    match head {
        "uci" => Ok(Command::Uci),
        "isready" => Ok(Command::IsReady),
        "ucinewgame" => Ok(Command::UciNewGame),
        "quit" => Ok(Command::Quit),
        "stop" => Ok(Command::Stop),
        "ponderhit" => Ok(Command::PonderHit),
        "d" => Ok(Command::Display),
        "eval" => Ok(Command::Eval),
        "position" => parse_position(rest, chess960).map(Command::Position),
        "setoption" => parse_setoption(rest),
        "go" => parse_go(rest, current.board(), chess960),
        other => Err(format!("unknown command '{other}'")),
    }
}

fn parse_position(tokens: &[&str], chess960: bool) -> Result<Position, String> {
    let moves_at = tokens.iter().position(|&t| t == "moves");
    let (spec, moves) = match moves_at {
        Some(i) => (&tokens[..i], &tokens[i + 1..]),
        None => (tokens, &[][..]),
    };
    let board = match spec.split_first() {
        Some((&"startpos", [])) => Board::from_fen(STARTPOS_FEN).map_err(|e| e.to_string())?,
        Some((&"fen", fen)) if !fen.is_empty() => Board::from_fen(&fen.join(" "))
            .map_err(|e| format!("position fen: {e}; position unchanged"))?,
        _ => {
            return Err("position: expected 'startpos' or 'fen <FEN>', then optionally \
                        'moves ...'; position unchanged"
                .into());
        }
    };
    let mut position = Position::new(board);
    for (i, text) in moves.iter().enumerate() {
        let mv = position
            .board()
            .parse_uci_move(text, chess960)
            .map_err(|e| format!("position: move {}: {e}; position unchanged", i + 1))?;
        position.push(mv);
    }
    Ok(position)
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, String> {
    let Some((&"name", rest)) = tokens.split_first() else {
        return Err("setoption: expected 'setoption name <name> [value <value>]'".into());
    };
    let value_at = rest.iter().position(|&t| t == "value");
    let (name, value) = match value_at {
        Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    parse_change(&name, value.as_deref())
        .map(Command::SetOption)
        .map_err(|e| format!("setoption: {e}"))
}

fn number<T: std::str::FromStr>(key: &str, value: Option<&&str>) -> Result<T, String> {
    value.and_then(|v| v.parse::<T>().ok()).ok_or_else(|| {
        format!("go: '{key}' needs a number, got '{}'", value.copied().unwrap_or(""))
    })
}

/// Milliseconds, where GUIs sometimes send negative clock values: those count as 0.
fn millis(key: &str, value: Option<&&str>) -> Result<Duration, String> {
    let ms: i64 = number(key, value)?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

fn parse_go(tokens: &[&str], board: &Board, chess960: bool) -> Result<Command, String> {
    if tokens.first() == Some(&"perft") {
        let depth: u32 = number("perft", tokens.get(1))?;
        if depth > 20 || tokens.len() > 2 {
            return Err("go perft: expected one depth from 0 to 20".into());
        }
        return Ok(Command::Perft(depth));
    }
    let mut limits = SearchLimits::default();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let value = tokens.get(i + 1);
        i += 2;
        match key {
            "wtime" => limits.time[Color::White as usize] = Some(millis(key, value)?),
            "btime" => limits.time[Color::Black as usize] = Some(millis(key, value)?),
            "winc" => limits.increment[Color::White as usize] = millis(key, value)?,
            "binc" => limits.increment[Color::Black as usize] = millis(key, value)?,
            "movestogo" => limits.moves_to_go = Some(number::<u32>(key, value)?.max(1)),
            "movetime" => limits.move_time = Some(millis(key, value)?),
            "depth" => limits.depth = Some(number::<i32>(key, value)?.max(1)),
            "nodes" => limits.nodes = Some(number::<u64>(key, value)?.max(1)),
            "mate" => limits.mate = Some(number::<u32>(key, value)?.max(1)),
            "infinite" => {
                limits.infinite = true;
                i -= 1;
            }
            "ponder" => {
                limits.ponder = true;
                i -= 1;
            }
            "searchmoves" => {
                i -= 1;
                while let Some(text) = tokens.get(i) {
                    match board.parse_uci_move(text, chess960) {
                        Ok(mv) => limits.search_moves.push(mv),
                        Err(board::MoveError::Syntax { .. }) => break,
                        Err(e) => return Err(format!("go searchmoves: {e}")),
                    }
                    i += 1;
                }
                if limits.search_moves.is_empty() {
                    return Err("go searchmoves: no moves given".into());
                }
            }
            other => return Err(format!("go: unknown parameter '{other}'")),
        }
    }
    Ok(Command::Go(limits))
}
