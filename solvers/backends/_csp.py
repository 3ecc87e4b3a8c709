"""python-constraint backend (the python-constraint2 package, imported as ``constraint``).

The model: one variable per *empty* cell, its domain the values not given in
any of its groups; one all-different constraint per group over the group's
empty cells (the library drops a constraint on a single variable after
pruning its domain, so only groups with two or more empty cells count). The
givens are in the domains, not in the search. Empty 9x9 grid: 81 variables,
27 constraints. Solver: the library's ``BacktrackingSolver`` (forward
checking, dynamic minimum-remaining-values choice of variable), the fastest of
its solvers here; ``OptimizedBacktrackingSolver`` orders the variables once,
statically, and is far slower (bench/README.md).

Encodings (``encoding=``):

- ``hidden`` (default): ``AllDifferentPlacingSingles``, the library's
  ``AllDifferentConstraint`` whose forward check also places a hidden single
  (a value only one cell of a full group can still take). Every top95 puzzle
  and the 16x16 samples are solved in about a second or less.
- ``alldiff``: the library's ``AllDifferentConstraint`` as it is. It solves
  every top95 puzzle too, but the hardest take seconds, and sparse 16x16
  puzzles take minutes.

A killer cage is one of the groups (all different) and, with a total, the library's
``ExactSumConstraint`` over its empty cells, its sum the total less the cage's givens,
beside ``CageCombinations``, which keeps only the digits of the combinations that can
still make the total (the sum's bounds alone left every bundled cages-only killer
unsolved at 20 s).

(The library's own Sudoku example declares all 81 cells with full domains and
the givens as constraints; that model does not finish a single top95 puzzle in
two minutes.)

Limits: the library cannot be interrupted from inside a search. ``time_limit``
is checked only between solutions (when enumerating); a single hard search
runs to its end. The harness enforces wall-clock limits from outside, in a
worker process it can kill. The library exposes no node count.
"""
from __future__ import annotations

import time
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import constraint

from models import Grid, Model

from ..encodings.cages import open_combinations
from ..encodings.domains import candidates, reduced_or_refuted
from ..result import Result, Stats, finish

ENCODINGS = ("hidden", "alldiff")
"""The declaration (csp.py) lists the same; a test checks."""

SOLVERS = {
    "backtracking": constraint.BacktrackingSolver,
    "recursive": constraint.RecursiveBacktrackingSolver,
    "optimized": constraint.OptimizedBacktrackingSolver,
}


Variable = Hashable
Domains = dict[Hashable, Any]
"""python-constraint's variables (our cell indices) and their domains (its Domain lists)."""


class AllDifferentPlacingSingles(constraint.AllDifferentConstraint):
    """The library's AllDifferentConstraint, whose forward check also places hidden singles.

    For a group of n cells (so each value 1..n must appear), after the usual check a
    missing value that only one unassigned cell can still take is forced into that
    cell, and a missing value that no cell can take fails the branch. The solver
    restores hidden values on backtracking, as for any forward check.
    """

    def __init__(self, missing: tuple[int, ...]) -> None:
        self.missing = missing  # the values the group's empty cells must take

    def __call__(self, variables: Sequence[Variable], domains: Domains, assignments: dict[Variable, int],
                 forwardcheck: object = False, _unassigned: object = constraint.Unassigned) -> bool:
        if not super().__call__(variables, domains, assignments, forwardcheck):
            return False
        if not forwardcheck:
            return True
        placed = {assignments[v] for v in variables if v in assignments}
        free = [v for v in variables if v not in assignments]
        return _place_hidden_singles(set(self.missing) - placed, free, domains)


class CageCombinations(constraint.Constraint):
    """A killer cage's digit sets: the values its cells take together must be one of the
    combinations of distinct digits that make its total (``sets``, the givens taken out).

    The forward check keeps in each unassigned cell only the digits of the sets that still
    hold every value placed in the cage, the cage reasoning people use ("17 in two cells:
    8 and 9"), and a digit every such set needs goes to the one cell that can still take
    it; the library's ExactSumConstraint beside it checks only the sum's bounds.
    """

    def __init__(self, sets: list[frozenset[int]]) -> None:
        self.sets = sets

    def __call__(self, variables: Sequence[Variable], domains: Domains, assignments: dict[Variable, int],
                 forwardcheck: object = False, _unassigned: object = constraint.Unassigned) -> bool:
        placed = {assignments[v] for v in variables if v in assignments}
        still = [digits for digits in self.sets if placed <= digits]
        if not still:
            return False
        if not forwardcheck:
            return True
        allowed = set().union(*still) - placed
        free = [v for v in variables if v not in assignments]
        for v in free:
            domain = domains[v]
            for value in domain[:]:
                if value not in allowed:
                    domain.hideValue(value)
            if not domain:
                return False
        return _place_hidden_singles(frozenset.intersection(*still) - placed, free, domains)  # every set needs them


