//! Search margins, reductions and limits, in one place, ordered by the step of
//! `Worker::search` that uses them (see docs/search.md).
//!
//! What each technique was measured to be worth, and how the margins were
//! chosen, is recorded in docs/search.md.

/// Deepest ply the search reaches (arrays are sized by it).
pub const MAX_SEARCH_PLY: usize = 128;
/// Deepest iteration of iterative deepening.
pub const MAX_DEPTH: i32 = 100;

// Step 3b. Tablebases.

/// A tablebase verdict is stored this much deeper than the node's depth: it is
/// exact, and should outlive ordinary entries (Stockfish stores `depth + 6`).
pub const TB_DEPTH_BONUS: i32 = 6;

// Step 5. Reverse futility pruning.

/// Reverse futility: a node whose static eval beats beta by this much per ply is cut.
pub const RFP_MARGIN: i32 = 90;
/// Reverse futility applies up to this depth.
pub const RFP_MAX_DEPTH: i32 = 5;

// Step 6. Null move pruning.

/// Null move applies from this depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// From this depth a null-move cutoff is verified by a reduced normal search (zugzwang guard).
pub const NMP_VERIFY_DEPTH: i32 = 12;
/// The null move's reduction: a base ...
pub const NMP_BASE_REDUCTION: i32 = 3;
/// ... plus one ply per this many plies of depth ...
pub const NMP_DEPTH_DIVISOR: i32 = 3;
/// ... plus one ply per this many centipawns the eval exceeds beta by ...
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// ... up to this many.
pub const NMP_MAX_EVAL_REDUCTION: i32 = 3;

/// In a verification search of depth `depth`, the side that passed may not pass
/// again for this many plies.
pub const fn nmp_verification_plies(depth: i32) -> usize {
    if depth > 0 { (3 * depth / 4) as usize } else { 0 }
}

/// How many plies shallower than the node the null move's reply is searched.
pub const fn nmp_reduction(depth: i32, eval_over_beta: i32) -> i32 {
    let by_eval = eval_over_beta / NMP_EVAL_DIVISOR;
    let by_eval = if by_eval < NMP_MAX_EVAL_REDUCTION { by_eval } else { NMP_MAX_EVAL_REDUCTION };
    NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR + by_eval
}

// Step 5b. Razoring.

/// Razoring applies up to this depth ...
pub const RAZOR_MAX_DEPTH: i32 = 3;
/// ... when eval + this margin per ply of depth is below alpha.
pub const RAZOR_MARGIN: i32 = 250;

// Step 7. Internal iterative reduction.

/// Internal iterative reduction applies from this depth when there is no hash move.
pub const IIR_MIN_DEPTH: i32 = 4;

// Step 9. Pruning at shallow depth: late move pruning, futility pruning, SEE
// pruning, history pruning.

/// Late move pruning applies up to this depth.
pub const LMP_MAX_DEPTH: i32 = 8;

/// The late move pruning limit: quiet moves tried before the rest are skipped.
pub const fn lmp_limit(depth: i32, improving: bool) -> usize {
    let base = 3 + depth * depth;
    (if improving { base } else { base / 2 }) as usize
}

/// Futility: quiet moves are skipped when eval + BASE + PER_DEPTH * depth cannot reach alpha.
pub const FUTILITY_BASE: i32 = 80;
/// See [`FUTILITY_BASE`].
pub const FUTILITY_PER_DEPTH: i32 = 90;
/// Futility applies up to this (reduced) depth.
pub const FUTILITY_MAX_DEPTH: i32 = 8;

/// SEE pruning of quiet moves: threshold per squared ply of (reduced) depth.
pub const SEE_QUIET_MARGIN: i32 = -25;
/// SEE pruning of captures: threshold per ply of depth.
pub const SEE_NOISY_MARGIN: i32 = -100;
/// Capture history shifts the SEE threshold of a capture by 1 cp per this much history.
pub const SEE_CAPTURE_HISTORY_DIVISOR: i32 = 64;

