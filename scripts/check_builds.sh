#!/usr/bin/env bash
# Builds the release (`make release`: every binary of the Makefile's RELEASES,
# Linux x86-64 at three CPU levels, Linux ARM64, Windows x86-64 at three CPU
# levels, their SHA256SUMS, and the web package) and the native build, checks
# the sums, and checks that every binary this machine can run gives the same
# `bench` node count: the builds differ in instructions (magic or PEXT slider
# attacks, SSE, AVX2, AVX-512, NEON or WebAssembly simd128 network code) and in
# platform, never in the search. Windows binaries run under wine
# (scripts/wine/run), ARM64 ones under qemu-aarch64, the WebAssembly one under
# node with the web package's own host (scripts/wasm/run.mjs). A build the CPU cannot run is named and skipped (its start-up
# check refuses it, and says why). `make check-builds` runs this; so does
# scripts/test.
#
# The other platforms need their Rust targets (added here with rustup) and
# Debian's cross tools: gcc-mingw-w64-x86-64 and wine for Windows,
# gcc-aarch64-linux-gnu and qemu-user for ARM64, node for WebAssembly (.ci/run
# installs them). Where
# one is missing, that platform's binaries are not built, and a SKIPPED line
# says what to install.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/target/builds"
dist="$out/dist"
rm -rf "$dist"
mkdir -p "$out"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
# The release's names (after tessera-VERSION-) and targets, from the Makefile.
releases=$(make --no-print-directory -s -f - print-releases <<'EOF'
include Makefile
print-releases:
	@for r in $(RELEASES); do echo "$$r"; done
EOF
)
have() { command -v "$1" >/dev/null; }
# Whether a target's cross tools are here (and its Rust target, added if not).
can_build() {
    local target=$1
    case $target in
        *windows*) have x86_64-w64-mingw32-gcc || { missing["gcc-mingw-w64-x86-64"]=1; return 1; } ;;
        aarch64*) [ "$(uname -m)" = aarch64 ] || have aarch64-linux-gnu-gcc \
            || { missing["gcc-aarch64-linux-gnu"]=1; return 1; } ;;
    esac
    if have rustup && ! rustup target list --installed | grep -qx "$target"; then
        rustup target add "$target" >/dev/null 2>&1 || { missing["rustup target $target"]=1; return 1; }
    fi
}
declare -A missing=()
names=()
for r in $releases; do
    IFS=: read -r name target _ <<<"$r"
    if can_build "$target"; then names+=("$name"); fi
done
web=""
if can_build wasm32-wasip1-threads; then web=web; fi
# All the builds at once: each ends in a fat-LTO step on one core, so side by
# side they keep every core busy (docs/results/reliability.md has the figures).
make --no-print-directory -s native EXE="$out/tessera-native" >"$out/native.log" 2>&1 &
native=$!
if [ "${#names[@]}" = "$(wc -w <<<"$releases")" ] && [ -n "$web" ]; then
    # Everything is here: the Makefile's own `make release`, sums included.
    goals=(release)
else
    goals=("${names[@]/#/release-}" $web)
fi
make --no-print-directory -s -j"$(nproc)" "${goals[@]}" DIST="$dist" >"$out/release.log" 2>&1 \
    || { cat "$out/release.log"; echo "FAILED: make release"; wait "$native"; exit 1; }
if [ "${goals[0]}" != release ]; then
    (cd "$dist" && sha256sum "${names[@]/#/tessera-$version-}" >SHA256SUMS)
fi
(cd "$dist" && sha256sum --check --quiet SHA256SUMS) || { echo "FAILED: dist/SHA256SUMS"; exit 1; }
for name in "${names[@]}"; do
    [ -x "$dist/tessera-$version-$name" ] || { echo "FAILED: make release made no tessera-$version-$name"; exit 1; }
done
echo "make release: $(cd "$dist" && ls | tr '\n' ' ')"
for tool in "${!missing[@]}"; do
    echo "SKIPPED: the release binaries that need $tool (install it: .ci/run does)"
done
wait "$native" || { cat "$out/native.log"; echo "FAILED: make native"; exit 1; }
# How to run a binary here: natively, under wine or under qemu; nothing if this machine cannot.
runner() {
    case $1 in
        *.exe) have wine && have x86_64-w64-mingw32-gcc && echo scripts/wine/run ;;
        *aarch64*) if [ "$(uname -m)" = aarch64 ]; then echo env; elif have qemu-aarch64; then echo qemu-aarch64; fi ;;
        *.wasm) have node && echo "node scripts/wasm/run.mjs" ;;
        *) echo env ;;
    esac
}
first=""
wasm=""
[ -n "$web" ] && wasm="$dist/web/tessera.wasm"
for bin in "$dist"/tessera-"$version"-* $wasm "$out/tessera-native"; do
    build=${bin##*/}
    run=$(runner "$build")
    if [ -z "$run" ]; then
        echo "SKIPPED: $build: nothing here runs it (wine for Windows, qemu-user for ARM64)"
        continue
    fi
    if ! last=$($run "$bin" bench </dev/null 2>/dev/null | tail -n 1) || [ "${last%% nodes*}" = "$last" ]; then
        echo "SKIPPED: $build runs on a newer CPU than this one: $last"
        continue
    fi
    nodes=${last%% nodes*}
    echo "$build: bench $last$([ "$run" = env ] || echo " (${run%% *})")"
    if [ -z "$first" ]; then
        first=$nodes
    elif [ "$nodes" != "$first" ]; then
        echo "FAILED: $build gives bench $nodes, the builds before it $first"
        exit 1
    fi
done
[ -n "$first" ] || { echo "FAILED: no build ran on this CPU"; exit 1; }
echo "every build gives bench $first"
