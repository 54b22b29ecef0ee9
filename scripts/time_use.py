#!/usr/bin/env python3
"""How much of a clock engines spend on one move, side by side.

    python3 scripts/time_use.py --go "wtime 6000 btime 6000 winc 80 binc 80" \\
        [--positions 100] [--openings data/openings.epd] ENGINE [ENGINE ...]

Each ENGINE is a path, optionally followed by `|Name=value` UCI options
(`"./tessera|Move Overhead=100"`). Every engine, in turn, gets the
first N positions of the openings file, each as a new game (`ucinewgame`,
16 MB), and one `go` with the clock given; the script prints, per engine, the
mean and median wall time until `bestmove`, and the mean depth and nodes of
the last `info` line. The same clock from the same positions shows how two
builds' time managers and trees turn a clock into time on the move: a search
that stops sooner banks time for later moves, which fixed-node screens never
see. Run it on a quiet machine; the engines run one at a time.
"""

import argparse
import statistics
import time

from spsa import load_openings  # EPD or FEN lines, as the tuning runs read them
from stop_latency import Engine  # the UCI driver of the scripts that time an engine


def spend(spec, fens, go):
    """Per position: (seconds to bestmove, last depth, last nodes)."""
    path, *options = spec.split("|")
    engine = Engine(path)
    engine.send("uci")
    engine.wait_for("uciok")
    engine.send("setoption name Hash value 16")
    for option in options:
        name, value = option.split("=", 1)
        engine.send(f"setoption name {name} value {value}")
    results = []
    for fen in fens:
        engine.send("ucinewgame")
        engine.send(f"position fen {fen}")
        engine.send("isready")
        engine.wait_for("readyok")
        start = time.perf_counter()
        engine.send(f"go {go}")
        depth = nodes = 0
        while True:
            at, line = engine.wait_for("", timeout=60.0)
            words = line.split()
            if words[:1] == ["bestmove"]:
                break
            if words[:1] == ["info"] and "depth" in words and "nodes" in words:
                depth = int(words[words.index("depth") + 1])
                nodes = int(words[words.index("nodes") + 1])
        results.append((at - start, depth, nodes))
    engine.quit()
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engines", nargs="+", help="PATH or PATH|Name=value|...")
    ap.add_argument("--go", required=True, help="the go command's arguments, a clock")
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--openings", default="data/openings.epd")
    args = ap.parse_args()
    fens = [board.fen() for board in load_openings(args.openings)[: args.positions]]
    for spec in args.engines:
        r = spend(spec, fens, args.go)
        seconds = [x[0] for x in r]
        print(
            f"{spec}: mean {statistics.mean(seconds):.3f} s, median {statistics.median(seconds):.3f} s "
            f"a move; mean depth {statistics.mean(x[1] for x in r):.2f}, "
            f"mean nodes {statistics.mean(x[2] for x in r):.0f} ({len(r)} positions)"
        )


if __name__ == "__main__":
    main()
