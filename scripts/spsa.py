#!/usr/bin/env python3
"""A local SPSA run, as OpenBench runs one, for Tessera's tunables.

    python3 scripts/spsa.py --engine target/tune/release/tessera --state spsa/run.json \\
        --pairs 2000 [--nodes 20000 | --tc 2+0.02] [--concurrency 2] [--params a,b,...]

The engine is a `--features tune` build: `tessera tune-spsa` gives each
parameter's OpenBench line (`name, int, default, min, max, c_end, r_end`), and
the parameters are UCI options of the same names.

Each iteration k (1..pairs) plays one game pair between theta+ and theta-,
from one opening, colours swapped. Every parameter is perturbed by +-c_k (a
random sign `flip`, the same for all games of the pair), rounded to an integer:

    c = c_end * pairs**gamma          c_k = c / k**gamma
    a = r_end * c_end**2 * (A + pairs)**alpha,  a_k = a / (A + k)**alpha,  r_k = a_k / c_k**2
    theta += r_k * c_k * (wins - losses of theta+ in the pair) * flip, clamped to [min, max]

with alpha 0.602, gamma 0.101 and A a tenth of the pairs. At the end of the
run c_k = c_end and r_k = r_end. `--concurrency` pairs are played at once,
each from the theta of its start; each pair's update is applied when it ends.

Resumable: the state (theta, pairs done, the settings of the run) is written
to the --state JSON after every pair; the same command again goes on from
there (a pair that was under way is played again, with the same perturbation
and opening: both come from the seed and k). Next to the state file:

    STATE.csv   theta after each pair (one column per parameter), for the plots
    STATE.pgn   every game, with cutechess-style comments {+0.35/12 0.123s}
                (score in pawns from the mover's view / depth, time): its
                players `tessera-plus` and `tessera-minus` are both Tessera, so
                scripts/import_match.sh keeps the games as training data

    python3 scripts/spsa.py --state spsa/run.json --plot spsa/run.svg   # each parameter's path
    python3 scripts/spsa.py --state spsa/run.json --gradient            # what the games say of each

`--gradient` reads the run's PGN and, for each parameter, averages theta+'s
result in a pair (its points minus 1) times that parameter's flip: in a linear
model of the result this is the parameter's own share, the Elo that moving it
from theta - c_k to theta + c_k is worth (about 347.5 x the average, near
50%), printed with its 95% interval and the average c_k of the pairs. It says
how steep the result is around theta at the perturbation's scale: where every
interval is a few Elo wide around 0, no step of that size finds much.

Games end by the rules, or by adjudication as in ../shared/tools/match.py: a
resign when both engines' scores agree on 1000 cp or more for 4 moves each, a
draw after move 40 when both stay within 10 cp for 8 moves each.
"""

import argparse
import csv
import datetime
import json
import math
import os
import random
import subprocess
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn

ALPHA = 0.602
GAMMA = 0.101
PLAYERS = ("tessera-plus", "tessera-minus")
RESIGN_SCORE, RESIGN_MOVES = 1000, 4
DRAW_MOVENUMBER, DRAW_MOVES, DRAW_SCORE = 40, 8, 10


