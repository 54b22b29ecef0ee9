#!/usr/bin/env bash
# Checks that every patch of docs/experiments/ still restores its technique: each
# names, in its first line, the commit it applies to (`Applies-to: <commit>`),
# and `git apply --check` applies it to that commit's tree, read into a
# temporary index (no checkout, no build: a second for all of them). A patch
# that applies to no commit of the history kept says so instead (`Status:
# historical — applies to no commit kept`) and is skipped with a line that says
# so. git apply ignores both lines, as it does the rest of a patch's text
# before its first `diff`. See docs/experiments/README.md. Run by scripts/test.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
fail() { echo "check_experiments: $*" >&2; status=1; }

if ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "SKIPPED: check_experiments.sh needs the git history (this is not a git checkout)"
    exit 0
fi
shallow=$(git rev-parse --is-shallow-repository)
index=$(mktemp)
trap 'rm -f "$index"' EXIT
applied=0 historical=0
for patch in docs/experiments/*.patch; do
    first=$(head -n 1 "$patch")
    if [[ $first =~ ^Applies-to:\ ([0-9a-f]{7,40})$ ]]; then
        commit=${BASH_REMATCH[1]}
        if ! git cat-file -e "$commit^{commit}" 2>/dev/null; then
            if [ "$shallow" = true ]; then
                echo "SKIPPED: $patch applies to $commit, which this shallow clone lacks"
            else
                fail "$patch names $commit, which this history lacks (mark it historical?)"
            fi
            continue
        fi
        GIT_INDEX_FILE=$index git read-tree "$commit"
        if out=$(GIT_INDEX_FILE=$index git apply --cached --check "$patch" 2>&1); then
            applied=$((applied + 1))
        else
            fail "$patch does not apply to $commit:"
            echo "$out" >&2
        fi
    elif [ "$first" = "Status: historical — applies to no commit kept" ]; then
        echo "SKIPPED: $patch is historical: it applies to no commit kept"
        historical=$((historical + 1))
    else
        fail "$patch: the first line is neither 'Applies-to: <commit>' nor 'Status: historical — applies to no commit kept'"
    fi
done
if [ "$status" = 0 ]; then
    echo "check_experiments: ok ($applied patches apply to the commits they name, $historical historical)"
fi
exit "$status"
