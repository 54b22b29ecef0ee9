//! UCI options, declared once. Each line of `declare_options!` below names
//! an option, its kind (with default and range) and the field of [`Settings`]
//! it sets; from that one list come the `Settings` struct, the
//! `option name ...` lines of the `uci` reply and the parsing of `setoption`.
//!
//! Adding an option is one line in that list (plus, for a new value type, an
//! [`OptionValue`] impl). An option whose change must act at once (resize the
//! table, start threads, load a file) names its action on the same line
//! (`=> on_...`, a method of the trait `Actions`, which the engine implements
//! in `on_change.rs`), which `setoption` runs when the value changed; the
//! others are read from `Settings` where used. The options know the engine
//! only through `Actions`.

use super::memory_budget;
use std::fmt;
use std::sync::OnceLock;

/// The kind, default and range of an option, as the `uci` reply declares it.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// An integer in `min..=max`.
    Spin {
        /// The default value.
        default: i64,
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// The default value.
        default: bool,
    },
    /// An action with no value.
    Button,
    /// Free text (the option's own parser may still refuse it).
    Text {
        /// The default value.
        default: &'static str,
    },
    /// One of a list of words.
    Combo {
        /// The default value.
        default: &'static str,
        /// The words accepted.
        vars: &'static [&'static str],
    },
}

/// A `setoption` value that passed its kind's checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// A spin value within range.
    Spin(i64),
    /// A check value.
    Check(bool),
    /// A button press.
    Button,
    /// A string value.
    Text(String),
    /// A combo value, spelled as declared.
    Combo(&'static str),
}

/// How many times a button was pressed; a change of the count is a press.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Presses(pub u32);

/// A value type of a [`Settings`] field: takes its value from a [`Value`].
pub trait OptionValue {
    /// Sets `self` from `value`; `Err` (with the reason) leaves it unchanged.
    fn set_from(&mut self, value: &Value) -> Result<(), String>;
}

fn wrong_kind(value: &Value, ty: &str) -> String {
    format!("internal error: a {value:?} cannot set a {ty} setting")
}

/// Spin options set integer fields of any width (range-checked by the kind first).
macro_rules! spin_value {
    ($($ty:ty),*) => {$(
        impl OptionValue for $ty {
            fn set_from(&mut self, value: &Value) -> Result<(), String> {
                match value {
                    Value::Spin(v) => *self = <$ty>::try_from(*v).map_err(|e| e.to_string())?,
                    other => return Err(wrong_kind(other, stringify!($ty))),
                }
                Ok(())
            }
        }
    )*};
}

spin_value!(u8, u16, u32, u64, usize, i32, i64);

impl OptionValue for String {
    fn set_from(&mut self, value: &Value) -> Result<(), String> {
        match value {
            Value::Text(text) => text.clone_into(self),
            other => return Err(wrong_kind(other, "String")),
        }
        Ok(())
    }
}

impl OptionValue for bool {
    fn set_from(&mut self, value: &Value) -> Result<(), String> {
        match value {
            Value::Check(v) => *self = *v,
            other => return Err(wrong_kind(other, "bool")),
        }
        Ok(())
    }
}

impl OptionValue for Presses {
    fn set_from(&mut self, value: &Value) -> Result<(), String> {
        match value {
            Value::Button => self.0 = self.0.wrapping_add(1),
            other => return Err(wrong_kind(other, "button")),
        }
        Ok(())
    }
}

/// String options whose text a type reads with its own `parse` (which says
/// why it refuses a text).
macro_rules! parsed_text_value {
    ($($ty:ty),*) => {$(
        impl OptionValue for $ty {
            fn set_from(&mut self, value: &Value) -> Result<(), String> {
                match value {
                    Value::Text(text) => *self = <$ty>::parse(text)?,
                    other => return Err(wrong_kind(other, stringify!($ty))),
                }
                Ok(())
            }
        }
    )*};
}

parsed_text_value!(search::NumaPolicy);

impl OptionValue for search::BestMoveChoice {
    fn set_from(&mut self, value: &Value) -> Result<(), String> {
        *self = match value {
            Value::Combo("Vote") => search::BestMoveChoice::Vote,
            Value::Combo("Deepest") => search::BestMoveChoice::Deepest,
            Value::Combo("Main") => search::BestMoveChoice::MainThread,
            other => return Err(wrong_kind(other, "BestMoveChoice")),
        };
        Ok(())
    }
}

