#!/usr/bin/env python3
"""Measures Lazy SMP scaling with `tessera bench` and draws it as an SVG.

    python3 scripts/smp_plot.py [--engine target/release/tessera] [--depth 15]
                                [--threads powers | 1,2,4,...] [--rounds 2] [--hash 64]
                                [--out docs/smp-scaling.svg] [--table FILE.md]
                                [--results FILE.tsv [--budget SECS] [--report]]

`--threads powers` (the default) measures 1, 2, 4, ... threads up to the CPUs
this process may use, and also the machine's physical core count and the CPU
count themselves where they are not powers of two (24 cores with SMT: 1, 2, 4,
8, 16, 24, 32, 48): on a big machine, run it as it is, with a larger table and
a deeper search so that many threads have work (`--hash 1024 --depth 20`); the
engine pins threads to NUMA nodes by itself where the machine has several (its
`NumaPolicy` is `auto` in `bench` too).

For every thread count it runs `tessera bench DEPTH THREADS HASH` (rounds
times; round 1 from the fewest threads to the most, round 2 back, and so on, so
that machine noise hits all of them alike) and reads the per-position lines
(`position N: <nodes> nodes <ms> ms ...`) and the total (`<nodes> nodes <nps>
nps`). It reports, relative to the fewest threads measured (1 as a rule):

* the nps ratio (total nodes / total search time, over every round);
* the time-to-depth speed-up: the median over positions of t(1) / t(N), each
  position's time the best of its rounds, and the ratio of the summed times;
* the CPUs' clock while the bench ran (the mean current MHz of the N fastest
  CPUs in /proc/cpuinfo, the median of samples every two seconds; blank where
  Linux does not say or a run was shorter than that).

It prints a Markdown table (and writes it to `--table`) and writes an SVG with
both curves and the ideal (linear) line. No third-party packages: the SVG is
written by hand.

**A results file** (`--results FILE.tsv`) makes a long measurement safe to cut
short: each bench run is appended to it as one tab-separated line the moment
it ends (threads, round, nodes, nps, search seconds, wall seconds, clock, depth,
table size, the per-position times), and a rerun with the same depth and
table size skips every (threads, round) already in it, so a run killed by a
time limit keeps everything it finished and the next one carries on. A line
cut off mid-write is ignored. `--report` measures nothing and renders the table
and the SVG from the file (for the depth and table size given, else those of
its last line).

**A budget** (`--budget SECS`, with `--results`) bounds the measurement's wall
time: before each bench run it estimates the run's time from what is measured
(the same thread count's slowest earlier round, else the nearest fewer threads'
slowest round) and stops, recording nothing more, when that no longer fits in
what is left; a run with no estimate yet (the first) or one that overruns its
estimate is killed when the budget ends.
"""

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import time

POSITION = re.compile(r"position\s+(\d+):\s+(\d+) nodes\s+([\d.]+) ms")
TOTAL = re.compile(r"^(\d+) nodes (\d+) nps", re.M)
COLUMNS = ["threads", "round", "nodes", "nps", "search_s", "wall_s", "mhz",
           "depth", "hash_mb", "utc", "position_ms"]
MHZ_EVERY = 2.0


class Stopped(Exception):
    """SIGTERM (a time limit ending the run): stop after killing the bench."""


def on_term(signum, frame):
    raise Stopped()


def cpu_mhz():
    """Each CPU's current clock from /proc/cpuinfo (empty where it has none)."""
    try:
        with open("/proc/cpuinfo") as f:
            return [float(line.split(":")[1]) for line in f if line.startswith("cpu MHz")]
    except (OSError, ValueError, IndexError):
        return []


