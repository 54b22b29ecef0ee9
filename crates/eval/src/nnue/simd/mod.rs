//! The network's two hot kernels — the fused accumulator update and the
//! SCReLU dot product of the output layer — on each instruction set: the
//! portable Rust (`portable`, which the compiler vectorises) and explicit
//! `std::arch` code for AVX2 and for AVX-512 (F and BW).
//!
//! Every path gives bit-identical results (the tests compare them on random
//! inputs and on the positions of a search tree). The engine's choice is made
//! at **compile time**, per kernel ([`UPDATE`], [`DOT`]), from the build's
//! target features: a default build runs the portable code, a build with
//! `-C target-cpu=x86-64-v3` (AVX2) or `x86-64-v4` (AVX-512BW) the vector path
//! chosen for it. A [`Path`] can also be run explicitly wherever
//! [`Path::is_available`] says this CPU has it, whatever the build (tests,
//! benchmarks).

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod portable;
#[cfg(test)]
mod tests;

use super::layout::HIDDEN;

/// One implementation of the kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Plain Rust, vectorised by the compiler for the build's target.
    Portable,
    /// Explicit AVX2 (16 `i16` lanes).
    Avx2,
    /// Explicit AVX-512F and AVX-512BW (32 `i16` lanes).
    Avx512,
}

/// Whether the build targets AVX-512BW (and so AVX-512F) on x86-64.
const BUILT_AVX512: bool = cfg!(all(target_arch = "x86_64", target_feature = "avx512bw"));
/// Whether the build targets AVX2 on x86-64.
const BUILT_AVX2: bool = cfg!(all(target_arch = "x86_64", target_feature = "avx2"));

/// The path the engine's accumulator update takes in this build: the widest
/// the build's target features allow (AVX-512 updates in 0.75–0.80 of AVX2's
/// time, `benches/nnue.rs`).
pub const UPDATE: Path = if BUILT_AVX512 {
    Path::Avx512
} else if BUILT_AVX2 {
    Path::Avx2
} else {
    Path::Portable
};

/// The path the engine's output layer ([`Path::screlu_dot`]) takes in this
/// build: AVX2 wherever the build has it, AVX-512 builds included (their
/// AVX-512 kernel is no faster here: one dot product of 384 neurons is too
/// short for the wider reductions to pay, `benches/nnue.rs`).
pub const DOT: Path = if BUILT_AVX2 { Path::Avx2 } else { Path::Portable };

impl Path {
    /// Every path, portable first.
    pub const ALL: [Path; 3] = [Path::Portable, Path::Avx2, Path::Avx512];

    /// The path's name, for benchmarks and messages.
    pub const fn name(self) -> &'static str {
        match self {
            Path::Portable => "portable",
            Path::Avx2 => "avx2",
            Path::Avx512 => "avx512",
        }
    }

    /// How the path computes, for a build's description: "vectorised by the
    /// compiler" or the instruction set of its explicit kernels.
    pub const fn how(self) -> &'static str {
        match self {
            Path::Portable => "vectorised by the compiler",
            Path::Avx2 => "explicit AVX2",
            Path::Avx512 => "explicit AVX-512",
        }
    }

    /// Whether this CPU can run the path: compiled in, or detected at run time.
    /// Constant (and free) for the paths the build's target features include.
    #[inline(always)]
    pub fn is_available(self) -> bool {
        match self {
            Path::Portable => true,
            Path::Avx2 => BUILT_AVX2 || detected_avx2(),
            Path::Avx512 => BUILT_AVX512 || detected_avx512(),
        }
    }

    /// The paths this CPU can run, portable first.
    pub fn available() -> impl Iterator<Item = Path> {
        Path::ALL.into_iter().filter(|path| path.is_available())
    }

    /// `out = parent + Σ add[..A] − Σ sub[..R]` over the `i16` lanes, wrapping.
    ///
    /// # Panics
    ///
    /// If this CPU lacks the path ([`Path::is_available`]).
    #[inline(always)]
    pub fn update<const A: usize, const R: usize>(
        self,
        out: &mut [i16; HIDDEN],
        parent: &[i16; HIDDEN],
        add: [&[i16; HIDDEN]; 2],
        sub: [&[i16; HIDDEN]; 2],
    ) {
        assert!(self.is_available(), "this CPU cannot run the {} path", self.name());
        match self {
            Path::Portable => portable::update::<A, R>(out, parent, add, sub),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX2 (asserted above).
            Path::Avx2 => unsafe { avx2::update::<A, R>(out, parent, add, sub) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX-512F and AVX-512BW (asserted above).
            Path::Avx512 => unsafe { avx512::update::<A, R>(out, parent, add, sub) },
            #[cfg(not(target_arch = "x86_64"))]
            _ => unreachable!("only the portable path is available off x86-64"),
        }
    }

    /// `Σ clamp(x, 0, QA)² × w` over the first `min(len)` neurons of `values`
    /// and `weights`, exactly as `portable::screlu_dot` computes it.
    ///
    /// # Panics
    ///
    /// If this CPU lacks the path ([`Path::is_available`]).
    #[inline(always)]
    pub fn screlu_dot(self, values: &[i16], weights: &[i16]) -> i64 {
        assert!(self.is_available(), "this CPU cannot run the {} path", self.name());
        match self {
            Path::Portable => portable::screlu_dot(values, weights),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX2 (asserted above).
            Path::Avx2 => unsafe { avx2::screlu_dot(values, weights) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX-512F and AVX-512BW (asserted above).
            Path::Avx512 => unsafe { avx512::screlu_dot(values, weights) },
            #[cfg(not(target_arch = "x86_64"))]
            _ => unreachable!("only the portable path is available off x86-64"),
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn detected_avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

#[cfg(target_arch = "x86_64")]
fn detected_avx512() -> bool {
    std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw")
}

#[cfg(not(target_arch = "x86_64"))]
fn detected_avx2() -> bool {
    false
}

#[cfg(not(target_arch = "x86_64"))]
fn detected_avx512() -> bool {
    false
}
