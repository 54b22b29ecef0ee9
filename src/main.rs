//! Tessera, a UCI chess engine.
//!
//! `tessera` with no arguments speaks UCI on stdin/stdout; the subcommands
//! (`bench`, `speedtest`, `perft`, `datagen`, `tune-spsa`, `--version`,
//! `--help`) and their arguments are declared once, in `src/cli.rs`, which
//! `--help` lists. Any other arguments are UCI commands, one per argument, run
//! in order (`tessera "genfens 10 seed 1 book None" quit`, as OpenBench
//! sends); a `go` among them runs to its limit. The `cluster` feature runs the
//! UCI engine over MPI ranks when an MPI launcher starts it (docs/cluster.md).

mod bench;
#[cfg(feature = "cluster")]
mod cluster_main;
mod machine;
mod speedtest;

use std::process::ExitCode;
use tessera::{cli::print_lines, datagen, perft_cmd, uci};

/// `tessera tune-spsa`: OpenBench's SPSA input for every tunable of the search,
/// `name, int, default, min, max, c_end, r_end` (built with `--features tune`,
/// in which the tunables are UCI options of the same names).
fn tune_spsa() -> ExitCode {
    if cfg!(feature = "tune") {
        print_lines(search::params::spsa_lines())
    } else {
        eprintln!(
            "tessera tune-spsa: this build has no tunable options; \
             build with `cargo build --release --features tune`"
        );
        ExitCode::FAILURE
    }
}

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
        Some("speedtest") => speedtest::run(&args[1..]),
        Some("datagen") => datagen::run(&args[1..]),
        Some("tune-spsa") => tune_spsa(),
        Some("--version" | "-V") => print_lines(tessera::build_info::lines()),
        Some("help" | "--help" | "-h") => print_lines(tessera::cli::help()),
        Some(_) => {
            // Each argument is one UCI line; the loop ends after the last one,
            // once a search that ends by itself has reached its limit.
            let lines = args.join("\n") + "\n";
            let out = uci::output::Output::new(std::io::stdout());
            uci::run_commands(std::io::Cursor::new(lines), out);
            ExitCode::SUCCESS
        }
    }
}
