#!/usr/bin/env bash
# Lazy SMP on a many-core machine that has no network and no Rust: the
# thread-scaling measurement and the games of many threads against fewer,
# from a self-contained folder built here.
#
#   scripts/many_core.sh kit                 # here: builds kit/ (git-ignored)
#   bash kit/many_core.sh scaling [--budget SECS]
#                                            # there: 1, 2, 4, ... threads up to the CPUs
#   bash kit/many_core.sh report             # there: the table and plot of what is measured
#   bash kit/many_core.sh games SECS OFFSET [MANY] [FEW]
#                                            # there: MANY threads (8) against FEW (1)
#
# `kit` builds the engine as the release builds its static Linux AVX2 binary
# (`make release-linux-x86-64-avx2`: musl, x86-64-v3; it needs the Rust target
# x86_64-unknown-linux-musl, added with rustup where it is missing), checks
# with `file` and `ldd` that it is static, so it runs whatever C library the
# machine has, and copies beside it this script, scripts/smp_plot.py,
# scripts/pool_games.py, data/openings.epd, the python-chess package and a match runner: MATCH
# (default ../shared/tools/match.py, the runner the records cite). Without
# that file the step fails and says so; MATCH=none builds a kit that measures
# scaling and plays no games. build.txt records the commit and the bench. Copy
# kit/ to the machine (about 6 MB) and run the other commands from the folder
# above it; they need bash and python3 there, nothing else. Each writes its
# results under OUT (default kit/out).
#
# - `scaling`: records the machine in machine.txt (lscpu; model, sockets,
#   cores, threads per core and whether SMT is on; NUMA layout from numactl -H
#   or /sys; transparent huge pages; the CPUs' current MHz; kernel; glibc; the
#   engine's own report of its table's pages and thread pinning with HASH and
#   one thread per CPU, and how much of the table the kernel put on huge
#   pages), then runs scripts/smp_plot.py: ROUNDS rounds (3) of
#   `tessera bench DEPTH T HASH` (DEPTH=18, HASH=1024 MB) for T = 1, 2, 4, 8,
#   ... up to the CPUs this process may use, and the physical core count and
#   the CPU count themselves where they are not powers of two (THREADS=1,8,64
#   for another list). Round 1 goes up the list, round 2 down, and so on.
#   Each bench run is appended to scaling.tsv the moment it ends (threads,
#   round, nodes, nps, seconds, the clock under load, ...), so a run cut short
#   keeps every run it finished. The budget (`--budget SECS` or BUDGET,
#   default 480: the whole command, machine record included) bounds it: before
#   each run the time it should take is estimated from the runs measured, and
#   the measurement stops cleanly when that no longer fits; a run still going
#   when the budget ends is killed and not recorded. At the end, or when
#   the command is stopped (SIGTERM, Ctrl-C), machine.txt gets the CPUs' MHz
#   again and `report` renders what is there.
#   **Resuming**: run `scaling` again with the same kit, OUT, DEPTH and
#   HASH (ROUNDS may grow): the (threads, round) runs in scaling.tsv are
#   skipped and only the rest measured, within the new budget.
# - `report`: the Markdown table (scaling.md, also printed) and the plot
#   (smp-scaling.svg) from scaling.tsv, for DEPTH and HASH where they are set,
#   else those of its last line. Measures nothing; a second's work.
# - `games SECS OFFSET`: MANY threads against FEW at 4+0.04 (TC), 64 MB
#   each, one game at a time, openings from openings.epd taken in order from
#   opening OFFSET on (one opening a pair), for at most SECS seconds. The
#   clock stops the runner as Ctrl-C would: the game in play is dropped and
#   the summary of the finished ones printed (games-from-OFFSET.log). The
#   next run continues with OFFSET plus the pairs finished; `python3
#   kit/pool_games.py OUT/*.pgn` pools the chunks' PGNs (the pairs whole,
#   a lone first game of an unfinished pair apart). With NODES=K
#   the games are at fixed nodes instead (MANY threads given MANY·K nodes a
#   move, FEW given FEW·K: the method of scripts/smp_nodes.sh on real cores),
#   as many at once as the CPUs hold MANY-thread sides (CONCURRENCY to
#   choose).
#
# ENGINE=path runs another engine binary than the kit's (scripts/check_many_core.sh,
# the test of `scaling` and `report`, uses it on a build made here).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:?kit, scaling, report or games}
shift
engine=${ENGINE:-$here/tessera}
out=${OUT:-$here/out}
tsv=$out/scaling.tsv

