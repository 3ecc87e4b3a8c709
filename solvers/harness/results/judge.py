"""Trust nothing a backend says: verify every answer and sort each run into a category.

correct: verified solutions; or an unsat / unique claim that no verified answer contradicts
         (the reason says whether another backend confirmed it).
wrong:   a solution that fails the independent checker (a changed given included), the same
         solution returned twice as if two, an unsat claim on a puzzle some backend solved with
         a verified solution, a unique claim contradicted by two verified distinct solutions.
timeout, unknown, error: the run gave no answer (the time limit ran out; the backend gave
         up otherwise, e.g. a work budget; the backend failed or its answer was malformed).
memory-out: the run went over its memory limit (--memory-limit), like BenchExec's category.
unsupported: the backend cannot express a constraint kind of the puzzle (exact cover and a
         killer cage's sum) and said so; not a failure, not wrong, and no effect on the exit status.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from models import Puzzle, to_line, verify

from ...result import Status
from ..tasks import Outcome


class Category(StrEnum):
    """The harness's verdict on one run (like BenchExec's categories)."""

    CORRECT = "correct"
    WRONG = "wrong"
    TIMEOUT = "timeout"
    UNKNOWN = "unknown"
    ERROR = "error"
    MEMORY_OUT = "memory-out"
    UNSUPPORTED = "unsupported"



@dataclass
class Run:
    """One (backend, puzzle) run as saved in JSON: what the backend said and how it was judged."""

    file: str
    index: int
    line: int
    puzzle: str
    size: str
    solver: str
    status: Status
    solutions: list[str]
    complete: bool
    time_s: float
    stats: dict[str, float | int]
    message: str = ""
    claim: str = ""
    category: Category | str = ""
    reason: str = ""
    cpu_s: float | None = None
    warmup: bool = False
    n: int = 0
    box: str = ""
    variant: str = ""
    repeat: int = 0
    backend: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    order: int | None = None
    """Its place in the dispatch order of its (puzzle, repetition), from 0 (experiment.py)."""
    peak_memory_mb: float | None = None
    termination: str | None = None
    host: str = ""
    worker: int | None = None
    sequence: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Disagreement:
    """A puzzle on which some backend was wrong: each backend's claim and the verdict on it."""

    file: str
    index: int
    line: int
    puzzle: str
    claims: list[dict[str, str]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def judge(puzzle: Puzzle, outcomes: Sequence[tuple[str, Outcome]]) -> tuple[list[Run], Disagreement | None]:
    """Categorise every backend's run on one puzzle, checking each claim against the others'."""
    problems = {solver: _problems(puzzle, outcome) for solver, outcome in outcomes}
    found: dict[tuple[Any, ...], list[str]] = {}  # verified solution -> who found it
    for solver, outcome in outcomes:
        if outcome.status == Status.SOLVED and not problems[solver]:
            for solution in outcome.solutions:
                found.setdefault(tuple(solution), []).append(solver)
    unsat_claims = [s for s, o in outcomes if o.status == Status.UNSAT]
    unique_claims = [s for s, o in outcomes if claim_of(o) == "unique solution" and not problems[s]]
    runs = []
    text = _puzzle_text(puzzle)
    for solver, outcome in outcomes:
        category, reason = _categorise(solver, outcome, problems[solver], found,
                                       unsat_claims, unique_claims)
        runs.append(Run(
            file=puzzle.source.file, index=puzzle.source.index, line=puzzle.source.line,
            puzzle=text, size=puzzle.geometry.label().split()[0], solver=solver,
            status=outcome.status, solutions=[grid_text(puzzle, s) for s in outcome.solutions],
            complete=outcome.complete, time_s=outcome.time_s, stats=dict(outcome.stats),
            message=outcome.message, claim=claim_of(outcome), category=category, reason=reason,
            cpu_s=outcome.cpu_s, warmup=outcome.warmup, n=puzzle.n,
            box=f"{puzzle.geometry.box_rows}x{puzzle.geometry.box_cols}", variant=puzzle.variant,
            peak_memory_mb=outcome.peak_memory_mb, termination=outcome.termination,
            host=outcome.host, worker=outcome.worker, sequence=outcome.sequence))
    if not any(run.category == Category.WRONG for run in runs):
        return runs, None
    return runs, Disagreement(
        puzzle.source.file, puzzle.source.index, puzzle.source.line, _puzzle_text(puzzle),
        [{"solver": r.solver, "claim": r.claim, "category": r.category, "reason": r.reason}
         for r in runs])


def claim_of(outcome: Outcome) -> str:
    """What a run claims, in words: 'a solution', 'unique solution', '2 solutions', 'no solution'..."""
    if outcome.status == Status.SOLVED:
        count = len(outcome.solutions)
        if count >= 2:
            return f"{count} solutions"
        return "unique solution" if outcome.complete and count == 1 else "a solution"
    if outcome.status == Status.UNSAT:
        return "no solution"
    return str(outcome.status)


def _problems(puzzle: Puzzle, outcome: Outcome) -> list[str]:
    """Why a SOLVED outcome's grids cannot be trusted; empty when they all verify."""
    if outcome.status != Status.SOLVED:
        return []
    if not outcome.solutions:
        return ["claims solved but returned no grid"]
    problems = []
    for number, solution in enumerate(outcome.solutions, start=1):
        verdict = verify(puzzle, solution)
        if not verdict.ok:
            label = f"solution {number}: " if len(outcome.solutions) > 1 else ""
            shown = "; ".join(verdict.problems[:3])
            more = len(verdict.problems) - 3
            problems.append(f"{label}{shown}" + (f"; and {more} more problems" if more > 0 else ""))
    if len({tuple(s) for s in outcome.solutions}) < len(outcome.solutions):
        problems.append("returned the same solution more than once, as if they were different")
    return problems


def _categorise(solver: str, outcome: Outcome, problems: list[str],
                found: dict[tuple[Any, ...], list[str]], unsat_claims: list[str],
                unique_claims: list[str]) -> tuple[Category, str]:
    status = outcome.status
    if status == Status.TIMEOUT:
        return Category.TIMEOUT, outcome.message or "no answer within the limit"
    if status == Status.UNKNOWN:
        return Category.UNKNOWN, outcome.message or "gave up before an answer"
    if status == Status.ERROR:
        return Category.ERROR, outcome.message or "the backend reported an error"
    if status == Status.MEMORY_OUT:
        return Category.MEMORY_OUT, outcome.message or "over the memory limit"
    if status == Status.UNSUPPORTED:
        return Category.UNSUPPORTED, outcome.message or "the backend cannot express this puzzle"
    if status == Status.SOLVED:
        if problems:
            return Category.WRONG, "invalid solution: " + "; ".join(problems)
        if outcome.complete and len(outcome.solutions) == 1:
            own = tuple(outcome.solutions[0])
            others = [grid for grid in found if grid != own]
            if others:
                who = _names(found[others[0]])
                return Category.WRONG, (f"claims a unique solution, but {who} found a different "
                                 "verified solution")
            return Category.CORRECT, "verified; unique " + _confirmation(solver, unique_claims)
        if len(outcome.solutions) >= 2:
            return Category.CORRECT, f"{len(outcome.solutions)} distinct verified solutions"
        return Category.CORRECT, "verified"
    if status == Status.UNSAT:
        if found:
            first = next(iter(found))
            return Category.WRONG, f"claims no solution, but {_names(found[first])} found a verified solution"
        return Category.CORRECT, "no solution " + _confirmation(solver, unsat_claims)
    return Category.ERROR, f"unknown status {status!r}"


def _confirmation(solver: str, claimants: list[str]) -> str:
    others = [name for name in dict.fromkeys(claimants) if name != solver]
    if others:
        return f"(confirmed by {_names(others)})"
    return "(not contradicted, but no other backend proved it)"


def _names(solvers: Sequence[str]) -> str:
    unique = list(dict.fromkeys(solvers))
    return ", ".join(unique)


def _puzzle_text(puzzle: Puzzle) -> str:
    try:
        return to_line(puzzle)
    except ValueError:  # too large for one symbol per cell
        return " ".join(str(v) for v in puzzle.givens)


def grid_text(puzzle: Puzzle, solution: Sequence[Any]) -> str:
    """A solution in line format; values that are not cells of this grid are shown as '?'."""
    n = puzzle.n
    if len(solution) == puzzle.geometry.cells and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= n for v in solution):
        return _puzzle_text(Puzzle(puzzle.geometry, tuple(solution)))
    return "".join(_symbol(v, n) for v in solution)


def _symbol(value: Any, n: int) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= min(n, 35):
        return "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[value - 1]
    return "?"
