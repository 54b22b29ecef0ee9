//! Search margins, reductions and limits, in one place, ordered by the step of
//! `Worker::search` that uses them (see docs/search.md).
//!
//! What each technique was measured to be worth, and how the margins were
//! chosen, is recorded in docs/search.md.
//!
//! Every parameter is declared once, in `tunables!`, and read the same way:
//! through an accessor of its name (`rfp_margin()`, `iir_min_depth()`). A
//! tunable entry carries its default, range and step: its accessor is a
//! `const fn` returning the default in the default build, so the search
//! compiles to the same constants, and with the `tune` feature an atomic that
//! `setoption` sets, so that a tuner can move it. A `fixed` entry carries its
//! type and value: its accessor is a `const fn` in every build, and tuning does
//! not see it. Only the two array-sizing limits ([`MAX_SEARCH_PLY`],
//! [`MAX_ITERATION_DEPTH`]) are plain constants, since types are sized by them.

#[cfg(feature = "tune")]
use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable parameter, as declared in `tunables!`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tunable {
    /// The name: of its accessor, its UCI option and its SPSA line.
    pub name: &'static str,
    /// The value the search uses unless told otherwise.
    pub default: i32,
    /// The hand-set value before any tuning run moved it (the default where
    /// none did): the table in docs/search.md shows both.
    pub hand_set: i32,
    /// The smallest value accepted.
    pub min: i32,
    /// The largest value accepted.
    pub max: i32,
    /// SPSA's perturbation at the end of a run (OpenBench's `c_end`).
    pub step: i32,
    /// What it is, from its doc comment.
    pub doc: &'static str,
}

/// One fixed parameter, as declared in `tunables!`: a value the search
/// reads through its accessor, which tuning does not move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fixed {
    /// The name of its accessor.
    pub name: &'static str,
    /// Its value, as declared.
    pub value: &'static str,
    /// What it is, from its doc comment.
    pub doc: &'static str,
}

/// SPSA's learning rate at the end of a run (OpenBench's `r_end`), the same
/// for every parameter.
pub const SPSA_R_END: f64 = 0.002;

impl Tunable {
    /// The parameter's line of OpenBench's SPSA input:
    /// `name, int, default, min, max, c_end, r_end`.
    pub fn spsa_line(&self) -> String {
        let Tunable { name, default, min, max, step, .. } = *self;
        format!("{name}, int, {default}, {min}, {max}, {step}, {SPSA_R_END}")
    }
}