# The CPUs' current clock: the spread over the CPUs /proc/cpuinfo lists.
cpu_mhz() {
    awk -F: '/^cpu MHz/ { v = $2 + 0; n++; s += v; if (n == 1 || v < lo) lo = v; if (v > hi) hi = v }
        END { if (n) printf "%d CPUs at min %.0f, mean %.0f, max %.0f MHz\n", n, lo, s / n, hi;
              else print "not in /proc/cpuinfo" }' /proc/cpuinfo 2>/dev/null || echo "no /proc/cpuinfo"
}

# What the engine says of itself with HASH MB and one thread per CPU: its name,
# the table's pages, the threads' pinning (said when NumaPolicy changes: set to
# none, then back to the default, auto, whose line comes second); then how much
# of its memory the kernel backs with transparent huge pages once the table is
# cleared (touched).
engine_report() {
    local hash=$1 cpus=$2 dir pid
    dir=$(mktemp -d)
    mkfifo "$dir/in"
    "$engine" <"$dir/in" >"$dir/out" 2>&1 &
    pid=$!
    exec 3>"$dir/in"
    # In subshells: a write to an engine that has gone must not end this shell (SIGPIPE).
    (printf 'uci\nsetoption name Hash value %s\nsetoption name Threads value %s\nsetoption name NumaPolicy value none\nsetoption name NumaPolicy value auto\nucinewgame\nisready\n' \
        "$hash" "$cpus" >&3) 2>/dev/null || true
    for _ in $(seq 1 600); do
        grep -q '^readyok' "$dir/out" && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    grep -E '^(id name|info string)' "$dir/out" || echo "(the engine said nothing: $(head -c 300 "$dir/out"))"
    if [ -r "/proc/$pid/smaps_rollup" ]; then
        echo "AnonHugePages of the engine after clearing its table: $(awk '/^AnonHugePages/ { print $2, $3 }' "/proc/$pid/smaps_rollup")"
    fi
    (echo quit >&3) 2>/dev/null || true
    exec 3>&-
    wait "$pid" 2>/dev/null || true
    rm -rf "$dir"
}

# The machine, appended to machine.txt at the start of every `scaling`.
record_machine() {
    local cpus=$1
    echo "== scaling started $(date -u '+%Y-%m-%d %H:%M:%S UTC'): DEPTH=$depth HASH=$hash ROUNDS=$rounds THREADS=$threads budget ${budget} s =="
    echo "host: $(uname -n)"
    echo "kernel: $(uname -srvm)"
    echo "glibc: $( { getconf GNU_LIBC_VERSION 2>/dev/null || ldd --version 2>&1 | head -n 1; } || echo unknown)"
    echo "model name: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)"
    echo "CPUs: $cpus usable ($(nproc --all 2>/dev/null || echo '?') online)"
    lscpu 2>/dev/null | grep -E '^(Socket|Core|Thread|NUMA node\(s\)|CPU max MHz|CPU min MHz)' || true
    echo "SMT: control $(cat /sys/devices/system/cpu/smt/control 2>/dev/null || echo unknown), active $(cat /sys/devices/system/cpu/smt/active 2>/dev/null || echo unknown)"
    echo "CPU MHz now: $(cpu_mhz)"
    echo "frequency governor: $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null || echo none), driver $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_driver 2>/dev/null || echo none)"
    echo "transparent huge pages: enabled $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown), defrag $(cat /sys/kernel/mm/transparent_hugepage/defrag 2>/dev/null || echo unknown)"
    grep -E '^(MemTotal|MemAvailable|AnonHugePages|HugePages_Total|Hugepagesize)' /proc/meminfo 2>/dev/null || true
    echo "-- NUMA --"
    if command -v numactl >/dev/null; then
        numactl -H 2>&1 || true
    else
        local node
        for node in /sys/devices/system/node/node[0-9]*; do
            [ -d "$node" ] || { echo "no NUMA nodes listed in /sys"; break; }
            echo "${node##*/}: CPUs $(cat "$node/cpulist"), $(awk '/MemTotal/ { print $4, $5 }' "$node/meminfo")"
        done
    fi
    echo "-- the engine: $engine --"
    engine_report "$hash" "$cpus"
    echo "-- lscpu --"
    lscpu 2>&1 || true
    echo
}

