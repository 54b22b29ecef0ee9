//! Helpers shared by the board crate's integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The repository's test data (`data/`, sources in `data/SOURCES.md`).
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

/// One line of `perft.epd`: a FEN and its reference counts by depth.
pub struct PerftCase {
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// Reads `perft.epd` (`FEN ;D1 n ;D2 n ...`).
pub fn perft_cases() -> Vec<PerftCase> {
    let path = data_dir().join("perft.epd");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().expect("a FEN").trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut it = p.split_whitespace();
                    let depth = it.next().expect("depth")[1..].parse().expect("depth number");
                    let nodes = it.next().expect("count").parse().expect("count number");
                    (depth, nodes)
                })
                .collect();
            PerftCase { fen, counts }
        })
        .collect()
}
