#!/usr/bin/env bash
# Generates training data in shards and keeps them in the repository:
# each shard is one `tessera datagen` run with its own seed, compressed with xz
# into data/genG/, and one line of data/manifest.tsv records its provenance
# (generation, engine commit, seed, games, nodes, positions, sha256, date,
# source `datagen`).
#
#   scripts/datagen_shards.sh GENERATION FIRST_SEED [SHARDS]
#
# A seed the generation already has in the manifest is skipped, so the same
# command may be run again and goes on where the data ends.
# Environment: BIN (the engine, default target/release/tessera; it is copied
# first so a rebuild cannot change it mid-run), COMMIT (the commit BIN was
# built from, default HEAD, which must then have no uncommitted changes),
# GAMES per shard (600: about 75 K positions, under an hour on two cores, so
# that stopping a run loses little), NODES soft limit per move (default: the
# one `tessera datagen` has; the manifest records the limit it reports), THREADS (2),
# DFRC: the percentage of games that start from a double Fischer random position
# (15, datagen's own default; the manifest does not record it, so keep one share
# within a generation and say in data/README.md where it differs).
# Run it at low priority: `nice -n 19 scripts/datagen_shards.sh 1 1000 &`.
# `nice` alone is not enough where the kernel groups processes by session
# (sched_autogroup): a datagen started with `setsid` or from another terminal
# then takes a full share of the CPU from a match, whatever its nice value. So
# when it leads its own session (started with `setsid`, as docs/datagen.md
# does) it also lowers that session's group, where the kernel lets it.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(ps -o sid= -p $$ | tr -d ' ')" = "$$" ] && [ -w /proc/self/autogroup ]; then
    echo 19 >/proc/self/autogroup 2>/dev/null || true
fi
gen=${1:?generation}
first_seed=${2:?first seed}
shards=${3:-1000000}
games=${GAMES:-600}
threads=${THREADS:-2}
dfrc=${DFRC:-15}
if [ -z "${COMMIT:-}" ]; then
    if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
        echo "uncommitted changes: build from a clean commit or set COMMIT" >&2
        exit 1
    fi
    COMMIT=$(git rev-parse --short=7 HEAD)
fi
bin=$(mktemp -d)/tessera-$COMMIT
cp "${BIN:-target/release/tessera}" "$bin"
mkdir -p "data/gen$gen"
manifest=data/manifest.tsv
[ -f "$manifest" ] || printf 'file\tgeneration\tcommit\tseed\tgames\tnodes\tpositions\tsha256\tdate\tsource\n' >"$manifest"
for ((i = 0; i < shards; i++)); do
    seed=$((first_seed + i))
    name=gen$gen-$COMMIT-s$seed
    out=data/gen$gen/$name.bin
    if [ -e "$out.xz" ]; then continue; fi
    # A seed this generation's data already has, from any commit: a build that
    # plays the same (a commit that changed only the docs) would play the same games.
    if awk -F'\t' -v g="$gen" -v s="$seed" '$2 == g && $4 == s && $10 == "datagen" { found = 1 }
        END { exit !found }' "$manifest"; then
        echo "seed $seed: generation $gen has it already (data/manifest.tsv); skipped" >&2
        continue
    fi
    log=$(mktemp)
    "$bin" datagen --games "$games" ${NODES:+--nodes "$NODES"} --threads "$threads" --seed "$seed" \
        --dfrc "$dfrc" --out "$out.part" 2> >(tee "$log" >&2)
    positions=$(tail -n 1 "$log" | sed -n 's/.*positions \([0-9]*\).*/\1/p')
    nodes=$(head -n 1 "$log" | sed -n 's/.* \([0-9]*\) nodes\/move.*/\1/p')
    mv "$out.part" "$out"
    xz -9 -T1 "$out"
    sum=$(sha256sum "$out.xz" | cut -d' ' -f1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name.bin.xz" "$gen" "$COMMIT" "$seed" \
        "$games" "$nodes" "$positions" "$sum" "$(date -u +%F)" datagen >>"$manifest"
    rm -f "$log"
done
