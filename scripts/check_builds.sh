#!/usr/bin/env bash
# Builds each of the Makefile's CPU targets (portable = x86-64-v2, avx2 =
# x86-64-v3, native) and checks that every one this CPU can run gives the same
# `bench` node count: the builds differ in instructions (magic or PEXT slider
# attacks, SSE or AVX2 network code), never in the search. A build the CPU
# cannot run is named and skipped (its start-up check refuses it).
# `make check-builds` runs this; so does scripts/test. About 30 s a build.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/target/builds"
mkdir -p "$out"
first=""
for build in portable avx2 native; do
    make --no-print-directory -s "$build" EXE="$out/tessera-$build" >"$out/$build.log" 2>&1 \
        || { cat "$out/$build.log"; echo "FAILED: make $build"; exit 1; }
    if ! last=$("$out/tessera-$build" bench </dev/null 2>/dev/null | tail -n 1); then
        echo "SKIPPED: make $build runs on a newer CPU than this one: $last"
        continue
    fi
    nodes=${last%% nodes*}
    echo "make $build: bench $last"
    if [ -z "$first" ]; then
        first=$nodes
    elif [ "$nodes" != "$first" ]; then
        echo "FAILED: make $build gives bench $nodes, the builds before it $first"
        exit 1
    fi
done
[ -n "$first" ] || { echo "FAILED: no build ran on this CPU"; exit 1; }
echo "every build gives bench $first"
