"""What every backend returns: a status, solutions, whether the search was complete, and stats."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum

from models import Grid


class Status(str, Enum):
    """How a run ended. A limit hit after a first solution still gives SOLVED (complete=False)."""

    SOLVED = "solved"
    UNSAT = "unsat"
    TIMEOUT = "timeout"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value


@dataclass
class Stats:
    """One vocabulary for every backend; a counter a backend does not have stays None.

    nodes: search decisions (the backtracker's recursive calls); backtracks: decisions undone;
    propagations: values removed or cells forced by inference (for SAT: propagations);
    conflicts: solver conflicts (SAT/CP); variables, clauses: size of the encoding
    (clauses holds constraints for CP and CSP backends).
    """

    wall_time: float = 0.0
    encode_time: float | None = None
    solve_time: float | None = None
    nodes: int | None = None
    backtracks: int | None = None
    propagations: int | None = None
    conflicts: int | None = None
    variables: int | None = None
    clauses: int | None = None

    def as_dict(self) -> dict[str, float | int]:
        """The counters that were measured."""
        return {k: v for k, v in asdict(self).items() if v is not None}


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

    @property
    def solution(self) -> Grid | None:
        """The first solution, if any."""
        return self.solutions[0] if self.solutions else None

    @property
    def unique(self) -> bool | None:
        """True if proved unique, False if two or more were found, None if unknown."""
        if len(self.solutions) >= 2:
            return False
        if len(self.solutions) == 1 and self.complete:
            return True
        return None


def finish(solutions: list[Grid], complete: bool, stats: Stats, *, limit_hit: bool,
           message: str = "") -> Result:
    """The Result for a search that stopped with these solutions.

    Solutions found -> SOLVED; none found and the space exhausted -> UNSAT;
    none found because a limit was hit -> TIMEOUT.
    """
    if solutions:
        return Result(Status.SOLVED, solutions, complete and not limit_hit, stats, message)
    if limit_hit or not complete:
        return Result(Status.TIMEOUT, [], False, stats, message or "limit reached before an answer")
    return Result(Status.UNSAT, [], True, stats, message)
