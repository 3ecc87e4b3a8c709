"""The judge's reference method for claims of completeness: "no solution", "unique",
"exactly these k solutions".

Such a claim says that no grid outside the solutions given satisfies the puzzle. The
reference re-derives it: the puzzle's CNF (solvers/encodings/cnf.py, the ``simplified``
encoding: the givens folded in), one blocking clause per solution given, solved by a CDCL
engine of python-sat that logs a DRUP proof. If the engine finds a model, the claim is
false and the model's grid, checked by ``models.verify``, is the counterexample. If it
finds none, its proof is checked by ``models.proofs.check_rup``, which shares no code with
the engine or the encoding. The verdict (``Proof``):

- ``proved``: no other grid, and the engine's proof of it checked;
- ``confirmed``: no other grid, but the proof did not check in the time left (or, said
  by the judge, another backend's complete answer agrees);
- ``unchecked``: not re-derived; the reason says why (a constraint the CNF cannot state,
  the engine out of time, python-sat missing);

Killer cage totals are in the CNF (by their digit combinations), so killer claims are
checked like any other.
- ``refuted``: the counterexample.

Every check runs within ``budget`` seconds (engine and proof check together) and is done
once per (puzzle, solutions) by a ``ClaimChecker``: a puzzle's repetitions and
configurations that claim the same share one check.
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from models import Grid, Model, Puzzle, verify
from models.proofs import ProofFormatError, check_rup

from ...encodings.cnf import CNF, encode

ENGINE = "glucose4"
"""python-sat's engine for the re-derivation: it logs plain DRUP (no RAT steps), and its
proofs of Sudoku claims are short (10 lemmas for top95's first puzzle with its solution
blocked; CaDiCaL 1.5.3's: 639)."""
ENCODING = "simplified"
"""The CNF the reference solves: a fifth of the extended encoding's clauses on 9x9 and a
sixtieth on 16x16, so the proof check loads in 0.1 s instead of 0.4 s and 4.8 s."""
BUDGET_S = 10.0
"""Seconds one check may take by default (engine and proof check together)."""
CACHE_SIZE = 4096
"""Checks remembered by a ClaimChecker ((puzzle, solutions) pairs)."""


class Proof(StrEnum):
    """How far the judge could check a claim that the solutions given are all there are."""

    PROVED = "proved"
    CONFIRMED = "confirmed"
    UNCHECKED = "unchecked"
    REFUTED = "refuted"


@dataclass(frozen=True)
class ClaimCheck:
    """The reference method's verdict on one claim: the Proof, in words why, the
    counterexample when refuted, and the seconds the check took."""

    proof: Proof
    reason: str
    counterexample: Grid | None = None
    seconds: float = 0.0


class ClaimChecker:
    """Re-derives claims of completeness, each (puzzle, solutions) once, within a budget."""

    def __init__(self, budget_s: float = BUDGET_S, cache_size: int = CACHE_SIZE) -> None:
        self.budget_s, self.cache_size = budget_s, cache_size
        self._cache: OrderedDict[tuple[Puzzle, frozenset[Grid]], ClaimCheck] = OrderedDict()
        self.checks = 0  # re-derivations actually run (not answered from the cache)

    def check(self, puzzle: Puzzle, solutions: Sequence[Grid]) -> ClaimCheck:
        """Whether any grid besides ``solutions`` (verified, distinct) solves the puzzle."""
        key = (puzzle, frozenset(tuple(s) for s in solutions))
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        self.checks += 1
        started = time.perf_counter()
        verdict = _rederive(puzzle, sorted(key[1]), self.budget_s)
        verdict = ClaimCheck(verdict.proof, verdict.reason, verdict.counterexample,
                             time.perf_counter() - started)
        self._cache[key] = verdict
        if len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return verdict


def _rederive(puzzle: Puzzle, solutions: Sequence[Grid], budget_s: float) -> ClaimCheck:
    try:
        cnf = encode(Model.from_puzzle(puzzle), ENCODING)
    except ValueError as error:  # a constraint the CNF cannot state
        return ClaimCheck(Proof.UNCHECKED, f"the reference CNF cannot state this puzzle: {error}")
    try:
        from pysat.solvers import Solver  # noqa: PLC0415 - an optional, heavy package
    except ImportError:
        return ClaimCheck(Proof.UNCHECKED, "python-sat is not installed (pip install 'sudoku-methods[pysat]')")
    deadline = time.monotonic() + budget_s
    formula = cnf.clauses + [cnf.blocking_clause(solution) for solution in solutions]
    with Solver(name=ENGINE, bootstrap_with=formula, with_proof=True) as engine:
        timer = threading.Timer(budget_s, engine.interrupt)
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
        return ClaimCheck(Proof.CONFIRMED, f"{found}, with no time left in the budget of "
                                           f"{budget_s:g} s to check its proof")
    try:
        checked = check_rup(formula, proof, deadline=time.monotonic() + left)
    except ProofFormatError as error:
        return ClaimCheck(Proof.CONFIRMED, f"{found}, but its proof is malformed: {error}")
    if checked.ok:
        return ClaimCheck(Proof.PROVED, f"{found}, and its DRUP proof checked ({checked.reason})")
    return ClaimCheck(Proof.CONFIRMED, f"{found}, but its proof did not check: {checked.reason}")


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
