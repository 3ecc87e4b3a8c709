"""Benchmark the dlx backend against Ali Assaf's dict-of-sets Algorithm X (the issue's anchor).

    python bench/bench_dlx.py [--repeat 3] [--sets top95,hardest] [--format github]

Every method counts to two (proves the puzzle unique) on each puzzle: ``dlx`` (fast),
``dlx`` with ``impl='readable'`` (the twin written next to Knuth's paper) and the anchor,
bench/assaf_x.py, our own re-expression of Assaf's published approach (see its
docstring). The methods alternate puzzle by puzzle (bench/side_by_side.py); each puzzle
keeps its best time over --repeat rounds; every answer is verified and all methods must
agree. Nodes (rows tried) and updates (link updates) are dlx's counters and do not
depend on the machine.
"""
from __future__ import annotations

import argparse
import sys
from itertools import islice
from pathlib import Path

from tabulate import tabulate

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT.parent), str(ROOT)]

import assaf_x  # noqa: E402
from side_by_side import Method, measure, rows  # noqa: E402

from models import Grid, Model, Puzzle, read_puzzles  # noqa: E402
from solvers.backends import dlx  # noqa: E402

ANCHOR = "Assaf's Algorithm X (anchor)"


def run_dlx(impl: str) -> Method:
    def method(puzzle: Puzzle, model: Model) -> tuple[list[Grid], int | None, int | None]:
        result = dlx.solve(model, max_solutions=2, impl=impl)
        return result.solutions, result.stats.nodes, result.stats.updates
    return method


def run_assaf(puzzle: Puzzle, model: Model) -> tuple[list[Grid], int | None, int | None]:
    geometry = puzzle.geometry
    found = islice(assaf_x.solutions(puzzle.givens, geometry.box_rows, geometry.box_cols), 2)
    return list(found), None, None


METHODS: dict[str, Method] = {"dlx": run_dlx("fast"), "dlx impl=readable": run_dlx("readable"),
                              ANCHOR: run_assaf}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sets", default="top95,hardest")
    parser.add_argument("--format", default="simple")
    args = parser.parse_args()
    table = []
    for name in args.sets.split(","):
        batch = read_puzzles(ROOT.parent / "puzzles" / f"{name}.txt")
        table += rows(name, measure(list(batch.puzzles), METHODS, args.repeat), ANCHOR)
    print(f"Python {sys.version.split()[0]}; count to two; best of {args.repeat}; "
          "every answer verified; times per puzzle\n")
    print(tabulate(table, headers=["set", "method", "mean ms", "median ms", "max ms", "mean nodes",
                                   "mean updates", "anchor / method"], tablefmt=args.format,
                   disable_numparse=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
