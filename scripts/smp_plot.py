#!/usr/bin/env python3
"""Measures Lazy SMP scaling with `tessera bench` and draws it as an SVG.

    python3 scripts/smp_plot.py [--engine target/release/tessera] [--depth 15]
                                [--threads powers | 1,2,4,...] [--rounds 2] [--hash 64]
                                [--out docs/smp-scaling.svg]

`--threads powers` (the default) measures 1, 2, 4, ... threads up to the
machine's CPU count (and the count itself): on a big machine, run it as it is,
with a larger table and a deeper search so that many threads have work
(`--hash 1024 --depth 20`); the engine pins threads to NUMA nodes by itself
where the machine has several (its `NumaPolicy` is `auto` in `bench` too).

For every thread count it runs `tessera bench DEPTH THREADS` (rounds times,
thread counts alternating so machine noise hits all of them alike) and reads
the per-position lines (`position N: <nodes> nodes <ms> ms ...`) and the total
(`<nodes> nodes <nps> nps`). It reports, relative to the first thread count:

* the nps ratio (total nodes / total time);
* the time-to-depth speed-up: the median over positions of t(1) / t(N), and the
  ratio of the summed times.

It prints a Markdown table and writes an SVG with both curves and the ideal
(linear) line. No third-party packages: the SVG is written by hand.
"""

import argparse
import os
import re
import statistics
import subprocess

POSITION = re.compile(r"position\s+(\d+):\s+(\d+) nodes\s+([\d.]+) ms")
TOTAL = re.compile(r"^(\d+) nodes (\d+) nps", re.M)


def run_bench(engine, depth, threads, hash_mb):
    proc = subprocess.run(
        [engine, "bench", str(depth), str(threads), str(hash_mb)],
        capture_output=True, text=True, check=True,
    )
    times = {int(m[1]): float(m[3]) for m in POSITION.finditer(proc.stderr)}
    nodes = sum(int(m[2]) for m in POSITION.finditer(proc.stderr))
    total = TOTAL.search(proc.stdout)
    if not times or not total:
        raise SystemExit(f"unexpected bench output:\n{proc.stdout}\n{proc.stderr}")
    return times, nodes


def thread_counts(spec):
    """`powers` (1, 2, 4, ... up to the CPU count, and the count) or a list."""
    if spec != "powers":
        return [int(t) for t in spec.split(",")]
    cpus = os.cpu_count() or 1
    counts = [1]
    while counts[-1] * 2 <= cpus:
        counts.append(counts[-1] * 2)
    if counts[-1] != cpus:
        counts.append(cpus)
    return counts


def numa_nodes():
    """The machine's NUMA nodes as Linux lists them (1 where it does not say)."""
    try:
        return max(1, sum(1 for n in os.listdir("/sys/devices/system/node")
                          if n.startswith("node") and n[4:].isdigit()))
    except OSError:
        return 1


def measure(args):
    counts = thread_counts(args.threads)
    runs = {t: [] for t in counts}
    for r in range(args.rounds):
        order = counts if r % 2 == 0 else counts[::-1]
        for t in order:
            runs[t].append(run_bench(args.engine, args.depth, t, args.hash))
            print(f"  round {r + 1}, {t} thread(s) done", flush=True)
    rows = []
    for t in counts:
        # Per position: the best (least disturbed) time over rounds.
        times = {p: min(run[0][p] for run in runs[t]) for p in runs[t][0][0]}
        # nps over every round (all nodes / all time); time to depth from the best times.
        nodes = sum(run[1] for run in runs[t])
        all_ms = sum(sum(run[0].values()) for run in runs[t])
        rows.append({"threads": t, "times": times, "nps": nodes / (all_ms / 1e3),
                     "total_ms": sum(times.values())})
    base = rows[0]
    for row in rows:
        row["nps_ratio"] = row["nps"] / base["nps"]
        ratios = [base["times"][p] / row["times"][p] for p in row["times"] if row["times"][p] > 0]
        row["ttd_median"] = statistics.median(ratios)
        row["ttd_total"] = base["total_ms"] / row["total_ms"]
    return rows


def svg(rows, depth, out):
    w, h, left, bottom, top, right = 560, 380, 60, 50, 40, 150
    xs = [r["threads"] for r in rows]
    ymax = max(max(xs), max(max(r["nps_ratio"], r["ttd_median"]) for r in rows)) * 1.1
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
    tick = next(t for t in (0.5, 1, 2, 4, 8, 16, 32, 64, 128, 256, 512) if ymax / t <= 10)
    v = 0.0
    while v <= ymax:
        parts.append(f'<line x1="{x0}" y1="{py(v):.1f}" x2="{x1}" y2="{py(v):.1f}" '
                     'stroke="#ddd"/>')
        parts.append(f'<text x="{x0 - 8}" y="{py(v) + 4:.1f}" text-anchor="end">×{v:g}</text>')
        v += tick
    for t in xs:
        parts.append(f'<text x="{px(t):.1f}" y="{h - bottom + 18}" text-anchor="middle">{t}</text>')
    parts.append(f'<text x="{(x0 + x1) / 2}" y="{h - 12}" text-anchor="middle">threads</text>')
    series = [("ideal", [t / xs[0] for t in xs], "#999", "4 3"),
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/tessera")
    ap.add_argument("--depth", type=int, default=15)
    ap.add_argument("--threads", default="powers")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--out", default="docs/smp-scaling.svg")
    args = ap.parse_args()
    print(f"{os.cpu_count()} CPUs, {numa_nodes()} NUMA node(s); threads {thread_counts(args.threads)}, "
          f"depth {args.depth}, {args.hash} MB, {args.rounds} round(s)", flush=True)
    rows = measure(args)
    print(f"\n| threads | nps | nps ratio | time to depth {args.depth} (sum) | "
          "TTD speed-up, median | TTD speed-up, total |")
    print("|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['threads']} | {r['nps'] / 1e6:.3f} M | ×{r['nps_ratio']:.2f} | "
              f"{r['total_ms'] / 1e3:.2f} s | ×{r['ttd_median']:.2f} | ×{r['ttd_total']:.2f} |")
    svg(rows, args.depth, args.out)
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
