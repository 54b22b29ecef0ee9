//! `S`: a middlegame/endgame score pair, blended by the game phase.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A (middlegame, endgame) pair of centipawn values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct S(pub i32, pub i32);

impl S {
    /// The zero pair.
    pub const ZERO: S = S(0, 0);

    /// The middlegame half.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0
    }

    /// The endgame half.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        self.1
    }

    /// Blends the pair: `phase` runs from [`MAX_PHASE`] (all pieces on) to 0 (bare kings and pawns).
    #[inline(always)]
    pub const fn taper(self, phase: i32) -> i32 {
        (self.0 * phase + self.1 * (MAX_PHASE - phase)) / MAX_PHASE
    }
}

/// The phase with every piece on the board (knight and bishop 1, rook 2, queen 4).
pub const MAX_PHASE: i32 = 24;

impl Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

impl Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}
