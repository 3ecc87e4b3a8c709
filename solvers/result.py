"""What every backend returns: a status, solutions, whether the search was complete, and stats."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from html import escape
from typing import Protocol

from models import Grid, Model, Puzzle, grid_svg


class Status(StrEnum):
    """How a run ended. A limit hit after a first solution still gives SOLVED (complete=False).

    TIMEOUT: the time limit ran out before an answer. UNKNOWN: the backend gave up for
    another reason (a node or propagation budget, a propagation-only mode that cannot finish).
    MEMORY_OUT: the run went over its memory limit (set by the harness's --memory-limit).
    UNSUPPORTED: the model has a constraint kind the backend cannot express (e.g. a sum
    cage for exact cover); the message says which. Not a failure.
    """

    SOLVED = "solved"
    UNSAT = "unsat"
    TIMEOUT = "timeout"
    UNKNOWN = "unknown"
    ERROR = "error"
    MEMORY_OUT = "memory-out"
    UNSUPPORTED = "unsupported"


#: What each counter means in general; a backend says what it counts in its own COUNTERS.
COUNTERS: dict[str, str] = {
    "nodes": "search-tree nodes; each backend names what it counts as one",
    "backtracks": "search decisions undone",
    "propagations": "values removed or cells forced by inference (SAT: literals propagated)",
    "conflicts": "dead ends of the search: conflicts of a learning solver, failures (a domain "
                 "wiped out) of a propagation solver",
    "restarts": "restarts of a CDCL solver",
    "updates": "link updates of dancing links (removals and restorations)",
    "lp_iterations": "simplex iterations of an LP-based solver",
    "fixed_cells": "cells whose value inference alone fixed",
    "variables": "variables of the encoding",
    "clauses": "CNF clauses of the encoding (SAT backends only)",
    "constraints": "constraints of a CP, CSP or MIP model",
}


@dataclass
class Stats:
    """One vocabulary for every backend: the times, then one field per COUNTERS entry
    (``stats.nodes``, ``stats.clauses``, ...); a counter a backend lacks stays None.

    Times are seconds: wall_time around the whole call (filled in by the registry),
    encode_time building the model, solve_time searching.
    """

    wall_time: float = 0.0
    encode_time: float | None = None
    solve_time: float | None = None
    nodes: int | None = None
    backtracks: int | None = None
    propagations: int | None = None
    conflicts: int | None = None
    restarts: int | None = None
    updates: int | None = None
    lp_iterations: int | None = None
    fixed_cells: int | None = None
    variables: int | None = None
    clauses: int | None = None
    constraints: int | None = None

    def as_dict(self) -> dict[str, float | int]:
        """The times and counters that were measured (plain numbers: no deep copy needed)."""
        return {k: v for k, v in vars(self).items() if v is not None}


@dataclass
class Result:
    """A backend's answer: at most max_solutions grids, and whether the search space was exhausted.

    complete=True with one solution means unique; with none, unsat (proved).
    """

    status: Status
    solutions: list[Grid] = field(default_factory=list)
    complete: bool = False
    stats: Stats = field(default_factory=Stats)
    message: str = ""
    puzzle: Puzzle | None = field(default=None, repr=False, compare=False)
    """The puzzle solved, when known (``Backend.solve`` sets it): to draw the answer."""
    count: int | None = None
    """Count mode (``Backend.count``): every solution the search found, of which ``solutions``
    holds the first ones (a sample); None when solving."""

    @property
    def solution(self) -> Grid | None:
        """The first solution, if any."""
        return self.solutions[0] if self.solutions else None

    def _repr_html_(self) -> str:
        """The status, the counters and the grid (the solution, or else the puzzle), as a
        notebook shows a result."""
        counters = ", ".join(f"{value:,} {name}" for name, value in self.stats.as_dict().items()
                             if isinstance(value, int))
        words = self.status.value + (" (unique)" if self.unique else "") \
            + (f": {self.message}" if self.message else "") \
            + f", in {self.stats.wall_time * 1000:,.1f} ms"
        head = f"<p><b>{escape(words)}</b>" + (f"<br>{escape(counters)}" if counters else "") + "</p>"
        if self.puzzle is None:
            return head
        return head + grid_svg(self.puzzle, self.solution)

    @property
    def unique(self) -> bool | None:
        """True if proved unique, False if two or more were found, None if unknown."""
        if len(self.solutions) >= 2:
            return False
        if len(self.solutions) == 1 and self.complete:
            return True
        return None


class Solve(Protocol):
    """The backend contract: the call every backend's ``solve`` (and every plugin) answers. A
    model, then the shared limits by keyword; a backend adds its own declared options as
    keyword parameters with defaults (``Backend.solve`` checks them first), and returns a
    Result."""

    def __call__(self, model: Model, /, *, max_solutions: int = 1, time_limit: float | None = None) -> Result:
        ...


def unsupported(reason: str) -> Result:
    """The Result of a backend that cannot express a constraint kind of the model, and why."""
    return Result(Status.UNSUPPORTED, [], False, Stats(), reason)


def stop_message(limit_hit: bool, budget_hit: bool) -> str:
    """Why a search with a node budget stopped early, in the words every backend uses."""
    return "node limit reached" if budget_hit else "time limit reached" if limit_hit else ""


def propagation_only(grid: Grid, stats: Stats, inference: str) -> Result:
    """The answer of a run that propagated the givens and did not search (0: a cell left open).

    SOLVED (complete: propagation is sound, so the grid it fixed is the only solution)
    when every cell is fixed, else UNKNOWN, saying how far ``stats.fixed_cells`` got.
    """
    if 0 not in grid:
        return Result(Status.SOLVED, [grid], True, stats, f"{inference} fixed every cell")
    return Result(Status.UNKNOWN, [], False, stats,
                  f"{inference} fixed {stats.fixed_cells} cells, {grid.count(0)} stay open; "
                  f"search is needed")


def finish(solutions: list[Grid], complete: bool, stats: Stats, *, limit_hit: bool,
           budget_hit: bool = False, message: str = "") -> Result:
    """The Result for a search that stopped with these solutions.

    Solutions found -> SOLVED; none found and the space exhausted -> UNSAT;
    none found because the time limit was hit -> TIMEOUT; because a work budget
    (nodes, propagations) was hit, or the search was not complete -> UNKNOWN.
    """
    if solutions:
        return Result(Status.SOLVED, solutions, complete and not (limit_hit or budget_hit),
                      stats, message)
    if limit_hit:
        return Result(Status.TIMEOUT, [], False, stats, message or "time limit reached")
    if budget_hit or not complete:
        return Result(Status.UNKNOWN, [], False, stats, message or "gave up before an answer")
    return Result(Status.UNSAT, [], True, stats, message)


COUNT_ALL = 2 ** 62
"""``max_solutions`` meaning every solution: what a counting search is asked for."""
SAMPLE = 16
"""Solutions a count keeps (and the harness verifies) by default."""


class Counted(list):  # type: ignore[type-arg]  # a list of grids, as the searches build theirs
    """The solutions a counting search finds: the first ``keep`` kept (the sample), every one
    counted (``total``), so memory is the search's, not the count's. A search that appends to
    a list of solutions and stops at ``max_solutions`` counts by being given one of these and
    COUNT_ALL.

    >>> found = Counted(keep=2)
    >>> for grid in [(1,), (2,), (3,)]:
    ...     found.append(grid)
    >>> found, found.total
    ([(1,), (2,)], 3)
    """

    def __init__(self, keep: int = SAMPLE) -> None:
        super().__init__()
        self.keep, self.total = keep, 0

    def append(self, grid: Grid) -> None:  # the sample only
        self.total += 1
        if len(self) < self.keep:
            super().append(grid)

    def extend(self, grids: Iterable[Grid]) -> None:
        for grid in grids:
            self.append(grid)

    def __iadd__(self, grids: Iterable[Grid]) -> Counted:  # type: ignore[override, misc]  # list's returns list
        self.extend(grids)
        return self


def counted(found: Counted, complete: bool, stats: Stats, *, limit_hit: bool, budget_hit: bool = False,
            message: str = "") -> Result:
    """The Result of a counting search (finish's rules): its sample as the solutions, and
    ``count`` every solution found (all there are when complete)."""
    result = finish(list(found), complete, stats, limit_hit=limit_hit, budget_hit=budget_hit, message=message)
    result.count = found.total
    return result


def with_count(result: Result, found: Counted) -> Result:
    """A counting search's Result (finish made it from ``found``): its sample as a plain list,
    ``count`` every solution found."""
    answered = result.status not in (Status.UNSUPPORTED, Status.ERROR, Status.MEMORY_OUT)
    # a shortcut that never searched (propagation alone) gives its solutions, not found's
    total = found.total if found.total or not result.solutions else len(result.solutions)
    result.solutions, result.count = list(result.solutions), total if answered else None
    return result
