#!/usr/bin/env python3
"""soak.py -- thousands of games without a fault (issue 12), with ../shared/tools/match.py.

The full soak is 2,000 games: 1,000 at 1+0.01 (self-play, Glaurung, Toga II),
200 with Threads=8 on this 2-core machine at 2+0.02 (against Ethereal), and 800
at 2+0.02 against Stockfish and Ethereal; then the stop-to-bestmove latency of
1,000 searches at 1 and at 8 threads (scripts/stop_latency.py). Tessera must
have 0 time losses, 0 illegal moves, 0 crashes (and no missing bestmove or
unanswered isready). It prints, and writes to OUT/summary.md, a table per stage
with the least clock Tessera had left, and the worst stop-to-bestmove latency.

    python3 scripts/soak.py                      # the full soak (about 1.5 h on 2 cores)
    python3 scripts/soak.py --short              # a few minutes: the same stages, few games
    python3 scripts/soak.py --engine path/to/tessera --out soak-results/run1

Exit status 0 when Tessera had no fault, 1 otherwise. Needs python-chess and
the reference engines (apt-get install stockfish ethereal-chess toga2 glaurung).
"""

import argparse
import datetime
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared")

# (stage, opponent spec or None for self-play, time control, Tessera's options,
#  full games, short games, concurrency). One line per stage.
STAGES = [
    ("self-play 1+0.01", None, "1+0.01", [], 400, 10, 2),
    ("Glaurung 1+0.01", "name=glaurung cmd=/usr/games/glaurung", "1+0.01", [], 300, 6, 2),
    ("Toga II 1+0.01", "name=toga2 cmd=/usr/games/toga2", "1+0.01", [], 300, 6, 2),
    ("Threads=8 vs Ethereal 2+0.02", "name=ethereal cmd=/usr/games/ethereal-chess", "2+0.02",
     ["option.Threads=8"], 200, 4, 1),
    ("Stockfish 2+0.02", "name=stockfish cmd=/usr/games/stockfish", "2+0.02", [], 400, 4, 2),
    ("Ethereal 2+0.02", "name=ethereal cmd=/usr/games/ethereal-chess", "2+0.02", [], 400, 4, 2),
]
LATENCY_SEARCHES = {"full": 1000, "short": 50}
FAULT_COLUMNS = ["time_losses", "illegal", "crashes", "no_bestmove", "no_response"]


def parse_summary(text):
    """Per-engine fault counts and least clock from match.py's summary table."""
    rows = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.split()[:2] == ["engine", "time_losses"]:
            for row in lines[i + 1:]:
                parts = row.split()
                if len(parts) != 7:
                    break
                name, counts, clock = parts[0], parts[1:6], parts[6]
                rows[name] = dict(zip(FAULT_COLUMNS, map(int, counts)))
                rows[name]["min_clock_ms"] = None if clock == "-" else float(clock)
    games = re.search(r"^Games: (\d+)", text, re.M)
    wdl = re.search(r"W/D/L = (\d+)/(\d+)/(\d+)", text)
    return rows, int(games.group(1)) if games else 0, wdl.groups() if wdl else ("?", "?", "?")


def run_stage(args, stage, out_dir):
    name, opponent, tc, options, full, short, concurrency = stage
    games = short if args.short else full
    tessera = "name=tessera cmd=%s" % args.engine
    if opponent is None:
        opponent, tessera = "name=tessera-b cmd=%s option.Hash=1" % args.engine, tessera.replace(
            "name=tessera", "name=tessera-a")
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    cmd = [sys.executable, args.match, "--engine"] + tessera.split() + options + ["--engine"] + \
        opponent.split() + ["--each", "option.Hash=16", "--tc", tc, "--games", str(games),
                            "--concurrency", str(concurrency), "--openings", args.openings,
                            "--pgnout", os.path.join(out_dir, slug + ".pgn"),
                            "--jsonl", os.path.join(out_dir, slug + ".jsonl"),
                            "--report-every", "50", "--seed", str(args.seed)]
    print("== %s: %d games" % (name, games), flush=True)
    load_before = os.getloadavg()[0]
    result = subprocess.run(cmd, capture_output=True, text=True)
    load = max(load_before, os.getloadavg()[0])
    with open(os.path.join(out_dir, slug + ".log"), "w") as f:
        f.write(" ".join(cmd) + "\n\n" + result.stdout + result.stderr)
    rows, played, wdl = parse_summary(result.stdout)
    ours = {n: r for n, r in rows.items() if n.startswith("tessera")}
    if result.returncode != 0 or not ours:
        print(result.stdout[-2000:] + result.stderr[-2000:])
    return {"stage": name, "games": played, "scheduled": games, "wdl": wdl, "tessera": ours, "load": load,
            "ok": result.returncode == 0 and played == games and bool(ours)
            and all(r[c] == 0 for r in ours.values() for c in FAULT_COLUMNS)}


