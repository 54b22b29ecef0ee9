//! The network's two hot kernels — the fused accumulator update and the
//! SCReLU dot product of the output layer — on each instruction set.
//!
//! `portable` is plain Rust, which the compiler vectorises for the build's
//! target; it defines the results. The vector paths are written once, in
//! `kernels`, over a small primitive layer (`primitives::Simd`: load, store,
//! add, multiply-add, …) that each instruction set implements in a file of
//! its own: `avx2` and `avx512` (F and BW) on x86-64, `neon` on AArch64,
//! `simd128` on WebAssembly. A new instruction set is one more such file and
//! one more [`Path`].
//!
//! Every path gives bit-identical results (the tests compare them on random
//! inputs and on the positions of a search tree). The engine's choice is made
//! at **compile time**, per kernel ([`UPDATE`], [`DOT`]), from the build's
//! target features: an x86-64 build without AVX2 (`-C target-cpu=x86-64-v2`)
//! runs the portable code, a build with AVX2 (`x86-64-v3`) or AVX-512BW
//! (`x86-64-v4`, or `native` on such a CPU) the vector path chosen for it, an
//! AArch64 build NEON, a WebAssembly build with `simd128` (`-C
//! target-feature=+simd128`, which `.cargo/config.toml` sets for
//! `wasm32-wasip1-threads`) `simd128`, and one without it the portable code.
//! A [`Path`] can also be run explicitly wherever [`Path::is_available`] says
//! this CPU has it, whatever the build (tests, benchmarks): each x86-64 and
//! AArch64 path's kernels are compiled in a function with its target features
//! enabled, so they are real vector code even in a build whose baseline lacks
//! them. WebAssembly cannot do that (it has no run-time detection: a module
//! using `simd128` is refused whole by an engine without it), so its path
//! exists only in builds that have `simd128`.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod kernels;
#[cfg(target_arch = "aarch64")]
mod neon;
mod portable;
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod primitives;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;

use super::layout::HIDDEN;

/// One implementation of the kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Plain Rust, vectorised by the compiler for the build's target.
    Portable,
    /// Explicit AVX2 (16 `i16` lanes), on x86-64.
    Avx2,
    /// Explicit AVX-512F and AVX-512BW (32 `i16` lanes), on x86-64.
    Avx512,
    /// Explicit NEON (8 `i16` lanes), on AArch64.
    Neon,
    /// Explicit WebAssembly `simd128` (8 `i16` lanes), in builds with it
    /// (there is no run-time detection on WebAssembly).
    Simd128,
}

/// Whether the build targets AVX-512BW (and so AVX-512F) on x86-64.
const BUILT_AVX512: bool = cfg!(all(target_arch = "x86_64", target_feature = "avx512bw"));
/// Whether the build targets AVX2 on x86-64.
const BUILT_AVX2: bool = cfg!(all(target_arch = "x86_64", target_feature = "avx2"));
/// Whether the build targets NEON on AArch64 (every standard AArch64 target
/// does).
const BUILT_NEON: bool = cfg!(all(target_arch = "aarch64", target_feature = "neon"));
/// Whether the build targets WebAssembly's `simd128` (not the default: `-C
/// target-feature=+simd128`).
const BUILT_SIMD128: bool = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));

/// The path the engine's accumulator update takes in this build: the widest
/// the build's target features allow (AVX-512 updates in 0.75–0.80 of AVX2's
/// time, `benches/nnue.rs`).
pub const UPDATE: Path = if BUILT_AVX512 {
    Path::Avx512
} else if BUILT_AVX2 {
    Path::Avx2
} else if BUILT_NEON {
    Path::Neon
} else if BUILT_SIMD128 {
    Path::Simd128
} else {
    Path::Portable
};

/// The path the engine's output layer ([`Path::screlu_dot`]) takes in this
/// build: AVX2 wherever the build has it, AVX-512 builds included (their
/// AVX-512 kernel was no faster when measured on 384 neurons: one dot product
/// that short leaves the wider reductions little to gain, `benches/nnue.rs`);
/// NEON on AArch64; `simd128` on WebAssembly built with it.
pub const DOT: Path = if BUILT_AVX2 {
    Path::Avx2
} else if BUILT_NEON {
    Path::Neon
} else if BUILT_SIMD128 {
    Path::Simd128
} else {
    Path::Portable
};

impl Path {
    /// Every path, portable first.
    pub const ALL: [Path; 5] =
        [Path::Portable, Path::Avx2, Path::Avx512, Path::Neon, Path::Simd128];

    /// The path's name, for benchmarks and messages.
    pub const fn name(self) -> &'static str {
        match self {
            Path::Portable => "portable",
            Path::Avx2 => "avx2",
            Path::Avx512 => "avx512",
            Path::Neon => "neon",
            Path::Simd128 => "simd128",
        }
    }

    /// How the path computes, for a build's description: "vectorised by the
    /// compiler" or the instruction set of its explicit kernels.
    pub const fn how(self) -> &'static str {
        match self {
            Path::Portable => "vectorised by the compiler",
            Path::Avx2 => "explicit AVX2",
            Path::Avx512 => "explicit AVX-512",
            Path::Neon => "explicit NEON",
            Path::Simd128 => "explicit WebAssembly simd128",
        }
    }

    /// Whether this CPU can run the path: compiled in, or detected at run time.
    /// Constant (and free) for the paths the build's target features include;
    /// false for those of another architecture, and for `simd128` in a
    /// WebAssembly build without it.
    #[inline(always)]
    pub fn is_available(self) -> bool {
        match self {
            Path::Portable => true,
            Path::Avx2 => BUILT_AVX2 || self.detected(),
            Path::Avx512 => BUILT_AVX512 || self.detected(),
            Path::Neon => BUILT_NEON || self.detected(),
            Path::Simd128 => BUILT_SIMD128 || self.detected(),
        }
    }

    /// The paths this CPU can run, portable first.
    pub fn available() -> impl Iterator<Item = Path> {
        Path::ALL.into_iter().filter(|path| path.is_available())
    }

    /// Whether run-time detection finds the path's instruction set on this
    /// CPU; false for a path of another architecture. `simd128` is compiled in
    /// or absent (WebAssembly has no run-time detection).
    fn detected(self) -> bool {
        match self {
            Path::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => avx2::detected(),
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => avx512::detected(),
            #[cfg(target_arch = "aarch64")]
            Path::Neon => neon::detected(),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Path::Simd128 => simd128::detected(),
            _ => false,
        }
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
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the CPU has NEON (asserted above).
            Path::Neon => unsafe { neon::update::<A, R>(out, parent, add, sub) },
            // The build has simd128: its kernels are safe functions.
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Path::Simd128 => simd128::update::<A, R>(out, parent, add, sub),
            _ => unreachable!("no CPU of this architecture has the {} path", self.name()),
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
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the CPU has NEON (asserted above).
            Path::Neon => unsafe { neon::screlu_dot(values, weights) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Path::Simd128 => simd128::screlu_dot(values, weights),
            _ => unreachable!("no CPU of this architecture has the {} path", self.name()),
        }
    }
}
