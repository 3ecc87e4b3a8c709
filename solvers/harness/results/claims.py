"""The judge's reference method for claims of completeness: "no solution", "unique",
"exactly these k solutions", "exactly N solutions" (a count whose grids were not all shipped).

A claim of solutions says that no grid outside the solutions given satisfies the puzzle.
The reference re-derives it: the puzzle's CNF (solvers/encodings/cnf.py, the ``simplified``
encoding: the givens folded in), one blocking clause per solution given, solved by a CDCL
engine of python-sat that logs a DRUP proof. If the engine finds a model, the claim is
false and the model's grid, checked by ``models.verify``, is the counterexample. If it
finds none, its proof is checked by ``models.proofs.check_rup``, which shares no code with
the engine or the encoding. A count claim is re-derived by the judge's own counter
(recount.py). The verdict (``Proof``):

- ``proved``: no other grid, and the engine's proof of it checked;
- ``confirmed``: the count re-derived by the judge's own counter (a search of its own, no
  proof); said by the judge (judge.py), another method family's complete answer agrees;
- ``unchecked``: not settled; the reason says why (the engine, the proof check or the
  counter out of the budget, a proof that did not check, a constraint the CNF cannot state,
  python-sat missing). Never counted solved;
- ``not asked``: said by the judge of a claim the run was not asked for (never checked);
- ``refuted``: the counterexample (or the count the counter found).

Killer cage totals are in the CNF (by their digit combinations) and in the counter, so
killer claims are checked like any other.

Each check runs within ``budget`` seconds (engine and proof check together) and is done
once per question (``Check``) by a ``ClaimChecker``: a puzzle's repetitions and
configurations that claim the same share one check. In a sweep the checks run in a process
of their own (judge_process.py), which enforces the budget over everything from outside.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from models import Grid, Model, Puzzle, verify
from models.proofs import ProofFormatError, check_rup

from ...encodings.cnf import CNF, encode
from ..tasks import JUDGE_BUDGET_S
from .recount import count_solutions

ENGINE = "glucose4"
"""python-sat's engine for the re-derivation: it logs plain DRUP (no RAT steps), and its
proofs of Sudoku claims are short (10 lemmas for top95's first puzzle with its solution
blocked; CaDiCaL 1.5.3's: 639)."""
ENCODING = "simplified"
"""The CNF the reference solves: a fifth of the extended encoding's clauses on 9x9 and a
sixtieth on 16x16, so the proof check loads in 0.1 s instead of 0.4 s and 4.8 s."""
BUDGET_S = JUDGE_BUDGET_S
"""Seconds one check may take by default (engine and proof check together)."""
CACHE_SIZE = 4096
"""Checks remembered by a ClaimChecker ((puzzle, solutions) pairs)."""


class Proof(StrEnum):
    """How far the judge could check a claim that the solutions given are all there are."""

    PROVED = "proved"
    CONFIRMED = "confirmed"
    UNCHECKED = "unchecked"
    NOT_ASKED = "not asked"
    REFUTED = "refuted"


@dataclass(frozen=True)
class Check:
    """One question for the reference: has the puzzle no solution besides ``solutions``
    (``count`` None), or exactly ``count`` solutions (a count claim whose grids were not all
    shipped: ``solutions`` is then empty)?"""

    puzzle: Puzzle
    solutions: frozenset[Grid] = frozenset()
    count: int | None = None

    def words(self) -> str:
        """The claim in words: 'no solution', 'a unique solution', 'exactly 3 solutions'."""
        count = len(self.solutions) if self.count is None else self.count
        return {0: "no solution", 1: "a unique solution"}.get(count, f"exactly {count:,} solutions")


@dataclass(frozen=True)
class ClaimCheck:
    """The reference method's verdict on one claim: the Proof, in words why, the
    counterexample when refuted, and the seconds the check took."""

    proof: Proof
    reason: str
    counterexample: Grid | None = None
    seconds: float = 0.0


class ClaimChecker:
    """Settles Checks, each once, within a budget (in this process: judge_process.py runs
    one in a process of its own)."""

    def __init__(self, budget_s: float = BUDGET_S, cache_size: int = CACHE_SIZE) -> None:
        self.budget_s, self.cache_size = budget_s, cache_size
        self._cache: OrderedDict[Check, ClaimCheck] = OrderedDict()
        self.checks = 0  # re-derivations actually run (not answered from the cache)

    def check(self, puzzle: Puzzle, solutions: Sequence[Grid]) -> ClaimCheck:
        """Whether any grid besides ``solutions`` (verified, distinct) solves the puzzle."""
        return self.settle(Check(puzzle, frozenset(tuple(s) for s in solutions)))

    def settle(self, check: Check) -> ClaimCheck:
        """The reference's verdict on one question, from the cache when asked before."""
        if check in self._cache:
            self._cache.move_to_end(check)
            return self._cache[check]
        self.checks += 1
        verdict = settle(check, self.budget_s)
        self._cache[check] = verdict
        if len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return verdict


def settle(check: Check, budget_s: float) -> ClaimCheck:
    """The reference's verdict on one question within ``budget_s`` seconds, timed."""
    started = time.perf_counter()
    if check.count is None:
        verdict = _rederive(check.puzzle, sorted(check.solutions), budget_s)
    else:
        verdict = _recount(check.puzzle, check.count, budget_s)
    return replace(verdict, seconds=time.perf_counter() - started)


def _recount(puzzle: Puzzle, claimed: int, budget_s: float) -> ClaimCheck:
    """A count claim against the judge's own count (recount.py), one past the claim at most."""
    found = count_solutions(puzzle, deadline=time.monotonic() + budget_s, limit=claimed + 1)
    if found.count is None:
        return ClaimCheck(Proof.UNCHECKED, f"{found.reason}, within the check's budget of {budget_s:g} s")
    if found.count == claimed:
        return ClaimCheck(Proof.CONFIRMED, found.reason)
    more = "at least " if found.at_limit else ""
    return ClaimCheck(Proof.REFUTED, f"{found.reason}: {more}{found.count:,} solutions")


def _rederive(puzzle: Puzzle, solutions: Sequence[Grid], budget_s: float) -> ClaimCheck:
    """The claim re-derived: the CNF with the solutions blocked, solved with a DRUP proof that
    is then checked; the budget runs from the start (encoding included)."""
    deadline = time.monotonic() + budget_s
    try:
        cnf = encode(Model.from_puzzle(puzzle), ENCODING)
    except ValueError as error:  # a constraint the CNF cannot state
        return ClaimCheck(Proof.UNCHECKED, f"the reference CNF cannot state this puzzle: {error}")
    try:
        from pysat.solvers import Solver  # noqa: PLC0415 - an optional, heavy package
    except ImportError:
        return ClaimCheck(Proof.UNCHECKED, "python-sat is not installed (pip install 'sudoku-methods[pysat]')")
    formula = cnf.clauses + [cnf.blocking_clause(solution) for solution in solutions]
    with Solver(name=ENGINE, bootstrap_with=formula, with_proof=True) as engine:
        timer = threading.Timer(max(0.0, deadline - time.monotonic()), engine.interrupt)
        timer.start()
        try:
            satisfiable = engine.solve_limited(expect_interrupt=True)
        finally:
            timer.cancel()
        if satisfiable is None:
            return ClaimCheck(Proof.UNCHECKED, f"the reference engine ({ENGINE}) did not finish "
                                               f"within the check's budget of {budget_s:g} s")
        if satisfiable:
            return _refutation(puzzle, cnf, engine.get_model() or [])
        proof = engine.get_proof() or []
    left = deadline - time.monotonic()
    found = f"{ENGINE} found {'no other solution' if solutions else 'no solution'}"
    if left <= 0:
        return ClaimCheck(Proof.UNCHECKED, f"{found}, with no time left in the budget of "
                                           f"{budget_s:g} s to check its proof")
    try:
        checked = check_rup(formula, proof, deadline=time.monotonic() + left)
    except ProofFormatError as error:
        return ClaimCheck(Proof.UNCHECKED, f"{found}, but its proof is malformed: {error}")
    if checked.ok:
        return ClaimCheck(Proof.PROVED, f"{found}, and its DRUP proof checked ({checked.reason})")
    return ClaimCheck(Proof.UNCHECKED, f"{found}, but its proof did not check: {checked.reason}")


def _refutation(puzzle: Puzzle, cnf: CNF, literals: Sequence[int]) -> ClaimCheck:
    """The grid a model of the reference CNF describes, if it verifies: a counterexample."""
    try:
        grid = cnf.decode(literals)
    except ValueError as error:
        return ClaimCheck(Proof.UNCHECKED, f"the reference engine's model is not a grid: {error}")
    verdict = verify(puzzle, grid)
    if not verdict.ok:
        return ClaimCheck(Proof.UNCHECKED, f"the reference engine's grid does not verify: {verdict}")
    return ClaimCheck(Proof.REFUTED, "the reference method found another verified solution",
                      counterexample=grid)
