#!/usr/bin/env python3
"""The cost of tablebase probes inside the search: nodes per second with and
without tables on 5- and 6-piece endgames (one capture or two from the 3-4-piece
tables), alternating, and the probes per second the search made.

    python3 scripts/tb_nps.py [--engine target/release/tessera] [--tables data/syzygy]
                              [--nodes 1000000] [--rounds 3]

Each round searches every position with `go nodes N` (one thread, 16 MB,
`ucinewgame` before each), once with `SyzygyPath` set and once without, in
alternating order. Time is the engine process's CPU time (user + system, from
/proc; wall time where /proc is missing), so that other work on a shared
machine counts less. Prints a Markdown table for docs/tablebases.md.
"""

import argparse
import os
import subprocess

# 5- and 6-piece positions of Tessera's self-play (../shared/data/selfplay,
# 2e6cf28-seed1-w0), the first of each material.
POSITIONS = [
    "8/6p1/8/4k2r/8/1K6/R7/8 b - - 0 54",
    "5r2/6R1/4K3/8/8/8/5k2/6q1 w - - 0 79",
    "8/1k6/4p3/8/7p/8/2K3p1/8 b - - 0 60",
    "8/8/8/p2k4/1P3p2/8/5K2/8 b - - 0 64",
    "8/8/8/2k5/3PQ3/7P/5K2/8 b - - 0 49",
    "8/8/8/k7/P7/8/2R4r/2K5 b - - 0 79",
    "R7/5kp1/8/7r/8/1K6/p7/8 w - - 0 52",
    "8/1k6/4p3/8/7p/2p2Kp1/8/8 w - - 0 58",
    "8/8/8/pp1k4/5p2/P7/8/4K3 w - - 0 63",
    "8/7Q/8/3pk3/8/7P/4PK2/8 b - - 0 44",
    "8/8/R7/8/2p5/P3k3/7r/4K3 w - - 0 62",
    "1N6/8/8/7p/4K2k/1P2P3/8/8 b - - 0 75",
]


class Engine:
    def __init__(self, cmd, tables):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        if tables:
            self.send(f"setoption name SyzygyPath value {tables}")
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        last = ""
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("the engine exited")
            if line.startswith("info depth"):
                last = line
            if line.startswith(prefix):
                return last or line

    def cpu_ms(self):
        """The engine's CPU time so far in ms, or None without /proc."""
        try:
            with open(f"/proc/{self.p.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")
        except OSError:
            return None

    def search(self, fen, nodes):
        """(nodes, ms, tbhits) of a `go nodes` search."""
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        self.until("readyok")
        before = self.cpu_ms()
        self.send(f"go nodes {nodes}")
        tokens = self.until("bestmove").split()
        after = self.cpu_ms()
        field = lambda name: int(tokens[tokens.index(name) + 1])
        ms = after - before if before is not None and after is not None else field("time")
        return field("nodes"), ms, field("tbhits")

    def quit(self):
        self.send("quit")
        self.p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    ap.add_argument("--engine", default=os.path.join(root, "target/release/tessera"))
    ap.add_argument("--tables", default=os.path.abspath(os.path.join(root, "data/syzygy")))
    ap.add_argument("--nodes", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()

    engines = {"with": Engine(args.engine, args.tables), "without": Engine(args.engine, None)}
    totals = {k: [0, 0, 0] for k in engines}  # nodes, ms, tbhits
    ratios = []
    for r in range(args.rounds):
        order = ["with", "without"] if r % 2 == 0 else ["without", "with"]
        per_round = {k: [0, 0] for k in engines}
        for fen in POSITIONS:
            for k in order:
                nodes, ms, hits = engines[k].search(fen, args.nodes)
                for i, v in enumerate((nodes, ms, hits)):
                    totals[k][i] += v
                per_round[k][0] += nodes
                per_round[k][1] += ms
        nps = {k: v[0] / max(v[1], 1) * 1000 for k, v in per_round.items()}
        ratios.append(nps["with"] / nps["without"])
        print(f"round {r + 1}: with {nps['with']:.0f} nps, without {nps['without']:.0f} nps, ratio {ratios[-1]:.3f}")
    for e in engines.values():
        e.quit()

    print()
    print("| | nodes | time (s) | nps | tbhits | probes/s | probes per 1000 nodes |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for k in ("with", "without"):
        nodes, ms, hits = totals[k]
        secs = ms / 1000
        print(f"| {k} tables | {nodes} | {secs:.1f} | {nodes / secs:.0f} | {hits} | {hits / secs:.0f} | {1000 * hits / nodes:.2f} |")
    ratios.sort()
    print(f"\nnps with / without, per round: {', '.join(f'{x:.3f}' for x in ratios)} (median {ratios[len(ratios) // 2]:.3f})")


if __name__ == "__main__":
    main()
