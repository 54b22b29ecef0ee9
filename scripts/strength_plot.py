#!/usr/bin/env python3
"""Tables and plots the calibration of `UCI_Elo` from match.py logs.

    python3 scripts/strength_plot.py LEVEL=LOG [LEVEL=LOG ...] [--out docs/strength-calibration.svg]

Each LOG is the output of one match.py run of Tessera at `UCI_Elo` = LEVEL
against Stockfish 15.1 at the same `UCI_Elo` (the command is in
docs/strength.md). The script reads the games, W/D/L, score and the
pentanomial Elo with its 95% interval from each log, prints a Markdown table
(with whether the level is within the target of +-60 Elo) and writes an SVG:
the Elo difference per level with its interval, and the +-60 band. A level can
appear more than once (the runs are pooled only by listing them together in
the table). No third-party packages: the SVG is written by hand.
"""

import argparse
import re

GAMES = re.compile(r"^Games: (\d+)", re.M)
WDL = re.compile(r"W/D/L = (\d+)/(\d+)/(\d+)\s+score ([\d.]+)%")
ELO = re.compile(r"Elo \(pentanomial[^)]*\): ([+-][\d.]+|nan)\s+95% CI \[([+-]?[\d.inf]+), ([+-]?[\d.inf]+)\]")
LIMIT = re.compile(r"limit: (\S+)")
TARGET = 60.0


def read(level, path):
    text = open(path).read()
    games, wdl, elo = GAMES.search(text), WDL.search(text), ELO.search(text)
    if not (games and wdl and elo):
        raise SystemExit(f"{path}: no final match summary")
    limit = LIMIT.search(text)
    return {
        "level": int(level),
        "games": int(games[1]),
        "wdl": "/".join(wdl.groups()[:3]),
        "score": float(wdl[4]),
        "elo": float(elo[1]),
        "lo": float(elo[2]),
        "hi": float(elo[3]),
        "tc": limit[1] if limit else "?",
    }


def table(rows):
    print("| UCI_Elo | clock | games | W/D/L | score | Elo (Tessera − Stockfish) | 95% interval | estimate within ±60 |")
    print("|---:|---|---:|---|---:|---:|---|---|")
    for r in rows:
        ok = "yes" if abs(r["elo"]) <= TARGET else "no"
        print(f"| {r['level']} | {r['tc']} | {r['games']} | {r['wdl']} | {r['score']:.1f}% | "
              f"{r['elo']:+.1f} | [{r['lo']:+.1f}, {r['hi']:+.1f}] | {ok} |")


def svg(rows, out):
    w, h, left, right, top, bottom = 640, 380, 70, 20, 30, 50
    x0, x1, y0, y1 = 1300, 2900, -400, 400
    px = lambda x: left + (x - x0) / (x1 - x0) * (w - left - right)
    py = lambda y: top + (y1 - max(y0, min(y1, y))) / (y1 - y0) * (h - top - bottom)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
             f'font-family="sans-serif" font-size="12">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<rect x="{px(x0)}" y="{py(TARGET)}" width="{px(x1) - px(x0)}" '
             f'height="{py(-TARGET) - py(TARGET)}" fill="#d8f0d8"/>']
    for y in range(y0, y1 + 1, 100):
        parts.append(f'<line x1="{px(x0)}" x2="{px(x1)}" y1="{py(y)}" y2="{py(y)}" '
                     f'stroke="{"#888" if y == 0 else "#eee"}"/>')
        parts.append(f'<text x="{left - 8}" y="{py(y) + 4}" text-anchor="end">{y:+d}</text>')
    for x in range(1350, 2851, 250):
        parts.append(f'<text x="{px(x)}" y="{h - bottom + 18}" text-anchor="middle">{x}</text>')
    parts.append(f'<text x="{(left + w - right) / 2}" y="{h - 10}" text-anchor="middle">'
                 f'UCI_Elo (both engines)</text>')
    parts.append(f'<text x="14" y="{(top + h - bottom) / 2}" text-anchor="middle" '
                 f'transform="rotate(-90 14 {(top + h - bottom) / 2})">Elo, Tessera − Stockfish 15.1</text>')
    parts.append(f'<text x="{left}" y="18">Tessera UCI_Elo against Stockfish 15.1 UCI_Elo '
                 f'(green: ±{TARGET:.0f} target; bars: 95% interval)</text>')
    for r in rows:
        x = px(r["level"])
        parts.append(f'<line x1="{x}" x2="{x}" y1="{py(r["lo"])}" y2="{py(r["hi"])}" stroke="#246" stroke-width="2"/>')
        parts.append(f'<circle cx="{x}" cy="{py(r["elo"])}" r="4" fill="#246"/>')
        parts.append(f'<text x="{x + 6}" y="{py(r["elo"]) - 6}">{r["games"]} g</text>')
    parts.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="LEVEL=LOG")
    ap.add_argument("--out", default="docs/strength-calibration.svg")
    args = ap.parse_args()
    rows = sorted((read(*run.split("=", 1)) for run in args.runs), key=lambda r: r["level"])
    table(rows)
    svg(rows, args.out)


if __name__ == "__main__":
    main()