/// History pruning: quiet moves whose history is below `-HISTORY_PRUNING_MARGIN × depth` ...
pub const HISTORY_PRUNING_MARGIN: i32 = 2048;
/// ... are skipped up to this (reduced) depth.
pub const HISTORY_PRUNING_MAX_DEPTH: i32 = 4;
/// SEE pruning of captures applies up to this depth.
pub const SEE_NOISY_MAX_DEPTH: i32 = 8;

// Step 10. Singular extensions.

/// Singular extensions apply from this depth ...
pub const SINGULAR_MIN_DEPTH: i32 = 8;
/// ... to a hash move whose entry is at most this many plies shallower than the node.
pub const SINGULAR_TT_DEPTH_MARGIN: i32 = 3;
/// The singular beta is the stored score minus this much per ply of depth.
pub const SINGULAR_MARGIN_PER_DEPTH: i32 = 1;
/// A move singular by this much more (at non-PV nodes) is extended twice ...
pub const DOUBLE_EXTENSION_MARGIN: i32 = 20;
/// ... at most this many times along a line.
pub const MAX_DOUBLE_EXTENSIONS: u8 = 6;

// Step 10b. Check extension.

/// Extensions stop at this ply: twice the iteration's depth, and never below
/// ply 16 (so perpetual-check lines cannot run the search to the ply limit).
pub const fn extension_ply_limit(root_depth: i32) -> i32 {
    2 * if root_depth > 8 { root_depth } else { 8 }
}

// Step 11. Late move reductions.

/// Late move reductions apply from this depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// A quiet move's reduction shrinks by one ply per this much history (and grows for bad history).
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Late move reductions, `[depth][move number]`, from a log formula, computed at compile time.
pub static LMR: [[i32; 64]; 64] = lmr_table();

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

const fn lmr_table() -> [[i32; 64]; 64] {
    let mut t = [[0; 64]; 64];
    let mut d = 1;
    while d < 64 {
        let mut m = 1;
        while m < 64 {
            t[d][m] = (0.5 + ln(d as f64) * ln(m as f64) / 2.5) as i32;
            m += 1;
        }
        d += 1;
    }
    t
}

// Quiescence.

/// Quiescence futility: a capture whose victim cannot lift stand pat plus this
/// margin to alpha is skipped (as is a losing one once stand pat plus it is below alpha).
pub const QS_FUTILITY_MARGIN: i32 = 150;

// Aspiration windows.

/// Aspiration windows start at this half-width (centipawns) ...
pub const ASPIRATION_WINDOW: i32 = 20;
/// ... from this depth on ...
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// ... and the window opens fully once its half-width grows past this.
pub const ASPIRATION_MAX_WINDOW: i32 = 1000;

// Time management.

/// The soft time limit is scaled by this when the best move just changed ...
pub const TIME_SCALE_UNSTABLE: f64 = 1.4;
/// ... and by this much less for each iteration it stayed the same ...
pub const TIME_SCALE_PER_STABLE_ITERATION: f64 = 0.15;
/// ... counting up to this many iterations.
pub const TIME_MAX_STABLE_ITERATIONS: u32 = 5;
/// The soft limit is scaled by `(TIME_NODES_BASE − share) × TIME_NODES_FACTOR`,
/// where `share` is the best move's share of the nodes searched: a best move
/// that took most of the effort is clear, one that took little is not.
pub const TIME_NODES_BASE: f64 = 1.5;
/// See [`TIME_NODES_BASE`].
pub const TIME_NODES_FACTOR: f64 = 1.35;
/// After a fail low (the score dropped since the last iteration) the soft limit
/// grows by 1 % per this many centipawns of drop ...
pub const TIME_FAIL_LOW_CP_PER_PERCENT: i32 = 2;
/// ... up to this factor.
pub const TIME_FAIL_LOW_MAX: f64 = 1.5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn const_ln_is_accurate() {
        for x in [1.0f64, 2.0, 3.5, 10.0, 63.0] {
            assert!((ln(x) - x.ln()).abs() < 1e-9, "{x}");
        }
    }
}
