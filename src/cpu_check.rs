//! The start-up check that the CPU has every feature the binary was built for.
//!
//! A build for a newer CPU (`-C target-cpu=native`, or `x86-64-v3` run on a
//! machine without AVX2 or BMI2) would otherwise die on its first illegal
//! instruction. With it, such a binary prints one line naming what is missing
//! and the Makefile's build for this CPU (`make portable`, `make avx2`), and
//! exits with status 1.
//!
//! Checking at the start of `main` would be too late: with `lto = "fat"` the
//! standard library's start-up code before `main` is compiled with the build's
//! target features too (it uses AVX on a `native` build here), and code that
//! checks for a feature must not itself be compiled to use it. So `build.rs`
//! compiles this file on its own, as a `no_std` object for baseline x86-64,
//! and links it into the `tessera` binary, where the C runtime calls
//! `check_cpu` before any code built with the target features runs (from
//! `.init_array` on Linux, from its initialiser table `.CRT$XCU` on Windows). It reads `cpuid` (not `is_x86_feature_detected!`, which
//! answers `true` at compile time for a feature the build enables) and XCR0
//! for the register state the operating system saves. The list of features
//! comes from `build.rs`, which derives it from the build's target features.
//!
//! The same file is also compiled as a module of the library for its tests.

#![cfg_attr(tessera_cpu_check, no_std)]

/// Register state the operating system must save for a feature (XCR0 bits).
#[allow(dead_code, reason = "which states a build needs depends on its target features")]
mod state {
    /// Nothing beyond the basics.
    pub const NONE: u64 = 0;
    /// SSE and AVX (YMM) state.
    pub const AVX: u64 = 0b110;
    /// Also the AVX-512 opmask and ZMM state.
    pub const AVX512: u64 = 0b1110_0110;
    /// Also the AMX tile state.
    pub const AMX: u64 = 0b110_0000_0000_0000_0110;
}

/// One target feature and where `cpuid` reports it.
struct Requirement {
    /// The target feature's name.
    name: &'static [u8],
    /// The `cpuid` leaf.
    leaf: u32,
    /// The `cpuid` subleaf.
    subleaf: u32,
    /// 0 = EAX, 1 = EBX, 2 = ECX, 3 = EDX.
    register: u32,
    /// The feature's bit in that register.
    mask: u32,
    /// The XCR0 bits the feature needs ([`state`]).
    xcr0: u64,
}

/// One of the Makefile's builds and the CPU features it needs.
struct Build {
    /// The Makefile target (`make avx2`).
    make: &'static [u8],
    /// Its `-C target-cpu` (`x86-64-v3`).
    cpu: &'static [u8],
    /// The features that build targets.
    needs: &'static [Requirement],
}

// `REQUIRED: &[Requirement]`, the features this build targets, and
// `BUILDS: &[Build]`, the Makefile's builds for older CPUs, newest first (from build.rs).
include!(concat!(env!("OUT_DIR"), "/cpu_features.rs"));

/// What a CPU reports.
trait Cpu {
    /// Register `register` of `cpuid(leaf, subleaf)`; 0 for a leaf the CPU lacks.
    fn cpuid(&self, leaf: u32, subleaf: u32, register: u32) -> u32;
    /// XCR0, or 0 when the operating system has not enabled XSAVE.
    fn xcr0(&self) -> u64;
}

/// Whether `cpu` lacks `r` (the CPU does not report it, or the OS does not
/// save the registers it uses).
fn lacks(cpu: &impl Cpu, r: &Requirement) -> bool {
    cpu.cpuid(r.leaf, r.subleaf, r.register) & r.mask == 0 || cpu.xcr0() & r.xcr0 != r.xcr0
}

/// The newest of `builds` that `cpu` can run, if any.
fn build_for<'a>(cpu: &impl Cpu, builds: &'a [Build]) -> Option<&'a Build> {
    builds.iter().find(|b| !b.needs.iter().any(|r| lacks(cpu, r)))
}

/// The CPU running this program.
struct ThisCpu {
    max_basic: u32,
    max_extended: u32,
}

impl ThisCpu {
    /// Reads the highest basic and extended `cpuid` leaves.
    fn new() -> ThisCpu {
        use core::arch::x86_64::__cpuid;
        ThisCpu { max_basic: __cpuid(0).eax, max_extended: __cpuid(0x8000_0000).eax }
    }
}

impl Cpu for ThisCpu {
    fn cpuid(&self, leaf: u32, subleaf: u32, register: u32) -> u32 {
        let max = if leaf >= 0x8000_0000 { self.max_extended } else { self.max_basic };
        if leaf > max {
            return 0;
        }
        let r = core::arch::x86_64::__cpuid_count(leaf, subleaf);
        match register {
            0 => r.eax,
            1 => r.ebx,
            2 => r.ecx,
            _ => r.edx,
        }
    }

