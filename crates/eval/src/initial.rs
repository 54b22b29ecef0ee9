//! Hand-set starting weights, from chess principles (centralisation, advanced
//! pawns, a sheltered king in the middlegame and an active one in the endgame).
//! The Texel tuner starts from these.

use crate::S;
use crate::layout::*;

const fn abs(x: i32) -> i32 {
    if x < 0 { -x } else { x }
}

/// Twice the distance of a square from the centre, 1 (d4) to 7 (a1).
const fn centre_distance2(f: i32, r: i32) -> i32 {
    let df = abs(2 * f - 7);
    let dr = abs(2 * r - 7);
    if df > dr { df } else { dr }
}

const fn psqt(piece: usize, f: i32, r: i32) -> S {
    let cd = centre_distance2(f, r); // 1..=7
    match piece {
        0 => {
            let central = if f == 3 || f == 4 { 8 } else { 0 };
            S((r - 1) * 4 + central * (r >= 3 && r <= 4) as i32, (r - 1) * 10)
        }
        1 => S(30 - 8 * cd, 20 - 6 * cd),
        2 => S(15 - 4 * cd, 10 - 3 * cd),
        3 => S(if r == 6 { 20 } else { 0 } + if f >= 2 && f <= 5 { 5 } else { 0 }, 0),
        4 => S(5 - cd, 20 - 5 * cd),
        _ => {
            let wing = if f <= 1 || f >= 6 {
                20
            } else if f == 2 || f == 5 {
                0
            } else {
                -15
            };
            S(wing - 20 * r, 30 - 10 * cd)
        }
    }
}

/// The starting weight vector.
pub const fn initial_weights() -> [S; NUM_WEIGHTS] {
    let mut w = [S(0, 0); NUM_WEIGHTS];
    let material = [S(90, 120), S(330, 300), S(350, 320), S(470, 540), S(1000, 980), S(0, 0)];
    let mut p = 0;
    while p < 6 {
        w[MATERIAL + p] = material[p];
        let mut sq = 0;
        while sq < 64 {
            w[PSQT + p * 64 + sq] = psqt(p, (sq % 8) as i32, (sq / 8) as i32);
            sq += 1;
        }
        p += 1;
    }
    let mut i = 0;
    while i < 28 {
        let n = i as i32;
        if i < 9 {
            w[KNIGHT_MOBILITY + i] = S(6 * (n - 4), 6 * (n - 4));
        }
        if i < 14 {
            w[BISHOP_MOBILITY + i] = S(5 * (n - 6), 5 * (n - 6));
        }
        if i < 15 {
            w[ROOK_MOBILITY + i] = S(3 * (n - 7), 5 * (n - 7));
        }
        w[QUEEN_MOBILITY + i] = S(2 * (n - 13), 3 * (n - 13));
        i += 1;
    }
    let passed = [0, 5, 10, 20, 40, 70, 110, 0];
    let mut r = 0;
    while r < 8 {
        w[PASSED + r] = S(passed[r] / 2, passed[r]);
        w[PASSED_FREE + r] = S(0, passed[r] / 3);
        w[PASSED_OWN_KING + r] = S(0, -(r as i32));
        w[PASSED_ENEMY_KING + r] = S(0, 2 * r as i32);
        w[CONNECTED + r] = S(3 * r as i32, 4 * r as i32);
        r += 1;
    }
    w[ISOLATED] = S(-10, -12);
    w[DOUBLED] = S(-10, -20);
    w[BACKWARD] = S(-8, -8);
    w[BISHOP_PAIR] = S(30, 50);
    w[ROOK_OPEN_FILE] = S(35, 10);
    w[ROOK_SEMI_OPEN_FILE] = S(15, 8);
    let zone = [S(0, 0), S(8, 0), S(6, 0), S(10, 2), S(14, 2), S(0, 0)];
    let attackers = [0, 0, 10, 30, 60, 90, 120, 150];
    let mut k = 0;
    while k < 8 {
        if k < 6 {
            w[KING_ZONE_ATTACK + k] = zone[k];
        }
        w[KING_ATTACKERS + k] = S(attackers[k], 0);
        k += 1;
    }
    w[KING_SHELTER] = S(10, 0);
    w[KING_OPEN_FILE] = S(-20, 0);
    let by_pawn = [S(0, 0), S(50, 40), S(50, 40), S(70, 50), S(80, 60), S(0, 0)];
    let by_minor = [S(0, 0), S(0, 0), S(0, 0), S(40, 30), S(40, 30), S(0, 0)];
    let by_rook = [S(0, 0), S(0, 0), S(0, 0), S(0, 0), S(40, 30), S(0, 0)];
    let mut v = 0;
    while v < 6 {
        w[THREAT_BY_PAWN + v] = by_pawn[v];
        w[THREAT_BY_MINOR + v] = by_minor[v];
        w[THREAT_BY_ROOK + v] = by_rook[v];
        v += 1;
    }
    w[HANGING] = S(30, 20);
    w[TEMPO] = S(15, 5);
    w
}
