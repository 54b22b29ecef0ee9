#!/usr/bin/env bash
# Self-play SPRT of each named search technique: Tessera with it on (engine A)
# against the same binary with it switched off through the SearchFeatures option.
#
#   scripts/feature_sprt.sh [ENGINE] FEATURE...      e.g. scripts/feature_sprt.sh nmp lmr
#
# Environment: TC (default 3+0.03), GAMES (cap, default 200), CONCURRENCY (default 2),
# SPRT (nElo bounds, default 0,10), OUT (directory for PGN/JSONL, default target/sprt).
# Needs ../shared/tools/match.py and ../shared/data/openings.epd beside the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
engine=target/release/tessera
if [[ $# -gt 0 && -x "$1" ]]; then engine=$1; shift; fi
out=${OUT:-target/sprt}
mkdir -p "$out"
for feature in "$@"; do
    echo "=== $feature on vs off ($engine, ${TC:-3+0.03}) ==="
    python3 ../shared/tools/match.py \
        --engine name="$feature-on" cmd="$engine" \
        --engine name="$feature-off" cmd="$engine" option.SearchFeatures=-"$feature" \
        --each option.Hash=16 option.Threads=1 \
        --tc "${TC:-3+0.03}" --games "${GAMES:-200}" --concurrency "${CONCURRENCY:-2}" \
        --openings ../shared/data/openings.epd --seed "${SEED:-7}" \
        --sprt "${SPRT:-0,10}" --report-every 50 \
        --pgnout "$out/$feature.pgn" --jsonl "$out/$feature.jsonl"
done
