#!/usr/bin/env python3
"""stop_latency.py -- how long an engine takes from `stop` to `bestmove`.

Starts the engine once per thread count, then repeatedly: sets a position (an
opening from the EPD file plus a few random legal moves), starts a search that
only `stop` ends (`go infinite`, or `go ponder` with a clock), lets it run for
a random 10-300 ms, sends `isready` (timing `readyok` during the search), then
`stop`, and times the `bestmove`. The move must be legal. Prints the median,
99th percentile and worst of both latencies, per thread count and overall; the
last line is machine-readable:

    RESULT searches=N worst_stop_ms=X p99_stop_ms=Y worst_isready_ms=Z faults=F

With `--movetime MS` it times the clock instead: each search is `go movetime
MS`, and what is measured is how far past MS the `bestmove` arrives (the
"stop" figures are then that overshoot; no `isready` is sent). With many more
threads than cores this shows whether the engine still keeps its time.

Usage:
    python3 scripts/stop_latency.py --engine target/release/tessera \\
        --openings ../shared/data/openings.epd --searches 1000 --threads 1 8

Needs python-chess (`pip install chess`). Exit status 1 on any fault (no
bestmove within 10 s, an illegal move, the engine died).
"""

import argparse
import queue
import random
import statistics
import subprocess
import sys
import threading
import time

import chess


class Engine:
    def __init__(self, cmd):
        self.proc = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), line.rstrip("\n")))
        self.lines.put((time.perf_counter(), None))

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix, timeout=10.0):
        """The time the first line starting with `prefix` arrived, and the line."""
        deadline = time.perf_counter() + timeout
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no %r within %.0f s" % (prefix, timeout))
            try:
                at, line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EOFError("the engine exited")
            if line.startswith(prefix):
                return at, line

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100.0 * len(ordered)))]


def run(args, threads, openings, rng):
    engine = Engine(args.engine)
    engine.send("uci")
    engine.wait_for("uciok")
    engine.send("setoption name Threads value %d" % threads)
    engine.send("setoption name Hash value %d" % args.hash)
    engine.send("isready")
    engine.wait_for("readyok")
    stops, readies, faults = [], [], []
    for i in range(args.searches):
        board = chess.Board(rng.choice(openings))
        for _ in range(rng.randrange(0, 12)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if board.is_game_over():
            continue
        engine.send("position fen %s" % board.fen())
        if args.movetime:
            try:
                sent = time.perf_counter()
                engine.send("go movetime %d" % args.movetime)
                at, line = engine.wait_for("bestmove")
            except (TimeoutError, EOFError) as e:
                faults.append("%s in %s" % (e, board.fen()))
                break
            stops.append((at - sent) * 1000.0 - args.movetime)
            check_move(line, board, faults)
            continue
        if i % 4 == 3:
            engine.send("go ponder wtime 60000 btime 60000")
        else:
            engine.send("go infinite")
        time.sleep(rng.uniform(0.010, 0.300))
        try:
            sent = time.perf_counter()
            engine.send("isready")
            at, _ = engine.wait_for("readyok")
            readies.append((at - sent) * 1000.0)
            sent = time.perf_counter()
            engine.send("stop")
            at, line = engine.wait_for("bestmove")
        except (TimeoutError, EOFError) as e:
            faults.append("%s in %s" % (e, board.fen()))
            break
        stops.append((at - sent) * 1000.0)
        check_move(line, board, faults)
    engine.quit()
    return stops, readies, faults


def check_move(line, board, faults):
    """Records a fault unless `line` is a `bestmove` with a legal move."""
    try:
        move = line.split()[1]
        if chess.Move.from_uci(move) not in board.legal_moves:
            faults.append("illegal bestmove %s in %s" % (move, board.fen()))
    except (IndexError, ValueError):
        faults.append("malformed bestmove %r in %s" % (line, board.fen()))


def describe(name, values):
    if not values:
        return "%s: none" % name
    return "%s: median %.2f ms, p99 %.2f ms, worst %.2f ms (%d)" % (
        name, statistics.median(values), percentile(values, 99), max(values), len(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/tessera")
    ap.add_argument("--openings", default="../shared/data/openings.epd")
    ap.add_argument("--searches", type=int, default=200, help="searches per thread count")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 8])
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--movetime", type=int, default=0,
                    help="time `go movetime MS` searches instead (go->bestmove minus MS)")
    args = ap.parse_args()
    with open(args.openings) as f:
        openings = [" ".join(l.split()[:4]) + " 0 1" for l in f if l.strip()]
    rng = random.Random(args.seed)
    all_stops, all_readies, all_faults = [], [], []
    for threads in args.threads:
        stops, readies, faults = run(args, threads, openings, rng)
        name = "bestmove past movetime" if args.movetime else "stop->bestmove"
        print("Threads=%d  %s" % (threads, describe(name, stops)))
        print("Threads=%d  %s" % (threads, describe("isready->readyok during search", readies)))
        for fault in faults:
            print("FAULT (Threads=%d): %s" % (threads, fault))
        all_stops += stops
        all_readies += readies
        all_faults += faults
    print("RESULT searches=%d worst_stop_ms=%.2f p99_stop_ms=%.2f worst_isready_ms=%.2f faults=%d" % (
        len(all_stops), max(all_stops, default=0.0), percentile(all_stops, 99) if all_stops else 0.0,
        max(all_readies, default=0.0), len(all_faults)))
    return 1 if all_faults else 0


if __name__ == "__main__":
    sys.exit(main())
