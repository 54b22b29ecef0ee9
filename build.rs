//! Three things the `tessera` binary needs from its build:
//!
//! * `TESSERA_VERSION`, the version it reports (`id name Tessera 0.2.0 3f2a9c1`):
//!   the package version and, in a git checkout, the short commit of the build;
//!   a build from a source archive (no git, or no `.git`) has the version alone.
//!   With it, what `tessera --version` says of the build: whether its sources
//!   differ from that commit (`TESSERA_SOURCES_MODIFIED`), the compiler
//!   (`TESSERA_RUSTC`), the `-C target-cpu` given (`TESSERA_TARGET_CPU`) and
//!   the newest x86-64 level whose features the build enables
//!   (`TESSERA_CPU_LEVEL`).
//! * The start-up CPU check (see `src/cpu_check.rs`): writes `cpu_features.rs`
//!   into `OUT_DIR`, the table of the CPU features this build targets
//!   (`-C target-cpu=...`, `-C target-feature=...`) with where `cpuid` reports
//!   each and what register state the OS must save for it, and the features
//!   of each of the Makefile's builds for older CPUs (as `rustc --print cfg`
//!   lists them for its `target-cpu`); then compiles
//!   `src/cpu_check.rs` with that table into an object for *baseline* x86-64
//!   (none of the build's target features) and links it into the `tessera`
//!   binary, where it runs before anything else.
//! * In the WebAssembly build, the largest memory the module declares
//!   (`--max-memory`, from `src/wasm_memory.rs`).

use std::fmt::Write as _;

/// Where `cpuid` reports a feature: leaf, subleaf, register (0 = EAX .. 3 = EDX), bit.
type Location = (u32, u32, usize, u32);

/// Register state the OS must save for a feature (constants of `cpu_check.rs`).
const NONE: &str = "state::NONE";
const AVX: &str = "state::AVX";
const AVX512: &str = "state::AVX512";
const AMX: &str = "state::AMX";

const EAX: usize = 0;
const EBX: usize = 1;
const ECX: usize = 2;
const EDX: usize = 3;

