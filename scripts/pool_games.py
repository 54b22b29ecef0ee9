#!/usr/bin/env python3
"""The result of games played in several chunks, pooled: one match's PGN
files (a screen resumed with another seed, the many-core kit's chunks, ...).

    scripts/pool_games.py [--engine NAME] FILE.pgn...

Reads each game's White, Black, Result, FEN and Round tags (no chess library
needed). Games are paired as the match runners play them: each opening twice
in a row, colours swapped (games 1 and 2 of a file by their Round tags, 3 and
4, ...). A game whose partner is missing (a chunk cut between the two games of
a pair) counts in the game totals but not among the pairs. Every file must be
games between the same two engines. Prints,
for NAME (default: White of game 1 of the first file) against the other engine: W/D/L,
the pentanomial count of pair scores [0, 0.5, 1, 1.5, 2], the Elo from the
pairs with its 95% interval and LOS, and the Elo from the games alone. The
statistics are those of the match runner the project's records use: the
normal approximation of the mean score, its interval mapped to Elo.
"""
import math
import re
import sys

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def games_of(path):
    """The games of a PGN file in order, each a dict of its tags (a game's
    tags begin at the first tag line after the previous game's moves)."""
    games, tags, in_moves = [], {}, False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                if in_moves:
                    games.append(tags)
                    tags, in_moves = {}, False
                tags[m.group(1)] = m.group(2)
            elif line.strip() and tags:
                in_moves = True
    if tags:
        games.append(tags)
    return games


def points_for(game, name):
    """`name`'s points in `game`, or None when it is unfinished or not `name`'s."""
    result = POINTS.get(game.get("Result"))
    if result is None:
        return None
    if game.get("White") == name:
        return result[0]
    if game.get("Black") == name:
        return result[1]
    return None


def score_to_elo(s):
    s = min(max(s, 1e-9), 1 - 1e-9)
    return -400.0 * math.log10(1.0 / s - 1.0)


def stats(values):
    """Mean, Elo, 95% interval and LOS of scores in [0, 1]."""
    n = len(values)
    mu = sum(values) / n
    se = math.sqrt(sum((v - mu) ** 2 for v in values) / n / n)
    lo, hi = mu - 1.959964 * se, mu + 1.959964 * se
    if se > 0:
        los = 0.5 * (1 + math.erf((mu - 0.5) / se / math.sqrt(2)))
    else:
        los = 0.5 if mu == 0.5 else float(mu > 0.5)
    # + 0.0: no "-0.0" for an even score.
    return mu, score_to_elo(mu) + 0.0, score_to_elo(lo) + 0.0, score_to_elo(hi) + 0.0, los


def pairs_of(games):
    """`games` (one file's) grouped into pairs: by the Round tag where it
    numbers the games (games 1 and 2 are a pair, 3 and 4, ...: runners that
    play two games at once write them in the order they end), else in order."""
    rounds = [g.get("Round", "") for g in games]
    if all(r.isdigit() for r in rounds):
        by_pair = {}
        for r, g in zip(rounds, games):
            by_pair.setdefault((int(r) + 1) // 2, []).append(g)
        return [by_pair[k] for k in sorted(by_pair)]
    return [games[i : i + 2] for i in range(0, len(games), 2)]


def pool(files, name=None):
    """The pooled tallies of `files` for `name`: a dict of the counts and lists."""
    per_file = [games_of(path) for path in files]
    games = [g for file_games in per_file for g in file_games]
    if not games:
        raise SystemExit("no games in " + ", ".join(files))
    engines = {x for g in games for x in (g.get("White"), g.get("Black"))}
    if len(engines) != 2:
        raise SystemExit("not one match: the games are between " + ", ".join(sorted(map(str, engines))))
    if name is None:
        # The engine named first: White of the first file's first game by
        # its Round tag (the first to end may be another).
        first = per_file[0] or games
        numbered = [g for g in first if g.get("Round", "").isdigit()]
        name = (min(numbered, key=lambda g: int(g["Round"])) if numbered else first[0]).get("White")
    if name not in engines:
        raise SystemExit("%s plays none of the games (%s)" % (name, ", ".join(sorted(engines))))
    (other,) = engines - {name}
    scored, pairs, lone = [], [0] * 5, 0
    for file_games in per_file:
        for group in pairs_of(file_games):
            points = [points_for(g, name) for g in group]
            finished = [x for x in points if x is not None]
            scored.extend(finished)
            paired = (
                len(group) == 2
                and len(finished) == 2
                and group[0].get("FEN", "") == group[1].get("FEN", "")
                and group[0].get("White") == group[1].get("Black")
            )
            if paired:
                pairs[int(round(2 * sum(finished)))] += 1
            else:
                lone += len(finished)
    return {"name": name, "other": other, "scored": scored, "pairs": pairs, "lone": lone}


def report(p):
    scored, pairs = p["scored"], p["pairs"]
    w, d, l = scored.count(1.0), scored.count(0.5), scored.count(0.0)
    lines = ["%s vs %s: %d games, W/D/L %d/%d/%d" % (p["name"], p["other"], len(scored), w, d, l)]
    n_pairs = sum(pairs)
    if n_pairs:
        values = [k / 4 for k in range(5) for _ in range(pairs[k])]
        _, elo, lo, hi, los = stats(values)
        lines.append(
            "pairs %d %s: Elo %+.1f [%+.1f, %+.1f], LOS %.1f%%"
            % (n_pairs, pairs, elo, lo, hi, 100 * los)
        )
    if p["lone"]:
        lines.append("%d game(s) without their pair (in the games' figure only)" % p["lone"])
    if scored:
        _, elo, lo, hi, _ = stats(scored)
        lines.append("games %d: Elo %+.1f [%+.1f, %+.1f]" % (len(scored), elo, lo, hi))
    return "\n".join(lines)


def main(argv):
    name = None
    if len(argv) >= 2 and argv[0] == "--engine":
        name, argv = argv[1], argv[2:]
    if not argv or argv[0].startswith("-"):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    print(report(pool(argv, name)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
