"""Benchmark the mip backend against the approach of PuLP's documented Sudoku example.

    python bench/bench_mip.py [--repeat 1] [--sets top95] [--format github]

Every method counts to two on each puzzle (a second solve with a no-good cut): ``mip``
(HiGHS, presolve on: the default), ``mip`` with ``presolve=False`` (so HiGHS's branch
and bound does the work), and the anchor, bench/pulp_example.py, our own re-expression
of PuLP's example (PuLP + CBC; see its docstring). PuLP is a benchmark-only dependency
(``pip install pulp``); without it the anchor is skipped and said so. The methods
alternate puzzle by puzzle (bench/side_by_side.py); each puzzle keeps its best time over
--repeat rounds; every answer is verified and all methods must agree. Nodes are HiGHS's
branch-and-bound nodes, the last column its simplex iterations (both summed over the
two solves).
"""
from __future__ import annotations

import sys
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT.parent), str(ROOT)]

from side_by_side import Method, main  # noqa: E402

from models import Grid, Model, Puzzle  # noqa: E402
from solvers import registry  # noqa: E402

ANCHOR = "PuLP example approach, CBC (anchor)"


def run_mip(**options: object) -> Method:
    def method(puzzle: Puzzle, model: Model) -> tuple[list[Grid], int | None, int | None]:
        result = registry.get("mip").solve(model, max_solutions=2, **options)
        return result.solutions, result.stats.nodes, result.stats.lp_iterations
    return method


def methods() -> dict[str, Method]:
    chosen = {"mip": run_mip(), "mip presolve=False": run_mip(presolve=False)}
    try:
        import pulp_example  # noqa: PLC0415 - optional: needs PuLP, which the toolkit does not
    except ModuleNotFoundError as error:
        print(f"anchor skipped: {error.name} is not installed (pip install pulp)")
        return chosen

    def run_pulp(puzzle: Puzzle, model: Model) -> tuple[list[Grid], int | None, int | None]:
        geometry = puzzle.geometry
        found = pulp_example.solutions(puzzle.givens, geometry.box_rows, geometry.box_cols)
        return list(islice(found, 2)), None, None

    return {**chosen, ANCHOR: run_pulp}


if __name__ == "__main__":
    raise SystemExit(main(__doc__, methods, ANCHOR, ("mean nodes", "mean LP iterations"),
                          sets="top95", repeat=1))
