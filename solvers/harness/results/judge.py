"""Trust nothing a backend says: verify every answer and sort each run into a category.

correct: verified solutions; and a claim that they are all there are ("no solution",
         "unique", "exactly k": an UNSAT status, or SOLVED with ``complete``) that nothing
         refutes. Such a claim is confirmed by another backend's complete answer with the
         same solutions (a registered backend other than the claimant's own: a plugin or
         another configuration of the same backend confirms nothing), or else re-derived by
         the reference method (claims.py). ``Run.proof`` says which: proved, confirmed or
         unchecked (with the reason); empty for a run that claims no completeness.
wrong:   a solution that fails the independent checker (a changed given included), the same
         solution returned twice as if two, a claim of completeness that some backend's
         verified solution or the reference method's counterexample refutes.
timeout, unknown, error: the run gave no answer (the time limit ran out; the backend gave
         up otherwise, e.g. a work budget; the backend failed or its answer was malformed).
         Asked for several solutions (``max_solutions`` >= 2: --unique, --max-solutions), a
         run that found fewer and stopped before exhausting the search has not answered
         either: unknown (timeout if it was the time limit), its solutions still verified.
memory-out: the run went over its memory limit (--memory-limit), like BenchExec's category.
unsupported: the backend cannot express a constraint kind of the puzzle (exact cover and a
         killer cage's sum) and said so; not a failure, not wrong, and no effect on the exit status.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from models import Puzzle, to_line, verify

from ...result import Status, stop_message
from ..tasks import Category, Outcome
from .claims import ClaimChecker, Proof


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
    proof: str = ""
    """For a claim of completeness: proved, confirmed or unchecked (claims.Proof); else empty."""
    verified_solutions: int = 0
    """Distinct solutions of this run that the checker verified."""

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


def judge(puzzle: Puzzle, outcomes: Sequence[tuple[str, Outcome]], *, max_solutions: int = 1,
          backends: Mapping[str, str] | None = None,
          checker: ClaimChecker | None = None) -> tuple[list[Run], Disagreement | None]:
    """Categorise every configuration's run on one puzzle, checking each claim against the
    others' and, where none confirms it, by the reference method.

    ``max_solutions`` is what each run was asked for; ``backends`` maps a configuration's
    label to the registered backend it runs, "" for a plugin (default: each label its own
    backend); ``checker`` re-derives claims, remembering its checks (default: a new one).
    """
    problems = {solver: _problems(puzzle, outcome) for solver, outcome in outcomes}
    found: dict[tuple[Any, ...], list[str]] = {}  # verified solution -> who found it
    for solver, outcome in outcomes:
        if outcome.status == Status.SOLVED and not problems[solver]:
            for solution in outcome.solutions:
                found.setdefault(tuple(solution), []).append(solver)
    claims = {solver: grids for solver, outcome in outcomes
              if not problems[solver] and (grids := _claimed(outcome)) is not None}
    judging = _Judging(puzzle, found, claims, backends, checker or ClaimChecker(), max_solutions)
    runs = []
    text = _puzzle_text(puzzle)
    for solver, outcome in outcomes:
        category, reason, proof = judging.categorise(solver, outcome, problems[solver])
        verified = len({tuple(s) for s in outcome.solutions}) if outcome.status == Status.SOLVED \
            and not problems[solver] else 0
        runs.append(Run(
            file=puzzle.source.file, index=puzzle.source.index, line=puzzle.source.line,
            puzzle=text, size=puzzle.geometry.label().split()[0], solver=solver,
            status=outcome.status, solutions=[grid_text(puzzle, s) for s in outcome.solutions],
            complete=outcome.complete, time_s=outcome.time_s, stats=dict(outcome.stats),
            message=outcome.message, claim=claim_of(outcome), category=category, reason=reason,
            cpu_s=outcome.cpu_s, warmup=outcome.warmup, n=puzzle.n,
            box=f"{puzzle.geometry.box_rows}x{puzzle.geometry.box_cols}", variant=puzzle.variant,
            peak_memory_mb=outcome.peak_memory_mb, termination=outcome.termination,
            host=outcome.host, worker=outcome.worker, sequence=outcome.sequence,
            proof=proof, verified_solutions=verified))
    if not any(run.category == Category.WRONG for run in runs):
        return runs, None
    return runs, Disagreement(
        puzzle.source.file, puzzle.source.index, puzzle.source.line, _puzzle_text(puzzle),
        [{"solver": r.solver, "claim": r.claim, "category": r.category, "reason": r.reason}
         for r in runs])


def _claimed(outcome: Outcome) -> frozenset[tuple[Any, ...]] | None:
    """The solutions a run claims are all there are (empty for unsat), or None if it claims
    no completeness."""
    if outcome.status == Status.UNSAT:
        return frozenset()
    if outcome.status == Status.SOLVED and outcome.complete:
        return frozenset(tuple(s) for s in outcome.solutions)
    return None


def claim_of(outcome: Outcome) -> str:
    """What a run claims, in words: 'a solution', 'unique solution', '2 solutions', 'no solution'..."""
    if outcome.status == Status.SOLVED:
        count = len(outcome.solutions)
        if count >= 2:
            return f"exactly {count} solutions" if outcome.complete else f"{count} solutions"
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


class _Judging:
    """The evidence on one puzzle, and the verdict it gives on each run."""

    def __init__(self, puzzle: Puzzle, found: dict[tuple[Any, ...], list[str]],
                 claims: dict[str, frozenset[tuple[Any, ...]]], backends: Mapping[str, str] | None,
                 checker: ClaimChecker, max_solutions: int) -> None:
        self.puzzle, self.found, self.claims, self.checker = puzzle, found, claims, checker
        self.backends, self.max_solutions = backends, max_solutions

    def categorise(self, solver: str, outcome: Outcome, problems: list[str]) -> tuple[Category, str, str]:
        """(category, reason, proof) of one run."""
        status = outcome.status
        if status == Status.TIMEOUT:
            return Category.TIMEOUT, outcome.message or "no answer within the limit", ""
        if status == Status.UNKNOWN:
            return Category.UNKNOWN, outcome.message or "gave up before an answer", ""
        if status == Status.ERROR:
            return Category.ERROR, outcome.message or "the backend reported an error", ""
        if status == Status.MEMORY_OUT:
            return Category.MEMORY_OUT, outcome.message or "over the memory limit", ""
        if status == Status.UNSUPPORTED:
            return Category.UNSUPPORTED, outcome.message or "the backend cannot express this puzzle", ""
        if status == Status.SOLVED and problems:
            return Category.WRONG, "invalid solution: " + "; ".join(problems), ""
        if status not in (Status.SOLVED, Status.UNSAT):
            return Category.ERROR, f"unknown status {status!r}", ""
        claimed = self.claims.get(solver)
        if claimed is not None:
            return self._judge_claim(solver, claimed)
        count = len(outcome.solutions)
        if count < self.max_solutions:  # stopped early, asked for more
            category = Category.TIMEOUT if outcome.message == stop_message(True, False) \
                else Category.UNKNOWN
            return category, (f"found {_solutions(count)} (verified) of the {self.max_solutions} "
                              "asked for, then stopped before exhausting the search"
                              + (f": {outcome.message}" if outcome.message else "")), ""
        return Category.CORRECT, (f"{count} distinct verified solutions" if count >= 2
                                  else "verified"), ""

    def _judge_claim(self, solver: str, claimed: frozenset[tuple[Any, ...]]) -> tuple[Category, str, str]:
        """A claim that ``claimed`` are all the solutions there are."""
        claim = {0: "no solution", 1: "a unique solution"}.get(len(claimed),
                                                               f"exactly {len(claimed)} solutions")
        verdict = ("verified; " if claimed else "") + {0: "no solution", 1: "unique"}.get(
            len(claimed), f"exactly {len(claimed)} solutions")
        others = [grid for grid in self.found if grid not in claimed]
        if others:
            finder = _names(self.found[others[0]])
            return Category.WRONG, (f"claims {claim}, but {finder} found "
                                    f"{'a different' if claimed else 'a'} verified solution"), ""
        agreeing = self._confirmers(solver, claimed)
        claimants = [other for other, grids in self.claims.items() if grids == claimed]
        check = None
        if not all(self._confirmers(other, claimed) for other in claimants):
            # someone's claim needs the reference; its refutation refutes every claimant's
            check = self.checker.check(self.puzzle, sorted(claimed))
            if check.proof == Proof.REFUTED:
                return Category.WRONG, (f"claims {claim}, but {check.reason}: "
                                        f"{grid_text(self.puzzle, check.counterexample or ())}"), ""
        if check is None or (agreeing and check.proof != Proof.PROVED):  # None: all confirmed
            return Category.CORRECT, f"{verdict} (confirmed by {_names(agreeing)})", \
                Proof.CONFIRMED.value
        also = [other for other, grids in self.claims.items() if other != solver and grids == claimed]
        said = f"confirmed by {_names(also)}, " if also else ""  # agreement that proves nothing alone
        return Category.CORRECT, (f"{verdict} ({said}{check.proof.value} by the reference method: "
                                  f"{check.reason}; {check.seconds:.3f} s)"), check.proof.value

    def _confirmers(self, solver: str, claimed: frozenset[tuple[Any, ...]]) -> list[str]:
        """The other configurations whose complete answer is the same, counted only if they
        run a registered backend other than this run's."""
        mine = self._backend(solver)
        return [other for other, grids in self.claims.items()
                if other != solver and grids == claimed and self._backend(other)
                and self._backend(other) != mine]

    def _backend(self, solver: str) -> str:
        return solver if self.backends is None else self.backends.get(solver, "")


def _solutions(count: int) -> str:
    return f"{count} solution" + ("" if count == 1 else "s")


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
