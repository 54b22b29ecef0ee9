//! The primitive layer: the few vector operations the kernels
//! ([`super::kernels`]) are written in, as one trait, [`Simd`]. Each
//! instruction set implements it in a file of its own (`avx2.rs`,
//! `avx512.rs`, `neon.rs`), so a new one adds one file and no kernel code.
//!
//! Integer arithmetic wraps, as the portable kernels' `wrapping_*` calls do:
//! that is what makes every path bit-identical to them.

/// One instruction set's vectors and the operations the kernels need on them.
///
/// A value of an implementing type is a proof that this CPU has the
/// instruction set: each implementation only makes one inside a function
/// compiled for it (`#[target_feature]`), so the methods are safe to call.
/// The methods are `#[inline(always)]`, and the kernels too: the whole kernel
/// is compiled inside that function, with its instruction set enabled, even in
/// a build whose baseline lacks it.
///
/// A vector holds [`Simd::LANES`] `i16` lanes, or half as many `i32` lanes
/// (the result of [`Simd::madd_i16`]).
pub(super) trait Simd: Copy {
    /// The vector register type.
    type Vector: Copy;

    /// `i16` lanes in one vector.
    const LANES: usize;

    /// The first [`Simd::LANES`] values of `src`, at any alignment.
    ///
    /// # Panics
    ///
    /// If `src` is shorter.
    fn load(self, src: &[i16]) -> Self::Vector;

    /// Writes `v` over the first [`Simd::LANES`] values of `dst`, at any
    /// alignment.
    ///
    /// # Panics
    ///
    /// If `dst` is shorter.
    fn store(self, dst: &mut [i16], v: Self::Vector);

    /// Every lane 0 (`i16` or `i32` alike).
    fn zero(self) -> Self::Vector;

    /// Every `i16` lane `x`.
    fn splat_i16(self, x: i16) -> Self::Vector;

    /// `a + b` per `i16` lane, wrapping.
    fn add_i16(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;

    /// `a − b` per `i16` lane, wrapping.
    fn sub_i16(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;

    /// The greater of `a` and `b` per `i16` lane (signed).
    fn max_i16(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;

    /// The lesser of `a` and `b` per `i16` lane (signed).
    fn min_i16(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;

    /// `a × b` per `i16` lane, wrapping: the low 16 bits of the product.
    fn mul_lo_i16(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;

    /// Multiply-add: the `i16` lanes of `a` and `b` multiplied into 32-bit
    /// products, which are summed two by two (wrapping) into the `i32` lanes
    /// of the result. Which two products share a lane is the instruction set's
    /// choice (neighbours on x86, as `vpmaddwd` does); the kernels only ever
    /// add up all the lanes, whose total is the same.
    fn madd_i16(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;

    /// `a + b` per `i32` lane, wrapping.
    fn add_i32(self, a: Self::Vector, b: Self::Vector) -> Self::Vector;

    /// The sum of the `i32` lanes of `v`, wrapping.
    fn sum_i32(self, v: Self::Vector) -> i32;
}