    fn xcr0(&self) -> u64 {
        const OSXSAVE: u32 = 1 << 27;
        if self.cpuid(1, 0, 2) & OSXSAVE == 0 {
            return 0;
        }
        #[target_feature(enable = "xsave")]
        fn read_xcr0() -> u64 {
            // SAFETY: `xgetbv` needs XSAVE, enabled for this function alone, which is
            // called only when cpuid reports OSXSAVE (the CPU has XSAVE and the OS
            // allows XGETBV). Reading XCR0 has no side effects.
            unsafe { core::arch::x86_64::_xgetbv(0) }
        }
        // SAFETY: OSXSAVE was checked just above, so the CPU has XSAVE (see `read_xcr0`).
        unsafe { read_xcr0() }
    }
}

/// What runs before the Rust runtime: the check, and on failure one line on
/// standard output and an exit with status 1, through the operating system
/// alone ([`sys`]), never through a library that a static link might order
/// after this object.
#[cfg(tessera_cpu_check)]
mod entry {
    use super::{BUILDS, REQUIRED, ThisCpu, build_for, lacks};

    /// Called by the C runtime before `main`: from `.init_array` on Linux,
    /// from the C runtime's initialiser table (`.CRT$XCU`) on Windows.
    #[used]
    #[cfg_attr(target_os = "linux", unsafe(link_section = ".init_array"))]
    #[cfg_attr(windows, unsafe(link_section = ".CRT$XCU"))]
    static CHECK_CPU: extern "C" fn() = check_cpu;

    /// Checks the CPU; returns if it has everything, else says what it lacks and exits.
    extern "C" fn check_cpu() {
        let cpu = ThisCpu::new();
        if !REQUIRED.iter().any(|r| lacks(&cpu, r)) {
            return;
        }
        let print = sys::write_stdout;
        print(b"info string error: this tessera binary was built for CPU features this CPU lacks:");
        for r in REQUIRED.iter().filter(|r| lacks(&cpu, r)) {
            print(b" ");
            print(r.name);
        }
        match build_for(&cpu, BUILDS) {
            Some(build) => {
                print(b". This CPU runs the ");
                print(build.cpu);
                print(b" build: the release's ");
                print(build.make);
                print(b" file, or `make ");
                print(build.make);
                print(b"`");
            }
            None => print(b". This CPU needs a baseline x86-64 build: `make ARCH=x86-64`"),
        }
        print(b", or `make native` on this machine (README: Building for other CPUs).\n");
        sys::exit_failure()
    }

    /// Linux: the kernel's `write` and `exit_group` system calls.
    #[cfg(target_os = "linux")]
    mod sys {
        /// Writes all of `text` to standard output (as much as the system takes).
        pub fn write_stdout(mut text: &[u8]) {
            while !text.is_empty() {
                let written: isize;
                // SAFETY: `write(1, text, len)` (system call 1) only reads the
                // `text.len()` bytes of a valid slice; the kernel clobbers rcx
                // and r11, declared, and touches no stack.
                unsafe {
                    core::arch::asm!(
                        "syscall",
                        inlateout("rax") 1isize => written,
                        in("rdi") 1isize,
                        in("rsi") text.as_ptr(),
                        in("rdx") text.len(),
                        lateout("rcx") _,
                        lateout("r11") _,
                        options(nostack),
                    );
                }
                match text.get(written.max(0) as usize..) {
                    Some(rest) if written > 0 => text = rest,
                    _ => return,
                }
            }
        }

        /// Ends the process at once with status 1.
        pub fn exit_failure() -> ! {
            // SAFETY: `exit_group(1)` (system call 231) ends every thread of the
            // process; nothing of Rust's runtime has started, so nothing is lost.
            unsafe {
                core::arch::asm!("syscall", in("rax") 231isize, in("rdi") 1isize,
                    options(noreturn, nostack));
            }
        }
    }

    /// Windows: kernel32's standard handle, `WriteFile` and `ExitProcess`.
    #[cfg(windows)]
    mod sys {
        use core::ffi::c_void;

        /// `STD_OUTPUT_HANDLE`.
        const STD_OUTPUT_HANDLE: u32 = -11i32 as u32;

        unsafe extern "system" {
            fn GetStdHandle(which: u32) -> *mut c_void;
            fn WriteFile(
                file: *mut c_void,
                buffer: *const u8,
                length: u32,
                written: *mut u32,
                overlapped: *mut c_void,
            ) -> i32;
            fn ExitProcess(code: u32) -> !;
        }

        /// Writes all of `text` to standard output (as much as the system takes).
        pub fn write_stdout(mut text: &[u8]) {
            // SAFETY: asks for the process's standard output handle; no memory is touched.
            let handle = unsafe { GetStdHandle(STD_OUTPUT_HANDLE) };
            while !text.is_empty() {
                let mut written = 0u32;
                let length = text.len().min(u32::MAX as usize) as u32;
                // SAFETY: `text` holds `length` readable bytes, `written` is a
                // writable u32, and the write is synchronous (no OVERLAPPED). An
                // invalid handle (no console) makes the call fail, not misbehave.
                let ok = unsafe {
                    WriteFile(handle, text.as_ptr(), length, &mut written, core::ptr::null_mut())
                };
                match text.get(written as usize..) {
                    Some(rest) if ok != 0 && written > 0 => text = rest,
                    _ => return,
                }
            }
        }