/// Every x86-64 feature rustc knows that `cpuid` reports with one bit.
const FEATURES: &[(&str, Location, &str)] = &[
    ("x87", (1, 0, EDX, 0), NONE),
    ("fxsr", (1, 0, EDX, 24), NONE),
    ("sse", (1, 0, EDX, 25), NONE),
    ("sse2", (1, 0, EDX, 26), NONE),
    ("sse3", (1, 0, ECX, 0), NONE),
    ("pclmulqdq", (1, 0, ECX, 1), NONE),
    ("ssse3", (1, 0, ECX, 9), NONE),
    ("fma", (1, 0, ECX, 12), AVX),
    ("cmpxchg16b", (1, 0, ECX, 13), NONE),
    ("sse4.1", (1, 0, ECX, 19), NONE),
    ("sse4.2", (1, 0, ECX, 20), NONE),
    ("movbe", (1, 0, ECX, 22), NONE),
    ("popcnt", (1, 0, ECX, 23), NONE),
    ("aes", (1, 0, ECX, 25), NONE),
    ("xsave", (1, 0, ECX, 26), NONE),
    ("avx", (1, 0, ECX, 28), AVX),
    ("f16c", (1, 0, ECX, 29), AVX),
    ("rdrand", (1, 0, ECX, 30), NONE),
    ("bmi1", (7, 0, EBX, 3), NONE),
    ("avx2", (7, 0, EBX, 5), AVX),
    ("bmi2", (7, 0, EBX, 8), NONE),
    ("ermsb", (7, 0, EBX, 9), NONE),
    ("rtm", (7, 0, EBX, 11), NONE),
    ("avx512f", (7, 0, EBX, 16), AVX512),
    ("avx512dq", (7, 0, EBX, 17), AVX512),
    ("rdseed", (7, 0, EBX, 18), NONE),
    ("adx", (7, 0, EBX, 19), NONE),
    ("avx512ifma", (7, 0, EBX, 21), AVX512),
    ("avx512cd", (7, 0, EBX, 28), AVX512),
    ("sha", (7, 0, EBX, 29), NONE),
    ("avx512bw", (7, 0, EBX, 30), AVX512),
    ("avx512vl", (7, 0, EBX, 31), AVX512),
    ("avx512vbmi", (7, 0, ECX, 1), AVX512),
    ("avx512vbmi2", (7, 0, ECX, 6), AVX512),
    ("gfni", (7, 0, ECX, 8), NONE),
    ("vaes", (7, 0, ECX, 9), AVX),
    ("vpclmulqdq", (7, 0, ECX, 10), AVX),
    ("avx512vnni", (7, 0, ECX, 11), AVX512),
    ("avx512bitalg", (7, 0, ECX, 12), AVX512),
    ("avx512vpopcntdq", (7, 0, ECX, 14), AVX512),
    ("kl", (7, 0, ECX, 23), NONE),
    ("avx512vp2intersect", (7, 0, EDX, 8), AVX512),
    ("amx-bf16", (7, 0, EDX, 22), AMX),
    ("avx512fp16", (7, 0, EDX, 23), AVX512),
    ("amx-tile", (7, 0, EDX, 24), AMX),
    ("amx-int8", (7, 0, EDX, 25), AMX),
    ("sha512", (7, 1, EAX, 0), AVX),
    ("sm3", (7, 1, EAX, 1), AVX),
    ("sm4", (7, 1, EAX, 2), AVX),
    ("avxvnni", (7, 1, EAX, 4), AVX),
    ("avx512bf16", (7, 1, EAX, 5), AVX512),
    ("amx-fp16", (7, 1, EAX, 21), AMX),
    ("avxifma", (7, 1, EAX, 23), AVX),
    ("avxvnniint8", (7, 1, EDX, 4), AVX),
    ("avxneconvert", (7, 1, EDX, 5), AVX),
    ("amx-complex", (7, 1, EDX, 8), AMX),
    ("avxvnniint16", (7, 1, EDX, 10), AVX),
    ("xsaveopt", (0xD, 1, EAX, 0), NONE),
    ("xsavec", (0xD, 1, EAX, 1), NONE),
    ("xsaves", (0xD, 1, EAX, 3), NONE),
    ("widekl", (0x19, 0, EBX, 2), NONE),
    ("lahfsahf", (0x8000_0001, 0, ECX, 0), NONE),
    ("lzcnt", (0x8000_0001, 0, ECX, 5), NONE),
    ("sse4a", (0x8000_0001, 0, ECX, 6), NONE),
    ("prfchw", (0x8000_0001, 0, ECX, 8), NONE),
    ("xop", (0x8000_0001, 0, ECX, 11), AVX),
    ("tbm", (0x8000_0001, 0, ECX, 21), NONE),
];

/// Target features that are not CPU features.
const NOT_CPU: &[&str] = &["crt-static"];

