//! The UCI loop: reads commands, keeps the engine's state, prints replies.
//!
//! Bad input never changes state: every command is parsed completely into a
//! new value first and applied only if it is valid; otherwise one
//! `info string error: ...` line is printed.

mod command;
mod options;

use crate::perft_cmd::write_divide;
use board::{Board, Position};
use command::{Command, GoCommand};
use options::Options;
use std::io::{BufRead, Write};

/// The engine's state between commands.
struct Engine<W: Write> {
    out: W,
    position: Position,
    options: Options,
}

/// Runs the UCI loop until `quit` or end of input.
pub fn run(input: impl BufRead, out: impl Write) {
    let mut engine =
        Engine { out, position: Position::new(Board::startpos()), options: Options::default() };
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !engine.handle(&line) {
            break;
        }
    }
}

impl<W: Write> Engine<W> {
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn error(&mut self, text: &str) {
        self.say(&format!("info string error: {text}"));
    }

    /// Handles one line; returns `false` on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let command = match command::parse(line, &self.position, self.options.chess960) {
            Ok(c) => c,
            Err(e) => {
                self.error(&e);
                return true;
            }
        };
        match command {
            Command::Empty => {}
            Command::Uci => {
                self.say(concat!("id name Tessera ", env!("CARGO_PKG_VERSION")));
                self.say("id author the Tessera developers");
                for line in options::declarations() {
                    self.say(&line);
                }
                self.say("uciok");
            }
            Command::IsReady => self.say("readyok"),
            Command::UciNewGame => {}
            Command::Position(position) => self.position = position,
            Command::SetOption { name, value } => {
                if let Err(e) = self.options.set(&name, value.as_deref()) {
                    self.error(&e.to_string());
                }
            }
            Command::Go(GoCommand::Perft(depth)) => {
                let board = *self.position.board();
                let chess960 = self.options.chess960;
                write_divide(&mut self.out, &board, depth, chess960);
            }
            Command::Display => {
                let board = *self.position.board();
                let text = format!(
                    "{}\nFen: {}\nKey: {:016x}\nCheckers: {}",
                    board.diagram(),
                    board.to_fen(self.options.chess960),
                    board.key(),
                    board.checkers().map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
                );
                self.say(&text);
            }
            Command::Quit => return false,
        }
        true
    }
}
