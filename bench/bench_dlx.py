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

import sys
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT.parent), str(ROOT)]

import assaf_x  # noqa: E402
from side_by_side import Method, main  # noqa: E402

from models import Grid, Model, Puzzle  # noqa: E402
from solvers import registry  # noqa: E402

ANCHOR = "Assaf's Algorithm X (anchor)"


def run_dlx(impl: str) -> Method:
    def method(puzzle: Puzzle, model: Model) -> tuple[list[Grid], int | None, int | None]:
        result = registry.get("dlx").solve(model, max_solutions=2, impl=impl)
        return result.solutions, result.stats.nodes, result.stats.updates
    return method


def run_assaf(puzzle: Puzzle, model: Model) -> tuple[list[Grid], int | None, int | None]:
    geometry = puzzle.geometry
    found = islice(assaf_x.solutions(puzzle.givens, geometry.box_rows, geometry.box_cols), 2)
    return list(found), None, None


METHODS: dict[str, Method] = {"dlx": run_dlx("fast"), "dlx impl=readable": run_dlx("readable"),
                              ANCHOR: run_assaf}


if __name__ == "__main__":
    raise SystemExit(main(__doc__, lambda: METHODS, ANCHOR, ("mean nodes", "mean updates"),
                          sets="top95,hardest", repeat=3))
