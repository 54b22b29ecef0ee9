#!/usr/bin/env bash
# Builds the release (`make release`: the portable = x86-64-v2, avx2 =
# x86-64-v3 and avx512 = x86-64-v4 binaries and their SHA256SUMS) and the
# native build, checks the sums, and checks that every binary this CPU can
# run gives the same `bench` node count: the builds differ in instructions
# (magic or PEXT slider attacks, SSE, AVX2 or AVX-512 network code), never in
# the search. A build the CPU cannot run is named and skipped (its start-up
# check refuses it, and says why). `make check-builds` runs this; so does
# scripts/test.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/target/builds"
dist="$out/dist"
rm -rf "$dist"
mkdir -p "$out"
# All four builds at once: each ends in a fat-LTO step on one core, so side by
# side they keep every core busy (docs/results/reliability.md has the figures).
make --no-print-directory -s native EXE="$out/tessera-native" >"$out/native.log" 2>&1 &
native=$!
make --no-print-directory -s -j3 release DIST="$dist" >"$out/release.log" 2>&1 \
    || { cat "$out/release.log"; echo "FAILED: make release"; wait "$native"; exit 1; }
(cd "$dist" && sha256sum --check --quiet SHA256SUMS) || { echo "FAILED: dist/SHA256SUMS"; exit 1; }
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
for name in portable avx2 avx512; do
    bin="$dist/tessera-$version-$(uname -s | tr A-Z a-z)-$name"
    [ -x "$bin" ] || { echo "FAILED: make release made no $bin"; exit 1; }
done
echo "make release: $(cd "$dist" && ls | tr '\n' ' ')"
wait "$native" || { cat "$out/native.log"; echo "FAILED: make native"; exit 1; }
first=""
for bin in "$dist"/tessera-* "$out/tessera-native"; do
    build=${bin##*/}
    if ! last=$("$bin" bench </dev/null 2>/dev/null | tail -n 1); then
        echo "SKIPPED: $build runs on a newer CPU than this one: $last"
        continue
    fi
    nodes=${last%% nodes*}
    echo "$build: bench $last"
    if [ -z "$first" ]; then
        first=$nodes
    elif [ "$nodes" != "$first" ]; then
        echo "FAILED: $build gives bench $nodes, the builds before it $first"
        exit 1
    fi
done
[ -n "$first" ] || { echo "FAILED: no build ran on this CPU"; exit 1; }
echo "every build gives bench $first"
