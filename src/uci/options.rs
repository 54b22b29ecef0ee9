//! UCI options, declared once: the same table prints `option name ...` and
//! parses and range-checks `setoption`. Applying a change is the engine's job;
//! here a valid `setoption` becomes an [`OptionChange`].

use std::fmt;

/// The kind, default and range of an option.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Button,
    Text { default: &'static str },
    Combo { default: &'static str, vars: &'static [&'static str] },
}

/// One declared option.
struct Declaration {
    name: &'static str,
    kind: Kind,
}

/// The default `Hash` in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// The default `Move Overhead` in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// The machine's memory in MB (the `Hash` maximum), from `/proc/meminfo` where available.
fn machine_memory_mb() -> i64 {
    let from_proc = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kb: i64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb / 1024)
    });
    from_proc.unwrap_or(65_536).clamp(1, tt::MAX_MB as i64)
}

fn declarations() -> Vec<Declaration> {
    vec![
        Declaration {
            name: "Hash",
            kind: Kind::Spin { default: DEFAULT_HASH_MB as i64, min: 1, max: machine_memory_mb() },
        },
        Declaration { name: "Threads", kind: Kind::Spin { default: 1, min: 1, max: 1024 } },
        Declaration { name: "Clear Hash", kind: Kind::Button },
        Declaration { name: "MultiPV", kind: Kind::Spin { default: 1, min: 1, max: 256 } },
        Declaration {
            name: "Move Overhead",
            kind: Kind::Spin { default: DEFAULT_MOVE_OVERHEAD_MS as i64, min: 0, max: 5000 },
        },
        Declaration { name: "Ponder", kind: Kind::Check { default: false } },
        Declaration { name: "UCI_Chess960", kind: Kind::Check { default: false } },
        // While the network is being proven: which evaluation the search uses.
        Declaration { name: "UseNNUE", kind: Kind::Check { default: false } },
        Declaration { name: "EvalFile", kind: Kind::Text { default: "<embedded>" } },
        // Syzygy tablebases (docs/tablebases.md): folders separated by `:` or `;`.
        Declaration { name: "SyzygyPath", kind: Kind::Text { default: "<empty>" } },
        Declaration { name: "SyzygyProbeDepth", kind: Kind::Spin { default: 1, min: 1, max: 100 } },
        Declaration { name: "SyzygyProbeLimit", kind: Kind::Spin { default: 7, min: 0, max: 7 } },
        Declaration { name: "Syzygy50MoveRule", kind: Kind::Check { default: true } },
        // `info ... wdl W D L` (off: some GUIs break on it).
        Declaration { name: "UCI_ShowWDL", kind: Kind::Check { default: false } },
        // For testing: turn search techniques off, e.g. `-nmp,-lmr` (see search::Features).
        Declaration { name: "SearchFeatures", kind: Kind::Text { default: "all" } },
        // For testing Lazy SMP: how the reported move is chosen among the threads.
        Declaration {
            name: "SMPBestMove",
            kind: Kind::Combo { default: "Vote", vars: &["Vote", "Deepest", "Main"] },
        },
    ]
}

/// A valid option change, ready to apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionChange {
    /// New table size in MB.
    Hash(usize),
    /// New number of search threads.
    Threads(usize),
    /// Clear the table and histories.
    ClearHash,
    /// Number of principal variations.
    MultiPv(usize),
    /// Reserve per move, in ms.
    MoveOverhead(u64),
    /// Whether pondering is allowed (informational: the GUI decides).
    Ponder(bool),
    /// Chess960 castling notation.
    Chess960(bool),
    /// Which search techniques are on.
    SearchFeatures(search::Features),
    /// How the reported move is chosen among the threads.
    BestMoveChoice(search::BestMoveChoice),
    /// Evaluate with the network (or the hand-written evaluation).
    UseNnue(bool),
    /// The network file to load (`<embedded>`: the built-in one).
    EvalFile(String),
    /// Syzygy folders, separated by `:` or `;` (empty or `<empty>`: none).
    SyzygyPath(String),
    /// With exactly `SyzygyProbeLimit` pieces, probe only from this depth.
    SyzygyProbeDepth(i32),
    /// Probe positions with at most this many pieces.
    SyzygyProbeLimit(u32),
    /// Whether wins spoiled by the fifty-move rule count as draws.
    Syzygy50MoveRule(bool),
    /// Whether `info` lines carry `wdl W D L`.
    ShowWdl(bool),
}