#[path = "src/wasm_memory.rs"]
mod wasm_memory;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/wasm_memory.rs");
    if std::env::var("CARGO_CFG_TARGET_FAMILY").is_ok_and(|f| f.split(',').any(|f| f == "wasm")) {
        // The module declares the largest memory it may grow to.
        println!("cargo:rustc-link-arg=--max-memory={}", wasm_memory::MODULE_MEMORY_MB << 20);
    }
    let commit = commit();
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let version = match &commit {
        Some(commit) => format!("{version} {}", commit.short),
        None => version,
    };
    println!("cargo:rustc-env=TESSERA_VERSION={version}");
    let modified = commit.as_ref().is_some_and(|c| c.modified);
    println!("cargo:rustc-env=TESSERA_SOURCES_MODIFIED={modified}");
    println!("cargo:rustc-env=TESSERA_RUSTC={}", rustc_version());
    println!("cargo:rustc-env=TESSERA_TARGET_CPU={}", target_cpu());
    println!("cargo:rustc-env=TESSERA_CPU_LEVEL={}", cpu_level());
    println!("cargo:rerun-if-changed=src/cpu_check.rs");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    println!("cargo:rustc-check-cfg=cfg(tessera_cpu_check)");
    let env = |name: &str| std::env::var(name).unwrap_or_default();
    let out = std::path::PathBuf::from(env("OUT_DIR"));
    let x86_64 = env("CARGO_CFG_TARGET_ARCH") == "x86_64";
    let mut code = String::from(
        "/// The CPU features this build targets, with where `cpuid` reports each.\n\
         const REQUIRED: &[Requirement] = &[\n",
    );
    let enabled = env("CARGO_CFG_TARGET_FEATURE");
    for name in enabled.split(',').filter(|n| !n.is_empty() && !NOT_CPU.contains(n)) {
        match requirement(name) {
            Some(line) => code.push_str(&line),
            None if x86_64 => {
                println!("cargo:warning=CPU feature '{name}' cannot be checked at start-up");
            }
            None => {}
        }
    }
    code.push_str("];\n");
    code.push_str(
        "/// The Makefile's builds for older CPUs, newest first, with the features each needs.\n\
         const BUILDS: &[Build] = &[\n",
    );
    for (make, cpu) in BUILDS.iter().filter(|_| x86_64) {
        let _ = writeln!(code, "    Build {{ make: b{make:?}, cpu: b{cpu:?}, needs: &[");
        for name in features_of(cpu, &env("TARGET")) {
            code.extend(requirement(&name));
        }
        code.push_str("    ] },\n");
    }
    code.push_str("];\n");
    std::fs::write(out.join("cpu_features.rs"), code).expect("write cpu_features.rs");

    // The check runs from the C runtime's initialisers: `.init_array` on Linux,
    // `.CRT$XCU` on Windows; elsewhere (macOS) there is none.
    if !x86_64 || !matches!(env("CARGO_CFG_TARGET_OS").as_str(), "linux" | "windows") {
        return;
    }
    let object = out.join("cpu_check.o");
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    // rustc writes its intermediate object into its working directory before
    // moving it to `object`: run it in OUT_DIR, which is this build's own, so
    // builds side by side (`make -j3 release` beside `make native`) cannot take
    // each other's file.
    let result = std::process::Command::new(rustc)
        .current_dir(&out)
        .env("OUT_DIR", &out)
        .args(["--edition", "2024", "--crate-type", "lib", "--crate-name", "tessera_cpu_check"])
        .args(["--target", &env("TARGET"), "--cfg", "tessera_cpu_check"])
        .args(["-C", "target-cpu=x86-64", "-C", "opt-level=2", "-C", "codegen-units=1"])
        .args(["-C", "panic=abort", "-C", "debug-assertions=off", "-C", "overflow-checks=off"])
        .arg("--emit")
        .arg(format!("obj={}", object.display()))
        .arg(std::path::Path::new(&env("CARGO_MANIFEST_DIR")).join("src/cpu_check.rs"))
        .output()
        .expect("run rustc for src/cpu_check.rs");
    if !result.status.success() {
        panic!("compiling src/cpu_check.rs failed:\n{}", String::from_utf8_lossy(&result.stderr));
    }
    println!("cargo:rustc-link-arg-bins={}", object.display());
    // The linker takes the object after the system libraries: on Windows its
    // three kernel32 calls need that import library named again after it.
    match (env("CARGO_CFG_TARGET_OS").as_str(), env("CARGO_CFG_TARGET_ENV").as_str()) {
        ("windows", "msvc") => println!("cargo:rustc-link-arg-bins=kernel32.lib"),
        ("windows", _) => println!("cargo:rustc-link-arg-bins=-lkernel32"),
        _ => {}
    }
}

/// The Makefile's builds for older CPUs (`make <target>`, `-C target-cpu`),
/// newest first: the start-up check names the first one the CPU can run.
const BUILDS: &[(&str, &str)] = &[("avx2", "x86-64-v3"), ("portable", "x86-64-v2")];

/// The `Requirement { .. }` line of `cpu_check.rs`'s tables for the target
/// feature `name`, if `cpuid` reports it.
fn requirement(name: &str) -> Option<String> {
    let (_, (leaf, subleaf, register, bit), state) =
        FEATURES.iter().find(|(known, ..)| *known == name)?;
    Some(format!(
        "    Requirement {{ name: b{name:?}, leaf: {leaf:#x}, subleaf: {subleaf}, \
         register: {register}, mask: 1 << {bit}, xcr0: {state} }},\n"
    ))
}

