#!/usr/bin/env bash
# Lazy SMP on a many-core machine that has no network and no Rust: the
# thread-scaling measurement and the games of many threads against fewer,
# from a self-contained folder built here.
#
#   scripts/many_core.sh kit                 # here: builds kit/ (git-ignored)
#   bash kit/many_core.sh scaling            # there: 1-16 threads, ~4 minutes
#   bash kit/many_core.sh games SECS OFFSET [MANY] [FEW]
#                                            # there: MANY threads (8) against FEW (1)
#
# `kit` builds the engine for AVX2 CPUs (`make avx2`) and copies beside it
# this script, scripts/smp_plot.py, data/openings.epd, a match runner
# (MATCH, default ../shared/tools/match.py, the runner the records cite; the
# kit plays no games without it) and the python-chess package it needs.
# Copy kit/ to the machine (about 6 MB) and run the other commands from the
# folder above it. Each writes its results under OUT (default kit/out):
#
# - `scaling`: lscpu and the NUMA layout, then scripts/smp_plot.py for 1, 2,
#   4, 8 and 16 threads (fewer where the machine has fewer CPUs), three
#   rounds of `tessera bench DEPTH` (DEPTH=18) with a 1 GB table: the
#   Markdown table (scaling.md) and the plot (smp-scaling.svg).
# - `games SECS OFFSET`: MANY threads against FEW at 4+0.04 (TC), 64 MB
#   each, one game at a time, openings from openings.epd taken in order from
#   opening OFFSET on (one opening a pair), for at most SECS seconds. The
#   clock stops the runner as Ctrl-C would: the game in play is dropped and
#   the summary of the finished ones printed (games-from-OFFSET.log). The
#   next run continues with OFFSET plus the pairs finished; pool the chunks'
#   PGNs, leaving out a lone first game of an unfinished pair.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:?kit, scaling or games}

case "$mode" in
kit)
    root=$(cd "$here/.." && pwd)
    kit=$root/kit
    match=${MATCH:-$root/../shared/tools/match.py}
    chess=$(python3 -c 'import chess, os; print(os.path.dirname(chess.__file__))') \
        || { echo "python-chess is missing: pip install chess" >&2; exit 1; }
    rm -rf "$kit" && mkdir -p "$kit"
    make -C "$root" avx2 EXE="$kit/tessera"
    cp "$root/scripts/many_core.sh" "$root/scripts/smp_plot.py" "$root/data/openings.epd" "$kit/"
    if [ -f "$match" ]; then
        cp "$match" "$kit/match.py"
    else
        echo "no match runner at $match (set MATCH): the kit measures scaling but plays no games" >&2
    fi
    cp -r "$chess" "$kit/chess"
    rm -rf "$kit/chess/__pycache__"
    "$kit/tessera" bench 2>/dev/null | tail -n 1
    du -sh "$kit"
    ;;
scaling)
    out=${OUT:-$here/out} && mkdir -p "$out"
    lscpu >"$out/lscpu.txt" 2>&1 || true
    { numactl --hardware || ls -d /sys/devices/system/node/node*; } >"$out/numa.txt" 2>&1 || true
    cpus=$(nproc)
    threads=1
    for n in 2 4 8 16; do [ "$n" -le "$cpus" ] && threads="$threads,$n"; done
    python3 "$here/smp_plot.py" --engine "$here/tessera" --threads "$threads" --rounds 3 \
        --hash 1024 --depth "${DEPTH:-18}" --out "$out/smp-scaling.svg" | tee "$out/scaling.md"
    ;;
games)
    secs=${2:?seconds}
    offset=${3:?opening offset (pairs)}
    many=${4:-8}
    few=${5:-1}
    out=${OUT:-$here/out} && mkdir -p "$out"
    cd "$here"
    [ -f match.py ] || { echo "the kit has no match runner (MATCH when it was built)" >&2; exit 1; }
    status=0
    timeout -s INT -k 60 "$secs" python3 match.py \
        --engine name=threads$many cmd=./tessera option.Threads="$many" \
        --engine name=threads$few cmd=./tessera option.Threads="$few" \
        --each option.Hash=64 --tc "${TC:-4+0.04}" --games 1000 --concurrency 1 \
        --openings openings.epd --order sequential --opening-offset "$offset" \
        --pgnout "$out/threads$many-vs-$few-from-$offset.pgn" \
        >"$out/games-from-$offset.log" 2>&1 || status=$?
    tail -n 25 "$out/games-from-$offset.log"
    # timeout's 124 is the clock ending the chunk, as planned.
    [ "$status" = 0 ] || [ "$status" = 124 ] || exit "$status"
    ;;
*)
    echo "unknown mode $mode: kit, scaling or games" >&2
    exit 1
    ;;
esac
