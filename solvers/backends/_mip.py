"""Integer programming with HiGHS (highspy): Sudoku as a 0-1 feasibility problem.

The model (the classic one, over the model's groups, so variants and sizes need
nothing special):

- one binary x[c, v] per open cell c and candidate v (a value not given in any group
  of c; a given is not a variable at all);
- sum over v of x[c, v] = 1 for every open cell c;
- sum over the open cells c of g of x[c, v] = 1 for every group g and every value v
  not given in g (at most 1 where g has fewer than n cells: it need not hold every value);
- for every killer cage with a total, sum over its open cells c and candidates v of
  v * x[c, v] = the total less the cage's givens (the cage's digits differ because
  it is also one of the groups), and the cage's combinations: one binary z[k] per set of
  distinct digits that makes the total (less the givens), sum of the z = 1, and for every
  digit d, sum over the cage's open cells of x[c, d] = sum of the z[k] whose set holds d.
  The sum alone gives a weak LP relaxation (a fractional mix of digits meets any total);
  the combinations describe exactly which digit sets can fill the cage, and took the
  bundled cages-only killers from 2 of 5 solved in 20 s to all 5 (bench/README.md);
- no objective: any feasible point is an answer.

The rows go to HiGHS in one call (``addRows`` with CSR arrays), the columns in one
``addVars``. HiGHS's presolve (probing, clique merging) settles most 9x9 puzzles
before branch and bound starts, so top95 averages zero B&B nodes.

Uniqueness and counting: after a solution, a no-good cut ``sum of the x that are 1
<= open cells - 1`` forbids exactly that grid, and HiGHS solves again; infeasible
means every solution has been seen. ``time_limit`` is HiGHS's own ``time_limit``
(what is left of it, per solve); ``node_limit`` is ``mip_max_nodes`` (what is left,
per solve), and a spent budget is Status.UNKNOWN. Every HiGHS model status is
translated explicitly (``STATUSES``); one this module does not know raises
UnknownStatusError instead of being guessed. HiGHS prints nothing.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import highspy
import numpy as np

from models import Cage, Grid, Model

from ..encodings.cages import open_combinations
from ..encodings.domains import given_values, reduced_or_refuted
from ..result import Result, Stats, Status, finish

_MS = highspy.HighsModelStatus
# Every HiGHS model status, translated explicitly. With no objective and 0-1 bounds a
# model cannot be unbounded, so "unbounded or infeasible" (presolve's verdict) is
# infeasible; a budget (nodes = HiGHS's "solution limit", iterations) is UNKNOWN.
STATUSES: dict[highspy.HighsModelStatus, Status] = {
    _MS.kOptimal: Status.SOLVED,
    _MS.kInfeasible: Status.UNSAT,
    _MS.kUnboundedOrInfeasible: Status.UNSAT,
    _MS.kTimeLimit: Status.TIMEOUT,
    _MS.kSolutionLimit: Status.UNKNOWN,
    _MS.kIterationLimit: Status.UNKNOWN,
    _MS.kInterrupt: Status.UNKNOWN,
    _MS.kHighsInterrupt: Status.UNKNOWN,
    _MS.kUnknown: Status.UNKNOWN,
    _MS.kMemoryLimit: Status.ERROR,
    _MS.kNotset: Status.ERROR,
    _MS.kLoadError: Status.ERROR,
    _MS.kModelError: Status.ERROR,
    _MS.kPresolveError: Status.ERROR,
    _MS.kSolveError: Status.ERROR,
    _MS.kPostsolveError: Status.ERROR,
    _MS.kModelEmpty: Status.ERROR,
    _MS.kUnbounded: Status.ERROR,
    _MS.kObjectiveBound: Status.ERROR,
    _MS.kObjectiveTarget: Status.ERROR,
}


class UnknownStatusError(RuntimeError):
    """HiGHS returned a model status this backend does not know how to translate."""


def translate(model_status: highspy.HighsModelStatus) -> Status:
    """The toolkit's Status for a HiGHS model status; an unknown one raises UnknownStatusError."""
    try:
        return STATUSES[model_status]
    except (KeyError, TypeError):
        raise UnknownStatusError(
            f"HiGHS returned the unknown model status {model_status!r}") from None


