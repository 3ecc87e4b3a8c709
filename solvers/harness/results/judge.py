"""Trust nothing a backend says: verify every answer and sort each run into a category.

A claim of completeness says the solutions given are all there are: "no solution" (an
UNSAT status), "unique" or "exactly k" (SOLVED with ``complete``), "exactly N" (count
mode, ``--count``: its grids a sample). It is *asked* when the answer needs it: every
"no solution" and every count; "unique" or "exactly k" when the run was asked for more
solutions than it gave (``max_solutions``: --unique asks two, --max-solutions N asks N).
A claim nobody asked (``fast`` finds the one solution it was asked for and adds that its
search was complete) is recorded as ``not asked`` and never checked; only the answers at
hand can still refute it (another run's different verified solution).

An asked claim is *confirmed* by a complete answer of another method family
(``families``: fast, mrv and their readable twins are one family; the CNF backends on one
encoding another; a plugin is untrusted and confirms nothing) that agrees with it; else
the judge's reference method (claims.py) *proves* it or refutes it, or leaves it
*unchecked* (the reason says why: out of its budget, a proof that did not check).
``Run.proof`` says which.

correct:   verified solutions, and any asked claim proved or confirmed (or a claim not asked
           that nothing refutes).
unchecked: verified solutions (or "no solution") whose asked claim is neither proved nor
           confirmed: BenchExec's correct-unconfirmed; never counted solved, and the exit
           status is 1.
wrong:     a solution that fails the independent checker (a changed given included), the same
           solution returned twice as if two, a claim of completeness that a verified
           solution or the reference method refutes.
timeout, unknown, error: the run gave no answer (the time limit ran out; the backend gave
           up otherwise, e.g. a work budget; the backend failed or its answer was malformed).
           Asked for several solutions (--unique, --max-solutions) or a count, a run that
           found fewer and stopped before exhausting the search has not answered either:
           unknown (timeout if it was the time limit), its solutions still verified.
memory-out: the run went over its memory limit (--memory-limit), like BenchExec's category.
unsupported: the backend cannot express a constraint kind of the puzzle (exact cover and a
           killer cage's sum) and said so; not a failure, not wrong, and no effect on the exit status.

Judging is two steps, so that the reference's checks can run elsewhere (judge_process.py):
``assess`` weighs the answers and says which ``Check``s the reference must settle;
``Assessment.verdicts`` takes those settled and gives the runs. ``judge`` does both here.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any, Protocol

from models import Grid, Puzzle, to_line, verify
from models.geometry import Geometry
from models.symbols import MAX_SYMBOL_SIZE

from ...result import Status
from ..engine.timing import ANSWER_SIZE
from ..tasks import Category, Outcome
from .claims import Check, ClaimCheck, ClaimChecker, Proof


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
    """For a claim of completeness: proved, confirmed, unchecked or not asked (claims.Proof);
    else empty."""
    verified_solutions: int = 0
    """Distinct solutions of this run that the checker verified."""
    count: int | None = None
    """Count mode: the solutions the run counted (its ``solutions`` a sample)."""

    def as_dict(self) -> dict[str, Any]:
        """The run as plain data; its lists and mappings copied (one level: they hold only
        plain values), not dataclasses.asdict's deep copy, ten times slower."""
        data = {name: getattr(self, name) for name in _RUN_FIELDS}
        data["solutions"], data["stats"], data["options"] = \
            list(self.solutions), dict(self.stats), dict(self.options)
        return data


_RUN_FIELDS = tuple(Run.__dataclass_fields__)


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


@dataclass(frozen=True)
class Claim:
    """A run's claim that it has all the solutions: their number, the grids when it gave
    them all (None for a count whose grids are a sample), and whether it was asked."""

    count: int
    grids: frozenset[Grid] | None
    asked: bool

    def agrees(self, other: Claim) -> bool:
        """The same number of solutions and, where both gave them all, the same grids."""
        return self.count == other.count and (self.grids is None or other.grids is None
                                              or self.grids == other.grids)

    def check(self, puzzle: Puzzle) -> Check:
        """The reference's question for this claim."""
        if self.grids is not None:
            return Check(puzzle, self.grids)
        return Check(puzzle, count=self.count)


FAILING = (Category.WRONG, Category.UNCHECKED)
"""The categories that make the exit status 1."""