/// The CPU features `-C target-cpu=<cpu>` enables, as rustc itself lists them.
fn features_of(cpu: &str, target: &str) -> Vec<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = std::process::Command::new(rustc)
        .args(["--print", "cfg", "--target", target, "-C", &format!("target-cpu={cpu}")])
        .output()
        .expect("run rustc --print cfg");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("target_feature=\"")?.strip_suffix('"').map(String::from))
        .filter(|name| !NOT_CPU.contains(&name.as_str()))
        .collect()
}

/// The commit a build's sources are: its short name, and whether the
/// files the binary is built from differ from it.
struct Commit {
    short: String,
    modified: bool,
}

/// What the binary is built from, for [`Commit::modified`]; cargo runs
/// this again when any of them changes.
const SOURCES: &[&str] =
    &["src", "crates", "build.rs", "Cargo.toml", "Cargo.lock", "rust-toolchain.toml", ".cargo"];

/// The commit where the sources are a git checkout of their own (not sources
/// that merely sit inside another repository), `None` elsewhere. Asks cargo
/// to run this again when the checkout moves to another commit or a source
/// file changes.
fn commit() -> Option<Commit> {
    let dir = std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let git = |args: &[&str]| -> Option<String> {
        let out = std::process::Command::new("git").arg("-C").arg(&dir).args(args).output().ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        out.status.success().then(|| text.trim().to_string())
    };
    let same = |a: &std::path::Path, b: &std::path::Path| {
        a.canonicalize().ok().is_some_and(|a| b.canonicalize().ok() == Some(a))
    };
    let own = git(&["rev-parse", "--show-toplevel"]).is_some_and(|top| same(top.as_ref(), &dir));
    let short = own.then(|| git(&["rev-parse", "--short", "HEAD"])).flatten()?;
    // HEAD names the branch (or the commit); the branch's file, the packed refs or
    // HEAD's log changes with every commit, checkout and reset. Only files that
    // exist are named: cargo would run this on every build for one that does not.
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    for name in ["HEAD", "logs/HEAD", "packed-refs", "index"].into_iter().chain(branch.as_deref()) {
        if let Some(path) = git(&["rev-parse", "--git-path", name]).map(|p| dir.join(p))
            && path.is_file()
        {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    let sources: Vec<&str> = SOURCES.iter().copied().filter(|s| dir.join(s).exists()).collect();
    for source in &sources {
        println!("cargo:rerun-if-changed={source}");
    }
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(&sources);
    let modified = git(&status).is_none_or(|changes| !changes.is_empty());
    Some(Commit { short, modified })
}

/// `rustc --version` of the compiler cargo runs.
fn rustc_version() -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map_or_else(|| "rustc (version unknown)".into(), |v| v.trim().to_string())
}

/// The `-C target-cpu` the build was given (`native` from .cargo/config.toml,
/// or the Makefile's `ARCH`), or `default` for the target's baseline.
fn target_cpu() -> String {
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    let mut cpu = None;
    for (i, flag) in flags.iter().enumerate() {
        let value = match flag.strip_prefix("-C") {
            Some("") => flags.get(i + 1).copied(),
            Some(joined) => Some(joined),
            None => None,
        };
        if let Some(name) = value.and_then(|v| v.strip_prefix("target-cpu=")) {
            cpu = Some(name.to_string());
        }
    }
    cpu.unwrap_or_else(|| "default".into())
}

/// The newest x86-64 level (`x86-64-v4` to `x86-64-v2`, else `x86-64`)
/// whose every feature, as rustc lists them, this build enables; the target
/// architecture's name elsewhere.
fn cpu_level() -> String {
    let env = |name: &str| std::env::var(name).unwrap_or_default();
    if env("CARGO_CFG_TARGET_ARCH") != "x86_64" {
        return env("CARGO_CFG_TARGET_ARCH");
    }
    let enabled = env("CARGO_CFG_TARGET_FEATURE");
    let enabled: Vec<&str> = enabled.split(',').collect();
    ["x86-64-v4", "x86-64-v3", "x86-64-v2"]
        .into_iter()
        .find(|level| {
            features_of(level, &env("TARGET")).iter().all(|f| enabled.contains(&f.as_str()))
        })
        .unwrap_or("x86-64")
        .to_string()
}
