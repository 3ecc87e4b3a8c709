"""python-constraint backend (the python-constraint2 package, imported as ``constraint``).

This module declares the backend; the method is in _csp.py, imported only when a puzzle
is solved.
"""
from __future__ import annotations

from models import Model

from ..options import Declaration, Option, Reach
from ..result import COUNT_ALL, SAMPLE, Counted, Result, with_count

ENCODINGS = ("hidden", "alldiff")
SOLVER_NAMES = ("backtracking", "recursive", "optimized")

DECLARATION = Declaration(
    options=(
        Option("encoding", "choice", "hidden: AllDifferent that also places hidden singles; "
               "alldiff: the library's own", default=ENCODINGS[0], choices=ENCODINGS),
        Option("solver", "choice", "python-constraint solver: backtracking (dynamic MRV), "
               "recursive, optimized", default=SOLVER_NAMES[0], choices=SOLVER_NAMES),
    ),
    counters={
        "variables": "CSP variables (the empty cells)",
        "constraints": "CSP constraints",
    },
    constraints=frozenset({"all-different", "sum"}),
    package="python-constraint2", imports="constraint", interruptible=False,
    family="python-constraint",
    notes="the generic CSP library",
    reach=Reach(hardness=1),
)


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          encoding: str = ENCODINGS[0], solver: str = SOLVER_NAMES[0]) -> Result:
    """Solve with python-constraint; time_limit is only checked between solutions."""
    from ._csp import solve as search  # noqa: PLC0415 - loads python-constraint, only to solve
    return search(model, max_solutions=max_solutions, time_limit=time_limit, encoding=encoding,
                  solver=solver)


def count(model: Model, *, time_limit: float | None = None, sample: int = SAMPLE,
          encoding: str = ENCODINGS[0], solver: str = SOLVER_NAMES[0]) -> Result:
    """Count every solution (count mode): the library's solution iterator, each counted, the
    first ``sample`` kept."""
    from ._csp import solve as search  # noqa: PLC0415 - loads python-constraint, only to count
    found = Counted(sample)
    return with_count(search(model, max_solutions=COUNT_ALL, time_limit=time_limit, encoding=encoding,
                             solver=solver, found=found), found)