def fails(category: str, termination: str | None = None) -> bool:
    """Whether a run makes the exit status 1: wrong, unchecked, or an answer too large to send
    back (an error, but never a silent success)."""
    return category in FAILING or termination == ANSWER_SIZE


class Settler(Protocol):
    """What settles a reference check and waits for it (claims.ClaimChecker in this process,
    judge_process.JudgeProcess in a process of its own)."""

    def settle(self, check: Check) -> ClaimCheck:
        """The reference's verdict on the check."""


def judge(puzzle: Puzzle, outcomes: Sequence[tuple[str, Outcome]], *, max_solutions: int = 1,
          families: Mapping[str, str] | None = None,
          checker: Settler | None = None) -> tuple[list[Run], Disagreement | None]:
    """Categorise every configuration's run on one puzzle: ``assess``, then the reference's
    checks settled by ``checker`` (default: a new ClaimChecker, here)."""
    assessment = assess(puzzle, outcomes, max_solutions=max_solutions, families=families)
    checker = checker or ClaimChecker()
    return assessment.verdicts({check: checker.settle(check) for check in assessment.checks})


def assess(puzzle: Puzzle, outcomes: Sequence[tuple[str, Outcome]], *, max_solutions: int = 1,
           families: Mapping[str, str] | None = None) -> Assessment:
    """Weigh the runs on one puzzle against each other: verify every grid, find each claim,
    and which claims only the reference can settle.

    ``max_solutions`` is what each run was asked for; ``families`` maps a configuration's
    label to its method family, "" for a plugin (default: each label its own family).
    """
    problems = {solver: _problems(puzzle, outcome) for solver, outcome in outcomes}
    found: dict[Grid, list[str]] = {}  # verified solution -> who found it
    for solver, outcome in outcomes:
        if outcome.status == Status.SOLVED and not problems[solver]:
            for solution in outcome.solutions:
                found.setdefault(tuple(solution), []).append(solver)
    claims = {solver: claim for solver, outcome in outcomes
              if not problems[solver] and (claim := _claimed(outcome, max_solutions)) is not None}
    return Assessment(puzzle, list(outcomes), problems, found, claims, families, max_solutions)


def _claimed(outcome: Outcome, max_solutions: int) -> Claim | None:
    """The run's claim that it has every solution, or None if it claims no completeness."""
    if outcome.count is not None:  # count mode: every complete count was asked for
        if outcome.status == Status.UNSAT or (outcome.status == Status.SOLVED and outcome.complete):
            whole = len(outcome.solutions) == outcome.count
            return Claim(outcome.count, frozenset(map(tuple, outcome.solutions)) if whole else None, True)
        return None
    if outcome.status == Status.UNSAT:
        return Claim(0, frozenset(), True)
    if outcome.status == Status.SOLVED and outcome.complete:
        grids = frozenset(tuple(s) for s in outcome.solutions)
        return Claim(len(grids), grids, len(outcome.solutions) < max_solutions)
    return None


def claim_of(outcome: Outcome) -> str:
    """What a run claims, in words: 'a solution', 'unique solution', '2 solutions', 'no solution'..."""
    if outcome.count is not None and outcome.status in (Status.SOLVED, Status.UNSAT):
        exact = "exactly" if outcome.complete or outcome.status == Status.UNSAT else "at least"
        return f"{exact} {outcome.count:,} solutions (counted)"
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
    distinct = len({tuple(s) for s in outcome.solutions})
    if distinct < len(outcome.solutions):
        problems.append("returned the same solution more than once, as if they were different")
    if outcome.count is not None and outcome.count < distinct:
        problems.append(f"counted {outcome.count:,} solutions but returned {distinct:,} different ones")
    return problems


