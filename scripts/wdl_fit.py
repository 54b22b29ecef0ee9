#!/usr/bin/env python3
"""Fit Tessera's win/draw/loss model: result against search score and material.

The model is Stockfish's (its WDL_model scripts):

    win(s, m)  = 1 / (1 + exp((a(m) - s) / b(m)))
    loss(s, m) = 1 / (1 + exp((a(m) + s) / b(m)))
    draw       = 1 - win - loss

with `s` the search score in centipawns for the side whose result is counted,
`m` the material (pawn 1, knight 3, bishop 3, rook 5, queen 9; both sides,
clamped to 17..78) and `a`, `b` cubic polynomials in m / 58. The fit maximises
the likelihood of the observed results, over (score, material) cells that count
wins, draws and losses.

Input: text files (or .xz) of lines `FEN | score | result | bestmove`, with the
score in centipawns and the result (1.0, 0.5, 0.0) both from White's point of
view (../shared/data/SOURCES.md, selfplay/). Usage:

    python3 scripts/wdl_fit.py ../shared/data/selfplay/*.txt.xz --plot docs/wdl-model.svg

Prints the coefficients (also as the Rust constants of crates/search/src/wdl.rs)
and writes the plot. Needs numpy and scipy; matplotlib for the plot
(`pip install numpy scipy matplotlib`).
"""

import argparse
import lzma
import math
import sys

import numpy as np
from scipy.optimize import minimize

PIECE_VALUES = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9}
MATERIAL_MIN, MATERIAL_MAX, MATERIAL_NORM = 17, 78, 58


def material(fen_placement):
    return sum(PIECE_VALUES.get(c.lower(), 0) for c in fen_placement)


def read(paths, max_score, min_fullmove):
    """Counts[material, score + max_score, outcome]; outcome 0 loss, 1 draw, 2 win (White)."""
    counts = np.zeros((MATERIAL_MAX + 1, 2 * max_score + 1, 3), dtype=np.int64)
    kept = skipped = 0
    for path in paths:
        opener = lzma.open if path.endswith(".xz") else open
        with opener(path, "rt") as f:
            for line in f:
                parts = line.split("|")
                if len(parts) < 3:
                    skipped += 1
                    continue
                fen = parts[0].split()
                try:
                    score = int(parts[1])
                    result = float(parts[2])
                    fullmove = int(fen[5]) if len(fen) > 5 else 1
                except ValueError:
                    skipped += 1
                    continue
                if abs(score) > max_score or fullmove < min_fullmove:
                    skipped += 1
                    continue
                m = min(max(material(fen[0]), MATERIAL_MIN), MATERIAL_MAX)
                outcome = 2 if result > 0.75 else 0 if result < 0.25 else 1
                counts[m, score + max_score, outcome] += 1
                kept += 1
    print(f"positions: {kept} used, {skipped} skipped (|score| > {max_score}, "
          f"fullmove < {min_fullmove}, or unreadable)", file=sys.stderr)
    return counts


def poly(coeffs, x):
    """coeffs = [c3, c2, c1, c0]: ((c3 x + c2) x + c1) x + c0."""
    r = np.zeros_like(x, dtype=float)
    for c in coeffs:
        r = r * x + c
    return r


def model(params, s, m):
    a = poly(params[:4], m / MATERIAL_NORM)
    b = np.maximum(poly(params[4:], m / MATERIAL_NORM), 1.0)
    win = 1.0 / (1.0 + np.exp((a - s) / b))
    loss = 1.0 / (1.0 + np.exp((a + s) / b))
    return win, loss


def fit(counts, max_score):
    mats, scores = np.nonzero(counts.sum(axis=2))
    n = counts[mats, scores]  # (cells, 3): loss, draw, win
    s = (scores - max_score).astype(float)
    m = mats.astype(float)

    def nll(params):
        win, loss = model(params, s, m)
        draw = np.clip(1.0 - win - loss, 1e-9, 1.0)
        win = np.clip(win, 1e-9, 1.0)
        loss = np.clip(loss, 1e-9, 1.0)
        return -(n[:, 2] * np.log(win) + n[:, 1] * np.log(draw) + n[:, 0] * np.log(loss)).sum() / n.sum()

    # Start from constant a, b (typical engine values), then refine all eight.
    start = np.array([0.0, 0.0, 0.0, 150.0, 0.0, 0.0, 0.0, 80.0])
    best = minimize(nll, start, method="Nelder-Mead", options={"maxiter": 4000, "xatol": 1e-3, "fatol": 1e-9})
    best = minimize(nll, best.x, method="BFGS")
    return best.x, best.fun


