#!/usr/bin/env python3
"""How many games of a match reached a tablebase position, and how they ended.

    python3 scripts/tb_share.py games.pgn [--pieces 4] [--engine NAME]

A game "reached a tablebase position" when some position of it (after the
opening) has at most --pieces pieces, kings included, and no castling rights:
the root probe of an engine with those tables applies there. The row for
--pieces + 1 counts games that came one capture away, where the probes inside
the search already apply. With --engine, the results are from that engine's
side (W/D/L), split by whether the game reached the tables.

Needs python-chess (`pip install chess`).
"""

import argparse
import sys

import chess
import chess.pgn


def fewest_pieces(game):
    """The fewest pieces on the board over the game's positions (no castling rights)."""
    board = game.board()
    fewest = 33
    for move in game.mainline_moves():
        board.push(move)
        if not board.castling_rights:
            fewest = min(fewest, chess.popcount(board.occupied))
    return fewest


def result_for(game, engine):
    """'W', 'D', 'L' for `engine`, or None if it did not play or the game has no result."""
    result = game.headers.get("Result", "*")
    white, black = game.headers.get("White"), game.headers.get("Black")
    if result == "1/2-1/2" and engine in (white, black):
        return "D"
    if result == "1-0":
        return "W" if white == engine else "L" if black == engine else None
    if result == "0-1":
        return "W" if black == engine else "L" if white == engine else None
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn")
    ap.add_argument("--pieces", type=int, default=4, help="largest tables loaded (default 4)")
    ap.add_argument("--engine", help="name of the engine with tables (PGN White/Black)")
    args = ap.parse_args()

    games = []
    with open(args.pgn, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append((fewest_pieces(game), game))
    if not games:
        sys.exit("no games in " + args.pgn)

    n = len(games)
    print(f"{n} games in {args.pgn}")
    for pieces in (args.pieces, args.pieces + 1):
        reached = sum(1 for fewest, _ in games if fewest <= pieces)
        print(f"reached <= {pieces} pieces: {reached}/{n} = {100.0 * reached / n:.1f}%")
    if args.engine:
        for label, keep in (("reached the tables", True), ("did not", False)):
            counts = {"W": 0, "D": 0, "L": 0}
            for fewest, game in games:
                if (fewest <= args.pieces) == keep and (r := result_for(game, args.engine)):
                    counts[r] += 1
            print(f"{args.engine}, games that {label}: W/D/L {counts['W']}/{counts['D']}/{counts['L']}")


if __name__ == "__main__":
    main()
