#!/usr/bin/env python3
"""Draws the training and validation loss per epoch of `tessera-train` runs as an SVG.

    python3 scripts/plot_loss.py RUN_DIR/loss.csv [LABEL=RUN_DIR/loss.csv ...] --out docs/nnue-loss.svg

Each CSV is the `loss.csv` a training run writes (epoch, train_loss,
validation_loss, lr, samples_per_second). Solid lines are training loss,
dashed lines validation loss. No third-party packages: the SVG is written by hand.
"""

import argparse
import csv

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def read(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return [(int(r["epoch"]), float(r["train_loss"]), float(r["validation_loss"])) for r in rows]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", help="loss.csv or LABEL=loss.csv")
    ap.add_argument("--out", required=True)
    ap.add_argument("--title", default="Training (solid) and validation (dashed) loss per epoch")
    args = ap.parse_args()
    series = []
    for spec in args.runs:
        label, _, path = spec.rpartition("=")
        series.append((label or path, read(path)))
    epochs = max(e for _, rows in series for e, _, _ in rows)
    values = [v for _, rows in series for _, t, v in rows for v in (t, v) if v == v]
    lo, hi = min(values), max(values)
    # Skip the first epochs' large losses if they dwarf the rest.
    later = [v for _, rows in series for e, t, v in rows if e > 1 for v in (t, v) if v == v]
    if later:
        hi = min(hi, max(later) * 1.05)
    lo *= 0.98
    w, h, left, right, top, bottom = 720, 420, 70, 170, 40, 50
    pw, ph = w - left - right, h - top - bottom

    def x(e):
        return left + pw * (e - 1) / max(epochs - 1, 1)

    def y(v):
        v = min(max(v, lo), hi)
        return top + ph * (1 - (v - lo) / (hi - lo))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<text x="{w / 2}" y="20" text-anchor="middle" font-size="14">{args.title}</text>',
             f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="black"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="black"/>']
    for i in range(6):
        v = lo + (hi - lo) * i / 5
        parts.append(f'<text x="{left - 6}" y="{y(v) + 4}" text-anchor="end">{v:.4f}</text>')
        parts.append(f'<line x1="{left}" y1="{y(v)}" x2="{left + pw}" y2="{y(v)}" stroke="#ddd"/>')
    step = max(1, epochs // 10)
    for e in range(1, epochs + 1, step):
        parts.append(f'<text x="{x(e)}" y="{top + ph + 18}" text-anchor="middle">{e}</text>')
    parts.append(f'<text x="{left + pw / 2}" y="{h - 10}" text-anchor="middle">epoch</text>')
    for i, (label, rows) in enumerate(series):
        c = COLORS[i % len(COLORS)]
        for col, dash in ((1, ""), (2, ' stroke-dasharray="5,4"')):
            pts = " ".join(f"{x(r[0]):.1f},{y(r[col]):.1f}" for r in rows if r[col] == r[col])
            parts.append(f'<polyline points="{pts}" fill="none" stroke="{c}" stroke-width="2"{dash}/>')
        ly = top + 20 * i + 10
        parts.append(f'<line x1="{left + pw + 10}" y1="{ly}" x2="{left + pw + 30}" y2="{ly}" stroke="{c}" stroke-width="2"/>')
        parts.append(f'<text x="{left + pw + 35}" y="{ly + 4}">{label}</text>')
    parts.append("</svg>")
    with open(args.out, "w") as f:
        f.write("\n".join(parts) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