@dataclass
class Encoding:
    """The HiGHS model of a puzzle: which (cell, value) each column is."""

    highs: highspy.Highs
    columns: list[tuple[int, int]]  # column j is x[cell, value]
    open_cells: int
    rows: int


@dataclass
class _Rows:
    """The constraint rows, gathered for one ``addRows`` call (CSR: where each row starts,
    its columns and their coefficients, and its bounds)."""

    starts: list[int] = field(default_factory=list)
    entries: list[int] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)
    lower: list[float] = field(default_factory=list)
    upper: list[float] = field(default_factory=list)

    def add(self, low: float, high: float, terms: list[tuple[int, float]]) -> None:
        """The row low <= sum of coefficient * column <= high."""
        self.starts.append(len(self.entries))
        self.lower.append(low)
        self.upper.append(high)
        self.entries.extend(j for j, _ in terms)
        self.weights.extend(w for _, w in terms)


def encode(model: Model, domains: list[tuple[int, ...]], presolve: bool = True) -> Encoding | str:
    """The 0-1 model in a silent Highs object, or why the givens already leave no solution."""
    givens, n = model.givens, model.n
    index: dict[tuple[int, int], int] = {}
    rows = _Rows()
    for cell, values in enumerate(domains):
        if not givens[cell]:
            for value in values:
                index[cell, value] = len(index)
            rows.add(1.0, 1.0, [(index[cell, value], 1.0) for value in values])
    open_cells = len(rows.starts)
    for group, present in zip(model.groups, given_values(model)):
        for value in range(1, n + 1):
            if value in present:
                continue
            places = [(index[c, value], 1.0) for c in group.cells if (c, value) in index]
            full = len(group.cells) == n  # "at most one" in a group smaller than the grid
            if not places and full:
                return f"{value} has no place left in {group.name}"
            if places:
                rows.add(1.0 if full else 0.0, 1.0, places)
    selectors = _cage_rows(model, domains, index, rows)
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("presolve", "on" if presolve else "off")
    count = len(index) + selectors
    highs.addVars(count, np.zeros(count), np.ones(count))
    highs.changeColsIntegrality(count, np.arange(count, dtype=np.int32),
                                np.full(count, highspy.HighsVarType.kInteger))
    highs.addRows(len(rows.starts), np.array(rows.lower), np.array(rows.upper), len(rows.entries),
                  np.array(rows.starts, dtype=np.int32), np.array(rows.entries, dtype=np.int32),
                  np.array(rows.weights))
    return Encoding(highs, list(index), open_cells, len(rows.starts))


