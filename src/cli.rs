//! The command line, declared once: every subcommand with its arguments and
//! what it does ([`SUBCOMMANDS`], which `tessera --help` lists and each command
//! repeats after an error), and the `--name value` flags of those that take
//! flags ([`Flag`], from which both the parser and the usage line come); how
//! a command reads its words ([`word`]); and how a command's output ends
//! ([`print_lines`], or [`write_lines`] for one that prints as it goes).

use std::collections::HashMap;
use std::ops::RangeInclusive;

/// A `--name value` flag of a subcommand.
pub struct Flag {
    /// The name, without `--`.
    pub name: &'static str,
    /// What the value is, as the usage line shows it (`FILE`, `N`).
    pub value: &'static str,
    /// Whether the command needs it.
    pub required: bool,
}

/// The arguments of a subcommand: words, or flags.
pub enum Args {
    /// Words in order, as the usage line shows them.
    Words(&'static str),
    /// `--name value` flags.
    Flags(&'static [Flag]),
}

/// One way to run the binary.
pub struct Subcommand {
    /// The first argument (`""`: none, or UCI commands).
    pub name: &'static str,
    /// What follows it.
    pub args: Args,
    /// What it does.
    pub what: &'static str,
}

/// The flags of `tessera datagen`.
pub const DATAGEN_FLAGS: &[Flag] = &[
    Flag { name: "out", value: "FILE", required: true },
    Flag { name: "games", value: "N", required: false },
    Flag { name: "nodes", value: "K", required: false },
    Flag { name: "seed", value: "S", required: false },
    Flag { name: "threads", value: "T", required: false },
    Flag { name: "openings", value: "PATH", required: false },
    Flag { name: "random-plies", value: "R", required: false },
    Flag { name: "dfrc", value: "PERCENT", required: false },
];

/// Every subcommand, in the order `--help` lists them.
pub const SUBCOMMANDS: &[Subcommand] = &[
    Subcommand { name: "", args: Args::Words(""), what: "start the UCI loop" },
    Subcommand {
        name: "bench",
        args: Args::Words("[depth 1..64] [threads 1..1024] [hash MB]"),
        what: "search the bench positions; ends with `N nodes M nps`",
    },
    Subcommand {
        name: "speedtest",
        args: Args::Words("[threads 1..1024] [hash MB] [seconds per position]"),
        what: "nodes/s with 1, 2, 4, ... threads (default: every CPU, 64 MB a thread up to \
               1024, 0.4 s a position); ends with `speedtest: T threads M nps (×R)`",
    },
    Subcommand {
        name: "perft",
        args: Args::Words("<depth 0..10> [fen]"),
        what: "count leaf nodes (divide)",
    },
    Subcommand {
        name: "datagen",
        args: Args::Flags(DATAGEN_FLAGS),
        what: "self-play training data",
    },
    Subcommand {
        name: "tune-spsa",
        args: Args::Words(""),
        what: "OpenBench SPSA input (tune build)",
    },
    Subcommand {
        name: "--version",
        args: Args::Words(""),
        what: "what this build is: commit, CPU, network, compiler",
    },
    Subcommand { name: "--help", args: Args::Words(""), what: "this list" },
    Subcommand {
        name: "",
        args: Args::Words("\"<uci command>\" ..."),
        what: "run UCI commands in order, e.g. tessera \"genfens 10 seed 1 book None\" quit",
    },
];

impl Subcommand {
    /// `tessera <name> <args>`.
    pub fn synopsis(&self) -> String {
        let args = match &self.args {
            Args::Words(words) => words.to_string(),
            Args::Flags(flags) => {
                let each = flags.iter().map(|f| {
                    let flag = format!("--{} {}", f.name, f.value);
                    if f.required { flag } else { format!("[{flag}]") }
                });
                each.collect::<Vec<_>>().join(" ")
            }
        };
        let words = ["tessera", self.name, &args];
        let words: Vec<&str> = words.into_iter().filter(|w| !w.is_empty()).collect();
        words.join(" ")
    }
}

/// `usage: tessera <command> ...` for the subcommand `name`.
pub fn usage(name: &str) -> String {
    let command = SUBCOMMANDS.iter().find(|c| c.name == name);
    format!("usage: {}", command.map_or_else(|| "tessera --help".into(), Subcommand::synopsis))
}

/// The lines of `tessera --help`: each command's synopsis, then what it does.
pub fn help() -> Vec<String> {
    let mut lines = vec!["usage:".to_string()];
    for command in SUBCOMMANDS {
        lines.push(format!("  {}", command.synopsis()));
        lines.push(format!("      {}", command.what));
    }
    lines
}

/// Parses `--name value` pairs of `flags`: every flag takes a value; unknown
/// flags and missing required ones are errors.
pub fn parse_flags(args: &[String], flags: &[Flag]) -> Result<HashMap<String, String>, String> {
    let mut map = HashMap::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let Some(name) = arg.strip_prefix("--") else {
            return Err(format!("unexpected argument '{arg}'"));
        };
        if !flags.iter().any(|f| f.name == name) {
            return Err(format!("unknown option '--{name}'"));
        }
        let Some(value) = it.next() else {
            return Err(format!("option '--{name}' needs a value"));
        };
        map.insert(name.to_string(), value.clone());
    }
    if let Some(missing) = flags.iter().find(|f| f.required && !map.contains_key(f.name)) {
        return Err(format!("--{} {} is required", missing.name, missing.value));
    }
    Ok(map)
}

/// The value of flag `name` parsed as `T`, or `default` when absent.
pub fn flag<T: std::str::FromStr>(
    flags: &HashMap<String, String>,
    name: &str,
    default: T,
) -> Result<T, String> {
    match flags.get(name) {
        None => Ok(default),
        Some(v) => v.parse().map_err(|_| format!("bad value '{v}' for --{name}")),
    }
}

/// Word `i` of a subcommand's words parsed as `T`: `default` when there is no
/// such word, `None` when it does not parse or lies outside `range`.
pub fn word<T: std::str::FromStr + PartialOrd>(
    args: &[String],
    i: usize,
    default: T,
    range: RangeInclusive<T>,
) -> Option<T> {
    match args.get(i) {
        None => Some(default),
        Some(a) => a.parse::<T>().ok().filter(|v| range.contains(v)),
    }
}

/// Prints `lines` on stdout, one per line, as a command's output. A reader
/// that has gone (`tessera --version | head -1`) ends the output quietly; any
/// other write error (a full disk) is reported and fails the command.
pub fn print_lines(lines: impl IntoIterator<Item = String>) -> std::process::ExitCode {
    match write_lines(lines) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => output_lost(&e),
    }
}

