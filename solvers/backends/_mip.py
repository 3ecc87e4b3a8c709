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
from dataclasses import dataclass

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


def encode(model: Model, domains: list[tuple[int, ...]], presolve: bool = True) -> Encoding | str:
    """The 0-1 model in a silent Highs object, or why the givens already leave no solution."""
    givens, n = model.givens, model.n
    index: dict[tuple[int, int], int] = {}
    starts: list[int] = []
    entries: list[int] = []
    weights: list[float] = []  # the coefficient of each entry
    lower: list[float] = []  # 1 for "exactly one", 0 for "at most one" (a group smaller than n)
    upper: list[float] = []
    for cell, values in enumerate(domains):
        if not givens[cell]:
            starts.append(len(entries))
            lower.append(1.0)
            upper.append(1.0)
            for value in values:
                index[cell, value] = len(index)
                entries.append(index[cell, value])
                weights.append(1.0)
    open_cells = len(starts)
    for group, present in zip(model.groups, given_values(model)):
        for value in range(1, n + 1):
            if value in present:
                continue
            places = [index[c, value] for c in group.cells if (c, value) in index]
            full = len(group.cells) == n
            if not places and full:
                return f"{value} has no place left in {group.name}"
            if not places:
                continue
            starts.append(len(entries))
            lower.append(1.0 if full else 0.0)
            upper.append(1.0)
            entries.extend(places)
            weights.extend([1.0] * len(places))
    def row(bound: float, terms: list[tuple[int, float]]) -> None:
        starts.append(len(entries))
        lower.append(bound)
        upper.append(bound)
        entries.extend(j for j, _ in terms)
        weights.extend(w for _, w in terms)

    selectors = 0  # the combination columns z, numbered after every x
    for cage in model.cages:
        terms = [(index[c, v], float(v)) for c in cage.cells if not givens[c] for v in domains[c]]
        if not terms:  # a cage given whole was checked by domains.contradiction
            continue
        row(float((cage.total or 0) - sum(givens[c] for c in cage.cells)), terms)
        first = len(index) + selectors
        needed = _open_digit_sets(model, cage)
        selectors += len(needed)
        row(1.0, [(first + k, 1.0) for k in range(len(needed))])
        open_cells_of_cage = [c for c in cage.cells if not givens[c]]
        for digit in sorted(set().union(*needed) | {v for c in open_cells_of_cage for v in domains[c]}):
            holders = [(index[c, digit], 1.0) for c in open_cells_of_cage if (c, digit) in index]
            row(0.0, holders + [(first + k, -1.0) for k, digits in enumerate(needed) if digit in digits])
    highs = highspy.Highs()
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("presolve", "on" if presolve else "off")
    count, rows = len(index) + selectors, len(starts)
    highs.addVars(count, np.zeros(count), np.ones(count))
    highs.changeColsIntegrality(count, np.arange(count, dtype=np.int32),
                                np.full(count, highspy.HighsVarType.kInteger))
    highs.addRows(rows, np.array(lower), np.array(upper), len(entries),
                  np.array(starts, dtype=np.int32), np.array(entries, dtype=np.int32),
                  np.array(weights))
    return Encoding(highs, list(index), open_cells, rows)


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          node_limit: int | None = None, presolve: bool = True, seed: int | None = None) -> Result:
    """Solve the 0-1 model with HiGHS; count up to max_solutions with no-good cuts."""
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
    solutions, status = _enumerate(model, built, max_solutions, deadline, node_limit, stats)
    stats.solve_time = time.perf_counter() - begin
    stats.constraints = built.rows + len(solutions) - (status is Status.SOLVED)
    if status is Status.ERROR:
        return Result(Status.ERROR, solutions, False, stats,
                      f"HiGHS: {built.highs.modelStatusToString(built.highs.getModelStatus())}")
    return finish(solutions, status is Status.UNSAT, stats, limit_hit=status is Status.TIMEOUT,
                  budget_hit=status is Status.UNKNOWN)


def _enumerate(model: Model, built: Encoding, max_solutions: int, deadline: float | None,
               node_limit: int | None, stats: Stats) -> tuple[list[Grid], Status]:
    """Solve, cut the solution off, solve again, until max_solutions or another status.

    Returns the grids found and the status of the last solve: SOLVED when it stopped at
    max_solutions, UNSAT when no further solution exists, else why it stopped.
    """
    highs = built.highs
    solutions: list[Grid] = []
    while True:
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                return solutions, Status.TIMEOUT
            highs.setOptionValue("time_limit", left)
        if node_limit is not None:  # what is left of the budget; presolve needs no node
            highs.setOptionValue("mip_max_nodes", max(node_limit - (stats.nodes or 0), 0))
        highs.run()
        status = translate(highs.getModelStatus())
        info = highs.getInfo()
        stats.nodes += max(info.mip_node_count, 0)
        stats.lp_iterations += max(info.simplex_iteration_count, 0)
        if status is not Status.SOLVED:
            return solutions, status
        values = highs.getSolution().col_value[:len(built.columns)]  # the x; the z follow
        ones = [j for j, x in enumerate(values) if x > 0.5]
        solutions.append(_grid(model, built.columns, ones))
        if len(solutions) >= max_solutions:
            return solutions, Status.SOLVED
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
