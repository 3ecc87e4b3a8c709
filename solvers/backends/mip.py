"""Integer programming with HiGHS (highspy): Sudoku as a 0-1 feasibility problem.

This module declares the backend; the method is in _mip.py, imported only when a puzzle
is solved.
"""
from __future__ import annotations

from models import Model

from ..options import Declaration, Option, Reach, node_limit
from ..result import COUNT_ALL, SAMPLE, Counted, Result, with_count

DECLARATION = Declaration(
    options=(
        node_limit("B&B nodes"),
        Option("presolve", "bool", "HiGHS presolve (true settles most 9x9 puzzles alone)",
               default=True),
        Option("seed", "int", "HiGHS random_seed, a whole number; none: HiGHS's own (0)",
               default=None, low=0),
    ),
    counters={
        "nodes": "HiGHS branch-and-bound nodes (mip_node_count, summed over the solves)",
        "lp_iterations": "HiGHS simplex iterations (summed over the solves)",
        "variables": "binaries x[cell, value] of the open cells' candidates",
        "constraints": "rows (per open cell, per group and missing value, per cage total) and "
                       "no-good cuts",
    },
    constraints=frozenset({"all-different", "sum"}),
    package="highspy", imports="highspy", family="mip",
    notes="uniqueness by a no-good cut",
    reach=Reach(solutions=10),
)


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          node_limit: int | None = None, presolve: bool = True, seed: int | None = None) -> Result:
    """Solve the 0-1 model with HiGHS; count up to max_solutions with no-good cuts."""
    from ._mip import solve as search  # noqa: PLC0415 - loads highspy, only to solve
    return search(model, max_solutions=max_solutions, time_limit=time_limit,
                  node_limit=node_limit, presolve=presolve, seed=seed)


def count(model: Model, *, time_limit: float | None = None, sample: int = SAMPLE, node_limit: int | None = None,
          presolve: bool = True, seed: int | None = None) -> Result:
    """Count every solution (count mode): solved again with a no-good cut per solution (the
    cuts grow with the count), the first ``sample`` kept."""
    from ._mip import solve as search  # noqa: PLC0415 - loads highspy, only to count
    found = Counted(sample)
    return with_count(search(model, max_solutions=COUNT_ALL, time_limit=time_limit, node_limit=node_limit,
                             presolve=presolve, seed=seed, found=found), found)

