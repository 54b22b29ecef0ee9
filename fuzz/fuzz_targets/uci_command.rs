//! The UCI front end's parsers on arbitrary bytes: the line reader splits
//! them (never keeping more than its limit), and each line goes through the
//! command parser with the engine's state carried from line to line, as the
//! command loop does (a valid `position` or `setoption` becomes the state the
//! next line is parsed against). Never a panic; a parsed `go` always has
//! limits the search can use.
#![no_main]

use board::{Board, Position};
use libfuzzer_sys::fuzz_target;
use tessera::uci::input::{InputLine, Lines};
use tessera::uci::options::Settings;
use tessera::uci::{UciCommand, parse};

fuzz_target!(|data: &[u8]| {
    let mut position = Position::new(Board::startpos());
    let mut settings = Settings::default();
    for line in Lines::with_limit(data, 4096) {
        let InputLine::Text(text) = line else { continue };
        match parse(&text, &position, &settings) {
            Ok(UciCommand::Position(p)) => position = p,
            Ok(UciCommand::SetOption(s)) => settings = s,
            Ok(UciCommand::Go(go)) => {
                let l = &go.limits;
                assert!(l.depth.is_none_or(|d| (1..=256).contains(&d)), "{text:?}");
                assert!(l.mate.is_none_or(|m| (1..=256).contains(&m)), "{text:?}");
                assert!(l.moves_to_go.is_none_or(|m| m >= 1), "{text:?}");
                for mv in &l.search_moves {
                    assert!(position.board().is_legal(*mv), "{text:?}");
                }
            }
            Ok(_) => {}
            Err(e) => assert!(!e.is_empty()),
        }
    }
});