/// What the engine does at once when an option changes: the actions the
/// declarations below name (`=> on_hash`), each given the new settings (whose
/// value it may set back when the change is refused) and the old ones. The UCI
/// loop's engine implements them (`on_change.rs`); the compiler checks that
/// each action named exists and that the engine has them all.
pub(super) trait Actions {
    /// `Hash`.
    fn on_hash(&mut self, new: &mut Settings, old: &Settings);
    /// `Threads`.
    fn on_threads(&mut self, new: &mut Settings, old: &Settings);
    /// `NumaPolicy`.
    fn on_numa_policy(&mut self, new: &mut Settings, old: &Settings);
    /// `Clear Hash`.
    fn on_clear_hash(&mut self, new: &mut Settings, old: &Settings);
    /// `EvalFile`.
    fn on_eval_file(&mut self, new: &mut Settings, old: &Settings);
    /// `SyzygyPath`.
    fn on_syzygy_path(&mut self, new: &mut Settings, old: &Settings);
    /// `SyzygyProbeDepth`, `SyzygyProbeLimit`, `Syzygy50MoveRule`.
    fn on_tablebase_options(&mut self, new: &mut Settings, old: &Settings);
    /// `StrengthSeed`.
    fn on_strength_seed(&mut self, new: &mut Settings, old: &Settings);
    /// `SMPBestMove`.
    fn on_smp_best_move(&mut self, new: &mut Settings, old: &Settings);
}

/// What a changed option does at once: one of the engine's [`Actions`].
pub(super) type OnChange = fn(&mut dyn Actions, &mut Settings, &Settings);

/// One declared option.
pub struct Declaration {
    /// The UCI name.
    pub name: &'static str,
    /// The kind, default and range.
    pub kind: Kind,
    /// Sets its own field of [`Settings`] from a value of `kind`.
    set: fn(&mut Settings, &Value) -> Result<(), String>,
    /// Whether its field differs between two settings.
    changed: fn(&Settings, &Settings) -> bool,
    /// What a change does at once, if anything.
    on_change: Option<OnChange>,
}

impl Declaration {
    /// The action to run for going from `old` to `new`: this option's, when
    /// it has one and its value changed.
    pub(super) fn action(&self, new: &Settings, old: &Settings) -> Option<OnChange> {
        self.on_change.filter(|_| (self.changed)(new, old))
    }
}