/// Declares every parameter once, each entry under its doc comment:
///
/// - a tunable: `name = default, min..=max, step N;`, or `name = default was
///   N, …` when a tuning run replaced the hand-set value N. A default is one
///   token tree: a literal, a negative one in parentheses (`(-20)`), or a
///   constant declared elsewhere in braces (`{ tt::Replacement::DEFAULT.age_weight }`).
///   From these come [`TUNABLES`], [`defaults`], the accessors (constants by
///   default, atomics with the `tune` feature) and, under `tune`, `set`;
/// - a fixed parameter: `fixed name: type = value;`. From these come [`FIXED`]
///   and the accessors (`const fn` in every build).
///
/// The entries may be mixed, so that the list reads in the order of the steps.
macro_rules! tunables {
    (@hand_set $default:tt) => { $default };
    (@hand_set $default:tt, $was:literal) => { $was };
    // Sorts the entries into the tunables and the fixed parameters, keeping each list's order.
    (@sort [$($tuned:tt)*] [$($fixed:tt)*]
        $(#[doc = $doc:literal])+ fixed $name:ident: $ty:ty = $value:expr; $($rest:tt)*) => {
        tunables!(@sort [$($tuned)*] [$($fixed)* $(#[doc = $doc])+ $name: $ty = $value;] $($rest)*);
    };
    (@sort [$($tuned:tt)*] [$($fixed:tt)*]
        $(#[doc = $doc:literal])+ $name:ident = $default:tt $(was $was:literal)?,
        $min:literal..=$max:literal, step $step:literal; $($rest:tt)*) => {
        tunables!(@sort
            [$($tuned)* $(#[doc = $doc])+ $name = $default $(was $was)?, $min..=$max, step $step;]
            [$($fixed)*] $($rest)*);
    };
    (@sort [$($tuned:tt)*] [$($fixed:tt)*]) => {
        tunables!(@tuned $($tuned)*);
        tunables!(@fixed $($fixed)*);
    };
    (@fixed $($(#[doc = $doc:literal])+ $name:ident: $ty:ty = $value:expr;)*) => {
        /// Every fixed parameter, in declaration order.
        pub const FIXED: &[Fixed] = &[$(Fixed {
            name: stringify!($name),
            value: stringify!($value),
            doc: concat!($($doc),+),
        },)*];

        $(
            $(#[doc = $doc])+
            #[inline(always)]
            pub const fn $name() -> $ty {
                $value
            }
        )*
    };
    (@tuned $($(#[doc = $doc:literal])+ $name:ident = $default:tt $(was $was:literal)?, $min:literal..=$max:literal, step $step:literal;)+) => {
        /// Every tunable parameter, in declaration order.
        pub const TUNABLES: &[Tunable] = &[$(Tunable {
            name: stringify!($name),
            default: defaults::$name,
            hand_set: tunables!(@hand_set $default $(, $was)?),
            min: $min,
            max: $max,
            step: $step,
            doc: concat!($($doc),+),
        },)+];

        /// The declared defaults, as constants (what the default build's accessors return).
        #[allow(non_upper_case_globals, unused_parens, unused_braces)]
        pub mod defaults {
            $($(#[doc = $doc])+ pub const $name: i32 = $default;)+
        }

        $(
            $(#[doc = $doc])+
            #[cfg(not(feature = "tune"))]
            #[inline(always)]
            pub const fn $name() -> i32 {
                defaults::$name
            }
        )+

        /// The index of each tunable in [`TUNABLES`] and `VALUES`.
        #[cfg(feature = "tune")]
        #[allow(non_camel_case_types)]
        #[repr(usize)]
        enum Index {
            $($name,)+
        }

        /// The current value of every tunable, in [`TUNABLES`] order.
        #[cfg(feature = "tune")]
        static VALUES: [AtomicI32; TUNABLES.len()] = [$(AtomicI32::new(defaults::$name),)+];

        $(
            $(#[doc = $doc])+
            #[cfg(feature = "tune")]
            #[inline(always)]
            pub fn $name() -> i32 {
                VALUES[Index::$name as usize].load(Ordering::Relaxed)
            }
        )+
    };
    ($($entries:tt)+) => {
        tunables!(@sort [] [] $($entries)+);
    };
}

/// Sets tunable `name` (as declared, any case) to `value`, and rebuilds what
/// depends on it (the LMR table). Values outside the declared range are refused.
#[cfg(feature = "tune")]
pub fn set(name: &str, value: i32) -> Result<(), String> {
    let i = TUNABLES
        .iter()
        .position(|t| t.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown tunable '{name}'"))?;
    let t = &TUNABLES[i];
    if !(t.min..=t.max).contains(&value) {
        return Err(format!("{} takes {} to {}, not {value}", t.name, t.min, t.max));
    }
    VALUES[i].store(value, Ordering::Relaxed);
    rebuild_lmr();
    Ok(())
}

/// The tunable declared as `name` (any case).
pub fn find(name: &str) -> Option<&'static Tunable> {
    TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
}

tunables! {
    // Step 3b. Tablebases.
    /// A tablebase verdict is stored this much deeper than the node's depth: it is
    /// exact, and should outlive ordinary entries (Stockfish stores `depth + 6`).
    fixed tb_depth_bonus: i32 = 6;

    // Step 5. Reverse futility pruning.
    /// Reverse futility: a node whose static eval beats beta by this much per ply is cut.
    rfp_margin = 92 was 90, 40..=200, step 10;
    /// Reverse futility applies up to this depth.
    rfp_max_depth = 5, 3..=10, step 1;

    // Step 5b. Razoring.
    /// Razoring: eval + this margin per ply of depth below alpha hands the node to quiescence.
    razor_margin = 249 was 250, 100..=500, step 25;
    /// Razoring applies up to this depth.
    razor_max_depth = 1 was 3, 1..=6, step 1;

    // Step 6. Null move pruning.
    /// Null move applies from this depth.
    fixed nmp_min_depth: i32 = 3;
    /// The null move's reduction: a base ...
    nmp_base_reduction = 4 was 3, 1..=6, step 1;
    /// ... plus one ply per this many plies of depth ...
    nmp_depth_divisor = 3, 2..=6, step 1;
    /// ... plus one ply per this many centipawns the eval exceeds beta by ...
    nmp_eval_divisor = 196 was 200, 80..=400, step 20;
    /// ... up to this many.
    nmp_max_eval_reduction = 3, 1..=6, step 1;
    /// From this depth a null-move cutoff is verified by a reduced normal search (zugzwang guard).
    fixed nmp_verify_depth: i32 = 12;
    /// In a verification search, the side that passed may not pass again for this
    /// percentage of the verification's depth, in plies.
    fixed nmp_verify_plies_percent: i32 = 75;

    // Step 4. Static evaluation: correction history (the weighted sum of the
    // tables; 256 = 1).
    /// The pawn table's weight in the correction.
    corr_pawn_weight = 128, 0..=512, step 16;
    /// The material table's weight.
    corr_material_weight = 96, 0..=512, step 16;
    /// The weight of each side's non-pawn table.
    corr_non_pawn_weight = 64, 0..=512, step 16;
    /// The minor-piece table's weight.
    corr_minor_weight = 64, 0..=512, step 16;
    /// The continuation table's weight.
    corr_cont_weight = 64, 0..=512, step 16;
    /// Fifty-move damping: the static eval is scaled by (this − halfmove clock) / this.
    fifty_move_damping_base = 200, 120..=400, step 20;
    /// The weights of the correction tables are in 1/this.
    fixed correction_kind_weight_scale: i32 = 256;
    /// Reverse futility's margin grows by the size of the node's correction
    /// times this, in 1/`rfp_correction_unit`.
    rfp_correction_scale = 32, 0..=128, step 8;
    /// The unit of `rfp_correction_scale`.
    fixed rfp_correction_unit: i32 = 64;
    /// A correction at least this large (centipawns) reduces a late move one
    /// ply less.
    lmr_correction_threshold = 24, 4..=64, step 4;

    // Steps 5 and 11 (the table's PV flag, the cutoff count, the re-search's depth).
    /// Reverse futility's margin grows by this at a node that is or was on a PV.
    rfp_tt_pv_margin = 40, 0..=150, step 10;
    /// More than this many children failing high adds a ply of reduction.
    lmr_cutoff_count = 2, 1..=6, step 1;
    /// A reduced move that beat the best score by this
    /// plus `lmr_deeper_per_depth` × the new depth is re-searched a ply deeper ...
    lmr_deeper_margin = 43, 10..=100, step 6;
    /// ... and one that beat it by less than this, a ply shallower.
    lmr_shallower_margin = 9, 0..=40, step 3;
    /// The deeper re-search's margin per ply of new depth.
    fixed lmr_deeper_per_depth: i32 = 2;

    // Step 7. Internal iterative reduction.
    /// Internal iterative reduction applies from this depth when there is no hash move ...
    fixed iir_min_depth: i32 = 4;
    /// ... and reduces the node by this many plies.
    fixed iir_reduction: i32 = 1;

    // Step 9. Pruning at shallow depth: late move pruning, futility pruning, SEE
    // pruning, history pruning.
    /// Late move pruning applies up to this depth.
    fixed lmp_max_depth: i32 = 8;
    /// Late move pruning: an improving node tries this many quiet moves plus the
    /// depth squared before skipping the rest ...
    fixed lmp_base: i32 = 3;
    /// ... and a node that is not improving that number divided by this.
    fixed lmp_not_improving_divisor: i32 = 2;
    /// Futility: quiet moves are skipped when eval + this + `futility_per_depth` × depth cannot reach alpha.
    futility_base = 79 was 80, 20..=200, step 10;
    /// Futility's margin per ply of (reduced) depth.
    futility_per_depth = 85 was 90, 40..=200, step 10;
    /// Futility applies up to this (reduced) depth.
    futility_max_depth = 9 was 8, 4..=12, step 1;
    /// SEE pruning of quiet moves: threshold per squared ply of (reduced) depth.
    see_quiet_margin = (-20) was -25, -80..=-5, step 5;
    /// SEE pruning of captures: threshold per ply of depth.
    see_noisy_margin = (-95) was -100, -200..=-30, step 10;
    /// SEE pruning of captures applies up to this depth.
    fixed see_noisy_max_depth: i32 = 8;
    /// Capture history shifts the SEE threshold of a capture by 1 cp per this much history.
    see_capture_history_divisor = 64, 16..=256, step 12;
    /// History pruning: quiet moves whose history is below minus this × depth are skipped.
    history_pruning_margin = 2103 was 2048, 512..=8192, step 256;
    /// History pruning applies up to this (reduced) depth.
    fixed history_pruning_max_depth: i32 = 4;

    // Step 10. Singular extensions.
    /// Singular extensions apply from this depth ...
    singular_min_depth = 7 was 8, 4..=12, step 1;
    /// ... to a hash move whose entry is at most this many plies shallower than the node.
    singular_tt_depth_margin = 3, 1..=6, step 1;
    /// The singular beta is the stored score minus this much per ply of depth.
    singular_margin_per_depth = 2 was 1, 1..=4, step 1;
    /// The search without the hash move goes to the node's depth, less one, divided by this.
    fixed singular_depth_divisor: i32 = 2;
    /// A move singular by this much more (at non-PV nodes) is extended twice.
    double_extension_margin = 18 was 20, 5..=60, step 5;
    /// Double extensions: at most this many along a line.
    fixed max_double_extensions: u8 = 6;
    /// A quiet hash move singular by this much more (at non-PV nodes) is
    /// extended three plies.
    triple_extension_margin = 80, 30..=200, step 10;

    // Step 10b. Check extension.
    /// Extensions stop at this many times the iteration's depth ...
    fixed extension_ply_factor: i32 = 2;
    /// ... counting an iteration shallower than this as this deep (so perpetual-check
    /// lines cannot run the search to the ply limit).
    fixed extension_min_root_depth: i32 = 8;

    // Step 11. Late move reductions.
    /// Late move reductions apply from this depth.
    fixed lmr_min_depth: i32 = 3;
    /// Hindsight: a node whose parent reduced it by at least this many plies
    /// is searched a ply deeper (unless the opponent's eval worsened) ...
    fixed hindsight_deeper_reduction: i32 = 3;
    /// ... and one reduced at all, at least two plies deep, a ply shallower
    /// when the two sides' evals before and after the move sum to more than this.
    hindsight_shallower_margin = 80, 20..=200, step 10;
    /// Late move reductions are summed in this many parts of a ply, and the
    /// sum is cut to whole plies at the end.
    fixed lmr_unit: i32 = 1024;
    /// The LMR table's constant term, in hundredths of a ply.
    lmr_base = 63 was 50, 0..=150, step 10;
    /// The LMR table's divisor of `ln(depth) × ln(move number)`, in hundredths.
    lmr_divisor = 245 was 250, 150..=400, step 15;
    /// A quiet move's reduction shrinks by one ply per this much history (and grows for bad history).
    lmr_history_divisor = 7993 was 8192, 2048..=16384, step 512;
    /// A capture's reduction, after the adjustments, is divided by this.
    fixed lmr_noisy_divisor: i32 = 2;
    /// A move at a node off the principal variation is reduced this much more (in `lmr_unit`s).
    lmr_not_pv = 1024, 0..=2048, step 128;
    /// A move at an expected cut node is reduced this much more (in `lmr_unit`s).
    lmr_cut_node = 1024, 0..=3072, step 128;
    /// A move at a node that is not improving is reduced this much more (in `lmr_unit`s).
    lmr_not_improving = 1024, 0..=2048, step 128;
    /// A move that gives check is reduced this much less (in `lmr_unit`s).
    lmr_gives_check = 1024, 0..=2048, step 128;
    /// A killer or the counter move is reduced this much less (in `lmr_unit`s).
    lmr_refutation = 1024, 0..=2048, step 128;
    /// A move at a node with a large correction is reduced this much less (in `lmr_unit`s).
    lmr_correction = 1024, 0..=2048, step 128;
    /// A move at a node that is or was on a principal variation is reduced this much less (in `lmr_unit`s).
    lmr_tt_pv = 1024, 0..=2048, step 128;
    /// A move whose siblings keep failing high is reduced this much more (in `lmr_unit`s).
    lmr_cutoffs = 1024, 0..=2048, step 128;
    /// A quiet move where the hash move is noisy is reduced this much more (in `lmr_unit`s).
    lmr_tt_capture = 1024, 0..=2048, step 128;

    // Move ordering (`picker.rs`).
    /// Noisy moves are ordered by MVV-LVA: the victim's SEE value times this, less the attacker's rank.
    fixed mvv_victim_weight: i32 = 8;
    /// An underpromotion's ordering term (a queen promotion adds the queen's SEE value).
    fixed underpromotion_order: i32 = -2000;
    /// A noisy move's order is MVV-LVA times this ...
    fixed capture_order_mvv_weight: i32 = 4;
    /// ... plus its capture history divided by this.
    fixed capture_order_history_divisor: i32 = 8;
    /// In check, noisy evasions are ordered above the quiet ones by this much.
    fixed noisy_evasion_bonus: i32 = 1_000_000;
    /// A capture whose SEE is at least this (it does not lose material) is tried
    /// among the good ones; a quiet check in quiescence, or its hash move, is tried
    /// only then.
    fixed good_see_threshold: i32 = 0;
    /// Threats in quiet ordering: a knight or bishop leaving a square an enemy pawn attacks
    /// for a safe one is ordered up by 100 times this, one stepping onto such a
    /// square down by 95 times this.
    order_threat_minor = 48, 0..=144, step 8;
    /// Threats in quiet ordering: the same for a rook and squares pawns or minor pieces attack.
    order_threat_rook = 85, 0..=256, step 12;
    /// Threats in quiet ordering: the same for a queen and squares pawns, minor pieces or rooks attack.
    order_threat_queen = 172, 0..=512, step 24;

    // History (`history.rs`), read by move ordering, pruning and reductions.
    /// The largest magnitude a history value reaches (the gravity formula keeps it there).
    fixed history_max: i32 = 16_384;
    /// The history bonus of the move that caused a cutoff is this much per ply of depth ...
    history_bonus_per_depth = 150, 50..=400, step 20;
    /// ... less this ...
    history_bonus_offset = 100, 0..=400, step 25;
    /// ... up to this.
    history_bonus_max = 1500, 500..=4000, step 150;
    /// The malus of each move tried before it is this much per ply of depth ...
    history_malus_per_depth = 150, 50..=800, step 30;
    /// ... less this ...
    history_malus_offset = 100, 0..=400, step 25;
    /// ... up to this.
    history_malus_max = 1500, 500..=4000, step 150;
    /// Low-ply history counts this many times in a quiet move's
    /// order, divided by one more than the ply.
    fixed low_ply_history_weight: i32 = 4;

    // Step 14. Correction history (`correction.rs`).
    /// The largest correction an entry holds, in centipawns.
    fixed correction_max: i32 = 64;
    /// An update moves an entry `min(depth + 1, this)` of `correction_weight_scale`
    /// parts of the way towards the search's result.
    fixed correction_max_weight: i32 = 16;
    /// The parts of the way an update's weight counts in.
    fixed correction_weight_scale: i32 = 256;

    // Quiescence.
    /// Quiescence futility: a capture whose victim cannot lift stand pat plus this margin to alpha is skipped.
    qs_futility_margin = 166 was 150, 50..=300, step 15;
    /// Quiescence futility: when stand pat plus the margin cannot reach alpha, a capture
    /// is skipped unless its SEE is at least this (it wins material).
    fixed qs_futility_see_threshold: i32 = 1;
    /// Out of check, quiescence tries at most this many captures
    /// that are not recaptures, promotions or checks ...
    fixed qs_capture_limit: usize = 3;
    /// ... and in check, once a line that avoids mate is known, at most this
    /// many quiet evasions.
    fixed qs_quiet_evasion_limit: usize = 1;

    // Aspiration windows.
    /// Aspiration windows apply from this depth on.
    fixed aspiration_min_depth: i32 = 5;
    /// Aspiration windows start at this half-width (centipawns).
    aspiration_window = 18 was 20, 8..=50, step 3;
    /// On each fail the window's half-width grows by itself divided by this ...
    fixed aspiration_growth_divisor: i32 = 2;
    /// ... and the window opens fully once the half-width grows past this.
    fixed aspiration_max_window: i32 = 1000;

    // Time management.
    /// Moves the clock is spread over when the GUI gives no `movestogo`.
    time_horizon_moves = 40, 15..=60, step 3;
    /// Hundredths of a move the horizon shrinks for each full move past move 40
    /// (and grows for each move before it), between 15 and 60 moves: spends
    /// less of the clock just out of the opening and more in the middlegame.
    time_horizon_slope = 0, 0..=100, step 10;
    /// The full move at which the horizon is `time_horizon_moves` whatever its slope.
    fixed time_horizon_pivot_move: i32 = 40;
    /// The sloped horizon is at least this many moves ...
    fixed time_horizon_min_moves: i32 = 15;
    /// ... and at most this many.
    fixed time_horizon_max_moves: i32 = 60;
    /// The clock is spread over at most this many moves (`movestogo` or the horizon).
    fixed time_max_moves_to_go: u32 = 50;
    /// Beyond the move overhead, 1/this of the clock is kept in reserve.
    fixed time_reserve_divisor: u32 = 50;
    /// Hundredths of the increment added to each move's share of the clock.
    time_increment_share = 75, 50..=100, step 5;
    /// The soft limit is at most this fraction (numerator, denominator) of the usable time.
    fixed time_soft_max_fraction: (u32, u32) = (2, 5);
    /// The hard limit is at most this many times a move's share ...
    fixed time_hard_per_move_factor: u32 = 4;
    /// ... and at most this fraction of the usable time ...
    fixed time_hard_max_fraction: (u32, u32) = (1, 3);
    /// ... or this fraction when the clock is for one move.
    fixed time_hard_max_fraction_last_move: (u32, u32) = (4, 5);
    /// Hundredths: the next iteration is predicted to take this much of the last one's time
    /// (0: no prediction; an iteration is started whenever the soft limit has not passed).
    time_iteration_growth = 0, 0..=400, step 15;
    /// An iteration is not started when the soft limit would pass before its predicted
    /// length divided by this is spent.
    fixed time_iteration_divisor: u32 = 2;
    // In hundredths.
    /// The soft time limit's scale when the best move just changed ...
    time_scale_unstable = 140, 100..=200, step 5;
    /// ... less this much for each iteration it stayed the same.
    time_scale_per_stable_iteration = 15, 5..=30, step 2;
    /// The stability scale counts up to this many iterations of the same best move.
    fixed time_max_stable_iterations: u32 = 5;
    /// The node-share and fail-low scales of the soft limit apply from this depth.
    fixed time_nodes_min_depth: i32 = 6;
    /// The node-share scale is `(this − share) × time_nodes_factor`.
    time_nodes_base = 150, 110..=200, step 5;
    /// The node-share scale's factor.
    time_nodes_factor = 135, 80..=200, step 8;
    /// After a fail low the soft limit grows by 1 % per this many centipawns of drop ...
    time_fail_low_cp_per_percent = 2, 1..=6, step 1;
    /// ... up to this factor.
    time_fail_low_max = 150, 100..=250, step 8;

    // Threads and ranks.
    /// The best move is voted for by the threads, each with weight (score − the
    /// worst thread's score + this) × depth, so that even the worst line counts.
    fixed vote_score_offset: i32 = 10;
    /// Odd helper threads skip a depth from this depth on ...
    fixed helper_skip_min_depth: i32 = 4;
    /// ... once in this many depths.
    fixed helper_skip_period: i32 = 3;
    /// On the clock, the main thread waits for the other ranks of a cluster at most
    /// the move overhead divided by this.
    fixed cluster_wait_divisor: u32 = 2;

    // The transposition table's replacement policy (`tt::Replacement`, docs/tt.md).
    /// Replacement: one search of an entry's age counts as this many plies of depth lost.
    tt_age_weight = { tt::Replacement::DEFAULT.age_weight }, 1..=16, step 1;
    /// Replacement: a same-key store this many plies shallower (and not exact) keeps the deeper entry.
    tt_shallow_margin = { tt::Replacement::DEFAULT.shallow_margin }, 1..=8, step 1;
    /// Replacement: an entry stored by a PV node counts as this many plies deeper.
    tt_pv_bonus = { tt::Replacement::DEFAULT.pv_bonus }, 0..=8, step 1;
}

/// The table's replacement policy from the `tt_*` tunables (in the default
/// build, `tt::Replacement::DEFAULT`).
pub fn replacement() -> tt::Replacement {
    tt::Replacement {
        age_weight: tt_age_weight(),
        shallow_margin: tt_shallow_margin(),
        pv_bonus: tt_pv_bonus(),
    }
}

/// Deepest ply the search reaches (arrays are sized by it).
pub const MAX_SEARCH_PLY: usize = 128;
/// Deepest iteration of iterative deepening (`go depth` is clamped to it).
pub const MAX_ITERATION_DEPTH: i32 = 100;

// A mate or tablebase result within the ply limit is a score the table can
// hold, and an iteration's depth is a depth it stores exactly.
const _: () = assert!(MAX_SEARCH_PLY as i32 <= tt::MAX_SCORE_PLY);
const _: () = assert!(MAX_ITERATION_DEPTH <= tt::MAX_STORED_DEPTH);

/// In a verification search of depth `depth`, the side that passed may not pass
/// again for this many plies.
pub const fn nmp_verification_plies(depth: i32) -> usize {
    if depth > 0 { (nmp_verify_plies_percent() * depth / 100) as usize } else { 0 }
}

/// How many plies shallower than the node the null move's reply is searched.
#[inline(always)]
pub fn nmp_reduction(depth: i32, eval_over_beta: i32) -> i32 {
    let by_eval = (eval_over_beta / nmp_eval_divisor()).min(nmp_max_eval_reduction());
    nmp_base_reduction() + depth / nmp_depth_divisor() + by_eval
}

/// The late move pruning limit: quiet moves tried before the rest are skipped.
pub const fn lmp_limit(depth: i32, improving: bool) -> usize {
    let base = lmp_base() + depth * depth;
    (if improving { base } else { base / lmp_not_improving_divisor() }) as usize
}

/// Extensions stop at this ply: `extension_ply_factor` times the iteration's
/// depth, counting an iteration as at least `extension_min_root_depth` deep.
pub const fn extension_ply_limit(root_depth: i32) -> i32 {
    let depth = if root_depth > extension_min_root_depth() {
        root_depth
    } else {
        extension_min_root_depth()
    };
    extension_ply_factor() * depth
}

/// The size of the LMR table in each dimension: depths and move numbers from
/// here on share the last entry.
const LMR_TABLE: usize = 64;

/// The late move reduction of the `moves`-th move at `depth` (each counted as
/// at most 63), before the adjustments of Step 11, in `lmr_unit`s:
/// `lmr_unit × (lmr_base + ln(depth) ln(moves) / lmr_divisor)`.
#[cfg(not(feature = "tune"))]
#[inline(always)]
pub fn lmr_reduction(depth: usize, moves: usize) -> i32 {
    LMR[depth.min(LMR_TABLE - 1)][moves.min(LMR_TABLE - 1)]
}

/// See the default build's `lmr_reduction`; here read from the rebuilt table.
#[cfg(feature = "tune")]
#[inline(always)]
pub fn lmr_reduction(depth: usize, moves: usize) -> i32 {
    LMR[depth.min(LMR_TABLE - 1)][moves.min(LMR_TABLE - 1)].load(Ordering::Relaxed)
}

/// The late move reductions, `[depth][move number]`, computed at compile time.
#[cfg(not(feature = "tune"))]
static LMR: [[i32; LMR_TABLE]; LMR_TABLE] = lmr_table(defaults::lmr_base, defaults::lmr_divisor);

/// The late move reductions, rebuilt by [`set`] from the current coefficients
/// (their defaults at start-up).
#[cfg(feature = "tune")]
static LMR: [[AtomicI32; LMR_TABLE]; LMR_TABLE] = {
    let table = lmr_table(defaults::lmr_base, defaults::lmr_divisor);
    let mut atomics = [const { [const { AtomicI32::new(0) }; LMR_TABLE] }; LMR_TABLE];
    let mut d = 0;
    while d < LMR_TABLE {
        let mut m = 0;
        while m < LMR_TABLE {
            atomics[d][m] = AtomicI32::new(table[d][m]);
            m += 1;
        }
        d += 1;
    }
    atomics
};

#[cfg(feature = "tune")]
fn rebuild_lmr() {
    let table = lmr_table(lmr_base(), lmr_divisor());
    for (row, values) in LMR.iter().zip(table) {
        for (entry, value) in row.iter().zip(values) {
            entry.store(value, Ordering::Relaxed);
        }
    }
}

const fn ln(x: f64) -> f64 {
    // Natural log by range reduction and the atanh series (const fn: no std float math).
    let mut y = x;
    let mut k = 0.0;
    while y > 1.5 {
        y /= std::f64::consts::E;
        k += 1.0;
    }
    let z = (y - 1.0) / (y + 1.0);
    let z2 = z * z;
    let mut term = z;
    let mut sum = 0.0;
    let mut n = 1.0;
    while n < 41.0 {
        sum += term / n;
        term *= z2;
        n += 2.0;
    }
    k + 2.0 * sum
}

/// The LMR table (in `lmr_unit`s) for coefficients `base` and `divisor` (hundredths).
const fn lmr_table(base: i32, divisor: i32) -> [[i32; LMR_TABLE]; LMR_TABLE] {
    let base = base as f64 / 100.0;
    let divisor = divisor as f64 / 100.0;
    let unit = lmr_unit() as f64;
    let mut t = [[0; LMR_TABLE]; LMR_TABLE];
    let mut d = 1;
    while d < LMR_TABLE {
        let mut m = 1;
        while m < LMR_TABLE {
            t[d][m] = (unit * (base + ln(d as f64) * ln(m as f64) / divisor)) as i32;
            m += 1;
        }
        d += 1;
    }
    t
}

/// A tunable in hundredths, as a factor.
#[inline]
pub fn hundredths(value: i32) -> f64 {
    f64::from(value) / 100.0
}

/// OpenBench's SPSA input, one line per tunable:
/// `name, int, default, min, max, c_end, r_end`.
pub fn spsa_lines() -> Vec<String> {
    TUNABLES.iter().map(Tunable::spsa_line).collect()
}

/// The Markdown table of the tunables (docs/search.md holds a copy, kept equal by a test).
pub fn markdown_table() -> String {
    let mut text = String::from("| name | default | hand-set | min | max | step | what it is |\n");
    text.push_str("|---|---:|---:|---:|---:|---:|---|\n");
    for t in TUNABLES {
        let doc = t.doc.split_whitespace().collect::<Vec<_>>().join(" ");
        text.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |\n",
            t.name, t.default, t.hand_set, t.min, t.max, t.step, doc
        ));
    }
    text
}

/// The Markdown table of the fixed parameters (docs/search.md holds a copy, kept
/// equal by a test).
pub fn fixed_markdown_table() -> String {
    let mut text = String::from("| name | value | what it is |\n");
    text.push_str("|---|---:|---|\n");
    for f in FIXED {
        let doc = f.doc.split_whitespace().collect::<Vec<_>>().join(" ");
        text.push_str(&format!("| `{}` | {} | {} |\n", f.name, f.value, doc));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn const_ln_is_accurate() {
        for x in [1.0f64, 2.0, 3.5, 10.0, 63.0] {
            assert!((ln(x) - x.ln()).abs() < 1e-9, "{x}");
        }
    }

    #[test]
    fn declarations_are_consistent() {
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min <= t.default && t.default <= t.max, "{}: default out of range", t.name);
            assert!((t.min..=t.max).contains(&t.hand_set), "{}: hand-set out of range", t.name);
            assert!(t.step > 0 && t.step <= t.max - t.min, "{}: step", t.name);
            assert!(!t.doc.trim().is_empty(), "{}: no doc", t.name);
            assert!(TUNABLES[..i].iter().all(|u| u.name != t.name), "{}: twice", t.name);
            assert_eq!(find(&t.name.to_uppercase()), Some(t));
        }
        for (i, f) in FIXED.iter().enumerate() {
            assert!(!f.doc.trim().is_empty(), "{}: no doc", f.name);
            assert!(FIXED[..i].iter().all(|g| g.name != f.name), "{}: twice", f.name);
            assert!(find(f.name).is_none(), "{}: tunable and fixed", f.name);
        }
    }

    /// A fixed parameter's accessor returns its declared value; the table lists it once.
    #[test]
    fn fixed_parameters_are_their_declared_values() {
        assert_eq!(iir_min_depth(), 4);
        assert_eq!(time_soft_max_fraction(), (2, 5));
        let row = FIXED.iter().find(|f| f.name == "iir_min_depth").expect("declared");
        assert_eq!(row.value, "4");
        assert_eq!(fixed_markdown_table().matches("| `iir_min_depth` | 4 |").count(), 1);
    }

    /// The table from the coefficients is the formula the engine was measured with.
    #[test]
    fn lmr_table_is_the_log_formula() {
        for d in 1..64 {
            for m in 1..64 {
                let base = f64::from(defaults::lmr_base) / 100.0;
                let divisor = f64::from(defaults::lmr_divisor) / 100.0;
                let want = (1024.0 * (base + (d as f64).ln() * (m as f64).ln() / divisor)) as i32;
                assert_eq!(lmr_reduction(d, m), want, "{d} {m}");
            }
        }
    }

    #[test]
    fn spsa_lines_have_openbench_fields() {
        let lines = spsa_lines();
        assert_eq!(lines.len(), TUNABLES.len());
        let default = defaults::rfp_margin;
        assert_eq!(lines[0], format!("rfp_margin, int, {default}, 40, 200, 10, 0.002"));
    }

    /// `set` refuses what is out of range and rebuilds the LMR table.
    #[cfg(feature = "tune")]
    #[test]
    fn set_moves_a_tunable_and_rebuilds_lmr() {
        assert!(set("rfp_margin", 1000).is_err());
        assert!(set("no_such", 1).is_err());
        let before = lmr_reduction(20, 20);
        set("lmr_divisor", 150).unwrap();
        assert!(lmr_reduction(20, 20) > before);
        set("LMR_DIVISOR", defaults::lmr_divisor).unwrap();
        assert_eq!(lmr_reduction(20, 20), before);
    }

    /// The `tt_*` tunables are the table's replacement policy.
    #[test]
    fn replacement_comes_from_the_tt_tunables() {
        assert_eq!(
            tt::Replacement {
                age_weight: defaults::tt_age_weight,
                shallow_margin: defaults::tt_shallow_margin,
                pv_bonus: defaults::tt_pv_bonus,
            },
            tt::Replacement::DEFAULT
        );
        #[cfg(feature = "tune")]
        {
            set("tt_pv_bonus", 3).unwrap();
            assert_eq!(replacement().pv_bonus, 3);
            set("tt_pv_bonus", defaults::tt_pv_bonus).unwrap();
        }
        #[cfg(not(feature = "tune"))]
        assert_eq!(replacement(), tt::Replacement::DEFAULT);
    }
}
