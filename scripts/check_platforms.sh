#!/usr/bin/env bash
# The tests of the other platforms, run from a Linux x86-64 machine:
#
# * ARM64 (aarch64-unknown-linux-gnu) under qemu-aarch64: the board's perft
#   suite, rules and FEN tests, the Syzygy prober's tests, and the network's
#   tests (each SIMD path, NEON there, against the portable code).
# * Windows (x86_64-pc-windows-gnu) under wine (scripts/wine/run): the
#   transposition table's tests (its memory is the platform's own), then a
#   Windows release binary playing games against the Linux build
#   (tests/platforms.rs). Needs the release that scripts/check_builds.sh made.
# * macOS (Apple Silicon and Intel): `cargo check` of the workspace, so that no
#   Linux-only call creeps in (nothing links or runs for it here).
# * WebAssembly (wasm32-wasip1-threads) under node (scripts/wasm/run.mjs, with
#   the web package's host: each thread a Worker over the one shared memory):
#   the network's tests (simd128 against the portable code), and Hash and
#   Threads capped to the module's memory (scripts/check_builds.sh checks its
#   bench). Then the web package in headless Chromium
#   (scripts/web/browser_test.py): the page is cross-origin isolated, the
#   worker answers, a search with two threads ends in a best move shown on the
#   page.
#
# Each part needs its tools (.ci/run installs them: gcc-aarch64-linux-gnu,
# qemu-user, gcc-mingw-w64-x86-64, wine, nodejs, chromium, chromium-driver,
# python's selenium) and its Rust target (added here with
# rustup); where one is missing, a SKIPPED line says so. scripts/test runs
# this after scripts/check_builds.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
have() { command -v "$1" >/dev/null; }
# Adds a Rust target if rustup is here and lacks it; fails if it cannot be had.
target() {
    have rustup || return 0
    rustup target list --installed | grep -qx "$1" || rustup target add "$1" >/dev/null 2>&1
}

if have qemu-aarch64 && have aarch64-linux-gnu-gcc && target aarch64-unknown-linux-gnu; then
    echo "ARM64 under qemu-aarch64:"
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
    arm=(--target aarch64-unknown-linux-gnu)
    cargo test "${arm[@]}" -p board --lib --test perft_suite --test rules --test fen_errors
    cargo test "${arm[@]}" -p syzygy
    cargo test "${arm[@]}" -p eval
else
    echo "SKIPPED: the ARM64 tests need qemu-user, gcc-aarch64-linux-gnu and the Rust target"
fi

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
level=portable
grep -qw avx2 /proc/cpuinfo && level=avx2
exe=target/builds/dist/tessera-$version-windows-x86-64-$level.exe
if have wine && have x86_64-w64-mingw32-gcc && target x86_64-pc-windows-gnu; then
    echo "Windows under wine:"
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER="$PWD/scripts/wine/run" \
        cargo test --target x86_64-pc-windows-gnu -p tt
    if [ -f "$exe" ]; then
        TESSERA_WINDOWS_EXE="$PWD/$exe" cargo test --test platforms -- --ignored
    else
        echo "SKIPPED: Windows against Linux games: no $exe (scripts/check_builds.sh makes it)"
    fi
else
    echo "SKIPPED: the Windows tests need wine, gcc-mingw-w64-x86-64 and the Rust target"
fi

for mac in aarch64-apple-darwin x86_64-apple-darwin; do
    if target "$mac"; then
        cargo check --workspace --target "$mac"
        echo "macOS $mac: cargo check passes"
    else
        echo "SKIPPED: macOS $mac: rustup could not add the target"
    fi
done

web=target/builds/dist/web
if have node && [ -f "$web/tessera.wasm" ] && target wasm32-wasip1-threads; then
    echo "WebAssembly under node:"
    # The simd128 kernels against the portable ones, and the network's other
    # tests, as test programs run by node (.cargo/config.toml's runner).
    cargo test --release --target wasm32-wasip1-threads -p eval
    # Hash and Threads share the module's memory: what does not fit is capped.
    reply=$(printf '%s\n' 'setoption name Threads value 16' 'setoption name Hash value 1024' \
        'setoption name Threads value 24' 'setoption name Threads value 2' 'isready' 'go depth 8' \
        | node scripts/wasm/run.mjs "$web/tessera.wasm")
    for want in 'info string Hash 1024 MB capped to' 'info string Threads 24 capped to' 'bestmove'; do
        grep -q "^$want" <<<"$reply" || { echo "$reply"; echo "FAILED: no '$want' line"; exit 1; }
    done
    echo "WebAssembly: Hash and Threads capped to the module's memory; Threads 2 searched"
else
    echo "SKIPPED: the WebAssembly tests need node, the Rust target wasm32-wasip1-threads and $web"
    echo "         (scripts/check_builds.sh makes it)"
fi

if [ -f "$web/tessera.wasm" ] && have chromium && have chromedriver && python3 -c 'import selenium' 2>/dev/null; then
    echo "The web package in Chromium:"
    python3 scripts/web/browser_test.py --server "$web/serve.mjs"
else
    echo "SKIPPED: the browser test needs chromium, chromium-driver, python's selenium and $web"
fi
