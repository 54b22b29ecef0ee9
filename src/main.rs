//! Tessera, a UCI chess engine.
//!
//! `tessera` with no arguments speaks UCI on stdin/stdout. Subcommands:
//! `tessera perft <depth> [fen]` prints a divide and the node count.

mod perft_cmd;
mod uci;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            uci::run(std::io::stdin().lock(), std::io::stdout());
            ExitCode::SUCCESS
        }
        Some("perft") => perft_cmd::run_cli(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("usage: tessera                  start the UCI loop");
            println!("       tessera perft <depth> [fen]   count leaf nodes (divide)");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("tessera: unknown command '{other}' (try 'tessera help')");
            ExitCode::FAILURE
        }
    }
}
