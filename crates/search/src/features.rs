//! Switches for the search techniques, so each can be measured on versus off
//! (self-play SPRT, tactical suites). Each is declared `on` or `off` by
//! default (`off`: a new technique until a match decides it; one that is not
//! kept leaves the code, as a patch in docs/experiments/); the UCI option
//! `SearchFeatures` takes a list like `-nmp,-lmr` to change some.

/// Declares every switch once — field, UCI name, default, doc — and derives from
/// that one list the struct, its default, [`Features::NAMES`] and the name lookup.
macro_rules! features {
    (@default on) => { true };
    (@default off) => { false };
    ($($(#[doc = $doc:literal])+ $field:ident = $name:literal $default:ident,)+) => {
        /// Which search techniques are enabled.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct Features {
            $($(#[doc = $doc])+ pub $field: bool,)+
        }

        impl Default for Features {
            fn default() -> Self {
                Features { $($field: features!(@default $default),)+ }
            }
        }

        impl Features {
            /// Every switch on, those declared `off` included.
            pub const ALL: Features = Features { $($field: true,)+ };

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
    rfp = "rfp" on,
    /// Threat guards for reverse futility: no cut while one of the side's pieces
    /// is threatened or an enemy pawn stands on its sixth or seventh rank.
    rfp_threats = "rfpthreats" on,
    /// Null move pruning.
    nmp = "nmp" on,
    /// Late move reductions.
    lmr = "lmr" on,
    /// Late move pruning.
    lmp = "lmp" on,
    /// Futility pruning of quiet moves.
    futility = "futility" on,
    /// SEE pruning in the main search.
    see = "see" on,
    /// Internal iterative reduction.
    iir = "iir" on,
    /// Check extension.
    check_extension = "checkext" on,
    /// Aspiration windows.
    aspiration = "aspiration" on,
    /// Lazy SMP: odd-numbered helper threads skip some depths (diversification).
    helper_skip = "helperskip" on,
    /// Singular extensions, with multi-cut, double and negative extensions.
    singular = "singular" on,
    /// Correction history: the static eval corrected by what searches found.
    correction = "corrhist" on,
    /// Capture history in move ordering and capture pruning.
    capture_history = "capthist" on,
    /// Pruning of quiet moves with bad history at low depth.
    history_pruning = "histprune" on,
    /// Razoring: far below alpha at low depth, trust quiescence.
    razoring = "razor" on,
    /// Futility pruning of captures in quiescence, and the table's bound refining stand pat.
    qs_futility = "qsfutility" on,
    /// "Improving" (the static eval rose since the side's previous move, looking
    /// past a ply in check) in reverse futility, razoring, futility, late move
    /// pruning and late move reductions; off, no node is improving.
    improving = "improving" on,
    /// Time management by the best move's share of nodes and by fail lows.
    time_nodes = "tmnodes" on,
    /// Correction history keyed by each side's pieces other than pawns.
    non_pawn_correction = "npcorr" on,
    /// Correction history keyed by the minor pieces and kings.
    minor_correction = "minorcorr" on,
    /// Correction history keyed by the last two moves (continuation correction).
    continuation_correction = "contcorr" on,
    /// The size of a node's correction in reverse futility (a larger margin)
    /// and late move reductions (less reduction): an eval that needed much
    /// correction is less sure.
    correction_terms = "corrterms" on,
    /// The static eval damped towards 0 as the fifty-move counter grows.
    fifty_move_damping = "fiftydamp" on,
    /// The table's PV flag (the node is or was on a principal variation, kept
    /// in the entries it stores): less late move reduction, a larger reverse
    /// futility margin.
    tt_pv = "ttpv" on,
    /// Late move reductions grow when this node's children keep failing high.
    cutoff_count = "cutoffcnt" on,
    /// After a reduced move beats alpha, its re-search goes a ply deeper when
    /// it beat the best score by far, a ply shallower when barely.
    deeper_shallower = "deepershallower" on,
    /// Late move reductions grow for quiet moves when the hash move is a
    /// capture or promotion (the node's best answer is likely noisy).
    tt_capture = "ttcapture" on,
    /// Stronger negative singular extensions: two plies when the stored score
    /// alone beats beta, one at an expected cut node or when the stored score
    /// is no better than the search without the hash move found.
    singular_negative = "singularneg" on,
    /// A quiet hash move singular by far (at non-PV nodes) is extended three plies.
    triple_extension = "tripleext" on,
    /// Quiescence tries a bounded number of moves: out of check, captures past
    /// the first few that are not recaptures, promotions or checks are skipped;
    /// in check, once a line that avoids mate is known, the quiet evasions past
    /// the first.
    qs_limits = "qslimits" on,
    /// Quiescence's fail highs blended towards beta (stand pat halfway, a
    /// move's score a quarter of the way): less of an overestimate is stored.
    qs_blend = "qsblend" on,
    /// Hindsight: a node reached by a move reduced a lot is searched a ply
    /// deeper when the opponent's eval did not worsen; one reached by a reduced
    /// move after which both sides' evals look good for it, a ply shallower.
    hindsight = "hindsight" on,
    /// Butterfly history in four tables, by whether a quiet move's from- and
    /// to-squares are attacked by the opponent.
    threat_history = "threathist" on,
    /// Pawn-structure history: a quiet move's history under this pawn
    /// structure, in its order.
    pawn_history = "pawnhist" on,
    /// Low-ply history: quiet moves' history at the first plies of this
    /// search, in their order there.
    low_ply_history = "lowplyhist" on,
    /// Quiet moves ordered by threats: up when a piece leaves a square that a
    /// cheaper enemy piece attacks, down when it steps onto one.
    threat_order = "threatorder" on,
}

impl Features {
    /// Parses a comma-separated list of `-name` (off) and `+name` (on) items,
    /// starting from the defaults (an empty string or `default`); `all` turns
    /// every switch on. A name without its sign is an error, as is an unknown one.
    pub fn parse(text: &str) -> Result<Features, String> {
        let mut f = Features::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if item == "all" || item == "default" {
                f = if item == "all" { Features::ALL } else { Features::default() };
                continue;
            }
            let (on, name) = match item.as_bytes()[0] {
                b'-' => (false, &item[1..]),
                b'+' => (true, &item[1..]),
                _ => {
                    return Err(format!(
                        "search feature '{item}' needs a sign: +{item} (on) or -{item} (off)"
                    ));
                }
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
        assert_eq!(Features::parse("all").unwrap(), Features::ALL);
        assert_eq!(Features::parse("all,default").unwrap(), Features::default());
        assert!(!Features::parse("-razor").unwrap().razoring);
        assert!(Features::parse("-razor,+razor").unwrap().razoring);
        let f = Features::parse("-nmp, -lmr").unwrap();
        assert!(!f.nmp && !f.lmr && f.rfp);
        assert_eq!(Features::parse("-nmp,+nmp").unwrap(), Features::default());
        assert!(Features::parse("-warp").is_err());
        // A bare name says neither on nor off.
        let bare = Features::parse("-lmr,nmp").unwrap_err();
        assert!(bare.contains("'nmp' needs a sign"), "{bare}");
    }

    #[test]
    fn every_name_turns_off_its_own_switch_and_no_other() {
        let mut seen = Vec::new();
        for name in Features::NAMES {
            let off = Features::parse(&format!("all,-{name}")).unwrap();
            assert_ne!(off, Features::ALL, "{name} turns nothing off");
            assert!(!seen.contains(&off), "{name} turns off the same switch as another name");
            // Turning it back on restores all on: exactly one switch was touched.
            let mut on = off;
            *on.flag(name).unwrap() = true;
            assert_eq!(on, Features::ALL, "{name}");
            seen.push(off);
        }
        assert!(!Features::parse("-checkext").unwrap().check_extension);
    }
}
