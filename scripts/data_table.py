#!/usr/bin/env python3
"""Keeps the counts of data/README.md's table of generations equal to the manifest.

The manifest (data/manifest.tsv) is the authority; the table in data/README.md
repeats its sums for a reader: per generation the shards, games and positions,
and a last row `all`. This script recomputes those three columns from the
manifest and leaves every other column (who played, which nets trained on it)
as written.

    scripts/data_table.py           # rewrites the counts in data/README.md
    scripts/data_table.py --check   # exits 1, naming the rows, where they differ

A generation in the manifest without a row in the table is an error: its row
(who played it) is for a person to write.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "data" / "manifest.tsv"
README = ROOT / "data" / "README.md"


def sums_by_generation():
    """{generation: (shards, games, positions)} from the manifest."""
    sums = {}
    lines = MANIFEST.read_text().splitlines()
    header = lines[0].split("\t")
    column = {name: index for index, name in enumerate(header)}
    for line in lines[1:]:
        fields = line.split("\t")
        generation = fields[column["generation"]]
        shards, games, positions = sums.get(generation, (0, 0, 0))
        sums[generation] = (
            shards + 1,
            games + int(fields[column["games"]]),
            positions + int(fields[column["positions"]]),
        )
    return sums


def counts(shards, games, positions):
    """The three table cells: shards, games with thousands' commas, positions in millions."""
    return [str(shards), f"{games:,}", f"{positions / 1e6:.2f} M"]


def rewrite(text, sums):
    """The README with the table's counts recomputed, and the rows whose counts changed."""
    out, changed, seen = [], [], set()
    total = [sum(values) for values in zip(*sums.values())]
    for line in text.splitlines(keepends=True):
        cells = line.strip().split("|")
        # A row of the table: | generation | played by | shards | games | positions | trained into |
        if len(cells) == 8 and line.strip().startswith("|"):
            key = cells[1].strip()
            wanted = None
            if key.isdigit():
                if key not in sums:
                    raise SystemExit(f"data/README.md: generation {key} has no shard in the manifest")
                wanted = counts(*sums[key])
                seen.add(key)
            elif key == "all":
                wanted = counts(*total)
            if wanted is not None:
                old = [cell.strip() for cell in cells[3:6]]
                if old != wanted:
                    changed.append(f"{key}: {' | '.join(old)} -> {' | '.join(wanted)}")
                    cells[3:6] = [f" {cell} " for cell in wanted]
                    indent = line[: len(line) - len(line.lstrip())]
                    line = indent + "|".join(cells).strip() + "\n"
        out.append(line)
    missing = sorted(set(sums) - seen, key=int)
    if missing:
        raise SystemExit(f"data/README.md: no row for generation(s) {', '.join(missing)}")
    return "".join(out), changed


def main():
    check = sys.argv[1:] == ["--check"]
    if sys.argv[1:] not in ([], ["--check"]):
        raise SystemExit(__doc__)
    text = README.read_text()
    new, changed = rewrite(text, sums_by_generation())
    if check:
        if changed:
            print("data/README.md's table differs from the manifest (scripts/data_table.py rewrites it):")
            print("\n".join(changed))
            sys.exit(1)
        return
    if changed:
        README.write_text(new)
        print("\n".join(changed))


if __name__ == "__main__":
    main()
