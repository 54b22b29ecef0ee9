#!/usr/bin/env python3
"""A network file of zeros for another input layout, so that a build with that
layout compiles.

    python3 scripts/zero_net.py --out /tmp/zero.nnue --king-buckets 8 --mirrored
    TESSERA_EVALFILE=/tmp/zero.nnue cargo build --release -p trainer

The engine checks its embedded net at compile time (crates/eval/src/nnue/mod.rs),
and the trainer links the engine's evaluation: after a change of
`KING_BUCKETS`, `MIRRORED`, `HIDDEN` or `OUTPUT_BUCKETS` in layout.rs (for
example eight king buckets) no shipped net fits until one has been trained.
This writes one that fits, every weight 0, in the file format of
crates/eval/src/nnue/network.rs: its header's version, QA, QB and SCALE are
copied from the shipped net, so the two cannot disagree, and so are its
hidden size and output buckets unless given.
"""

import argparse
import pathlib
import re
import struct

PIECE_SQUARES = 768
EVAL = pathlib.Path(__file__).resolve().parent.parent / "crates/eval"


def shipped_net():
    """The default net that crates/eval/build.rs names (`DEFAULT_NET`)."""
    build = (EVAL / "build.rs").read_text()
    return EVAL / re.search(r'const DEFAULT_NET: &str = "([^"]+)";', build).group(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--hidden", type=int, help="default: the shipped net's")
    ap.add_argument("--output-buckets", type=int, help="default: the shipped net's")
    ap.add_argument("--king-buckets", type=int, default=1)
    ap.add_argument("--mirrored", action="store_true")
    args = ap.parse_args()

    version, hidden, qa, qb, scale, shipped = struct.unpack("<6H", shipped_net().read_bytes()[4:16])
    args.hidden = args.hidden or hidden
    args.output_buckets = args.output_buckets or ((shipped >> 8) & 0x1F) + 1
    king = 0 if args.king_buckets == 1 and not args.mirrored else args.king_buckets
    layout = king | (0x8000 if args.mirrored else 0) | (args.output_buckets - 1) << 8
    header = b"TSNN" + struct.pack("<6H", version, args.hidden, qa, qb, scale, layout)
    inputs = PIECE_SQUARES * args.king_buckets
    body = 2 * (inputs * args.hidden + args.hidden + args.output_buckets * 2 * args.hidden)
    body += 4 * args.output_buckets
    pathlib.Path(args.out).write_bytes(header + bytes(body))


if __name__ == "__main__":
    main()
