//! Helpers for the tablebase tests: the repository's tables and labels.

#![allow(dead_code)]

use board::Board;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

/// The prober allows one set of tables per process; tests that load take this lock.
pub fn one_prober_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// `data/syzygy` of the repository: every 3- and 4-piece table.
pub fn tables() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/syzygy")
}

/// One labelled position of `endgame.epd`.
pub struct Labelled {
    pub fen: String,
    pub board: Board,
    pub wdl_table: i32,
    pub wdl: i32,
    pub dtz: i32,
}

pub fn endgame_positions() -> Vec<Labelled> {
    let text = std::fs::read_to_string(tables().join("endgame.epd")).expect("endgame.epd");
    text.lines()
        .map(|line| {
            let (fen, labels) = line.split_at(line.find(" wdl_table").expect("labels"));
            let label = |name: &str| -> i32 {
                let field = labels
                    .split(';')
                    .map(str::trim)
                    .find_map(|f| f.strip_prefix(name).and_then(|v| v.strip_prefix(' ')))
                    .unwrap_or_else(|| panic!("no {name} in {line}"));
                field.parse().expect("an integer label")
            };
            Labelled {
                fen: fen.to_string(),
                board: Board::from_fen(fen).expect("a valid FEN"),
                wdl_table: label("wdl_table"),
                wdl: label("wdl"),
                dtz: label("dtz"),
            }
        })
        .collect()
}