class Assessment:
    """The evidence on one puzzle: the checks the reference must settle, and the verdicts
    once they are settled."""

    def __init__(self, puzzle: Puzzle, outcomes: list[tuple[str, Outcome]], problems: dict[str, list[str]],
                 found: dict[Grid, list[str]], claims: dict[str, Claim],
                 families: Mapping[str, str] | None, max_solutions: int) -> None:
        self.puzzle, self.outcomes, self.problems, self.found = puzzle, outcomes, problems, found
        self.claims, self.families, self.max_solutions = claims, families, max_solutions
        needed = {claim.check(puzzle): None for solver, claim in claims.items()
                  if claim.asked and not self._refutation(claim) and not self._confirmers(solver, claim)}
        self.checks: list[Check] = list(needed)
        """What the reference must settle: the asked claims no answer refutes and no other
        family confirms (one check for every claimant of the same claim)."""

    def verdicts(self, settled: Mapping[Check, ClaimCheck]) -> tuple[list[Run], Disagreement | None]:
        """Every run judged, the reference's verdicts on ``checks`` given (a check left out is
        unchecked)."""
        runs = []
        text = _puzzle_text(self.puzzle)
        for solver, outcome in self.outcomes:
            category, reason, proof = self._categorise(solver, outcome, settled)
            verified = len({tuple(s) for s in outcome.solutions}) if outcome.status == Status.SOLVED \
                and not self.problems[solver] else 0
            runs.append(_run(self.puzzle, text, solver, outcome, category, reason, proof, verified))
        if not any(run.category == Category.WRONG for run in runs):
            return runs, None
        return runs, Disagreement(
            self.puzzle.source.file, self.puzzle.source.index, self.puzzle.source.line, text,
            [{"solver": r.solver, "claim": r.claim, "category": r.category, "reason": r.reason}
             for r in runs])

    def _categorise(self, solver: str, outcome: Outcome,
                    settled: Mapping[Check, ClaimCheck]) -> tuple[Category, str, str]:
        """(category, reason, proof) of one run."""
        status, problems = outcome.status, self.problems[solver]
        gave_up = _NO_ANSWER.get(status)
        if gave_up is not None:
            counted = f" (it had counted {outcome.count:,} solutions)" if outcome.count else ""
            return gave_up[0], (outcome.message or gave_up[1]) + counted, ""
        if status == Status.SOLVED and problems:
            return Category.WRONG, "invalid solution: " + "; ".join(problems), ""
        if status not in (Status.SOLVED, Status.UNSAT):
            return Category.ERROR, f"unknown status {status!r}", ""
        claim = self.claims.get(solver)
        if claim is not None:
            return self._judge_claim(solver, claim, settled)
        count = len(outcome.solutions)
        if outcome.count is not None or count < self.max_solutions:  # stopped early, asked for more
            category = Category.TIMEOUT if outcome.message.startswith("time limit") \
                else Category.UNKNOWN
            what = (f"counted at least {outcome.count:,} solutions ({_solutions(count)} of them "
                    f"verified)" if outcome.count is not None else
                    f"found {_solutions(count)} (verified) of the {self.max_solutions} asked for")
            return category, (f"{what}, then stopped before exhausting the search"
                              + (f": {outcome.message}" if outcome.message else "")), ""
        return Category.CORRECT, (f"{count} distinct verified solutions" if count >= 2
                                  else "verified"), ""

    def _judge_claim(self, solver: str, claim: Claim,
                     settled: Mapping[Check, ClaimCheck]) -> tuple[Category, str, str]:
        """A claim that the run has every solution: refuted, not asked, proved, confirmed or
        unchecked."""
        question = claim.check(self.puzzle)
        words = question.words()
        verdict = ("verified; " if claim.count else "") + {0: "no solution", 1: "unique"}.get(
            claim.count, f"exactly {claim.count:,} solutions")
        refutation = self._refutation(claim)
        if refutation:
            return Category.WRONG, f"claims {words}, but {refutation}", ""
        check = settled.get(question) if settled else None  # none asked: no puzzle hashed
        if check is not None and check.proof == Proof.REFUTED:
            shown = f": {grid_text(self.puzzle, check.counterexample)}" if check.counterexample else ""
            return Category.WRONG, f"claims {words}, but {check.reason}{shown}", ""
        if not claim.asked:
            return Category.CORRECT, (f"verified; its claim of {words} was not asked for "
                                      f"(not checked)"), Proof.NOT_ASKED.value
        confirmers = self._confirmers(solver, claim)
        if check is not None and check.proof == Proof.PROVED:
            also = [o for o, theirs in self.claims.items() if o != solver and theirs.agrees(claim)]
            said = f"also claimed by {_names(also)}; " if also else ""
            return Category.CORRECT, (f"{verdict} ({said}proved by the reference method: "
                                      f"{check.reason}; {check.seconds:.3f} s)"), Proof.PROVED.value
        if confirmers:
            return Category.CORRECT, f"{verdict} (confirmed by {_names(confirmers)})", Proof.CONFIRMED.value
        if check is not None and check.proof == Proof.CONFIRMED:
            return Category.CORRECT, (f"{verdict} (confirmed by the judge's own count: {check.reason}; "
                                      f"{check.seconds:.3f} s)"), Proof.CONFIRMED.value
        why = check.reason if check is not None else "the judge gave no verdict"
        return Category.UNCHECKED, (f"{verdict} claimed, but no other method family confirms it and "
                                    f"the judge could not check it: {why}"), Proof.UNCHECKED.value

    def _refutation(self, claim: Claim) -> str:
        """Why the answers at hand refute the claim (another verified solution, more verified
        solutions than counted), or ''."""
        if claim.grids is not None:
            others = [grid for grid in self.found if grid not in claim.grids]
            if others:
                return (f"{_names(self.found[others[0]])} found "
                        f"{'a different' if claim.grids else 'a'} verified solution")
            return ""
        if len(self.found) > claim.count:
            finders = _names([name for names in self.found.values() for name in names])
            return f"{len(self.found):,} different verified solutions were found (by {finders})"
        return ""

    def _confirmers(self, solver: str, claim: Claim) -> list[str]:
        """The runs of other method families whose complete answer agrees (plugins never)."""
        mine = self._family(solver)
        return [other for other, theirs in self.claims.items()
                if other != solver and theirs.agrees(claim) and self._family(other)
                and self._family(other) != mine]

    def _family(self, solver: str) -> str:
        return solver if self.families is None else self.families.get(solver, "")


