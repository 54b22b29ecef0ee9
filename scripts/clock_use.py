#!/usr/bin/env python3
"""How a match's players used their clock, from match.py's PGN.

    python3 scripts/clock_use.py GAMES.pgn --tc 1+0.01 [--player NAME ...]

Each engine move's comment ends with the time it took (`+0.31/12 0.027s`).
Replaying each game's clock (base, minus each move's time, plus the
increment) gives, per player and per stretch of the game (moves 1-20, 21-40,
41-60, 61 on, counted from the first move after the opening), the median
milliseconds per move and the median clock left at the end of the stretch's
moves, and the least clock any player had after any move.
"""

import argparse
import re
import statistics

import chess.pgn

STRETCHES = [(1, 20), (21, 40), (41, 60), (61, 10**6)]
TIME = re.compile(r"(-?\d+(?:\.\d+)?)s\s*$")


def parse_tc(tc):
    base, _, inc = tc.partition("+")
    return float(base), float(inc or 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn")
    ap.add_argument("--tc", required=True, help="BASE+INC in seconds, e.g. 1+0.01")
    args = ap.parse_args()
    base, inc = parse_tc(args.tc)
    per_move = {}  # (player, stretch) -> [ms]
    clock_left = {}  # (player, stretch) -> [ms]
    least = {}
    with open(args.pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            players = {chess.WHITE: game.headers["White"], chess.BLACK: game.headers["Black"]}
            clock = {chess.WHITE: base, chess.BLACK: base}
            played = {chess.WHITE: 0, chess.BLACK: 0}
            node = game
            while node.variations:
                node = node.variation(0)
                mover = not node.board().turn
                m = TIME.search(node.comment or "")
                if not m:
                    continue  # an opening move
                spent = float(m.group(1))
                clock[mover] = clock[mover] - spent + inc
                played[mover] += 1
                name = players[mover]
                least[name] = min(least.get(name, 1e9), clock[mover] - inc)
                for i, (lo, hi) in enumerate(STRETCHES):
                    if lo <= played[mover] <= hi:
                        per_move.setdefault((name, i), []).append(spent * 1000)
                        clock_left.setdefault((name, i), []).append(clock[mover] * 1000)
    names = sorted({n for n, _ in per_move})
    print("player  " + "  ".join("moves %d-%s" % (lo, hi if hi < 10**6 else "") for lo, hi in STRETCHES))
    for name in names:
        cells = []
        for i in range(len(STRETCHES)):
            ms = per_move.get((name, i))
            left = clock_left.get((name, i))
            cells.append(
                "%4.0f ms, clock %5.0f" % (statistics.median(ms), statistics.median(left)) if ms else "-"
            )
        print(name, " | ".join(cells), " least clock %.0f ms" % (least[name] * 1000))


if __name__ == "__main__":
    main()
