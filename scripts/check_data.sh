#!/usr/bin/env bash
# Checks the training data against its manifest: every shard under data/genG/
# has exactly one line in data/manifest.tsv and every line a shard, each line
# has the manifest's ten columns (its source `datagen` or `match:LABEL`), and
# each shard's sha256 is the one recorded, and data/README.md's table of
# generations sums the manifest (scripts/data_table.py). Run by scripts/test.
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=data/manifest.tsv
status=0
header=$'file\tgeneration\tcommit\tseed\tgames\tnodes\tpositions\tsha256\tdate\tsource'
if [ "$(head -n 1 "$manifest")" != "$header" ]; then
    echo "$manifest: the header is not: $header" >&2
    status=1
fi
bad=$(tail -n +2 "$manifest" | awk -F'\t' 'NF != 10 || ($10 != "datagen" && $10 !~ /^match:[A-Za-z0-9-]+$/) || $2 !~ /^[0-9]+$/ { print NR + 1 ": " $0 }')
if [ -n "$bad" ]; then
    echo "$manifest: malformed lines:" >&2
    echo "$bad" >&2
    status=1
fi
listed=$(tail -n +2 "$manifest" | awk -F'\t' '{ print "data/gen" $2 "/" $1 }' | sort)
present=$(find data -path 'data/gen*' -name '*.bin.xz' | sort)
if [ "$listed" != "$present" ]; then
    echo "shards and manifest lines differ (< listed only, > present only):" >&2
    diff <(echo "$listed") <(echo "$present") | grep '^[<>]' >&2 || true
    status=1
fi
if [ -n "$(echo "$listed" | uniq -d)" ]; then
    echo "$manifest: shards listed twice: $(echo "$listed" | uniq -d)" >&2
    status=1
fi
if ! tail -n +2 "$manifest" | awk -F'\t' '{ print $8 "  data/gen" $2 "/" $1 }' | sha256sum --check --quiet; then
    echo "$manifest: a shard's sha256 differs from its line" >&2
    status=1
fi
python3 scripts/data_table.py --check || status=1
[ "$status" = 0 ] && echo "data: $(echo "$listed" | wc -l) shards match $manifest"
exit "$status"
