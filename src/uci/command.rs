//! Parsing one line of UCI input into a [`UciCommand`], fully validated against
//! the current position, so that applying a command cannot fail halfway.

use super::go::{Go, parse_go};
#[cfg(feature = "tune")]
use super::options::OptionError;
use super::options::{Settings, parse_change};
use crate::perft_cmd::MAX_PERFT_DEPTH;
use board::{Board, Position, STARTPOS_FEN};

/// A parsed, valid UCI command.
#[derive(Debug)]
pub enum UciCommand {
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
    /// A valid `setoption`: every option's value after it.
    SetOption(Settings),
    /// A valid `setoption` of a search tunable (`tune` feature): its name and new value.
    #[cfg(feature = "tune")]
    SetTunable(&'static str, i32),
    /// `go perft <depth>`.
    Perft(u32),
    /// `go ...` (a search; always answered with `bestmove`).
    Go(Go),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `d`: show the board.
    Display,
    /// `eval`: show the static evaluation.
    Eval,
    /// `compiler`: show what this build is.
    Compiler,
    /// `genfens N seed S book <file|None>`: OpenBench's start positions (src/genfens.rs).
    Genfens(crate::genfens::Request),
    /// `quit`.
    Quit,
}

impl UciCommand {
    /// Whether the command changes the engine's state (what a cluster's leader
    /// passes on to the other ranks): `position`, a search's `go`, `stop`,
    /// `ponderhit`, `setoption`, `ucinewgame` and `quit`.
    pub fn changes_state(&self) -> bool {
        #[cfg(feature = "tune")]
        if let UciCommand::SetTunable(..) = self {
            return true;
        }
        matches!(
            self,
            UciCommand::Position(_)
                | UciCommand::Go(_)
                | UciCommand::Stop
                | UciCommand::PonderHit
                | UciCommand::SetOption(_)
                | UciCommand::UciNewGame
                | UciCommand::Quit
        )
    }
}

/// Parses one input line, given the current position and settings. Errors are
/// messages for `info string error: ...`.
pub fn parse(line: &str, current: &Position, settings: &Settings) -> Result<UciCommand, String> {
    let chess960 = settings.chess960;
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some((&head, rest)) = tokens.split_first() else { return Ok(UciCommand::Empty) };
    match head {
        "uci" => Ok(UciCommand::Uci),
        "isready" => Ok(UciCommand::IsReady),
        "ucinewgame" => Ok(UciCommand::UciNewGame),
        "quit" => Ok(UciCommand::Quit),
        "stop" => Ok(UciCommand::Stop),
        "ponderhit" => Ok(UciCommand::PonderHit),
        "d" => Ok(UciCommand::Display),
        "compiler" => Ok(UciCommand::Compiler),
        "genfens" => crate::genfens::parse(&rest.join(" ")).map(UciCommand::Genfens),
        "eval" => Ok(UciCommand::Eval),
        "position" => parse_position(rest, chess960).map(UciCommand::Position),
        "setoption" => parse_setoption(rest, settings),
        "go" => match rest.split_first() {
            Some((&"perft", depth)) => parse_perft(depth),
            _ => Ok(UciCommand::Go(parse_go(rest, current.board(), chess960))),
        },
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

fn parse_setoption(tokens: &[&str], settings: &Settings) -> Result<UciCommand, String> {
    let Some((&"name", rest)) = tokens.split_first() else {
        return Err("setoption: expected 'setoption name <name> [value <value>]'".into());
    };
    let value_at = rest.iter().position(|&t| t == "value");
    let (name, value) = match value_at {
        Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    #[cfg(feature = "tune")]
    if let Some(t) = search::params::find(&name) {
        let text = value.as_deref().unwrap_or("").trim();
        return text
            .parse::<i32>()
            .ok()
            .filter(|v| (t.min..=t.max).contains(v))
            .map(|v| UciCommand::SetTunable(t.name, v))
            .ok_or_else(|| {
                let (min, max) = (i64::from(t.min), i64::from(t.max));
                let got = text.to_string();
                format!("setoption: {}", OptionError::OutOfRange { name: t.name, min, max, got })
            });
    }
    parse_change(&name, value.as_deref(), settings)
        .map(UciCommand::SetOption)
        .map_err(|e| format!("setoption: {e}"))
}

fn parse_perft(tokens: &[&str]) -> Result<UciCommand, String> {
    match tokens {
        [depth] => match depth.parse::<u32>() {
            Ok(d) if d <= MAX_PERFT_DEPTH => Ok(UciCommand::Perft(d)),
            _ => Err(format!("go perft: expected a depth from 0 to {MAX_PERFT_DEPTH}")),
        },
        _ => Err(format!("go perft: expected one depth from 0 to {MAX_PERFT_DEPTH}")),
    }
}

#[cfg(all(test, feature = "tune"))]
mod tests {
    use super::*;

    /// A tunable's `setoption` is checked against its declared range before anything changes.
    #[test]
    fn tunables_are_set_within_their_range() {
        let (position, settings) = (Position::new(Board::startpos()), Settings::default());
        let parse = |line: &str| parse(line, &position, &settings);
        let set = parse("setoption name RFP_margin value 120");
        assert!(matches!(set, Ok(UciCommand::SetTunable("rfp_margin", 120))), "{set:?}");
        assert!(parse("setoption name rfp_margin value 201").unwrap_err().contains("40 to 200"));
        assert!(parse("setoption name rfp_margin value x").is_err());
        assert!(parse("setoption name rfp_margin").is_err());
    }
}
