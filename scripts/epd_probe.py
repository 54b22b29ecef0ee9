#!/usr/bin/env python3
"""How many nodes a UCI engine needs to find each position's best move.

    python3 scripts/epd_probe.py data/wac.epd --nodes 8000000 --ids 002,049 \
        [--engine target/release/tessera] [--option Hash=16 ...]

For each position (or only those whose id ends in one of --ids), one search to
--nodes after `ucinewgame`; prints the node count and depth from which the
principal variation's first move is one of the `bm` moves and stays so to the
end (NOT if it never settles there), and what the engine plays at the end.
Needs python-chess (`pip install chess`).
"""
import argparse

import chess
import chess.engine

from epd_test import load  # the same EPD reading as the suite runner beside this script


def probe(engine, board, bm, nodes):
    since, last = None, None
    with engine.analysis(board, chess.engine.Limit(nodes=nodes)) as analysis:
        for info in analysis:
            pv = info.get("pv")
            if not pv or "nodes" not in info:
                continue
            if pv[0] in bm:
                since = since or (info["nodes"], info.get("depth"))
            else:
                since = None
            last = (board.san(pv[0]), info.get("score"), info["nodes"], info.get("depth"))
    return since, last


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("epd")
    ap.add_argument("--engine", default="target/release/tessera")
    ap.add_argument("--nodes", type=int, default=8_000_000)
    ap.add_argument("--ids", default="", help="comma-separated id suffixes, e.g. 002,049")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE, repeatable")
    args = ap.parse_args()
    wanted = {i for i in args.ids.split(",") if i}
    options = {"Hash": 16, **dict(o.split("=", 1) for o in args.option)}
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    try:
        engine.configure(options)
        for board, ops in load(args.epd):
            pid = ops.get("id", board.fen())
            if wanted and not any(pid.endswith("." + i) or pid == i for i in wanted):
                continue
            engine.protocol.send_line("ucinewgame")
            since, last = probe(engine, board, ops.get("bm") or [], args.nodes)
            found = f"from {since[0]} nodes (depth {since[1]})" if since else "NOT"
            # The score from the side to move's point of view.
            play = f"{last[0]} {last[1].relative if last[1] else ''}" if last else "-"
            print(f"{pid}: {found}; at the end {play}", flush=True)
    finally:
        engine.quit()


if __name__ == "__main__":
    main()
