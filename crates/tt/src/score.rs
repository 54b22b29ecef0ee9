//! Mate-score convention and the ply adjustment needed to store mate scores.
//!
//! The search reports a forced mate as a distance from the **root**:
//! `MATE - n` means "we mate `n` plies from the root", `-(MATE - n)` means "we are
//! mated `n` plies from the root". Any score with `|score| >= MATE_BOUND` is such a
//! mate score; everything else is an ordinary evaluation.
//!
//! A transposition-table entry can be reached at a different ply than the one it
//! was stored from, so mate scores are stored relative to the **node** instead:
//! [`to_tt_score`] adds the node's ply (turning "mate `n` plies from the root" into
//! "mate `n - ply` plies from here") and [`from_tt_score`] subtracts the ply of the
//! node that reads it back. Ordinary scores pass through unchanged.
//!
//! Below the mates lie the tablebase results: `TB_WIN - n` means "a position
//! the tablebases call won is reached `n` plies from the root" (and its
//! negation a tablebase loss). They are "decisive" like mates — stored relative
//! to the node, never taken for an evaluation — but rank below any mate:
//!
//! | range | meaning |
//! |---|---|
//! | `INFINITY` | above any score: the bound of a full window, never a result |
//! | `MATE_BOUND..=MATE` | we mate |
//! | `DECISIVE_BOUND..=TB_WIN` | a tablebase win |
//! | `-DECISIVE_BOUND < s < DECISIVE_BOUND` | an evaluation (static evaluations live here) |

/// The farthest from the root, in plies, that a mate or a tablebase result can
/// lie: the range of plies the scores below encode (`ply` is in `0..=MAX_SCORE_PLY`).
/// The search's own ply limit must not exceed it.
pub const MAX_SCORE_PLY: i32 = 256;

/// The score of mate at the root (mate in 0 plies). `MATE - n` is mate in `n` plies.
pub const MATE: i32 = 32000;

/// A score above any real one: `±INFINITY` are the bounds of a full search
/// window (and the worst score a search starts from). Never stored.
pub const INFINITY: i32 = MATE + 1;

/// Smallest absolute score that denotes a mate: `MATE - MAX_SCORE_PLY`.
///
/// Scores in `MATE_BOUND..=MATE` are "we mate", scores in `-MATE..=-MATE_BOUND`
/// are "we are mated". Below them lie the tablebase results (see
/// [`DECISIVE_BOUND`]).
pub const MATE_BOUND: i32 = MATE - MAX_SCORE_PLY;

/// A tablebase win at the root. `TB_WIN - n` is a tablebase win reached `n`
/// plies from the root; `-(TB_WIN - n)` the matching loss.
pub const TB_WIN: i32 = MATE_BOUND - 1;

/// Smallest absolute score that is decisive (a tablebase result or a mate):
/// `TB_WIN - MAX_SCORE_PLY`. Static evaluations must stay strictly inside
/// `-DECISIVE_BOUND..DECISIVE_BOUND`.
pub const DECISIVE_BOUND: i32 = TB_WIN - MAX_SCORE_PLY;

/// Whether `score` is a tablebase result or a mate, for either side.
#[inline]
#[must_use]
pub const fn is_decisive(score: i32) -> bool {
    score >= DECISIVE_BOUND || score <= -DECISIVE_BOUND
}

/// Converts a root-relative search score into the node-relative form stored in the
/// table, for a node at `ply` (`0..=MAX_SCORE_PLY`).
///
/// Decisive scores (mates and tablebase results) move away from zero by `ply`;
/// other scores are returned unchanged.
/// The result of a valid mate score (`|score| <= MATE - ply`) stays within `±MATE`.
#[inline]
#[must_use]
pub const fn to_tt_score(score: i32, ply: i32) -> i32 {
    if score >= DECISIVE_BOUND {
        score + ply
    } else if score <= -DECISIVE_BOUND {
        score - ply
    } else {
        score
    }
}

/// Converts a node-relative score read from the table back into a root-relative
/// search score for a node at `ply` (`0..=MAX_SCORE_PLY`). Inverse of [`to_tt_score`].
#[inline]
#[must_use]
pub const fn from_tt_score(score: i32, ply: i32) -> i32 {
    if score >= DECISIVE_BOUND {
        score - ply
    } else if score <= -DECISIVE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn ordinary_scores_pass_through() {
        for score in [0, 1, -1, 150, -150, DECISIVE_BOUND - 1, -(DECISIVE_BOUND - 1)] {
            for ply in [0, 1, 17, MAX_SCORE_PLY] {
                assert_eq!(to_tt_score(score, ply), score);
                assert_eq!(from_tt_score(score, ply), score);
            }
        }
    }

    #[test]
    fn mate_scores_round_trip_at_the_bounds() {
        for ply in 0..=MAX_SCORE_PLY {
            // Every mate that can be found at or below this ply.
            for n in ply..=MAX_SCORE_PLY {
                for score in [MATE - n, -(MATE - n)] {
                    let stored = to_tt_score(score, ply);
                    assert!(stored.abs() <= MATE, "{score} at ply {ply} stored as {stored}");
                    assert!(stored.abs() >= MATE_BOUND, "{score} at ply {ply} lost its mate-ness");
                    assert_eq!(from_tt_score(stored, ply), score);
                }
            }
        }
    }

    #[test]
    fn tablebase_scores_round_trip_and_stay_below_the_mates() {
        for ply in 0..=MAX_SCORE_PLY {
            for n in ply..=MAX_SCORE_PLY {
                for score in [TB_WIN - n, -(TB_WIN - n)] {
                    assert!(is_decisive(score));
                    let stored = to_tt_score(score, ply);
                    assert!(stored.abs() < MATE_BOUND, "{score} at ply {ply} became a mate");
                    assert!(stored.abs() >= DECISIVE_BOUND);
                    assert_eq!(from_tt_score(stored, ply), score);
                }
            }
        }
        // A tablebase win 6 plies from the root, found at ply 4, read at ply 2.
        assert_eq!(from_tt_score(to_tt_score(TB_WIN - 6, 4), 2), TB_WIN - 4);
        assert!(!is_decisive(DECISIVE_BOUND - 1) && !is_decisive(-(DECISIVE_BOUND - 1)));
        assert!(is_decisive(MATE - 3) && is_decisive(-MATE));
    }

    #[test]
    fn mate_distance_is_relative_to_the_node() {
        // Mate 10 plies from the root, found at ply 4: 6 plies from the node.
        assert_eq!(to_tt_score(MATE - 10, 4), MATE - 6);
        // The same position reached at ply 2 is mate 8 plies from that root.
        assert_eq!(from_tt_score(MATE - 6, 2), MATE - 8);
        assert_eq!(to_tt_score(-(MATE - 10), 4), -(MATE - 6));
        assert_eq!(from_tt_score(-(MATE - 6), 2), -(MATE - 8));
        // Exactly at the bound.
        assert_eq!(to_tt_score(MATE_BOUND, 3), MATE_BOUND + 3);
        assert_eq!(to_tt_score(-MATE_BOUND, 3), -MATE_BOUND - 3);
        assert_eq!(from_tt_score(MATE_BOUND, 0), MATE_BOUND);
        // Mate-scores fit the i16 the table stores them in.
        assert!(i16::try_from(to_tt_score(MATE, MAX_SCORE_PLY)).is_ok());
    }
}