/// Why `setoption` was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown { name: String },
    /// A spin value that is not an integer, or outside the declared range.
    OutOfRange { name: &'static str, min: i64, max: i64, got: String },
    /// A check value that is not `true` or `false`.
    NotBoolean { name: &'static str, got: String },
    /// A string value the option cannot use.
    BadText { name: &'static str, reason: String },
    /// A combo value that is not one of the declared choices.
    NotAChoice { name: &'static str, vars: &'static [&'static str], got: String },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { name } => write!(f, "unknown option '{name}'"),
            OptionError::OutOfRange { name, min, max, got } => {
                write!(f, "option '{name}' takes an integer from {min} to {max}, not '{got}'")
            }
            OptionError::NotBoolean { name, got } => {
                write!(f, "option '{name}' takes true or false, not '{got}'")
            }
            OptionError::BadText { name, reason } => write!(f, "option '{name}': {reason}"),
            OptionError::NotAChoice { name, vars, got } => {
                write!(f, "option '{name}' takes one of {}, not '{got}'", vars.join(", "))
            }
        }
    }
}

/// The `option name ...` lines for the `uci` reply.
pub fn option_lines() -> Vec<String> {
    declarations()
        .iter()
        .map(|d| match d.kind {
            Kind::Spin { default, min, max } => {
                format!("option name {} type spin default {default} min {min} max {max}", d.name)
            }
            Kind::Check { default } => {
                format!("option name {} type check default {default}", d.name)
            }
            Kind::Button => format!("option name {} type button", d.name),
            Kind::Text { default } => {
                format!("option name {} type string default {default}", d.name)
            }
            Kind::Combo { default, vars } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {} type combo default {default}{vars}", d.name)
            }
        })
        .collect()
}

/// Parses and range-checks `setoption name <name> [value <value>]`.
pub fn parse_change(name: &str, value: Option<&str>) -> Result<OptionChange, OptionError> {
    let decls = declarations();
    let decl = decls
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| OptionError::Unknown { name: name.to_string() })?;
    let text = value.unwrap_or("").trim();
    match decl.kind {
        Kind::Spin { min, max, .. } => {
            let v =
                text.parse::<i64>().ok().filter(|v| (min..=max).contains(v)).ok_or_else(|| {
                    OptionError::OutOfRange { name: decl.name, min, max, got: text.to_string() }
                })?;
            Ok(match decl.name {
                "Hash" => OptionChange::Hash(v as usize),
                "Threads" => OptionChange::Threads(v as usize),
                "MultiPV" => OptionChange::MultiPv(v as usize),
                "SyzygyProbeDepth" => OptionChange::SyzygyProbeDepth(v as i32),
                "SyzygyProbeLimit" => OptionChange::SyzygyProbeLimit(v as u32),
                _ => OptionChange::MoveOverhead(v as u64),
            })
        }
        Kind::Check { .. } => {
            let v = match text.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(OptionError::NotBoolean { name: decl.name, got: text.to_string() });
                }
            };
            Ok(match decl.name {
                "Ponder" => OptionChange::Ponder(v),
                "UseNNUE" => OptionChange::UseNnue(v),
                "Syzygy50MoveRule" => OptionChange::Syzygy50MoveRule(v),
                "UCI_ShowWDL" => OptionChange::ShowWdl(v),
                _ => OptionChange::Chess960(v),
            })
        }
        Kind::Button => Ok(OptionChange::ClearHash),
        Kind::Text { .. } if decl.name == "EvalFile" => {
            Ok(OptionChange::EvalFile(text.to_string()))
        }
        Kind::Text { .. } if decl.name == "SyzygyPath" => {
            Ok(OptionChange::SyzygyPath(text.to_string()))
        }
        Kind::Text { .. } => search::Features::parse(text)
            .map(OptionChange::SearchFeatures)
            .map_err(|reason| OptionError::BadText { name: decl.name, reason }),
        Kind::Combo { vars, .. } => {
            let choice = vars.iter().find(|v| v.eq_ignore_ascii_case(text)).ok_or_else(|| {
                OptionError::NotAChoice { name: decl.name, vars, got: text.to_string() }
            })?;
            Ok(OptionChange::BestMoveChoice(match *choice {
                "Deepest" => search::BestMoveChoice::Deepest,
                "Main" => search::BestMoveChoice::MainThread,
                _ => search::BestMoveChoice::Vote,
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declared_option_parses_its_default() {
        for d in declarations() {
            let value = match d.kind {
                Kind::Spin { default, .. } => Some(default.to_string()),
                Kind::Check { default } => Some(default.to_string()),
                Kind::Button => None,
                Kind::Text { default } => Some(default.to_string()),
                Kind::Combo { default, .. } => Some(default.to_string()),
            };
            assert!(parse_change(d.name, value.as_deref()).is_ok(), "{}", d.name);
        }
    }

    #[test]
    fn out_of_range_and_unknown_are_refused() {
        assert!(matches!(parse_change("Threads", Some("0")), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(
            parse_change("Threads", Some("1025")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(parse_change("Hash", Some("lots")), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(parse_change("Ponder", Some("yes")), Err(OptionError::NotBoolean { .. })));
        assert!(matches!(parse_change("Nope", Some("1")), Err(OptionError::Unknown { .. })));
        assert_eq!(parse_change("threads", Some("4")), Ok(OptionChange::Threads(4)));
        assert!(matches!(
            parse_change("SMPBestMove", Some("majority")),
            Err(OptionError::NotAChoice { .. })
        ));
        assert_eq!(
            parse_change("SMPBestMove", Some("deepest")),
            Ok(OptionChange::BestMoveChoice(search::BestMoveChoice::Deepest))
        );
    }

    #[test]
    fn tablebase_options_parse_and_range_check() {
        assert_eq!(
            parse_change("SyzygyPath", Some("/tb/345;/tb/6")),
            Ok(OptionChange::SyzygyPath("/tb/345;/tb/6".into()))
        );
        assert_eq!(parse_change("SyzygyPath", None), Ok(OptionChange::SyzygyPath(String::new())));
        assert_eq!(
            parse_change("SyzygyProbeLimit", Some("5")),
            Ok(OptionChange::SyzygyProbeLimit(5))
        );
        assert!(matches!(
            parse_change("SyzygyProbeLimit", Some("8")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse_change("SyzygyProbeDepth", Some("0")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert_eq!(
            parse_change("Syzygy50MoveRule", Some("false")),
            Ok(OptionChange::Syzygy50MoveRule(false))
        );
        assert_eq!(parse_change("UCI_ShowWDL", Some("true")), Ok(OptionChange::ShowWdl(true)));
    }
}
