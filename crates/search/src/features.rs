//! Switches for the search techniques, so each can be measured on versus off
//! (self-play SPRT, tactical suites). All are on by default; the UCI option
//! `SearchFeatures` takes a list like `-nmp,-lmr` to turn some off.

/// Which search techniques are enabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// Reverse futility pruning.
    pub rfp: bool,
    /// Null move pruning.
    pub nmp: bool,
    /// Late move reductions.
    pub lmr: bool,
    /// Late move pruning.
    pub lmp: bool,
    /// Futility pruning of quiet moves.
    pub futility: bool,
    /// SEE pruning in the main search.
    pub see: bool,
    /// Internal iterative reduction.
    pub iir: bool,
    /// Check extension.
    pub check_extension: bool,
    /// Aspiration windows.
    pub aspiration: bool,
    /// Lazy SMP: odd-numbered helper threads skip some depths (diversification).
    pub helper_skip: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features {
            rfp: true,
            nmp: true,
            lmr: true,
            lmp: true,
            futility: true,
            see: true,
            iir: true,
            check_extension: true,
            aspiration: true,
            helper_skip: true,
        }
    }
}

impl Features {
    /// The names accepted by [`Features::parse`].
    pub const NAMES: [&'static str; 10] = [
        "rfp",
        "nmp",
        "lmr",
        "lmp",
        "futility",
        "see",
        "iir",
        "checkext",
        "aspiration",
        "helperskip",
    ];

    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "rfp" => &mut self.rfp,
            "nmp" => &mut self.nmp,
            "lmr" => &mut self.lmr,
            "lmp" => &mut self.lmp,
            "futility" => &mut self.futility,
            "see" => &mut self.see,
            "iir" => &mut self.iir,
            "checkext" => &mut self.check_extension,
            "aspiration" => &mut self.aspiration,
            "helperskip" => &mut self.helper_skip,
            _ => return None,
        })
    }

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
        let f = Features::parse("-nmp, -lmr").unwrap();
        assert!(!f.nmp && !f.lmr && f.rfp);
        assert!(Features::parse("-warp").is_err());
    }
}
