//! UCI options, declared once: the same table prints `option name ...` and
//! parses and range-checks `setoption`.

use std::fmt;

/// The kinds of UCI option this engine declares.
enum Kind {
    Check { default: bool },
}

/// One declared option.
struct Declaration {
    name: &'static str,
    kind: Kind,
}

const DECLARATIONS: &[Declaration] =
    &[Declaration { name: "UCI_Chess960", kind: Kind::Check { default: false } }];

/// The current option values.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Chess960 castling notation (king takes rook) in and out.
    pub chess960: bool,
}

/// Why `setoption` was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown { name: String },
    /// A value of the wrong kind (e.g. not `true`/`false` for a check option).
    BadValue { name: &'static str, value: String, expected: &'static str },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { name } => write!(f, "unknown option '{name}'"),
            OptionError::BadValue { name, value, expected } => {
                write!(f, "option '{name}' takes {expected}, not '{value}'")
            }
        }
    }
}

/// The `option name ...` lines for the `uci` reply.
pub fn declarations() -> Vec<String> {
    DECLARATIONS
        .iter()
        .map(|d| match d.kind {
            Kind::Check { default } => {
                format!("option name {} type check default {default}", d.name)
            }
        })
        .collect()
}

impl Options {
    /// Applies `setoption name <name> [value <value>]`; on error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let decl = DECLARATIONS
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| OptionError::Unknown { name: name.to_string() })?;
        let value = value.unwrap_or("");
        match decl.kind {
            Kind::Check { .. } => {
                let v = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(OptionError::BadValue {
                            name: decl.name,
                            value: value.to_string(),
                            expected: "true or false",
                        });
                    }
                };
                if decl.name == "UCI_Chess960" {
                    self.chess960 = v;
                }
            }
        }
        Ok(())
    }
}