report() {
    mkdir -p "$out"
    python3 "$here/smp_plot.py" --report --results "$tsv" --out "$out/smp-scaling.svg" \
        --table "$out/scaling.md" ${1:+--depth "$1"} ${2:+--hash "$2"}
}

case "$mode" in
kit)
    root=$(cd "$here/.." && pwd)
    kit=$root/kit
    match=${MATCH:-$root/../shared/tools/match.py}
    if [ "$match" != none ] && [ ! -f "$match" ]; then
        echo "no match runner at $match: set MATCH to match.py's path, or MATCH=none for a kit" >&2
        echo "that measures scaling and plays no games" >&2
        exit 1
    fi
    chess=$(python3 -c 'import chess, os; print(os.path.dirname(chess.__file__))') \
        || { echo "python-chess is missing: pip install chess" >&2; exit 1; }
    target=x86_64-unknown-linux-musl
    if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx "$target"; then
        rustup target add "$target" || { echo "the kit's static build needs the Rust target $target" >&2; exit 1; }
    fi
    rm -rf "$kit" && mkdir -p "$kit"
    # The release's own static build (the Makefile's RELEASES), named tessera here.
    make -C "$root" --no-print-directory release-linux-x86-64-avx2 DIST="$kit"
    mv "$kit"/tessera-*-linux-x86-64-avx2 "$kit/tessera"
    what=$(file -b "$kit/tessera" 2>/dev/null || echo "no file command")
    linked=$(ldd "$kit/tessera" 2>&1 || true)
    case $what in
        *"statically linked"* | *"static-pie linked"* | "no file command") ;;
        *) echo "the kit's engine is not static: file says: $what" >&2; exit 1 ;;
    esac
    if grep -q '=>' <<<"$linked"; then
        echo "the kit's engine is not static: ldd says:" >&2
        echo "$linked" >&2
        exit 1
    fi
    echo "static: file says: $what"
    echo "static: ldd says: $linked"
    cp "$root/scripts/many_core.sh" "$root/scripts/smp_plot.py" "$root/scripts/pool_games.py" \
        "$root/data/openings.epd" "$kit/"
    [ "$match" = none ] || cp "$match" "$kit/match.py"
    cp -r "$chess" "$kit/chess"
    rm -rf "$kit/chess/__pycache__"
    bench=$("$kit/tessera" bench 2>/dev/null | tail -n 1)
    {
        echo "commit: $(git -C "$root" describe --always --dirty 2>/dev/null || echo unknown)"
        echo "built: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), make release-linux-x86-64-avx2 (x86_64-unknown-linux-musl, x86-64-v3)"
        echo "file: $what"
        echo "bench: $bench"
        echo "match runner: $([ "$match" = none ] && echo none || readlink -f "$match")"
    } >"$kit/build.txt"
    echo "bench: $bench"
    du -sh "$kit"
    ;;