_NO_ANSWER = {Status.TIMEOUT: (Category.TIMEOUT, "no answer within the limit"),
              Status.UNKNOWN: (Category.UNKNOWN, "gave up before an answer"),
              Status.ERROR: (Category.ERROR, "the backend reported an error"),
              Status.MEMORY_OUT: (Category.MEMORY_OUT, "over the memory limit"),
              Status.UNSUPPORTED: (Category.UNSUPPORTED, "the backend cannot express this puzzle")}
"""The statuses that answer nothing: their category and the reason when the run gave none."""


def _run(puzzle: Puzzle, text: str, solver: str, outcome: Outcome, category: Category, reason: str,
         proof: str, verified: int) -> Run:
    """The judged run's record."""
    return Run(
        file=puzzle.source.file, index=puzzle.source.index, line=puzzle.source.line,
        puzzle=text, size=puzzle.geometry.label().split()[0], solver=solver,
        status=outcome.status, solutions=[grid_text(puzzle, s) for s in outcome.solutions],
        complete=outcome.complete, time_s=outcome.time_s, stats=dict(outcome.stats),
        message=outcome.message, claim=claim_of(outcome), category=category, reason=reason,
        cpu_s=outcome.cpu_s, warmup=outcome.warmup, n=puzzle.n,
        box=f"{puzzle.geometry.box_rows}x{puzzle.geometry.box_cols}", variant=puzzle.variant,
        peak_memory_mb=outcome.peak_memory_mb, termination=outcome.termination,
        host=outcome.host, worker=outcome.worker, sequence=outcome.sequence,
        proof=proof, verified_solutions=verified, count=outcome.count)


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
    layout = _line_layout(puzzle.geometry)
    if (layout is not None and len(solution) == puzzle.geometry.cells and set(map(type, solution)) == {int}
            and min(solution) >= 0 and max(solution) <= n):  # the common case, by table
        symbols, tail = layout
        return "".join(map(symbols.__getitem__, solution)) + tail
    if len(solution) == puzzle.geometry.cells and all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= n for v in solution):
        return _puzzle_text(Puzzle(puzzle.geometry, tuple(solution)))
    return "".join(_symbol(v, n) for v in solution)


@lru_cache(maxsize=64)
def _line_layout(geometry: Geometry) -> tuple[tuple[str, ...], str] | None:
    """How to_line writes a grid of this geometry: each value's symbol and what follows the
    cells (a variant's fields); None where line format has no symbols (over 35x35)."""
    if geometry.n > MAX_SYMBOL_SIZE:
        return None
    cells = geometry.cells
    symbols = tuple(to_line(Puzzle(geometry, (value,) + (0,) * (cells - 1)))[0] for value in range(geometry.n + 1))
    return symbols, to_line(Puzzle(geometry, (0,) * cells))[cells:]


def _symbol(value: Any, n: int) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= min(n, 35):
        return "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[value - 1]
    return "?"