def spsa_lines(engine):
    """The engine's OpenBench SPSA input, as dicts."""
    out = subprocess.run([engine, "tune-spsa"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{engine} tune-spsa failed (not a --features tune build?): {out.stderr.strip()}")
    params = []
    for line in out.stdout.splitlines():
        name, kind, default, lo, hi, c_end, r_end = [f.strip() for f in line.split(",")]
        if kind != "int":
            sys.exit(f"unexpected SPSA line: {line}")
        params.append({"name": name, "default": int(default), "min": int(lo), "max": int(hi),
                       "c_end": float(c_end), "r_end": float(r_end)})
    return params


def new_state(args):
    params = spsa_lines(args.engine)
    if args.params:
        wanted = args.params.split(",")
        unknown = set(wanted) - {p["name"] for p in params}
        if unknown:
            sys.exit(f"unknown parameters: {', '.join(sorted(unknown))}")
        params = [p for p in params if p["name"] in wanted]
    for p in params:
        p["value"] = float(p["default"])
    return {
        "engine": args.engine, "pairs": args.pairs, "A": args.a_ratio * args.pairs,
        "nodes": args.nodes, "tc": args.tc, "hash": args.hash, "seed": args.seed,
        "openings": args.openings, "done": 0, "wins": 0, "losses": 0, "draws": 0,
        "elapsed_s": 0.0, "params": params,
    }


def schedule(state, p, k):
    """c_k and r_k of parameter p at iteration k (1-based)."""
    n, a_big = state["pairs"], state["A"]
    c = p["c_end"] * n ** GAMMA
    a = p["r_end"] * p["c_end"] ** 2 * (a_big + n) ** ALPHA
    c_k = c / k ** GAMMA
    a_k = a / (a_big + k) ** ALPHA
    return c_k, a_k / c_k ** 2


def clamp(p, v):
    return min(max(v, p["min"]), p["max"])


def draw_flips(state, k):
    """Iteration k's flips (one sign per parameter) and the generator that drew them,
    which goes on to pick the pair's opening."""
    rng = random.Random(f"{state['seed']}-{k}")
    return [rng.choice((-1, 1)) for _ in state["params"]], rng


def perturbation(state, theta, k):
    """The flips and the two engines' integer settings of iteration k."""
    flips, rng = draw_flips(state, k)
    plus, minus = {}, {}
    for p, v, f in zip(state["params"], theta, flips):
        c_k, _ = schedule(state, p, k)
        plus[p["name"]] = int(round(clamp(p, v + c_k * f)))
        minus[p["name"]] = int(round(clamp(p, v - c_k * f)))
    return flips, plus, minus, rng


def fmt_score(score):
    """A PovScore as cutechess writes it: pawns, or +M<moves>."""
    if score is None:
        return None
    mate = score.mate()
    if mate is not None:
        return ("+M%d" if mate > 0 else "-M%d") % abs(mate)
    return "%+.2f" % (score.score() / 100.0)


def white_cp(score, side):
    cp = score.score(mate_score=100000)
    return cp if side == chess.WHITE else -cp


def play_game(engines, opening, limit, game_id):
    """One game between engines {WHITE: e, BLACK: e} from opening board.
    Returns (result, termination, moves comments)."""
    board = opening.copy()
    comments, wscores = [], []
    clock = {chess.WHITE: limit.get("base"), chess.BLACK: limit.get("base")}
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return outcome.result(), "normal", board, comments
        side = board.turn
        if "nodes" in limit:
            lim = chess.engine.Limit(nodes=limit["nodes"])
        else:
            lim = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                     white_inc=limit["inc"], black_inc=limit["inc"])
        start = time.monotonic()
        try:
            res = engines[side].play(board, lim, game=game_id, info=chess.engine.INFO_SCORE | chess.engine.INFO_BASIC)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            raise RuntimeError(f"engine failed: {e}") from e
        took = time.monotonic() - start
        if "base" in limit:
            clock[side] -= took
            if clock[side] < -0.05:
                loss = "0-1" if side == chess.WHITE else "1-0"
                return loss, "time forfeit", board, comments
            clock[side] += limit["inc"]
        if res.move is None or not board.is_legal(res.move):
            return ("0-1" if side == chess.WHITE else "1-0"), "rules infraction", board, comments
        score = res.info.get("score")
        text = fmt_score(score.relative) if score is not None else None
        if text is None:
            comments.append("%.3fs" % took)
        else:
            comments.append("%s/%s %.3fs" % (text, res.info.get("depth", "?"), took))
        wscores.append(None if score is None else white_cp(score.relative, side))
        board.push(res.move)
        last = wscores[-2 * RESIGN_MOVES:]
        if len(last) == 2 * RESIGN_MOVES and None not in last:
            if all(s <= -RESIGN_SCORE for s in last):
                return "0-1", "adjudication", board, comments
            if all(s >= RESIGN_SCORE for s in last):
                return "1-0", "adjudication", board, comments
        last = wscores[-2 * DRAW_MOVES:]
        if board.fullmove_number > DRAW_MOVENUMBER and len(last) == 2 * DRAW_MOVES and None not in last \
                and all(abs(s) <= DRAW_SCORE for s in last):
            return "1/2-1/2", "adjudication", board, comments


def pgn_text(opening, board, comments, result, termination, white, black, k, game, tc):
    g = chess.pgn.Game()
    g.headers["Event"] = "Tessera SPSA"
    g.headers["Site"] = "?"
    g.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    g.headers["Round"] = f"{k}.{game}"
    g.headers["White"] = white
    g.headers["Black"] = black
    g.headers["Result"] = result
    g.headers["TimeControl"] = tc
    g.headers["Termination"] = termination
    g.setup(opening)
    node = g
    for m, c in zip(board.move_stack[len(opening.move_stack):], comments):
        node = node.add_variation(m, comment=c)
    return str(g) + "\n\n"


class Run:
    def __init__(self, args, state, openings):
        self.args, self.state, self.openings = args, state, openings
        self.lock = threading.Lock()
        self.next_k = state["done"] + 1
        self.started = time.monotonic()
        self.elapsed_before = state["elapsed_s"]
        self.failed = None
        base = os.path.splitext(args.state)[0]
        self.csv_path, self.pgn_path = base + ".csv", base + ".pgn"
        if not os.path.exists(self.csv_path):
            with open(self.csv_path, "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["pair"] + [p["name"] for p in state["params"]])
                w.writerow([0] + [p["value"] for p in state["params"]])
        if "nodes" in state and state["nodes"]:
            self.limit, self.tc = {"nodes": state["nodes"]}, f"N={state['nodes']}"
        else:
            base_s, _, inc_s = state["tc"].partition("+")
            self.limit, self.tc = {"base": float(base_s), "inc": float(inc_s or 0)}, state["tc"]

    def take(self):
        with self.lock:
            if self.failed or self.next_k > self.state["pairs"]:
                return None
            k = self.next_k
            self.next_k += 1
            return k, [p["value"] for p in self.state["params"]]

    def engine(self):
        e = chess.engine.SimpleEngine.popen_uci(self.state["engine"])
        e.configure({"Hash": self.state["hash"], "Threads": 1})
        return e

    def worker(self):
        engines = None
        try:
            engines = {"plus": self.engine(), "minus": self.engine()}
            while (job := self.take()) is not None:
                self.play_pair(engines, *job)
        except Exception as e:  # noqa: BLE001 - one failure ends the run, state kept
            with self.lock:
                self.failed = self.failed or e
        finally:
            for e in (engines or {}).values():
                try:
                    e.quit()
                except Exception:  # noqa: BLE001
                    e.close()

    def play_pair(self, engines, k, theta):
        flips, plus, minus, rng = perturbation(self.state, theta, k)
        opening = self.openings[rng.randrange(len(self.openings))]
        engines["plus"].configure(plus)
        engines["minus"].configure(minus)
        score, texts, counts = 0, [], []
        for game, plus_colour in enumerate((chess.WHITE, chess.BLACK), 1):
            colours = {plus_colour: engines["plus"], not plus_colour: engines["minus"]}
            result, term, board, comments = play_game(colours, opening, self.limit, (k, game))
            white, black = PLAYERS if plus_colour == chess.WHITE else PLAYERS[::-1]
            texts.append(pgn_text(opening, board, comments, result, term, white, black, k, game, self.tc))
            if result == "1/2-1/2":
                counts.append("draws")
            else:
                won = (result == "1-0") == (plus_colour == chess.WHITE)
                score += 1 if won else -1
                counts.append("wins" if won else "losses")
        with self.lock:
            for key in counts:
                self.state[key] += 1
            for p, f in zip(self.state["params"], flips):
                c_k, r_k = schedule(self.state, p, k)
                p["value"] = clamp(p, p["value"] + r_k * c_k * score * f)
            self.state["done"] += 1
            self.state["elapsed_s"] = self.elapsed_before + time.monotonic() - self.started
            with open(self.pgn_path, "a") as f:
                f.write("".join(texts))
            with open(self.csv_path, "a", newline="") as f:
                csv.writer(f).writerow([self.state["done"]] + [round(p["value"], 4) for p in self.state["params"]])
            tmp = self.args.state + ".tmp"
            with open(tmp, "w") as f:
                json.dump(self.state, f, indent=1)
            os.replace(tmp, self.args.state)
            if self.state["done"] % self.args.progress == 0 or self.state["done"] == self.state["pairs"]:
                self.progress()

    def progress(self):
        s = self.state
        done, total, el = s["done"], s["pairs"], s["elapsed_s"]
        rate = done / el if el > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else float("nan")
        moved = sorted(s["params"], key=lambda p: -abs(p["value"] - p["default"]) / p["c_end"])[:4]
        shown = ", ".join(f"{p['name']} {p['default']}->{p['value']:.1f}" for p in moved)
        print(f"pairs {done}/{total}  +{s['wins']} -{s['losses']} ={s['draws']} (theta+ view)  "
              f"{rate * 60:.1f} pairs/min  eta {eta / 60:.0f} min  | {shown}", flush=True)

    def run(self):
        threads = [threading.Thread(target=self.worker) for _ in range(self.args.concurrency)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if self.failed:
            sys.exit(f"stopped: {self.failed} (state kept in {self.args.state}; run again to go on)")


def load_openings(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                fields = line.split()
                if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
                    out.append(chess.Board(" ".join(fields[:6])))
                else:
                    out.append(chess.Board.from_epd(line)[0])
    return out


def plot(state, csv_path, out):
    """One small chart per parameter: its path over the pairs, the default dashed."""
    with open(csv_path) as f:
        rows = list(csv.DictReader(f))
    params = state["params"]
    cols, cw, ch = 3, 300, 150
    rows_n = math.ceil(len(params) / cols)
    w, h = cols * cw, rows_n * ch + 30
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<text x="{w / 2}" y="18" text-anchor="middle" font-size="14">SPSA: each parameter over '
             f'{state["done"]} pairs (dashed: default; axis: its range)</text>']
    n = max(int(rows[-1]["pair"]), 1) if rows else 1
    step = max(len(rows) // 500, 1)  # two points per pixel column are as many as a chart shows
    rows = rows[::step] + ([rows[-1]] if rows and (len(rows) - 1) % step else [])
    for i, p in enumerate(params):
        ox, oy = (i % cols) * cw, 30 + (i // cols) * ch
        left, top, pw, ph = ox + 45, oy + 18, cw - 60, ch - 40
        lo, hi = p["min"], p["max"]

        def x(k):
            return left + pw * k / n

        def y(v):
            return top + ph * (1 - (v - lo) / (hi - lo))

        parts.append(f'<text x="{ox + cw / 2}" y="{oy + 12}" text-anchor="middle">{p["name"]}: '
                     f'{p["default"]} → {p["value"]:.1f}</text>')
        parts.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#999"/>')
        parts.append(f'<text x="{left - 4}" y="{top + 8}" text-anchor="end">{hi}</text>')
        parts.append(f'<text x="{left - 4}" y="{top + ph}" text-anchor="end">{lo}</text>')
        parts.append(f'<line x1="{left}" y1="{y(p["default"]):.1f}" x2="{left + pw}" y2="{y(p["default"]):.1f}" '
                     f'stroke="#999" stroke-dasharray="4,3"/>')
        pts = " ".join(f"{x(int(r['pair'])):.1f},{y(float(r[p['name']])):.1f}" for r in rows)
        parts.append(f'<polyline points="{pts}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>')
    parts.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(parts) + "\n")
    print(f"wrote {out}")


def gradient(state, pgn_path):
    """Each parameter's Elo for a +-c_k swing, from the pairs in the run's PGN."""
    points = {}  # (k, game) -> theta+'s points; a pair played again overwrites its first try
    with open(pgn_path) as f:
        while (h := chess.pgn.read_headers(f)) is not None:
            k, game = h["Round"].split(".")
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(h["Result"])
            if score is None:
                continue
            points[(int(k), int(game))] = score if h["White"] == PLAYERS[0] else 1.0 - score
    pairs = sorted(k for (k, game) in points if game == 1 and (k, 2) in points)
    if not pairs:
        sys.exit(f"{pgn_path}: no complete pair")
    print(f"{len(pairs)} complete pairs in {pgn_path}")
    print(f"  {'parameter':34} {'Elo for +-c_k':>15} {'95% interval':>18} {'avg c_k':>8}")
    flips = {k: draw_flips(state, k)[0] for k in pairs}
    for i, p in enumerate(state["params"]):
        xs = [(points[(k, 1)] + points[(k, 2)] - 1.0) * flips[k][i] for k in pairs]
        cs = [schedule(state, p, k)[0] for k in pairs]
        mean = sum(xs) / len(xs)
        sd = (sum((x - mean) ** 2 for x in xs) / max(len(xs) - 1, 1)) ** 0.5
        half = 1.96 * sd / len(xs) ** 0.5
        elo = 1600 / math.log(10) / 2
        print(f"  {p['name']:34} {elo * mean:+15.1f} [{elo * (mean - half):+7.1f}, {elo * (mean + half):+7.1f}]"
              f" {sum(cs) / len(cs):8.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True, help="the run's JSON state (created, or resumed)")
    ap.add_argument("--engine", help="a --features tune build of tessera (new runs; on a resume, "
                    "where the run's build now is)")
    ap.add_argument("--pairs", type=int, default=1000, help="iterations: game pairs (new runs)")
    ap.add_argument("--nodes", type=int, default=20000, help="nodes per move (new runs)")
    ap.add_argument("--tc", help="a clock instead of nodes, e.g. 2+0.02 (new runs)")
    ap.add_argument("--params", help="comma-separated subset of the parameters to tune (new runs)")
    ap.add_argument("--openings", default="data/openings.epd", help="EPD/FEN file (new runs)")
    ap.add_argument("--hash", type=int, default=16, help="Hash (MB) of each engine (new runs)")
    ap.add_argument("--seed", type=int, default=1, help="perturbation and opening seed (new runs)")
    ap.add_argument("--a-ratio", type=float, default=0.1, help="A as a share of the pairs (new runs)")
    ap.add_argument("--concurrency", type=int, default=2, help="pairs played at once")
    ap.add_argument("--progress", type=int, default=10, help="a progress line every N pairs")
    ap.add_argument("--plot", metavar="SVG", help="draw each parameter's path from the run's CSV and exit")
    ap.add_argument("--gradient", action="store_true",
                    help="print each parameter's Elo for a +-c_k swing, from the run's PGN, and exit")
    args = ap.parse_args()

    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        if args.plot:
            plot(state, os.path.splitext(args.state)[0] + ".csv", args.plot)
            return
        if args.gradient:
            gradient(state, os.path.splitext(args.state)[0] + ".pgn")
            return
        if args.engine:
            state["engine"] = args.engine  # the same build, found at another path
        print(f"resuming {args.state}: {state['done']}/{state['pairs']} pairs done", flush=True)
    else:
        if args.plot:
            sys.exit(f"{args.state}: no such run")
        if not args.engine:
            sys.exit("a new run needs --engine")
        if args.tc:
            args.nodes = None
        os.makedirs(os.path.dirname(os.path.abspath(args.state)), exist_ok=True)
        state = new_state(args)
        limit = f"{args.nodes} nodes" if args.nodes else args.tc
        print(f"new run {args.state}: {len(state['params'])} parameters, {args.pairs} pairs at {limit}", flush=True)
        for p in state["params"]:
            print(f"  {p['name']}, int, {p['default']}, {p['min']}, {p['max']}, {p['c_end']}, {p['r_end']}")
    if state["done"] >= state["pairs"]:
        print("the run is complete")
    else:
        Run(args, state, load_openings(state["openings"])).run()
    print("theta (rounded, as OpenBench reports it):")
    for p in state["params"]:
        print(f"  {p['name']} = {round(p['value'])}   (default {p['default']})")


if __name__ == "__main__":
    main()