/// Writes `lines` on stdout, one per line, and flushes them: for a command
/// that prints as it goes and stops at the first error ([`output_lost`]).
pub fn write_lines(lines: impl IntoIterator<Item = String>) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    lines.into_iter().try_for_each(|line| writeln!(out, "{line}"))?;
    out.flush()
}

/// How a command ends when its output could not be written: quietly for a
/// reader that has gone, else with the error reported and a failure.
pub fn output_lost(e: &std::io::Error) -> std::process::ExitCode {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return std::process::ExitCode::SUCCESS;
    }
    eprintln!("tessera: cannot write to stdout: {e}");
    std::process::ExitCode::FAILURE
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLAGS: &[Flag] = &[
        Flag { name: "out", value: "FILE", required: true },
        Flag { name: "games", value: "N", required: false },
    ];

    #[test]
    fn flags_parse() {
        let args: Vec<String> =
            ["--games", "3", "--out", "x.txt"].iter().map(|s| s.to_string()).collect();
        let f = parse_flags(&args, FLAGS).expect("valid flags");
        assert_eq!(flag(&f, "games", 0usize), Ok(3));
        assert_eq!(flag(&f, "nodes", 7u64), Ok(7));
        assert!(parse_flags(&args, &FLAGS[1..]).is_err(), "--out is not a flag there");
        assert!(parse_flags(&args[..1], FLAGS).is_err(), "--games without a value");
        assert_eq!(parse_flags(&args[..2], FLAGS).unwrap_err(), "--out FILE is required");
    }

    #[test]
    fn words_parse_within_their_range() {
        let args: Vec<String> = ["12", "x", "0.5", "0"].iter().map(|s| s.to_string()).collect();
        assert_eq!(word(&args, 0, 5usize, 1..=64), Some(12));
        assert_eq!(word(&args, 1, 5usize, 1..=64), None, "not a number");
        assert_eq!(word(&args, 2, 1.0f64, 0.01..=600.0), Some(0.5));
        assert_eq!(word(&args, 3, 1usize, 1..=64), None, "out of range");
        assert_eq!(word(&args, 4, 7usize, 1..=64), Some(7), "absent: the default");
        let nan = vec!["NaN".to_string(), "inf".to_string()];
        assert_eq!(word(&nan, 0, 1.0f64, 0.01..=600.0), None);
        assert_eq!(word(&nan, 1, 1.0f64, 0.01..=600.0), None);
    }

    #[test]
    fn usage_lines_come_from_the_declarations() {
        assert_eq!(
            usage("datagen"),
            "usage: tessera datagen --out FILE [--games N] [--nodes K] [--seed S] [--threads T] \
             [--openings PATH] [--random-plies R] [--dfrc PERCENT]"
        );
        let help = help();
        assert_eq!(help.len(), 1 + 2 * SUBCOMMANDS.len());
        assert_eq!(help[1], "  tessera");
        assert!(help.iter().any(|l| l.contains(&usage("bench")["usage: ".len()..])));
    }
}
