//! Switches for the search techniques, so each can be measured on versus off
//! (self-play SPRT, tactical suites). All are on by default; the UCI option
//! `SearchFeatures` takes a list like `-nmp,-lmr` to turn some off.

/// Declares every switch once — field, UCI name, doc — and derives from that one
/// list the struct, its all-on default, [`Features::NAMES`] and the name lookup.
macro_rules! features {
    ($($(#[doc = $doc:literal])+ $field:ident = $name:literal,)+) => {
        /// Which search techniques are enabled.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct Features {
            $($(#[doc = $doc])+ pub $field: bool,)+
        }

        impl Default for Features {
            fn default() -> Self {
                Features { $($field: true,)+ }
            }
        }

        impl Features {
            /// The names accepted by [`Features::parse`].
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            fn flag(&mut self, name: &str) -> Option<&mut bool> {
                match name {
                    $($name => Some(&mut self.$field),)+
                    _ => None,
                }
            }
        }
    };
}

features! {
    /// Reverse futility pruning.
    rfp = "rfp",
    /// Null move pruning.
    nmp = "nmp",
    /// Late move reductions.
    lmr = "lmr",
    /// Late move pruning.
    lmp = "lmp",
    /// Futility pruning of quiet moves.
    futility = "futility",
    /// SEE pruning in the main search.
    see = "see",
    /// Internal iterative reduction.
    iir = "iir",
    /// Check extension.
    check_extension = "checkext",
    /// Aspiration windows.
    aspiration = "aspiration",
    /// Lazy SMP: odd-numbered helper threads skip some depths (diversification).
    helper_skip = "helperskip",
    /// Singular extensions, with multi-cut, double and negative extensions.
    singular = "singular",
    /// Correction history: the static eval corrected by what searches found.
    correction = "corrhist",
    /// Capture history in move ordering and capture pruning.
    capture_history = "capthist",
    /// Pruning of quiet moves with bad history at low depth.
    history_pruning = "histprune",
    /// ProbCut: a capture that beats beta by a margin in a shallow search cuts.
    probcut = "probcut",
    /// Razoring: far below alpha at low depth, trust quiescence.
    razoring = "razor",
    /// Futility pruning of captures in quiescence, and the table's bound refining stand pat.
    qs_futility = "qsfutility",
    /// "Improving" in every margin (futility, razoring, ProbCut) and looking past
    /// a ply in check.
    improving = "improving",
    /// Time management by the best move's share of nodes and by fail lows.
    time_nodes = "tmnodes",
}

impl Features {
    /// Parses a comma-separated list of `-name` (off) and `+name` (on) items,
    /// starting from all on; an empty string or `all` means all on.
    pub fn parse(text: &str) -> Result<Features, String> {
        let mut f = Features::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty() && *s != "all") {
            let (on, name) = match item.as_bytes()[0] {
                b'-' => (false, &item[1..]),
                b'+' => (true, &item[1..]),
                _ => (false, item),
            };
            let slot = f.flag(name).ok_or_else(|| {
                format!("unknown search feature '{name}' (known: {})", Features::NAMES.join(", "))
            })?;
            *slot = on;
        }
        Ok(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_lists() {
        assert_eq!(Features::parse("").unwrap(), Features::default());
        assert_eq!(Features::parse("all").unwrap(), Features::default());
        let f = Features::parse("-nmp, -lmr").unwrap();
        assert!(!f.nmp && !f.lmr && f.rfp);
        assert_eq!(Features::parse("-nmp,+nmp").unwrap(), Features::default());
        assert!(Features::parse("-warp").is_err());
    }

    #[test]
    fn every_name_turns_off_its_own_switch_and_no_other() {
        let mut seen = Vec::new();
        for name in Features::NAMES {
            let off = Features::parse(&format!("-{name}")).unwrap();
            assert_ne!(off, Features::default(), "{name} turns nothing off");
            assert!(!seen.contains(&off), "{name} turns off the same switch as another name");
            // Turning it back on restores the default: exactly one switch was touched.
            let mut on = off;
            *on.flag(name).unwrap() = true;
            assert_eq!(on, Features::default(), "{name}");
            seen.push(off);
        }
        assert!(!Features::parse("-checkext").unwrap().check_extension);
    }
}