class ExactSum(constraint.ExactSumConstraint):
    """The library's ExactSumConstraint, safe when a domain is empty before its search: its
    preprocessing prunes a cage of one open cell to the values that make the total, then
    takes the minimum of each domain, and python-constraint2 2.9.0 raises ValueError on an
    empty one (found by compare.py fuzz). An empty domain means no solution; the library's
    search then finds none."""

    def preProcess(self, variables: Sequence[Variable], domains: Domains,  # the library's name
                   constraints: list[tuple[constraint.Constraint, Sequence[Variable]]],
                   vconstraints: dict[Variable, list[tuple[constraint.Constraint, Sequence[Variable]]]]) -> None:
        try:
            super().preProcess(variables, domains, constraints, vconstraints)
        except ValueError:
            if all(domains[variable] for variable in variables):
                raise


def _place_hidden_singles(needed: Iterable[int], free: Sequence[Variable], domains: Domains) -> bool:
    """Each value in ``needed`` must go to one of the ``free`` variables: False when one has
    no place left; where only one variable can take it, every other value is hidden there."""
    for value in needed:
        holders = [v for v in free if value in domains[v]]
        if not holders:
            return False
        if len(holders) == 1:
            domain = domains[holders[0]]
            for other in domain[:]:
                if other != value:
                    domain.hideValue(other)
    return True


@dataclass
class Encoding:
    """A python-constraint Problem for a puzzle, and its size."""

    problem: constraint.Problem
    empty_cells: list[int]
    variables: int
    constraints: int


def encode(model: Model, encoding: str = ENCODINGS[0], solver: str = "backtracking",
           domains: list[tuple[int, ...]] | None = None) -> Encoding:
    """The python-constraint Problem of ``model`` (givens must not contradict each other)."""
    domains = candidates(model) if domains is None else domains
    givens = model.givens
    problem = constraint.Problem(SOLVERS[solver]())
    empty = [cell for cell in range(model.num_cells) if not givens[cell]]
    for cell in empty:
        problem.addVariable(cell, list(domains[cell]))
    constraints = 0
    for group in model.groups:
        cells = [c for c in group.cells if not givens[c]]
        if len(cells) < 2:
            continue
        if encoding == "hidden" and len(group.cells) == model.n:
            present = {givens[c] for c in group.cells}
            missing = tuple(v for v in range(1, model.n + 1) if v not in present)
            problem.addConstraint(AllDifferentPlacingSingles(missing), cells)
        else:
            problem.addConstraint(constraint.AllDifferentConstraint(), cells)
        constraints += 1
    for cage in model.cages:
        cells = [c for c in cage.cells if not givens[c]]
        if cells:  # a cage given whole was checked by domains.contradiction
            total = (cage.total or 0) - sum(givens[c] for c in cage.cells)
            problem.addConstraint(ExactSum(total), cells)
            given = frozenset(givens[c] for c in cage.cells if givens[c])
            sets = [digits - given for digits in open_combinations(model, cage)]
            problem.addConstraint(CageCombinations(sets), cells)
            constraints += 2
    return Encoding(problem, empty, len(empty), constraints)


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          encoding: str = ENCODINGS[0], solver: str = "backtracking",
          found: list[Grid] | None = None) -> Result:
    """Solve with python-constraint; time_limit is only checked between solutions (see above).
    The solutions are appended to ``found`` when given (a Counted list counts them)."""
    start = time.perf_counter()
    domains, refuted = reduced_or_refuted(model)
    if refuted is not None:
        return refuted
    built = encode(model, encoding, solver, domains)
    stats = Stats(encode_time=time.perf_counter() - start, variables=built.variables,
                  constraints=built.constraints)

    begin = time.perf_counter()
    if not built.empty_cells:  # every cell given and consistent: the library would report no solution
        stats.solve_time = time.perf_counter() - begin
        return finish([model.givens], True, stats, limit_hit=False)
    grids: list[Grid] = [] if found is None else found
    exhausted, late = True, False
    for counted, assignment in enumerate(built.problem.getSolutionIter(), start=1):
        grids.append(_grid(model, assignment))
        if counted >= max_solutions:
            exhausted = False
            break
        if time_limit is not None and time.perf_counter() - start > time_limit:
            exhausted, late = False, True
            break
    stats.solve_time = time.perf_counter() - begin
    return finish(grids, exhausted, stats, limit_hit=late,
                  message="time limit reached between solutions" if late else "")


def _grid(model: Model, assignment: dict[int, int]) -> Grid:
    return tuple(given or assignment[cell] for cell, given in enumerate(model.givens))
