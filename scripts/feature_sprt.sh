#!/usr/bin/env bash
# Self-play SPRT of one search technique: a build with it (engine A) against
# a build without it (engine B), e.g. the branch that adds it against its base,
# or a build with a patch of docs/experiments/ applied against one without.
#
#   scripts/feature_sprt.sh NAME NEW BASE      e.g. scripts/feature_sprt.sh probcut ./tessera-probcut ./tessera
#
# Environment: TC (default 3+0.03), GAMES (cap, default 200), CONCURRENCY (default 2),
# SPRT (nElo bounds, default 0,10), SEED (default 7), OUT (directory for PGN/JSONL,
# default target/sprt), NEW_OPTIONS (extra engine-spec tokens for A, e.g.
# "option.Foo=true" while the technique sits behind a UCI switch of its branch).
# Needs ../shared/tools/match.py and ../shared/data/openings.epd beside the repository.
set -euo pipefail
if [[ $# -ne 3 ]]; then
    sed -n '2,12p' "$0" >&2
    exit 2
fi
for engine in "$2" "$3"; do
    [[ -x "$engine" ]] || { echo "not an executable: $engine" >&2; exit 2; }
done
name=$1 new=$(realpath "$2") base=$(realpath "$3")
cd "$(dirname "$0")/.."
out=${OUT:-target/sprt}
mkdir -p "$out"
echo "=== $name: $new against $base (${TC:-3+0.03}) ==="
# shellcheck disable=SC2086 # NEW_OPTIONS is a list of tokens
python3 ../shared/tools/match.py \
    --engine name="$name" cmd="$new" ${NEW_OPTIONS:-} \
    --engine name=base cmd="$base" \
    --each option.Hash=16 option.Threads=1 \
    --tc "${TC:-3+0.03}" --games "${GAMES:-200}" --concurrency "${CONCURRENCY:-2}" \
    --openings ../shared/data/openings.epd --seed "${SEED:-7}" \
    --sprt "${SPRT:-0,10}" --report-every 50 \
    --pgnout "$out/$name.pgn" --jsonl "$out/$name.jsonl"
