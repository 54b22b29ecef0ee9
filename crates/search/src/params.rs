//! Search margins and reductions, in one place.

/// Deepest ply the search reaches (arrays are sized by it).
pub const MAX_SEARCH_PLY: usize = 128;
/// Deepest iteration of iterative deepening.
pub const MAX_DEPTH: i32 = 100;

/// Reverse futility: a node whose static eval beats beta by this much per ply is cut.
pub const RFP_MARGIN: i32 = 90;
/// Reverse futility applies up to this depth.
pub const RFP_MAX_DEPTH: i32 = 5;

/// Null move applies from this depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// From this depth a null-move cutoff is verified by a reduced normal search (zugzwang guard).
pub const NMP_VERIFY_DEPTH: i32 = 12;

/// Futility: quiet moves are skipped when eval + BASE + PER_DEPTH * depth cannot reach alpha.
pub const FUTILITY_BASE: i32 = 80;
/// See [`FUTILITY_BASE`].
pub const FUTILITY_PER_DEPTH: i32 = 90;
/// Futility applies up to this (reduced) depth.
pub const FUTILITY_MAX_DEPTH: i32 = 8;

/// Late move pruning applies up to this depth.
pub const LMP_MAX_DEPTH: i32 = 8;

/// SEE pruning of quiet moves: threshold per squared ply of (reduced) depth.
pub const SEE_QUIET_MARGIN: i32 = -25;
/// SEE pruning of captures: threshold per ply of depth.
pub const SEE_NOISY_MARGIN: i32 = -100;

/// Internal iterative reduction applies from this depth when there is no hash move.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Aspiration windows start at this half-width (centipawns) from depth 5 on.
pub const ASPIRATION_WINDOW: i32 = 20;

/// The late move pruning limit: quiet moves tried before the rest are skipped.
pub const fn lmp_limit(depth: i32, improving: bool) -> usize {
    let base = 3 + depth * depth;
    (if improving { base } else { base / 2 }) as usize
}

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

#[cfg(test)]
mod tests {
    #[test]
    fn const_ln_is_accurate() {
        for x in [1.0f64, 2.0, 3.5, 10.0, 63.0] {
            assert!((super::ln(x) - x.ln()).abs() < 1e-9, "{x}");
        }
    }
}
