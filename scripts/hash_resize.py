#!/usr/bin/env python3
"""hash_resize.py -- how long engines take to resize their hash table.

For each size, each round starts every engine in turn (one at a time, the
order alternating from round to round), waits for `readyok` with the default
table, then times `setoption name Hash value N` followed by `isready` until
`readyok`, and quits. Prints, per engine and size, the median, the fastest and
slowest round, and every round; the last lines are machine-readable:

    RESULT engine=NAME mb=N median_s=X min_s=Y max_s=Z rounds=a,b,c

Usage:
    python3 scripts/hash_resize.py --engine tessera=target/release/tessera \\
        --engine stockfish=/usr/games/stockfish --mb 1024 4096 8192 --rounds 5

Every engine runs with `Threads` 1 (`--threads` to change it). No dependencies
beyond Python 3.
"""

import argparse
import statistics
import subprocess
import sys
import time


def time_resize(cmd, mb, threads, timeout):
    """Seconds from `setoption name Hash value mb` to the `readyok` after it."""
    proc = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(text):
        proc.stdin.write(text + "\n")
        proc.stdin.flush()

    def wait_for(token):
        deadline = time.perf_counter() + timeout
        for line in proc.stdout:
            if line.strip() == token:
                return
            if time.perf_counter() > deadline:
                break
        raise RuntimeError(f"{cmd}: no {token}")

    try:
        send("uci")
        wait_for("uciok")
        send(f"setoption name Threads value {threads}")
        send("isready")
        wait_for("readyok")
        start = time.perf_counter()
        send(f"setoption name Hash value {mb}")
        send("isready")
        wait_for("readyok")
        elapsed = time.perf_counter() - start
        send("quit")
        proc.wait(timeout=timeout)
        return elapsed
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", action="append", required=True,
                        help="NAME=COMMAND (repeat for each engine)")
    parser.add_argument("--mb", type=int, nargs="+", default=[1024, 4096, 8192])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    engines = [tuple(e.split("=", 1)) for e in args.engine]
    times = {(name, mb): [] for name, _ in engines for mb in args.mb}
    for mb in args.mb:
        for r in range(args.rounds):
            order = engines if r % 2 == 0 else engines[::-1]
            for name, cmd in order:
                t = time_resize(cmd, mb, args.threads, args.timeout)
                times[(name, mb)].append(t)
                print(f"{mb} MB round {r + 1} {name}: {t:.3f} s", flush=True)
    print()
    print(f"{'engine':<12} {'MB':>6} {'median s':>9} {'min s':>7} {'max s':>7}  rounds")
    for mb in args.mb:
        for name, _ in engines:
            ts = times[(name, mb)]
            rounds = " ".join(f"{t:.2f}" for t in ts)
            print(f"{name:<12} {mb:>6} {statistics.median(ts):>9.3f} {min(ts):>7.3f} "
                  f"{max(ts):>7.3f}  {rounds}")
    for mb in args.mb:
        for name, _ in engines:
            ts = times[(name, mb)]
            print(f"RESULT engine={name} mb={mb} median_s={statistics.median(ts):.3f} "
                  f"min_s={min(ts):.3f} max_s={max(ts):.3f} "
                  f"rounds={','.join(f'{t:.3f}' for t in ts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
