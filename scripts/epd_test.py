#!/usr/bin/env python3
"""Runs a tactical EPD suite (bm/am operations) against a UCI engine.

    python3 scripts/epd_test.py data/wac.epd --movetime 1000 [--engine target/release/tessera]

Each position is searched for --movetime ms (or --nodes N, which does not
depend on the machine's load) on one thread (fresh `ucinewgame`
before each); a position counts as solved when the engine's best move is one of
the `bm` moves (and none of the `am` moves). Prints the failures and
`solved N/M`. Needs python-chess (`pip install chess`).
"""
import argparse
import concurrent.futures as cf
import sys

import chess
import chess.engine


def load(path):
    cases = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            board, ops = chess.Board.from_epd(line)
            cases.append((board, ops))
    return cases


def run_chunk(engine_path, cases, limit, hash_mb, threads, options):
    results = []
    engine = chess.engine.SimpleEngine.popen_uci(engine_path)
    try:
        engine.configure({"Hash": hash_mb, "Threads": threads, **options})
        for board, ops in cases:
            engine.protocol.send_line("ucinewgame")
            result = engine.play(board, limit, info=chess.engine.INFO_SCORE)
            move = result.move
            bm = ops.get("bm") or []
            am = ops.get("am") or []
            ok = (not bm or move in bm) and move not in am
            results.append((ops.get("id", board.fen()), ok, board.san(move) if move else "none",
                            [board.san(m) for m in bm]))
    finally:
        engine.quit()
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("epd")
    ap.add_argument("--engine", default="target/release/tessera")
    ap.add_argument("--movetime", type=int, default=1000, help="ms per position")
    ap.add_argument("--nodes", type=int, default=0,
                    help="search N nodes per position instead of --movetime (repeatable, load-independent)")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=1, help="engines run side by side")
    ap.add_argument("--limit", type=int, default=0, help="only the first N positions")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE engine option")
    args = ap.parse_args()
    cases = load(args.epd)
    if args.limit:
        cases = cases[: args.limit]
    chunks = [cases[i :: args.concurrency] for i in range(args.concurrency)]
    options = dict(o.split("=", 1) for o in args.option)
    limit = chess.engine.Limit(nodes=args.nodes) if args.nodes else chess.engine.Limit(time=args.movetime / 1000.0)
    results = []
    with cf.ThreadPoolExecutor(args.concurrency) as pool:
        for part in pool.map(lambda c: run_chunk(args.engine, c, limit, args.hash, args.threads, options), chunks):
            results.extend(part)
    failures = sorted((r for r in results if not r[1]), key=lambda r: r[0])
    for ident, _, played, expected in failures:
        print(f"FAIL {ident}: played {played}, expected {' or '.join(expected)}")
    solved = sum(1 for r in results if r[1])
    print(f"solved {solved}/{len(results)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
