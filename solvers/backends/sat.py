"""The ``sat`` backend: the model as CNF (solvers/encodings/cnf.py), solved by PicoSAT through pycosat.

This module declares the backend; the method is in _sat.py, imported only when a puzzle
is solved.
"""
from __future__ import annotations

from models import Model

from ..encodings.cnf import DESCRIPTIONS, ENCODINGS, formula_family
from ..options import Declaration, Option
from ..result import COUNT_ALL, SAMPLE, Counted, Result, with_count

LIMIT_BY = ("process", "slices")

DECLARATION = Declaration(
    options=(
        Option("encoding", "choice", "CNF encoding: " + "; ".join(
            f"{k} = {v}" for k, v in DESCRIPTIONS.items()), default=ENCODINGS[0], choices=ENCODINGS),
        Option("prop_limit", "int", "work budget: at most this many PicoSAT propagations per "
               "solver call (one call per solution found); hitting it ends the run; none: no budget",
               default=None, low=1),
        Option("limit_by", "choice", "how a time limit is kept once the first slice does not "
               "settle the puzzle: process (where fork exists): one solver in a forked process, "
               "killed at the deadline; slices: calls of growing propagation limits",
               default="process", choices=LIMIT_BY),
    ),
    counters={
        "variables": "CNF variables",
        "clauses": "CNF clauses (blocking clauses not counted)",
    },
    constraints=frozenset({"all-different", "sum"}),
    package="pycosat", imports="pycosat", family=formula_family,
    notes="DIMACS export and decode",
)


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          encoding: str = ENCODINGS[0], prop_limit: int | None = None,
          limit_by: str = "process") -> Result:
    """Solve with pycosat under the chosen encoding; up to max_solutions grids."""
    from ._sat import solve as search  # noqa: PLC0415 - loads pycosat, only to solve
    return search(model, max_solutions=max_solutions, time_limit=time_limit, encoding=encoding,
                  prop_limit=prop_limit, limit_by=limit_by)


def count(model: Model, *, time_limit: float | None = None, sample: int = SAMPLE,
          encoding: str = ENCODINGS[0], prop_limit: int | None = None, limit_by: str = "process") -> Result:
    """Count every solution (count mode), a clause blocking each one found, keeping the first
    ``sample`` grids (the blocking clauses grow with the count: SAT counts by enumeration)."""
    from ._sat import solve as search  # noqa: PLC0415 - loads pycosat, only to count
    found = Counted(sample)
    return with_count(search(model, max_solutions=COUNT_ALL, time_limit=time_limit, encoding=encoding,
                             prop_limit=prop_limit, limit_by=limit_by, found=found), found)

