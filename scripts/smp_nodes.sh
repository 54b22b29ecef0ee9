#!/usr/bin/env bash
# What more threads are worth, measured without a machine that has them: games
# at fixed nodes, where the search does not depend on the hardware.
#
#   scripts/smp_nodes.sh threads N K GAMES SEED   # N threads given N·K nodes a move against 1 thread given K
#   scripts/smp_nodes.sh odds C K GAMES SEED      # 1 thread given C·K nodes a move against 1 thread given K
#   scripts/smp_nodes.sh versus N K GAMES SEED    # ENGINE against BASE, N threads and N·K nodes each
#   scripts/smp_nodes.sh ceiling N K GAMES SEED   # N threads given N·K nodes against 1 thread given N·K
#
# The first is Lazy SMP's Elo at N threads as if nodes/s scaled perfectly (the
# N threads time-share this machine's cores; `go nodes` counts all threads'
# nodes). The second, for a few C (2, 4, 8, …), is the node-odds ladder: the
# C at which one thread's Elo equals N threads' is Lazy SMP's effective
# speed-up at N, and that times the measured nodes/s curve (`tessera
# speedtest`) predicts the real gain (docs/smp.md, "Measuring threads at fixed
# nodes"). K should be large beside the OS's time slice (~3 ms, ~4K nodes):
# 50,000 to 100,000. The third judges a change to Lazy SMP at N threads: the
# engine with it (ENGINE) against the engine without it (BASE, a path), the
# same threads and nodes on both sides. The fourth measures what Lazy SMP
# leaves on the table at N threads: the same nodes searched by one thread are
# what perfect sharing would reach, so a change to the threads can win at
# most what N threads lose here.
#
# Environment: ENGINE (default target/release/tessera), BASE (versus only), HASH (MB each, default
# 64), CONCURRENCY (games at a time, default 2), PIN=1 (the N-thread engine on
# CPU 0 alone, its threads time-sliced on one core: the validation's second
# variant), OPENINGS (default data/openings.epd), OUT (PGN and JSONL, default
# target/smp-nodes), MATCH (the runner, default ../shared/tools/match.py).
# Every game is Tessera against Tessera: keep the PGN as data
# (scripts/import_match.sh).
set -euo pipefail
if [[ $# -ne 5 || ! "$1" =~ ^(threads|odds|versus|ceiling)$ ]]; then
    sed -n '2,8p' "$0" >&2
    exit 2
fi
mode=$1 n=$2 k=$3 games=$4 seed=$5
for number in "$n" "$k" "$games" "$seed"; do
    [[ "$number" =~ ^[0-9]+$ && "$number" -gt 0 ]] || { echo "not a positive number: $number" >&2; exit 2; }
done
cd "$(dirname "$0")/.."
engine=$(realpath "${ENGINE:-target/release/tessera}")
[[ -x "$engine" ]] || { echo "no engine at $engine (cargo build --release, or ENGINE=...)" >&2; exit 2; }
match=${MATCH:-../shared/tools/match.py}
[[ -f "$match" ]] || { echo "no match runner at $match (MATCH=...)" >&2; exit 2; }
hash=${HASH:-64}
out=${OUT:-target/smp-nodes}
mkdir -p "$out"

# The command that runs engine $1: on CPU 0 alone with PIN=1.
pinned() {
    if [[ "${PIN:-0}" == 1 ]]; then echo "taskset -c 0 $1"; else echo "$1"; fi
}
other=(--engine name=one "cmd=$engine" option.Threads=1 "nodes=$k")
against="one thread at $k nodes"
name=threads$n label=$mode-$n-$k-s$seed
if [[ "$mode" == ceiling ]]; then
    other=(--engine name=one "cmd=$engine" option.Threads=1 "nodes=$((n * k))")
    against="one thread at $((n * k)) nodes"
elif [[ "$mode" == versus ]]; then
    base=$(realpath "${BASE:?versus needs BASE=path of the engine without the change}")
    [[ -x "$base" ]] || { echo "no engine at $base (BASE=...)" >&2; exit 2; }
    name=$(basename "$engine") base_name=$(basename "$base")
    [[ "$name" != "$base_name" ]] || { name=new base_name=base; }
    label=$mode-$name-$base_name-$n-$k-s$seed
    other=(--engine "name=$base_name" "cmd=$(pinned "$base")" "option.Threads=$n" "nodes=$((n * k))")
    against="$base_name at the same"
fi
if [[ "$mode" == odds ]]; then
    name=odds$n
    many=(--engine "name=$name" "cmd=$engine" option.Threads=1 "nodes=$((n * k))")
else
    many=(--engine "name=$name" "cmd=$(pinned "$engine")" "option.Threads=$n" "nodes=$((n * k))")
fi
[[ "${PIN:-0}" == 1 ]] && label=$label-pinned
echo "=== $label: ${many[*]:1} against $against ==="
python3 "$match" "${many[@]}" "${other[@]}" \
    --each "option.Hash=$hash" \
    --games "$games" --concurrency "${CONCURRENCY:-2}" \
    --openings "${OPENINGS:-data/openings.epd}" --seed "$seed" --report-every 50 \
    --pgnout "$out/$label.pgn" --jsonl "$out/$label.jsonl"
