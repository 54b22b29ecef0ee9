#!/usr/bin/env bash
# Checks the documentation (README.md, docs/*.md, data/README.md; no build, well
# under a second). Run by scripts/test.
#
# 1. The standing table. The README's block between `<!-- standing` and
#    `<!-- /standing -->` is the one place for current figures. Its "Bench
#    signature" row must name the count of the newest commit message with
#    `Bench: N` (when git history is at hand), and each headline figure of the
#    block must appear nowhere else in the README or in docs/*.md. Headline
#    figures are: the bench signature, every Elo interval `[a, b]`, every
#    "N M nodes/s" speed, every "N/300" and "N,NNN points" suite score and
#    every "×N.NN" ratio. docs/results/ is the
#    dated record and may repeat them (a current figure was once a new one).
#    The CHANGELOG's version headings carry a date and a commit whose
#    Cargo.toml has that version.
# 2. No page of README.md, docs/ (the record included) or data/README.md names
#    an internal issue or a numbered work period: "issue", "session", "stop N",
#    or an ordinal such as "twelfth" before a period word.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
fail() { echo "check_docs: $*" >&2; status=1; }

readme=README.md
standing=$(awk '/^<!-- standing/{on=1; next} /^<!-- \/standing -->/{on=0} on' "$readme")
[ -n "$standing" ] || fail "$readme has no <!-- standing --> ... <!-- /standing --> block"
rest_of_readme=$(awk '/^<!-- standing/{on=1} !on; /^<!-- \/standing -->/{on=0}' "$readme")
reference_pages=$(find docs -maxdepth 1 -name '*.md' | sort)

# 1a. The bench signature.
signature=$(printf '%s\n' "$standing" | grep -E '^\| *Bench signature *\|' | grep -oE '[0-9]{6,}' | head -n 1 || true)
if [ -z "$signature" ]; then
    fail "the standing table has no 'Bench signature' row with a node count"
elif git rev-parse --git-dir >/dev/null 2>&1; then
    stated=$(git log -n 1 --format=%B -E --grep='Bench: [0-9]+' 2>/dev/null | grep -oE 'Bench: [0-9]+' | tail -n 1 | grep -oE '[0-9]+' || true)
    if [ -n "$stated" ] && [ "$stated" != "$signature" ]; then
        fail "the standing table's bench signature is $signature, the newest 'Bench:' commit states $stated"
    fi
fi

# 1b. Headline figures appear once: in the standing table.
figures=$( {
    [ -n "$signature" ] && echo "$signature"
    printf '%s\n' "$standing" | grep -oE '\[[−+-]?[0-9.]+, [−+-]?[0-9.]+\]'
    printf '%s\n' "$standing" | grep -oE '[0-9.]+(–[0-9.]+)? M nodes/s'
    printf '%s\n' "$standing" | grep -oE '[0-9]+/300'
    printf '%s\n' "$standing" | grep -oE '[0-9]{1,3},[0-9]{3} points'
    printf '%s\n' "$standing" | grep -oE '×[0-9]+\.[0-9]+'
} | sort -u)
while IFS= read -r figure; do
    [ -n "$figure" ] || continue
    where=$( { printf '%s\n' "$rest_of_readme" | grep -nF -- "$figure" | sed "s|^|$readme (outside the table):|" || true
               # shellcheck disable=SC2086
               grep -nF -- "$figure" $reference_pages data/README.md || true; } )
    if [ -n "$where" ]; then
        fail "the current figure '$figure' is repeated outside the standing table (link to README.md#standing instead):"
        echo "$where" >&2
    fi
done <<< "$figures"

# 1c. Every version of the CHANGELOG has its date and the commit that made it,
#     and that commit's Cargo.toml has the version (when git history is at hand).
while IFS= read -r heading; do
    [ -n "$heading" ] || continue
    if ! [[ $heading =~ ^##\ ([0-9]+\.[0-9]+\.[0-9]+)\ —\ ([0-9]{4}-[0-9]{2}-[0-9]{2}),\ commit\ ([0-9a-f]{7,})$ ]]; then
        fail "CHANGELOG.md: '$heading' is not '## X.Y.Z — YYYY-MM-DD, commit <hash>'"
        continue
    fi
    version=${BASH_REMATCH[1]} commit=${BASH_REMATCH[3]}
    if git rev-parse --git-dir >/dev/null 2>&1 && git cat-file -e "$commit^{commit}" 2>/dev/null; then
        git show "$commit:Cargo.toml" | grep -q "^version = \"$version\"" \
            || fail "CHANGELOG.md: commit $commit's Cargo.toml is not version $version"
    elif git rev-parse --git-dir >/dev/null 2>&1 && [ "$(git rev-parse --is-shallow-repository)" = false ]; then
        fail "CHANGELOG.md: version $version names commit $commit, which this history lacks"
    fi
done < <(grep -E '^## [0-9]' CHANGELOG.md)

# 2. No internal issue numbers or work periods.
ordinals='first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth'
pattern="\\b(issue|sessions?)\\b|issue-[0-9]|\\bstop [0-9]+\\b|\\b($ordinals)[ -](session|stop|period|sprint|iteration of work)\\b|work period"
# Code spans (`Control::issue`) are names in the code, not prose: left out.
while IFS= read -r page; do
    hits=$(sed 's/`[^`]*`//g' "$page" | grep -niE "$pattern" || true)
    if [ -n "$hits" ]; then
        fail "$page names an internal issue or work period:"
        echo "$hits" | sed "s|^|$page:|" >&2
    fi
done < <( { echo "$readme"; echo data/README.md; find docs -name '*.md'; } | sort)

if [ "$status" = 0 ]; then
    echo "check_docs: ok (bench signature $signature in the standing table; $(printf '%s\n' "$figures" | grep -c .) headline figures, each in one place)"
fi
exit "$status"