def run_bench(engine, depth, threads, hash_mb, timeout=None):
    """One `tessera bench`: per-position ms, nodes, wall seconds and the clock.

    Returns None when `timeout` (seconds) ends the run first; the bench is killed."""
    start = time.monotonic()
    samples = []
    proc = subprocess.Popen([engine, "bench", str(depth), str(threads), str(hash_mb)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while True:
            wait = MHZ_EVERY
            if timeout is not None:
                wait = min(wait, max(0.01, timeout - (time.monotonic() - start)))
            try:
                stdout, stderr = proc.communicate(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                if timeout is not None and time.monotonic() - start >= timeout:
                    return None
                mhz = sorted(cpu_mhz(), reverse=True)[:threads]
                if mhz:
                    samples.append(sum(mhz) / len(mhz))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    wall = time.monotonic() - start
    if proc.returncode != 0:
        raise SystemExit(f"{engine} bench {depth} {threads} {hash_mb} failed "
                         f"(exit {proc.returncode}):\n{stdout}\n{stderr}")
    times = {int(m[1]): float(m[3]) for m in POSITION.finditer(stderr)}
    nodes = sum(int(m[2]) for m in POSITION.finditer(stderr))
    total = TOTAL.search(stdout)
    if not times or not total:
        raise SystemExit(f"unexpected bench output:\n{stdout}\n{stderr}")
    return {"times": times, "nodes": nodes, "wall_s": wall,
            "mhz": statistics.median(samples) if samples else None}


def allowed_cpus():
    """The CPUs this process may run on."""
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:
        return list(range(os.cpu_count() or 1))


def physical_cores(cpus):
    """How many distinct cores (socket, core) the CPUs are on; None where Linux does not say."""
    cores = set()
    for cpu in cpus:
        topology = f"/sys/devices/system/cpu/cpu{cpu}/topology"
        try:
            with open(f"{topology}/physical_package_id") as f:
                package = f.read().strip()
            with open(f"{topology}/core_id") as f:
                core = f.read().strip()
        except OSError:
            return None
        cores.add((package, core))
    return len(cores) or None


def thread_counts(spec):
    """`powers` (1, 2, 4, ... up to the CPU count, and the core and CPU counts) or a list."""
    if spec != "powers":
        return sorted({int(t) for t in spec.split(",")})
    cpus = allowed_cpus()
    counts = {1}
    while max(counts) * 2 <= len(cpus):
        counts.add(max(counts) * 2)
    counts.add(len(cpus))
    cores = physical_cores(cpus)
    if cores:
        counts.add(cores)
    return sorted(counts)


def numa_nodes():
    """The machine's NUMA nodes as Linux lists them (1 where it does not say)."""
    try:
        return max(1, sum(1 for n in os.listdir("/sys/devices/system/node")
                          if n.startswith("node") and n[4:].isdigit()))
    except OSError:
        return 1


def read_results(path):
    """The results file's lines as dicts (a missing file is empty; a line cut
    short or otherwise malformed is skipped)."""
    rows = []
    try:
        f = open(path)
    except FileNotFoundError:
        return rows
    with f:
        for line in f:
            if not line.endswith("\n") or line.startswith("threads\t"):
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != len(COLUMNS):
                continue
            row = dict(zip(COLUMNS, fields))
            try:
                times = [float(ms) for ms in row["position_ms"].split(",")]
                rows.append({
                    "threads": int(row["threads"]), "round": int(row["round"]),
                    "nodes": int(row["nodes"]), "wall_s": float(row["wall_s"]),
                    "mhz": float(row["mhz"]) if row["mhz"] else None,
                    "depth": int(row["depth"]), "hash_mb": int(row["hash_mb"]),
                    "times": dict(enumerate(times, start=1)),
                })
            except ValueError:
                continue
    return rows


def append_result(path, row):
    """Appends one bench run as a line (the header first in a new file)."""
    new = not os.path.exists(path) or os.path.getsize(path) == 0
    cut = False
    if not new:
        with open(path, "rb") as f:
            f.seek(-1, os.SEEK_END)
            cut = f.read(1) != b"\n"
    with open(path, "a") as f:
        if cut:
            f.write("\n")  # ends a line an earlier run left cut short
        if new:
            f.write("\t".join(COLUMNS) + "\n")
        search_s = sum(row["times"].values()) / 1e3
        times = [row["times"][p] for p in sorted(row["times"])]
        f.write("\t".join([
            str(row["threads"]), str(row["round"]), str(row["nodes"]),
            str(round(row["nodes"] / max(search_s, 1e-9))), f"{search_s:.3f}",
            f"{row['wall_s']:.3f}", "" if row["mhz"] is None else f"{row['mhz']:.0f}",
            str(row["depth"]), str(row["hash_mb"]),
            time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            ",".join(f"{ms:.1f}" for ms in times),
        ]) + "\n")
        f.flush()
        os.fsync(f.fileno())


def estimate(threads, rows):
    """The wall time a bench of `threads` should take, from the runs measured
    (None when nothing measured says): the slowest round of the same count,
    else of the nearest fewer threads (more threads reach the depth sooner),
    else of the nearest more threads scaled up in proportion."""
    def slowest(t):
        return max(r["wall_s"] for r in rows if r["threads"] == t)
    counts = {r["threads"] for r in rows}
    if threads in counts:
        return slowest(threads)
    fewer = [t for t in counts if t < threads]
    if fewer:
        return slowest(max(fewer))
    more = [t for t in counts if t > threads]
    if more:
        return slowest(min(more)) * min(more) / threads
    return None


def measure(args, counts):
    """Runs the benches (those not yet in the results file), returning every run
    of this depth and table size; stops early when the budget runs out."""
    began = time.monotonic()
    rows = []
    if args.results:
        rows = [r for r in read_results(args.results)
                if r["depth"] == args.depth and r["hash_mb"] == args.hash]
    done = {(r["threads"], r["round"]) for r in rows}
    if done:
        print(f"{args.results}: {len(done)} run(s) of depth {args.depth}, {args.hash} MB already "
              "recorded; skipping them", flush=True)
    for r in range(1, args.rounds + 1):
        order = counts if r % 2 == 1 else counts[::-1]
        for t in order:
            if (t, r) in done:
                continue
            left = None
            if args.budget is not None:
                left = args.budget - (time.monotonic() - began)
                expected = estimate(t, rows)
                if left <= 0 or (expected is not None and expected > left):
                    about = "" if expected is None else f" (about {expected:.0f} s)"
                    print(f"budget: {max(left, 0):.0f} s of {args.budget:.0f} s left, not enough for "
                          f"round {r} of {t} thread(s){about}: stopping here", flush=True)
                    return rows, False
            run = run_bench(args.engine, args.depth, t, args.hash, left)
            if run is None:
                print(f"budget: round {r} of {t} thread(s) was still running when the budget "
                      f"ended ({args.budget:.0f} s): killed, nothing recorded for it "
                      "(a smaller DEPTH fits more)", flush=True)
                return rows, False
            run.update({"threads": t, "round": r, "depth": args.depth, "hash_mb": args.hash})
            rows.append(run)
            if args.results:
                append_result(args.results, run)
            mhz = "" if run["mhz"] is None else f", {run['mhz']:.0f} MHz"
            print(f"  round {r}, {t} thread(s) done: {run['wall_s']:.1f} s{mhz}", flush=True)
    return rows, True


def summarise(rows):
    """One line per thread count, relative to the fewest threads measured."""
    out = []
    for t in sorted({r["threads"] for r in rows}):
        runs = [r for r in rows if r["threads"] == t]
        positions = set.intersection(*(set(run["times"]) for run in runs))
        # Per position: the best (least disturbed) time over rounds.
        times = {p: min(run["times"][p] for run in runs) for p in positions}
        # nps over every round (all nodes / all time); time to depth from the best times.
        nodes = sum(run["nodes"] for run in runs)
        all_ms = sum(sum(run["times"].values()) for run in runs)
        mhz = [run["mhz"] for run in runs if run["mhz"] is not None]
        out.append({"threads": t, "runs": len(runs), "times": times,
                    "nps": nodes / max(all_ms / 1e3, 1e-9), "total_ms": sum(times.values()),
                    "mhz": statistics.median(mhz) if mhz else None})
    base = out[0]
    for row in out:
        row["nps_ratio"] = row["nps"] / base["nps"]
        ratios = [base["times"][p] / row["times"][p]
                  for p in row["times"] if p in base["times"] and row["times"][p] > 0]
        row["ttd_median"] = statistics.median(ratios) if ratios else float("nan")
        row["ttd_total"] = base["total_ms"] / row["total_ms"] if row["total_ms"] else float("nan")
    return out


def table(rows, depth, hash_mb):
    lines = [f"Lazy SMP scaling: `tessera bench {depth} T {hash_mb}`, "
             f"ratios against {rows[0]['threads']} thread(s)", "",
             f"| threads | runs | nps | nps ratio | time to depth {depth} (sum) | "
             "TTD speed-up, median | TTD speed-up, total | MHz |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        mhz = "" if r["mhz"] is None else f"{r['mhz']:.0f}"
        lines.append(f"| {r['threads']} | {r['runs']} | {r['nps'] / 1e6:.3f} M | ×{r['nps_ratio']:.2f} | "
                     f"{r['total_ms'] / 1e3:.2f} s | ×{r['ttd_median']:.2f} | "
                     f"×{r['ttd_total']:.2f} | {mhz} |")
    return "\n".join(lines) + "\n"


def svg(rows, depth, out):
    w, h, left, bottom, top, right = 560, 380, 60, 50, 40, 150
    xs = [r["threads"] for r in rows]
    ideal = [t / xs[0] for t in xs]
    ymax = max(max(ideal), max(max(r["nps_ratio"], r["ttd_median"]) for r in rows)) * 1.1
    def px(t):
        return left + (xs.index(t)) * (w - left - right) / max(1, len(xs) - 1)
    def py(v):
        return h - bottom - v / ymax * (h - top - bottom)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<text x="{left}" y="22" font-size="14">Lazy SMP scaling, tessera bench depth {depth}'
             '</text>']
    x0, x1 = left, w - right
    parts.append(f'<line x1="{x0}" y1="{py(0)}" x2="{x1}" y2="{py(0)}" stroke="black"/>')
    parts.append(f'<line x1="{x0}" y1="{py(0)}" x2="{x0}" y2="{py(ymax)}" stroke="black"/>')
    tick = next((t for t in (0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024) if ymax / t <= 10), 2048)
    v = 0.0
    while v <= ymax:
        parts.append(f'<line x1="{x0}" y1="{py(v):.1f}" x2="{x1}" y2="{py(v):.1f}" '
                     'stroke="#ddd"/>')
        parts.append(f'<text x="{x0 - 8}" y="{py(v) + 4:.1f}" text-anchor="end">×{v:g}</text>')
        v += tick
    for t in xs:
        parts.append(f'<text x="{px(t):.1f}" y="{h - bottom + 18}" text-anchor="middle">{t}</text>')
    parts.append(f'<text x="{(x0 + x1) / 2}" y="{h - 12}" text-anchor="middle">threads</text>')
    series = [("ideal", ideal, "#999", "4 3"),
              ("nps", [r["nps_ratio"] for r in rows], "#1f77b4", ""),
              ("time to depth (median)", [r["ttd_median"] for r in rows], "#d62728", "")]
    for i, (name, values, colour, dash) in enumerate(series):
        points = " ".join(f"{px(t):.1f},{py(v):.1f}" for t, v in zip(xs, values))
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                     f'stroke-width="2" stroke-dasharray="{dash}"/>')
        for t, v in zip(xs, values):
            parts.append(f'<circle cx="{px(t):.1f}" cy="{py(v):.1f}" r="3" fill="{colour}"/>')
            if name != "ideal":
                parts.append(f'<text x="{px(t) + 6:.1f}" y="{py(v) - 6:.1f}" fill="{colour}">'
                             f'×{v:.2f}</text>')
        ly = top + 10 + 20 * i
        parts.append(f'<line x1="{x1 + 15}" y1="{ly}" x2="{x1 + 40}" y2="{ly}" stroke="{colour}" '
                     f'stroke-width="2" stroke-dasharray="{dash}"/>')
        parts.append(f'<text x="{x1 + 45}" y="{ly + 4}">{name}</text>')
    parts.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(parts) + "\n")


def render(rows, depth, hash_mb, args):
    """Prints the table (and writes it to --table) and draws the SVG."""
    if not rows:
        print(f"no bench run of depth {depth}, {hash_mb} MB to report", flush=True)
        return
    summary = summarise(rows)
    text = table(summary, depth, hash_mb)
    print("\n" + text, end="", flush=True)
    if args.table:
        with open(args.table, "w") as f:
            f.write(text)
    svg(summary, depth, args.out)
    print(f"\nwrote {args.out}" + (f" and {args.table}" if args.table else ""), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/tessera")
    ap.add_argument("--depth", type=int, default=None, help="bench depth (15; with --report: "
                    "the results file's last)")
    ap.add_argument("--threads", default="powers")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--hash", type=int, default=None, help="table MB (64; with --report: "
                    "the results file's last)")
    ap.add_argument("--out", default="docs/smp-scaling.svg")
    ap.add_argument("--table", help="also write the Markdown table to this file")
    ap.add_argument("--results", help="TSV file: each run appended as it ends, runs in it skipped")
    ap.add_argument("--budget", type=float, help="seconds for the whole measurement (with --results)")
    ap.add_argument("--report", action="store_true", help="measure nothing: render --results")
    ap.add_argument("--measure-only", action="store_true",
                    help="with --results: measure, render nothing (--report does that)")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, on_term)

    if args.report:
        if not args.results:
            ap.error("--report needs --results")
        rows = read_results(args.results)
        if not rows:
            print(f"{args.results}: no finished bench run yet", flush=True)
            return
        depth = args.depth if args.depth is not None else rows[-1]["depth"]
        hash_mb = args.hash if args.hash is not None else rows[-1]["hash_mb"]
        render([r for r in rows if r["depth"] == depth and r["hash_mb"] == hash_mb],
               depth, hash_mb, args)
        return

    args.depth = 15 if args.depth is None else args.depth
    args.hash = 64 if args.hash is None else args.hash
    if args.budget is not None and not args.results:
        ap.error("--budget needs --results (what a budget cuts short is kept there)")
    counts = thread_counts(args.threads)
    cpus = allowed_cpus()
    print(f"{len(cpus)} CPUs ({physical_cores(cpus) or '?'} cores), {numa_nodes()} NUMA node(s); "
          f"threads {counts}, depth {args.depth}, {args.hash} MB, {args.rounds} round(s)"
          + ("" if args.budget is None else f", budget {args.budget:.0f} s"), flush=True)
    try:
        rows, complete = measure(args, counts)
    except (Stopped, KeyboardInterrupt):
        print("stopped: the runs finished so far are in "
              f"{args.results or '(no results file)'}", file=sys.stderr, flush=True)
        sys.exit(143)
    if not (args.measure_only and args.results):
        render(rows, args.depth, args.hash, args)
    if not complete:
        print(f"\nnot every run fitted: run it again to add the rest to {args.results}", flush=True)


if __name__ == "__main__":
    main()