def plot(params, counts, max_score, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    xs = np.arange(-max_score, max_score + 1)
    for lo, hi, color in [(17, 30, "tab:blue"), (31, 50, "tab:green"), (51, 78, "tab:red")]:
        sub = counts[lo:hi + 1].sum(axis=0)  # (scores, 3)
        bins = 25
        k = (2 * max_score + 1) // bins
        centers, wins, losses = [], [], []
        for i in range(0, 2 * max_score + 1 - k + 1, k):
            c = sub[i:i + k].sum(axis=0)
            if c.sum() >= 200:
                centers.append(xs[i:i + k].mean())
                wins.append(c[2] / c.sum())
                losses.append(c[0] / c.sum())
        mid = (lo + hi) / 2
        win, loss = model(params, xs.astype(float), np.full(xs.shape, mid))
        left.plot(xs, win, color=color, label=f"material {lo}-{hi}: win (model)")
        left.plot(xs, loss, color=color, linestyle="--", label="loss (model)")
        left.plot(centers, wins, "o", color=color, markersize=3)
        left.plot(centers, losses, "x", color=color, markersize=3)
    left.set_xlabel("search score, cp (White)")
    left.set_ylabel("probability (White)")
    left.set_title("Model (lines) and games (dots: wins, crosses: losses)")
    left.legend(fontsize=7)
    left.grid(alpha=0.3)

    ms = np.arange(MATERIAL_MIN, MATERIAL_MAX + 1, dtype=float)
    right.plot(ms, poly(params[:4], ms / MATERIAL_NORM), label="a(m): score of a 50% win")
    right.plot(ms, poly(params[4:], ms / MATERIAL_NORM), label="b(m): spread")
    right.set_xlabel("material m (P=1 N=B=3 R=5 Q=9, both sides)")
    right.set_ylabel("cp")
    right.set_title("Fitted a(m) and b(m)")
    right.legend(fontsize=8)
    right.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    print(f"plot written to {path}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="text data files (.txt or .txt.xz)")
    ap.add_argument("--max-score", type=int, default=1000, help="ignore |score| above this (cp)")
    ap.add_argument("--min-fullmove", type=int, default=1, help="ignore positions before this move number")
    ap.add_argument("--plot", help="write the plot here (.svg or .png)")
    args = ap.parse_args()

    counts = read(args.files, args.max_score, args.min_fullmove)
    if counts.sum() == 0:
        sys.exit("no usable positions")
    params, nll = fit(counts, args.max_score)
    a, b = params[:4], params[4:]
    print(f"mean negative log-likelihood per position: {nll:.5f}")
    print("a(m) = ((a0*x + a1)*x + a2)*x + a3, b(m) likewise, x = clamp(m, 17, 78) / 58")
    print("a =", ", ".join(f"{c:.4f}" for c in a))
    print("b =", ", ".join(f"{c:.4f}" for c in b))
    print("\n// For crates/search/src/wdl.rs:")
    print(f"const A: [f64; 4] = [{', '.join(f'{c:.4f}' for c in a)}];")
    print(f"const B: [f64; 4] = [{', '.join(f'{c:.4f}' for c in b)}];")
    print("\nWDL per mille (side to move) at material 58 / 30:")
    for score in [-300, -100, 0, 50, 100, 200, 300, 500]:
        row = []
        for m in [58, 30]:
            win, loss = model(params, np.array([float(score)]), np.array([float(m)]))
            w, l = int(round(1000 * win[0])), int(round(1000 * loss[0]))
            row.append(f"{w:4d} {1000 - w - l:4d} {l:4d}")
        print(f"  score {score:5d}:  " + "   |   ".join(row))
    if args.plot:
        plot(params, counts, args.max_score, args.plot)


if __name__ == "__main__":
    main()
