//! Parsing one line of UCI input into a [`Command`], fully validated.

use board::{Board, Position, STARTPOS_FEN};

/// A parsed `go` command.
#[derive(Debug)]
pub enum GoCommand {
    /// `go perft <depth>`.
    Perft(u32),
}

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
    /// `position ...`, already played out: applying it cannot fail.
    Position(Position),
    /// `setoption name <name> [value <value>]` (checked when applied).
    SetOption { name: String, value: Option<String> },
    /// `go ...`.
    Go(GoCommand),
    /// `d`: show the board.
    Display,
    /// `quit`.
    Quit,
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
        "d" => Ok(Command::Display),
        "position" => parse_position(rest, chess960).map(Command::Position),
        "setoption" => parse_setoption(rest),
        "go" => parse_go(rest, current),
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
        Some((&"fen", fen)) if !fen.is_empty() => {
            Board::from_fen(&fen.join(" ")).map_err(|e| format!("position fen: {e}"))?
        }
        _ => {
            return Err(
                "position: expected 'startpos' or 'fen <FEN>', then optionally 'moves ...'".into(),
            );
        }
    };
    let mut position = Position::new(board);
    for text in moves {
        let mv = position
            .board()
            .parse_uci_move(text, chess960)
            .map_err(|e| format!("position: {e}; position unchanged"))?;
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
    if name.is_empty() {
        return Err("setoption: missing option name".into());
    }
    Ok(Command::SetOption { name, value })
}

fn parse_go(tokens: &[&str], _current: &Position) -> Result<Command, String> {
    match tokens {
        ["perft", depth] => depth
            .parse::<u32>()
            .ok()
            .filter(|&d| d <= 20)
            .map(|d| Command::Go(GoCommand::Perft(d)))
            .ok_or_else(|| format!("go perft: bad depth '{depth}' (expected 0 to 20)")),
        _ => Err("go: this build only supports 'go perft <depth>'".into()),
    }
}
