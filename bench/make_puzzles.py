"""Many puzzles from a few: each line a bundled puzzle under a random symmetry of Sudoku
(relabelled values, bands and the rows within them shuffled, stacks and their columns
shuffled, maybe transposed), so it is as hard as its source and has as many solutions.

    python bench/make_puzzles.py COUNT [--source puzzles/easy50.txt] [--seed 1] > lines.txt

For the streaming and harness benchmarks (large inputs without committing large files).
Only standard puzzles with square boxes (4x4, 9x9, 16x16...) are used as sources.
"""
from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from models import Puzzle, read_puzzles, to_line


def shuffled_lines(box: int, rng: random.Random) -> list[int]:
    """A row (or column) order that keeps bands together: bands shuffled, rows within each."""
    bands = rng.sample(range(box), box)
    return [band * box + row for band in bands for row in rng.sample(range(box), box)]


def transform(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """The puzzle under one random symmetry of its grid."""
    n, box = puzzle.n, puzzle.geometry.box_rows
    values = [0, *rng.sample(range(1, n + 1), n)]
    rows, cols = shuffled_lines(box, rng), shuffled_lines(box, rng)
    flip = rng.random() < 0.5
    givens = []
    for r in range(n):
        for c in range(n):
            source = (cols[c] * n + rows[r]) if flip else (rows[r] * n + cols[c])
            givens.append(values[puzzle.givens[source]])
    return Puzzle(puzzle.geometry, tuple(givens))


def generate(sources: Sequence[Puzzle], count: int, seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    for number in range(count):
        yield to_line(transform(sources[number % len(sources)], rng))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", type=int, help="how many lines to write")
    parser.add_argument("--source", default=str(ROOT / "puzzles" / "easy50.txt"),
                        help="the puzzles to transform (default: puzzles/easy50.txt)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sources = [p for p in read_puzzles(args.source).puzzles
               if p.variant == "standard" and p.geometry.box_rows == p.geometry.box_cols]
    if not sources:
        parser.error(f"{args.source}: no standard puzzle with square boxes")
    out = sys.stdout
    for line in generate(sources, args.count, args.seed):
        out.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