def _cage_rows(model: Model, domains: list[tuple[int, ...]], index: dict[tuple[int, int], int],
               rows: _Rows) -> int:
    """Each cage's total and its combinations as rows; returns how many combination columns
    (the z, numbered after every x) they use."""
    givens = model.givens
    selectors = 0
    for cage in model.cages:
        open_cells = [c for c in cage.cells if not givens[c]]
        terms = [(index[c, v], float(v)) for c in open_cells for v in domains[c]]
        if not terms:  # a cage given whole was checked by domains.contradiction
            continue
        rest = float((cage.total or 0) - sum(givens[c] for c in cage.cells))
        rows.add(rest, rest, terms)
        first = len(index) + selectors
        needed = _open_digit_sets(model, cage)
        selectors += len(needed)
        rows.add(1.0, 1.0, [(first + k, 1.0) for k in range(len(needed))])
        for digit in sorted(set().union(*needed) | {v for c in open_cells for v in domains[c]}):
            holders = [(index[c, digit], 1.0) for c in open_cells if (c, digit) in index]
            chosen = [(first + k, -1.0) for k, digits in enumerate(needed) if digit in digits]
            rows.add(0.0, 0.0, holders + chosen)
    return selectors


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          node_limit: int | None = None, presolve: bool = True, seed: int | None = None,
          found: list[Grid] | None = None) -> Result:
    """Solve the 0-1 model with HiGHS; count up to max_solutions with no-good cuts (the
    solutions appended to ``found`` when given: a Counted list counts them)."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    domains, refuted = reduced_or_refuted(model)
    if refuted is not None:
        return refuted
    built = encode(model, domains, presolve)
    if isinstance(built, str):
        return Result(Status.UNSAT, [], True, Stats(encode_time=time.perf_counter() - start), built)
    if seed is not None:
        built.highs.setOptionValue("random_seed", seed)
    stats = Stats(encode_time=time.perf_counter() - start, nodes=0, lp_iterations=0,
                  variables=len(built.columns), constraints=built.rows)
    if not built.columns:  # every cell given, and no group repeats a value
        stats.solve_time = 0.0
        return finish([model.givens], True, stats, limit_hit=False)
    begin = time.perf_counter()
    solutions, status, cuts = _enumerate(model, built, max_solutions, deadline, node_limit, stats,
                                         [] if found is None else found)
    stats.solve_time = time.perf_counter() - begin
    stats.constraints = built.rows + cuts
    if status is Status.ERROR:
        return Result(Status.ERROR, solutions, False, stats,
                      f"HiGHS: {built.highs.modelStatusToString(built.highs.getModelStatus())}")
    return finish(solutions, status is Status.UNSAT, stats, limit_hit=status is Status.TIMEOUT,
                  budget_hit=status is Status.UNKNOWN)


def _enumerate(model: Model, built: Encoding, max_solutions: int, deadline: float | None,
               node_limit: int | None, stats: Stats, solutions: list[Grid]) -> tuple[list[Grid], Status, int]:
    """Solve, cut the solution off, solve again, until max_solutions or another status.

    Returns the grids found (appended to ``solutions``), the status of the last solve: SOLVED
    when it stopped at max_solutions, UNSAT when no further solution exists, else why it
    stopped; and the cuts added.
    """
    highs = built.highs
    found = 0
    while True:  # each solution found so far has its cut
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                return solutions, Status.TIMEOUT, found
            highs.setOptionValue("time_limit", left)
        if node_limit is not None:  # what is left of the budget; presolve needs no node
            highs.setOptionValue("mip_max_nodes", max(node_limit - (stats.nodes or 0), 0))
        highs.run()
        status = translate(highs.getModelStatus())
        info = highs.getInfo()
        stats.nodes += max(info.mip_node_count, 0)
        stats.lp_iterations += max(info.simplex_iteration_count, 0)
        if status is not Status.SOLVED:
            return solutions, status, found
        values = highs.getSolution().col_value[:len(built.columns)]  # the x; the z follow
        ones = [j for j, x in enumerate(values) if x > 0.5]
        solutions.append(_grid(model, built.columns, ones))
        found += 1
        if found >= max_solutions:
            return solutions, Status.SOLVED, found - 1
        # The no-good cut: at most open_cells - 1 of this solution's ones again.
        highs.addRow(-highspy.kHighsInf, built.open_cells - 1, len(ones),
                     np.array(ones, dtype=np.int32), np.ones(len(ones)))


def _open_digit_sets(model: Model, cage: Cage) -> list[frozenset[int]]:
    """The digits the cage's open cells can hold together: each combination of the cage's
    total that holds its givens, less the givens (at least one: domains.contradiction
    refuted a cage with none)."""
    given = frozenset(model.givens[c] for c in cage.cells if model.givens[c])
    return [digits - given for digits in open_combinations(model, cage)]


def _grid(model: Model, columns: list[tuple[int, int]], ones: list[int]) -> Grid:
    grid = list(model.givens)
    for j in ones:
        cell, value = columns[j]
        grid[cell] = value
    return tuple(grid)
