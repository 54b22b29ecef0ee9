#!/usr/bin/env bash
# The many-core kit's `scaling` and `report` (scripts/many_core.sh) on a small
# machine, against an engine already built (ENGINE, default
# target/release/tessera; tests/many_core.rs passes the one `cargo test`
# built): 1 and 2 threads, depth 6, a 16 MB table, so each bench run takes
# about a second. No build, about 10 s. What it checks:
#
# 1. Cut short: the engine is wrapped so that the 2-thread bench hangs; once
#    the 1-thread run is in scaling.tsv the command is sent SIGTERM (as a time
#    limit would). It exits 143 having stopped the bench, the finished row is
#    kept, machine.txt says the run was cut short, and the report it wrote on
#    the way out has the 1-thread row.
# 2. `report` alone renders scaling.md and smp-scaling.svg from the file.
# 3. Resumed: `scaling` again (no hang) skips the recorded run, measures the
#    other three of 2 rounds x 2 thread counts and leaves the first row as it was.
# 4. Budget: a third round with no budget left adds nothing and exits 0; one
#    whose 2-thread run hangs is killed when the budget ends, adds no row for
#    it, and the command ends within the budget (plus a margin).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
engine=${ENGINE:-$root/target/release/tessera}
[ -x "$engine" ] || { echo "check_many_core: no engine at $engine (ENGINE=path)" >&2; exit 1; }
engine=$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "check_many_core: FAILED: $*" >&2; exit 1; }
rows() { tail -n +2 "$work/out/scaling.tsv" | grep -c . || true; }

# The engine, with a switch that makes `bench D 2 H` hang until killed.
cat >"$work/engine" <<EOF
#!/bin/sh
if [ "\$1" = bench ] && [ "\$3" = 2 ] && [ -e "$work/hang" ]; then echo \$\$ >"$work/hung"; exec sleep 300; fi
exec "$engine" "\$@"
EOF
chmod +x "$work/engine"
export ENGINE=$work/engine OUT=$work/out DEPTH=6 HASH=16 THREADS=1,2 ROUNDS=2 BUDGET=120
kit="bash $root/scripts/many_core.sh"

# 1. Cut short while the 2-thread run hangs.
touch "$work/hang"
$kit scaling >"$work/run1.log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
    [ -s "$work/hung" ] && break  # the 1-thread run is over, the 2-thread one hangs
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[ "$status" = 143 ] || { cat "$work/run1.log"; fail "scaling stopped by SIGTERM exited $status, not 143"; }
[ "$(rows)" = 1 ] || fail "after the cut the results hold $(rows) runs, not 1"
first=$(sed -n 2p "$work/out/scaling.tsv")
[ "$(cut -f1,2 <<<"$first")" = "$(printf '1\t1')" ] || fail "the first run recorded is not 1 thread, round 1: $first"
[ "$(awk -F'\t' '{ print NF }' <<<"$first")" = 11 ] || fail "a results line has not 11 fields: $first"
grep -q 'cut short' "$work/out/machine.txt" || fail "machine.txt does not say the run was cut short"
for what in 'model name' 'transparent huge pages' 'glibc' 'CPU MHz now' 'SMT' '-- NUMA --' 'info string hash table'; do
    grep -qF -- "$what" "$work/out/machine.txt" || fail "machine.txt has no '$what'"
done
grep -q '^| 1 | 1 |' "$work/out/scaling.md" || { cat "$work/run1.log"; fail "the report written on the cut has no 1-thread row"; }
[ -s "$work/hung" ] || fail "the 2-thread run had not begun when the command was stopped"
if kill -0 "$(cat "$work/hung")" 2>/dev/null; then
    fail "the cut left the 2-thread bench running"
fi
rm "$work/hung"

# 2. `report` alone.
rm -f "$work/out/scaling.md" "$work/out/smp-scaling.svg"
$kit report >"$work/report.log" 2>&1 || { cat "$work/report.log"; fail "report failed"; }
grep -q '^| 1 | 1 |' "$work/out/scaling.md" || fail "report wrote no 1-thread row"
grep -q '<svg' "$work/out/smp-scaling.svg" || fail "report drew no plot"

# 3. Resumed: the rest of the two rounds, the recorded run skipped.
rm "$work/hang"
$kit scaling >"$work/run2.log" 2>&1 || { cat "$work/run2.log"; fail "the resumed scaling failed"; }
grep -q '1 run(s) of depth 6, 16 MB already recorded; skipping them' "$work/run2.log" \
    || { cat "$work/run2.log"; fail "the resumed run did not say it skips the recorded run"; }
[ "$(rows)" = 4 ] || fail "after resuming the results hold $(rows) runs, not 4"
[ "$(sed -n 2p "$work/out/scaling.tsv")" = "$first" ] || fail "resuming changed the first run's line"
pairs=$(tail -n +2 "$work/out/scaling.tsv" | cut -f1,2 | sort | tr '\t\n' ': ')
[ "$pairs" = "1:1 1:2 2:1 2:2 " ] || fail "the runs recorded are $pairs, not each (threads, round) once"
grep -q '^| 2 | 2 |' "$work/out/scaling.md" || fail "the final report has no 2-thread row of 2 runs"
grep -c '^== scaling ended' "$work/out/machine.txt" | grep -qx 2 || fail "machine.txt does not record both runs' ends"

# 4. The budget: none left adds nothing; a hanging run is killed when it ends.
ROUNDS=3 $kit scaling --budget 0 >"$work/run3.log" 2>&1 || { cat "$work/run3.log"; fail "scaling with no budget failed"; }
grep -q 'budget: .* stopping here' "$work/run3.log" || { cat "$work/run3.log"; fail "no budget, yet no stop said"; }
[ "$(rows)" = 4 ] || fail "with no budget $(rows) runs are recorded, not 4"
touch "$work/hang"
began=$SECONDS
ROUNDS=3 BUDGET=4 $kit scaling >"$work/run4.log" 2>&1 || { cat "$work/run4.log"; fail "scaling whose run overran the budget failed"; }
took=$((SECONDS - began))
grep -q 'budget' "$work/run4.log" || { cat "$work/run4.log"; fail "the overrun was not put down to the budget"; }
[ "$took" -le 10 ] || fail "a 4 s budget took $took s"
tail -n +2 "$work/out/scaling.tsv" | cut -f1,2 | grep -qx "$(printf '2\t3')" && fail "the killed 2-thread run was recorded"
if [ -s "$work/hung" ] && kill -0 "$(cat "$work/hung")" 2>/dev/null; then
    fail "the budget left the 2-thread bench running"
fi
echo "check_many_core: scaling cut short, reported, resumed and held to its budget (${SECONDS} s)"