scaling)
    start=$SECONDS
    budget=${BUDGET:-480}
    while [ $# -gt 0 ]; do
        case $1 in
            --budget) budget=${2:?--budget SECS}; shift 2 ;;
            --budget=*) budget=${1#--budget=}; shift ;;
            *) echo "scaling: unknown argument $1 (--budget SECS)" >&2; exit 1 ;;
        esac
    done
    [[ $budget =~ ^[0-9]+$ ]] || { echo "scaling: the budget is whole seconds, not $budget" >&2; exit 1; }
    depth=${DEPTH:-18}
    hash=${HASH:-1024}
    rounds=${ROUNDS:-3}
    threads=${THREADS:-powers}
    command -v python3 >/dev/null || { echo "scaling needs python3" >&2; exit 1; }
    [ -x "$engine" ] || { echo "no engine at $engine (ENGINE=path for another)" >&2; exit 1; }
    mkdir -p "$out"
    record_machine "$(nproc)" >>"$out/machine.txt"
    # The end of the run, however it ends: the clock again, then the report.
    finish() {
        echo "== scaling ended $(date -u '+%Y-%m-%d %H:%M:%S UTC') ($1, $((SECONDS - start)) s): CPU MHz now: $(cpu_mhz) ==" >>"$out/machine.txt"
        echo >>"$out/machine.txt"
        report "$depth" "$hash" || true
    }
    py=""
    stopped() {
        trap - TERM INT HUP
        if [ -n "$py" ]; then
            kill -TERM "$py" 2>/dev/null || true
            wait "$py" 2>/dev/null || true
        fi
        echo "scaling: stopped; every run finished is in $tsv (run scaling again to go on)" >&2
        finish "cut short"
        exit 143
    }
    trap stopped TERM INT HUP
    left=$((budget - (SECONDS - start)))
    [ "$left" -gt 0 ] || left=0
    # In the background, so that a signal reaches the trap at once (bash runs
    # traps only between commands; `wait` returns for one).
    python3 "$here/smp_plot.py" --engine "$engine" --threads "$threads" --rounds "$rounds" \
        --hash "$hash" --depth "$depth" --results "$tsv" --budget "$left" \
        --measure-only &
    py=$!
    status=0
    wait "$py" || status=$?
    trap - TERM INT HUP
    [ "$status" = 0 ] || { echo "scaling: smp_plot.py failed (exit $status)" >&2; finish "failed"; exit "$status"; }
    finish "done"
    ;;
report)
    [ $# = 0 ] || { echo "report takes no arguments (DEPTH, HASH, OUT from the environment)" >&2; exit 1; }
    report "${DEPTH:-}" "${HASH:-}"
    ;;
games)
    secs=${1:?seconds}
    offset=${2:?opening offset (pairs)}
    many=${3:-8}
    few=${4:-1}
    mkdir -p "$out"
    game_engine=${ENGINE:-./tessera}
    cd "$here"
    [ -f match.py ] || { echo "the kit has no match runner (match.py: set MATCH when building the kit)" >&2; exit 1; }
    # On the clock one game at a time, so the MANY side has the cores it is
    # measured with; at fixed nodes (NODES=K: MANY threads get MANY·K nodes a
    # move, FEW get FEW·K) as many games at once as the CPUs hold MANY-thread sides.
    if [ -n "${NODES:-}" ]; then
        limits=("nodes=$((many * NODES))" "nodes=$((few * NODES))")
        cpus=$(nproc)
        concurrency=${CONCURRENCY:-$((cpus / many > 0 ? cpus / many : 1))}
        label=threads$many-vs-$few-nodes$NODES-from-$offset
    else
        limits=("tc=${TC:-4+0.04}" "tc=${TC:-4+0.04}")
        concurrency=${CONCURRENCY:-1}
        label=threads$many-vs-$few-from-$offset
    fi
    status=0
    timeout -s INT -k 60 "$secs" python3 match.py \
        --engine name="threads$many" cmd="$game_engine" option.Threads="$many" "${limits[0]}" \
        --engine name="threads$few" cmd="$game_engine" option.Threads="$few" "${limits[1]}" \
        --each option.Hash=64 --games 1000 --concurrency "$concurrency" \
        --openings openings.epd --order sequential --opening-offset "$offset" \
        --pgnout "$out/$label.pgn" \
        >"$out/games-from-$offset.log" 2>&1 || status=$?
    tail -n 25 "$out/games-from-$offset.log"
    # timeout's 124 is the clock ending the chunk, as planned.
    [ "$status" = 0 ] || [ "$status" = 124 ] || exit "$status"
    ;;
*)
    echo "unknown mode $mode: kit, scaling, report or games" >&2
    exit 1
    ;;
esac