        /// Ends the process at once with status 1.
        pub fn exit_failure() -> ! {
            // SAFETY: ends the process; nothing of Rust's runtime has started.
            unsafe { ExitProcess(1) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CPU that reports exactly the features in `has`, with the OS state `xcr0`.
    struct Fake<'a> {
        has: &'a [&'a Requirement],
        xcr0: u64,
    }

    impl Cpu for Fake<'_> {
        fn cpuid(&self, leaf: u32, subleaf: u32, register: u32) -> u32 {
            let here =
                |r: &&&Requirement| (r.leaf, r.subleaf, r.register) == (leaf, subleaf, register);
            self.has.iter().filter(here).fold(0, |bits, r| bits | r.mask)
        }
        fn xcr0(&self) -> u64 {
            self.xcr0
        }
    }

    const fn req(
        name: &'static [u8],
        leaf: u32,
        register: u32,
        bit: u32,
        xcr0: u64,
    ) -> Requirement {
        Requirement { name, leaf, subleaf: 0, register, mask: 1 << bit, xcr0 }
    }

    #[test]
    fn names_what_the_cpu_or_the_os_lacks() {
        let popcnt = req(b"popcnt", 1, 2, 23, state::NONE);
        let avx2 = req(b"avx2", 7, 1, 5, state::AVX);
        let bmi2 = req(b"bmi2", 7, 1, 8, state::NONE);
        let all = [&popcnt, &avx2, &bmi2];
        let missing = |cpu: &Fake| -> Vec<&[u8]> {
            all.iter().filter(|r| lacks(cpu, r)).map(|r| r.name).collect()
        };
        // An x86-64-v2 CPU running a v3 build.
        assert_eq!(missing(&Fake { has: &[&popcnt], xcr0: 0b111 }), [b"avx2", b"bmi2"]);
        // A v3 CPU whose OS does not save the AVX state.
        assert_eq!(missing(&Fake { has: &all, xcr0: 0b11 }), [b"avx2"]);
        assert!(missing(&Fake { has: &all, xcr0: 0b111 }).is_empty());
    }

    /// The check names the newest build the CPU can run.
    #[test]
    fn names_the_newest_build_the_cpu_runs() {
        static V3: [Requirement; 3] = [
            req(b"popcnt", 1, 2, 23, state::NONE),
            req(b"avx2", 7, 1, 5, state::AVX),
            req(b"bmi2", 7, 1, 8, state::NONE),
        ];
        static V2: [Requirement; 1] = [req(b"popcnt", 1, 2, 23, state::NONE)];
        let (v3, v2) = (&V3, &V2);
        let builds = [
            Build { make: b"avx2", cpu: b"x86-64-v3", needs: v3 },
            Build { make: b"portable", cpu: b"x86-64-v2", needs: v2 },
        ];
        let make =
            |has: &[&Requirement], xcr0| build_for(&Fake { has, xcr0 }, &builds).map(|b| b.make);
        assert_eq!(make(&[&v3[0], &v3[1], &v3[2]], 0b111), Some(&b"avx2"[..]));
        assert_eq!(make(&[&v2[0]], 0b111), Some(&b"portable"[..]));
        // AVX2 without the OS saving its state is not a v3 CPU.
        assert_eq!(make(&[&v3[0], &v3[1], &v3[2]], 0b11), Some(&b"portable"[..]));
        assert_eq!(make(&[], 0b111), None);
    }

    /// The Makefile's builds are the x86-64 levels, newest first, each needing
    /// more than the next.
    #[test]
    fn the_builds_are_the_x86_64_levels() {
        let cpus: Vec<&[u8]> = BUILDS.iter().map(|b| b.cpu).collect();
        assert_eq!(cpus, [&b"x86-64-v3"[..], b"x86-64-v2"]);
        let has = |b: &Build, name: &[u8]| b.needs.iter().any(|r| r.name == name);
        assert!(has(&BUILDS[0], b"avx2") && has(&BUILDS[0], b"bmi2"));
        assert!(has(&BUILDS[1], b"popcnt") && has(&BUILDS[1], b"sse4.2"));
        assert!(!has(&BUILDS[1], b"avx2"));
        assert!(BUILDS[1].needs.iter().all(|r| has(&BUILDS[0], r.name)));
    }

    /// This machine runs this build, so it has everything the build needs; and
    /// build.rs found the baseline features in its table.
    #[test]
    fn this_machine_has_what_this_build_needs() {
        let cpu = ThisCpu::new();
        let missing: Vec<&[u8]> =
            REQUIRED.iter().filter(|r| lacks(&cpu, r)).map(|r| r.name).collect();
        assert!(missing.is_empty(), "{missing:?}");
        assert!(REQUIRED.iter().any(|r| r.name == b"sse2"), "baseline features are listed");
    }
}
