//! Tessera, a UCI chess engine.
//!
//! `tessera` with no arguments speaks UCI on stdin/stdout. Subcommands:
//! `tessera bench [depth] [threads] [hash]` searches a fixed position list and
//! prints `<nodes> nodes <nps> nps`; `tessera perft <depth> [fen]` prints a
//! divide and the node count; `tessera --version` prints the version and the
//! commit built. Any other arguments are UCI commands, one per
//! argument, run in order (`tessera "genfens 10 seed 1 book None" quit`, as
//! OpenBench sends). The `cluster` feature runs the UCI engine over MPI ranks
//! when an MPI launcher starts it (docs/cluster.md).

mod bench;
#[cfg(feature = "cluster")]
mod cluster_main;

use std::process::ExitCode;
use tessera::{datagen, perft_cmd, uci};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {
            #[cfg(feature = "cluster")]
            cluster_main::run();
            #[cfg(not(feature = "cluster"))]
            uci::run(std::io::stdin().lock(), uci::output::Output::new(std::io::stdout()));
            ExitCode::SUCCESS
        }
        Some("perft") => perft_cmd::run_cli(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("datagen") => datagen::run(&args[1..]),
        Some("--version" | "-V") => {
            println!("Tessera {}", tessera::VERSION);
            ExitCode::SUCCESS
        }
        Some("help" | "--help" | "-h") => {
            println!("usage: tessera                              start the UCI loop");
            println!("       tessera bench [depth] [threads] [mb]  search the bench positions");
            println!("       tessera perft <depth> [fen]           count leaf nodes (divide)");
            println!(
                "       tessera \"<uci command>\" ...           run UCI commands in order, e.g."
            );
            println!("               tessera \"genfens 10 seed 1 book None\" quit");
            println!(
                "       tessera datagen --out FILE [--games N] [--nodes K] [--seed S] [--threads T]"
            );
            println!(
                "                       [--openings PATH] [--random-plies R]   self-play training data"
            );
            println!(
                "       tessera --version                    the version and the commit built"
            );
            ExitCode::SUCCESS
        }
        Some(_) => {
            // Each argument is one UCI line; the loop ends after the last one.
            let lines = args.join("\n") + "\n";
            uci::run(std::io::Cursor::new(lines), uci::output::Output::new(std::io::stdout()));
            ExitCode::SUCCESS
        }
    }
}
