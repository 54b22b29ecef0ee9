#!/usr/bin/env bash
# Keeps the games of a match between Tessera builds as training data: the
# PGN's games whose two players are both named in PLAYERS become a shard in
# data/genGEN/ (binary game format, xz -9), with a line in data/manifest.tsv
# whose source column says `match:LABEL`. Games against other engines, and
# games that did not end on the board or by adjudication, are left out
# (`tessera-train import-pgn`, docs/datagen.md).
#
#   scripts/import_match.sh GENERATION LABEL PLAYERS LIMIT SEED PGN...
#
# LABEL names the match in the shard's file name (letters, digits, `-`);
# PLAYERS are the PGN names of the Tessera builds, comma-separated; LIMIT is
# what each move was given (`20000` nodes or a clock like `8+0.08`), SEED the
# match's seed. COMMIT is the commit of the engine that played (default HEAD;
# for two different commits write both, `abc1234+def5678`).
set -euo pipefail
cd "$(dirname "$0")/.."
gen=${1:?generation}
label=${2:?label}
players=${3:?players}
limit=${4:?limit}
seed=${5:?seed}
shift 5
[ $# -gt 0 ] || { echo "no PGN given" >&2; exit 1; }
[[ "$label" =~ ^[A-Za-z0-9-]+$ ]] || { echo "LABEL: letters, digits and - only" >&2; exit 1; }
commit=${COMMIT:-$(git rev-parse --short=7 HEAD)}
train=${TRAIN:-target/release/tessera-train}
name=gen$gen-match-$label
out=data/gen$gen/$name.bin
[ -e "$out.xz" ] && { echo "$out.xz exists" >&2; exit 1; }
mkdir -p "data/gen$gen"
log=$(mktemp)
# The summary is read from the log once the command has ended (a `tee` in a
# process substitution could still be writing it).
status=0
"$train" import-pgn --out "$out" --players "$players" "$@" 2>"$log" || status=$?
cat "$log" >&2
[ "$status" = 0 ] || { rm -f "$log" "$out"; exit "$status"; }
games=$(tail -n 1 "$log" | sed -n 's/^\([0-9]*\) games.*/\1/p')
positions=$(tail -n 1 "$log" | sed -n 's/^[0-9]* games, \([0-9]*\) positions.*/\1/p')
rm -f "$log"
if [ "${games:-0}" = 0 ]; then
    rm -f "$out"
    echo "no self-play games in the PGN: nothing kept" >&2
    exit 1
fi
xz -9 -T1 "$out"
sum=$(sha256sum "$out.xz" | cut -d' ' -f1)
printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name.bin.xz" "$gen" "$commit" "$seed" \
    "$games" "$limit" "$positions" "$sum" "$(date -u +%F)" "match:$label" >>data/manifest.tsv
echo "kept $games games, $positions positions: $out.xz"