def run_latency(args, out_dir):
    searches = LATENCY_SEARCHES["short" if args.short else "full"]
    cmd = [sys.executable, os.path.join(HERE, "stop_latency.py"), "--engine", args.engine,
           "--openings", args.openings, "--searches", str(searches), "--threads", "1", "8"]
    print("== stop -> bestmove latency: %d searches at 1 and 8 threads" % searches, flush=True)
    result = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(out_dir, "stop-latency.log"), "w") as f:
        f.write(" ".join(cmd) + "\n\n" + result.stdout + result.stderr)
    print(result.stdout, end="")
    found = re.search(r"^RESULT (.*)$", result.stdout, re.M)
    values = dict(kv.split("=") for kv in found.group(1).split()) if found else {}
    return values, result.returncode == 0 and bool(values)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--short", action="store_true", help="a few games per stage (a few minutes)")
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "tessera"))
    ap.add_argument("--match", default=os.path.join(SHARED, "tools", "match.py"))
    ap.add_argument("--openings", default=os.path.join(SHARED, "data", "openings.epd"))
    ap.add_argument("--out", default=None, help="directory for PGNs, logs and summary.md")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    args.engine = os.path.abspath(args.engine)
    if os.getloadavg()[0] > (os.cpu_count() or 1) / 2:
        print("warning: load average %.1f on %d cores; the soak wants an idle machine" % (
            os.getloadavg()[0], os.cpu_count() or 0), flush=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out_dir = args.out or os.path.join(ROOT, "soak-results", stamp + ("-short" if args.short else ""))
    os.makedirs(out_dir, exist_ok=True)

    results = [run_stage(args, stage, out_dir) for stage in STAGES]
    latency, latency_ok = run_latency(args, out_dir)

    lines = ["| stage | games | Tessera W/D/L | time losses | illegal | crashes | no bestmove | "
             "no response | least clock left (ms) | load |", "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    total = 0
    least = None
    for r in results:
        total += r["games"]
        for name, row in sorted(r["tessera"].items()):
            clock = row["min_clock_ms"]
            if clock is not None:
                least = clock if least is None else min(least, clock)
            lines.append("| %s%s | %d/%d | %s | %s | %s | %.1f |" % (
                r["stage"], "" if len(r["tessera"]) == 1 else " (%s)" % name, r["games"], r["scheduled"],
                "/".join(r["wdl"]), " | ".join(str(row[c]) for c in FAULT_COLUMNS),
                "-" if clock is None else "%.0f" % clock, r["load"]))
        if not r["tessera"]:
            lines.append("| %s | %d/%d | match failed | | | | | | | |" % (r["stage"], r["games"], r["scheduled"]))
    ok = all(r["ok"] for r in results) and latency_ok
    lines += ["", "Games: %d. Least clock Tessera had left: %s ms. Stop to bestmove: worst %s ms, "
              "99th percentile %s ms over %s searches (worst isready during a search: %s ms). "
              "Faults: %s." % (total, "-" if least is None else "%.0f" % least,
                               latency.get("worst_stop_ms", "?"), latency.get("p99_stop_ms", "?"),
                               latency.get("searches", "?"), latency.get("worst_isready_ms", "?"),
                               "none" if ok else "SEE ABOVE"),
              "", "Engine: %s; results in %s. The load column is the highest 1-minute load "
              "average seen around each stage: on a machine busy with other work (above its %d cores) "
              "time losses say more about the machine than the engine." % (
                  args.engine, out_dir, os.cpu_count() or 0)]
    summary = "\n".join(lines)
    print("\n" + summary)
    with open(os.path.join(out_dir, "summary.md"), "w") as f:
        f.write(summary + "\n")
    print("\nSOAK %s" % ("PASSED" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
