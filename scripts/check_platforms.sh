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
# * WebAssembly (wasm32-wasip1-threads) under node (scripts/wasm/run.mjs, which
#   gives each thread a Worker over the one shared memory): `bench` must give
#   the native build's node count.
#
# Each part needs its tools (.ci/run installs them: gcc-aarch64-linux-gnu,
# qemu-user, gcc-mingw-w64-x86-64, wine, nodejs) and its Rust target (added here with
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

native=target/builds/tessera-native
if have node && target wasm32-wasip1-threads && [ -x "$native" ]; then
    cargo build --release --target wasm32-wasip1-threads
    wasm=target/wasm32-wasip1-threads/release/tessera.wasm
    want=$("$native" bench </dev/null 2>/dev/null | tail -n 1)
    got=$(node scripts/wasm/run.mjs "$wasm" bench </dev/null 2>/dev/null | tail -n 1)
    echo "WebAssembly under node: bench $got"
    if [ "${got%% nodes*}" != "${want%% nodes*}" ]; then
        echo "FAILED: the WebAssembly build gives bench '$got', the native build '$want'"
        exit 1
    fi
else
    echo "SKIPPED: the WebAssembly bench needs node, the Rust target wasm32-wasip1-threads and $native"
fi