/// Declares every option: `field: Type = "UCI name", kind [=> action];`, in
/// the order the `uci` reply lists them (and changes are acted on).
macro_rules! declare_options {
    (@action) => { None };
    (@action $action:ident) => {
        Some((|engine: &mut dyn Actions, new: &mut Settings, old: &Settings| {
            engine.$action(new, old)
        }) as OnChange)
    };
    ($($(#[$doc:meta])* $field:ident: $ty:ty = $name:literal, $kind:expr $(=> $action:ident)?;)*) => {
        /// The value of every UCI option.
        #[derive(Debug, Clone, PartialEq)]
        pub struct Settings {
            $($(#[$doc])* pub $field: $ty,)*
        }

        /// Every option, in the order the `uci` reply lists them.
        pub fn declarations() -> Vec<Declaration> {
            vec![$(Declaration {
                name: $name,
                kind: $kind,
                set: |settings, value| settings.$field.set_from(value),
                changed: |a, b| a.$field != b.$field,
                on_change: declare_options!(@action $($action)?),
            },)*]
        }

        impl Settings {
            /// The fields whose values differ between `self` and `other`.
            pub fn changed_fields(&self, other: &Settings) -> Vec<&'static str> {
                let mut changed = Vec::new();
                $(if self.$field != other.$field {
                    changed.push(stringify!($field));
                })*
                changed
            }

            /// Every field at its type's zero value, before the declared defaults.
            fn zero() -> Settings {
                Settings { $($field: Default::default(),)* }
            }
        }
    };
}

declare_options! {
    /// Table size in MB.
    hash_mb: usize = "Hash",
        Kind::Spin { default: DEFAULT_HASH_MB as i64, min: 1, max: hash_max_mb() }
        => on_hash;
    /// Search threads.
    threads: usize = "Threads", Kind::Spin { default: 1, min: 1, max: threads_max() }
        => on_threads;
    /// How search threads are pinned to NUMA nodes: `auto`, `none`, or nodes such as `0-3:4-7`.
    numa_policy: search::NumaPolicy = "NumaPolicy", Kind::Text { default: "auto" }
        => on_numa_policy;
    /// Presses of `Clear Hash` (each clears the table and the histories).
    clear_hash: Presses = "Clear Hash", Kind::Button => on_clear_hash;
    /// Principal variations reported.
    multipv: usize = "MultiPV", Kind::Spin { default: 1, min: 1, max: 256 };
    /// Time kept in reserve per move for communication lag, in ms.
    move_overhead_ms: u64 = "Move Overhead",
        Kind::Spin { default: DEFAULT_MOVE_OVERHEAD_MS as i64, min: 0, max: 5000 };
    /// Whether the GUI may ponder (informational: the GUI decides).
    ponder: bool = "Ponder", Kind::Check { default: false };
    /// Chess960 castling notation.
    chess960: bool = "UCI_Chess960", Kind::Check { default: false };
    /// The network file to evaluate with (`<embedded>`: the one built in).
    eval_file: String = "EvalFile", Kind::Text { default: "<embedded>" } => on_eval_file;
    /// Syzygy tablebase folders, separated by `:` or `;` (`<empty>`: none;
    /// docs/tablebases.md).
    syzygy_path: String = "SyzygyPath", Kind::Text { default: "<empty>" }
        => on_syzygy_path;
    /// With exactly `SyzygyProbeLimit` pieces, the search probes only from this depth.
    syzygy_probe_depth: i32 = "SyzygyProbeDepth", Kind::Spin { default: 1, min: 1, max: 100 }
        => on_tablebase_options;
    /// Probe positions with at most this many pieces (the name OpenBench sends).
    syzygy_probe_limit: u32 = "SyzygyProbeLimit", Kind::Spin { default: 7, min: 0, max: 7 }
        => on_tablebase_options;
    /// A win the fifty-move rule spoils counts as a draw.
    syzygy_50_move_rule: bool = "Syzygy50MoveRule", Kind::Check { default: true }
        => on_tablebase_options;
    /// `info ... wdl W D L` on every line with a score (off: some GUIs break on it).
    show_wdl: bool = "UCI_ShowWDL", Kind::Check { default: false };
    /// Play at the strength `UCI_Elo` names instead of full strength (src/uci/strength.rs).
    limit_strength: bool = "UCI_LimitStrength", Kind::Check { default: false };
    /// The strength played with `UCI_LimitStrength`, on Stockfish 15.1's Elo scale.
    elo: i64 = "UCI_Elo", Kind::Spin {
        default: crate::uci::strength::MIN_ELO,
        min: crate::uci::strength::MIN_ELO,
        max: crate::uci::strength::MAX_ELO,
    };
    /// The seed of the random choices of `UCI_LimitStrength` (0: from the clock).
    strength_seed: u64 = "StrengthSeed", Kind::Spin { default: 0, min: 0, max: u32::MAX as i64 }
        => on_strength_seed;
    /// For testing Lazy SMP: how the reported move is chosen among the threads.
    smp_best_move: search::BestMoveChoice = "SMPBestMove",
        Kind::Combo { default: "Vote", vars: &["Vote", "Deepest", "Main"] }
        => on_smp_best_move;
}

/// The default `Hash` in MB.
pub const DEFAULT_HASH_MB: usize = 16;
/// The default `Move Overhead` in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// The machine's memory in MB (the `Hash` maximum), as the system reports it
/// (`/proc/meminfo` on Linux, `GlobalMemoryStatusEx` on Windows, the sysctl
/// `hw.memsize` on macOS), 65536 where it does not say, at most what the table
/// can address: read at the first call (every `setoption` declares the options
/// anew), then remembered.
pub fn machine_memory_mb() -> i64 {
    static MB: OnceLock<i64> = OnceLock::new();
    *MB.get_or_init(|| {
        let mb = super::machine_memory::total_bytes()
            .map_or(65_536, |bytes| i64::try_from(bytes >> 20).unwrap_or(i64::MAX));
        mb.clamp(1, tt::MAX_MB as i64)
    })
}

/// The `Hash` maximum in MB: the machine's memory, or in the WebAssembly
/// build what fits in the module's memory beside one thread; at most what
/// the table can address.
pub fn hash_max_mb() -> i64 {
    match memory_budget::limit_mb() {
        Some(limit) => memory_budget::hash_room(limit, 1).min(tt::MAX_MB) as i64,
        None => machine_memory_mb(),
    }
}

/// The most search threads one engine starts.
pub const MAX_THREADS: usize = 1024;

/// The `Threads` maximum: [`MAX_THREADS`], or in the WebAssembly build what
/// fits in the module's memory beside the smallest table.
pub fn threads_max() -> i64 {
    let fit = memory_budget::limit_mb().map_or(MAX_THREADS, |l| memory_budget::thread_room(l, 1));
    fit.min(MAX_THREADS) as i64
}

impl Default for Settings {
    /// Every option at its declared default.
    fn default() -> Settings {
        let mut settings = Settings::zero();
        for d in declarations() {
            let default = match d.kind {
                Kind::Spin { default, .. } => Value::Spin(default),
                Kind::Check { default } => Value::Check(default),
                Kind::Button => continue,
                Kind::Text { default } => Value::Text(default.to_string()),
                Kind::Combo { default, .. } => Value::Combo(default),
            };
            // A declared default that its own option refuses is a programming error,
            // caught by `every_default_is_accepted_and_is_the_start_value`.
            if let Err(e) = (d.set)(&mut settings, &default) {
                panic!("option '{}': default {default:?} refused: {e}", d.name);
            }
        }
        settings
    }
}

/// Why `setoption` was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown {
        /// The name as given.
        name: String,
    },
    /// A spin value that is not an integer, or outside the declared range.
    OutOfRange {
        /// The option.
        name: &'static str,
        /// The smallest value accepted.
        min: i64,
        /// The largest value accepted.
        max: i64,
        /// The value as given.
        got: String,
    },
    /// A check value that is not `true` or `false`.
    NotBoolean {
        /// The option.
        name: &'static str,
        /// The value as given.
        got: String,
    },
    /// A string value the option cannot use.
    BadText {
        /// The option.
        name: &'static str,
        /// Why.
        reason: String,
    },
    /// A combo value that is not one of the declared choices.
    NotAChoice {
        /// The option.
        name: &'static str,
        /// The choices.
        vars: &'static [&'static str],
        /// The value as given.
        got: String,
    },
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

/// The `option name ...` lines for the `uci` reply: the declared options, then
/// (with the `tune` feature) the search's tunables, by their declared names.
pub fn option_lines() -> Vec<String> {
    let mut lines = declared_option_lines();
    lines.extend(tunable_option_lines());
    lines
}

/// The search's tunables as spin options (`tune` feature).
#[cfg(feature = "tune")]
fn tunable_option_lines() -> Vec<String> {
    search::params::TUNABLES
        .iter()
        .map(|t| {
            let search::params::Tunable { name, default, min, max, .. } = *t;
            format!("option name {name} type spin default {default} min {min} max {max}")
        })
        .collect()
}

/// Without the `tune` feature the tunables are constants, not options.
#[cfg(not(feature = "tune"))]
fn tunable_option_lines() -> Vec<String> {
    Vec::new()
}

fn declared_option_lines() -> Vec<String> {
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

/// Checks `text` against the option's kind.
fn parse_value(decl: &Declaration, text: &str) -> Result<Value, OptionError> {
    let got = || text.to_string();
    match decl.kind {
        Kind::Spin { min, max, .. } => text
            .parse::<i64>()
            .ok()
            .filter(|v| (min..=max).contains(v))
            .map(Value::Spin)
            .ok_or_else(|| OptionError::OutOfRange { name: decl.name, min, max, got: got() }),
        Kind::Check { .. } => match text.to_ascii_lowercase().as_str() {
            "true" => Ok(Value::Check(true)),
            "false" => Ok(Value::Check(false)),
            _ => Err(OptionError::NotBoolean { name: decl.name, got: got() }),
        },
        Kind::Button => Ok(Value::Button),
        Kind::Text { .. } => Ok(Value::Text(text.to_string())),
        Kind::Combo { vars, .. } => vars
            .iter()
            .find(|v| v.eq_ignore_ascii_case(text))
            .map(|v| Value::Combo(v))
            .ok_or_else(|| OptionError::NotAChoice { name: decl.name, vars, got: got() }),
    }
}

/// `setoption name <name> [value <value>]`: the settings after the change,
/// checked completely; `current` is not touched.
pub fn parse_change(
    name: &str,
    value: Option<&str>,
    current: &Settings,
) -> Result<Settings, OptionError> {
    let decls = declarations();
    let decl = decls
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| OptionError::Unknown { name: name.to_string() })?;
    let value = parse_value(decl, value.unwrap_or("").trim())?;
    let mut new = current.clone();
    (decl.set)(&mut new, &value)
        .map_err(|reason| OptionError::BadText { name: decl.name, reason })?;
    Ok(new)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The options that act at once when changed, and only when changed.
    #[test]
    fn an_action_runs_only_for_a_changed_option_that_has_one() {
        let old = Settings::default();
        let acting: Vec<&str> =
            declarations().iter().filter(|d| d.on_change.is_some()).map(|d| d.name).collect();
        assert_eq!(
            acting,
            [
                "Hash",
                "Threads",
                "NumaPolicy",
                "Clear Hash",
                "EvalFile",
                "SyzygyPath",
                "SyzygyProbeDepth",
                "SyzygyProbeLimit",
                "Syzygy50MoveRule",
                "StrengthSeed",
                "SMPBestMove"
            ]
        );
        assert!(declarations().iter().all(|d| d.action(&old, &old).is_none()));
        let new = Settings { hash_mb: 64, multipv: 3, ..old.clone() };
        let fired: Vec<&str> = declarations()
            .iter()
            .filter(|d| d.action(&new, &old).is_some())
            .map(|d| d.name)
            .collect();
        assert_eq!(fired, ["Hash"], "MultiPV changed too, but has no action");
    }

    use search::BestMoveChoice;

    /// What each option must change: a value other than its default, and a test
    /// that the value reached the option's own setting.
    type Expectation = (&'static str, Option<&'static str>, fn(&Settings) -> bool);
    const EXPECTED: [Expectation; 18] = [
        ("Hash", Some("77"), |s| s.hash_mb == 77),
        ("Threads", Some("3"), |s| s.threads == 3),
        ("NumaPolicy", Some("0-3:4-7"), |s| s.numa_policy.to_string() == "0-3:4-7"),
        ("Clear Hash", None, |s| s.clear_hash == Presses(1)),
        ("MultiPV", Some("4"), |s| s.multipv == 4),
        ("Move Overhead", Some("123"), |s| s.move_overhead_ms == 123),
        ("Ponder", Some("true"), |s| s.ponder),
        ("UCI_Chess960", Some("true"), |s| s.chess960),
        ("EvalFile", Some("/nets/x.nnue"), |s| s.eval_file == "/nets/x.nnue"),
        ("SyzygyPath", Some("/tb/345;/tb/6"), |s| s.syzygy_path == "/tb/345;/tb/6"),
        ("SyzygyProbeDepth", Some("8"), |s| s.syzygy_probe_depth == 8),
        ("SyzygyProbeLimit", Some("5"), |s| s.syzygy_probe_limit == 5),
        ("Syzygy50MoveRule", Some("false"), |s| !s.syzygy_50_move_rule),
        ("UCI_ShowWDL", Some("true"), |s| s.show_wdl),
        ("UCI_LimitStrength", Some("true"), |s| s.limit_strength),
        ("UCI_Elo", Some("2000"), |s| s.elo == 2000),
        ("StrengthSeed", Some("42"), |s| s.strength_seed == 42),
        ("SMPBestMove", Some("Deepest"), |s| s.smp_best_move == BestMoveChoice::Deepest),
    ];

    /// Each option changes exactly one setting, its own (issue 11: `Move Overhead`
    /// was the catch-all arm for spins, so a new spin option would have set it).
    #[test]
    fn every_option_reaches_its_own_setting() {
        let declared: Vec<&str> = declarations().iter().map(|d| d.name).collect();
        let expected: Vec<&str> = EXPECTED.iter().map(|e| e.0).collect();
        assert_eq!(declared, expected, "every declared option needs a line in EXPECTED");
        let start = Settings::default();
        for (name, value, reached) in EXPECTED {
            let after = parse_change(name, value, &start)
                .unwrap_or_else(|e| panic!("{name} {value:?}: {e}"));
            let changed = start.changed_fields(&after);
            assert_eq!(changed.len(), 1, "{name} changed {changed:?}");
            assert!(reached(&after), "{name} did not reach its own setting: {after:?}");
        }
    }

    /// The declared defaults are what the engine starts with.
    #[test]
    fn every_default_is_accepted_and_is_the_start_value() {
        let start = Settings::default();
        assert_eq!(start.hash_mb, DEFAULT_HASH_MB);
        assert_eq!(start.threads, 1);
        assert_eq!(start.numa_policy, search::NumaPolicy::Auto);
        assert_eq!(start.multipv, 1);
        assert_eq!(start.move_overhead_ms, DEFAULT_MOVE_OVERHEAD_MS);
        assert!(!start.ponder && !start.chess960);
        assert!(!start.limit_strength, "full strength unless asked");
        assert_eq!(start.smp_best_move, BestMoveChoice::Vote);
        for d in declarations() {
            let value = match d.kind {
                Kind::Spin { default, .. } => Some(default.to_string()),
                Kind::Check { default } => Some(default.to_string()),
                Kind::Button => continue,
                Kind::Text { default } => Some(default.to_string()),
                Kind::Combo { default, .. } => Some(default.to_string()),
            };
            assert_eq!(parse_change(d.name, value.as_deref(), &start).as_ref(), Ok(&start));
        }
    }

    /// Every combo choice is a distinct value.
    #[test]
    fn every_combo_choice_is_its_own_value() {
        for d in declarations() {
            if let Kind::Combo { vars, .. } = d.kind {
                let values: Vec<Settings> = vars
                    .iter()
                    .map(|v| parse_change(d.name, Some(v), &Settings::default()).expect(v))
                    .collect();
                for (i, a) in values.iter().enumerate() {
                    assert!(values[i + 1..].iter().all(|b| a != b), "{}: duplicate", d.name);
                }
            }
        }
    }

    /// The value types of the text and spin options (paths such as SyzygyPath
    /// and EvalFile, depths, limits) take what they should and refuse the rest.
    #[test]
    fn value_types_take_their_kind_of_value() {
        let mut path = String::from("<empty>");
        path.set_from(&Value::Text("/tb/345".into())).unwrap();
        assert_eq!(path, "/tb/345");
        assert!(path.set_from(&Value::Spin(1)).is_err());
        let mut depth = 0u32;
        depth.set_from(&Value::Spin(7)).unwrap();
        assert_eq!(depth, 7);
        assert!(depth.set_from(&Value::Spin(-1)).is_err() && depth == 7);
        let mut limit = 0i32;
        limit.set_from(&Value::Spin(-3)).unwrap();
        assert_eq!(limit, -3);
    }

    /// The search's tunables are spin options in the `tune` build, and only there.
    #[test]
    fn tunables_are_options_only_when_tuning() {
        let lines = option_lines();
        let default = search::params::defaults::rfp_margin;
        let rfp = format!("option name rfp_margin type spin default {default} min 40 max 200");
        assert_eq!(lines.contains(&rfp), cfg!(feature = "tune"));
        let extra = if cfg!(feature = "tune") { search::params::TUNABLES.len() } else { 0 };
        assert_eq!(lines.len(), declarations().len() + extra);
    }

    #[test]
    fn out_of_range_and_unknown_are_refused() {
        let s = Settings::default();
        let refused = |name: &str, value: &str| parse_change(name, Some(value), &s).unwrap_err();
        assert!(matches!(refused("Threads", "0"), OptionError::OutOfRange { .. }));
        assert!(matches!(refused("Threads", "1025"), OptionError::OutOfRange { .. }));
        assert!(matches!(refused("Hash", "lots"), OptionError::OutOfRange { .. }));
        assert!(matches!(refused("Ponder", "yes"), OptionError::NotBoolean { .. }));
        assert!(matches!(refused("Nope", "1"), OptionError::Unknown { .. }));
        assert!(matches!(refused("SMPBestMove", "majority"), OptionError::NotAChoice { .. }));
        assert!(matches!(refused("NumaPolicy", "0-3:"), OptionError::BadText { .. }));
        assert!(matches!(refused("SyzygyProbeLimit", "8"), OptionError::OutOfRange { .. }));
        assert!(matches!(refused("SyzygyProbeDepth", "0"), OptionError::OutOfRange { .. }));
        assert!(matches!(refused("UCI_Elo", "1349"), OptionError::OutOfRange { .. }));
        assert!(matches!(refused("UCI_Elo", "2851"), OptionError::OutOfRange { .. }));
        assert!(matches!(refused("UCI_LimitStrength", "1"), OptionError::NotBoolean { .. }));
        assert_eq!(parse_change("threads", Some("4"), &s).map(|n| n.threads), Ok(4));
        let deepest = parse_change("SMPBestMove", Some("deepest"), &s).map(|n| n.smp_best_move);
        assert_eq!(deepest, Ok(BestMoveChoice::Deepest));
    }
}
