"""OR-tools CP-SAT backend: the model's groups as AllDifferent on integers, or as one-hot Booleans.

Encodings (``encoding=``):

- ``boolean`` (default): one Boolean per (empty cell, candidate value); exactly
  one per empty cell, and exactly one per (group, value not given in that group).
  Empty 9x9 grid: 729 variables, 81 + 27 * 9 = 324 constraints. The faster of the
  two on every bundled set measured (bench/README.md, issue 14).
- ``integer``: one integer variable per empty cell, its domain the values not
  given in any of its groups; a given is a constant; one AllDifferent per
  group. Empty 9x9 grid: 81 variables, 27 constraints.

Both encode exactly ``model.groups`` and ``model.givens``, so X-Sudoku and
jigsaw need nothing special. A killer cage is one of the groups (its digits
differ) and, with a total, one linear equality: the cells' integer variables sum
to the total (``integer``), or the value-weighted Booleans do (``boolean``:
sum of value * [cell holds value]); a given in the cage is a constant.

Solver settings (measured in bench/README.md): one search worker, CP-SAT's
presolve, probing, symmetry detection, LP relaxation and in-processing switched off. On a Sudoku these cost more than
they save: propagation of the AllDifferent (or exactly-one) constraints
solves most puzzles in a few dozen branches. ``parameters=`` restores any of
them. A fixed random seed makes runs repeatable; with ``workers > 1`` CP-SAT's
portfolio is not deterministic.

``max_solutions > 1`` enumerates in one search (``enumerate_all_solutions``,
which CP-SAT supports with one worker only) and stops at the limit.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from models import Grid, Model

from ..encodings.domains import candidates, given_values, reduced_or_refuted
from ..result import Result, Stats, Status, finish

ENCODINGS = ("boolean", "integer")
"""The first is the default (the declaration, cpsat.py, lists the same; a test checks)."""
DEFAULT_WORKERS = 1
DEFAULT_SEED = 0

# Switched off by default: each costs more than it saves on Sudoku (bench/bench_cpsat_csp.py).
TUNED_PARAMETERS: dict[str, Any] = {
    "cp_model_presolve": False,
    "cp_model_probing_level": 0,
    "symmetry_level": 0,
    "linearization_level": 0,
    "use_sat_inprocessing": False,
}

# Every CP-SAT status, translated explicitly; anything else raises UnknownStatusError.
STATUSES: dict[Any, Status] = {
    cp_model.OPTIMAL: Status.SOLVED,
    cp_model.FEASIBLE: Status.SOLVED,
    cp_model.INFEASIBLE: Status.UNSAT,
    cp_model.UNKNOWN: Status.TIMEOUT,
    cp_model.MODEL_INVALID: Status.ERROR,
}

Decoder = Callable[[Callable[[Any], int]], Grid]


class UnknownStatusError(RuntimeError):
    """CP-SAT returned a status this backend does not know how to translate."""


def translate(cp_status: Any) -> Status:
    """The toolkit's Status for a CP-SAT status; an unknown one raises UnknownStatusError."""
    try:
        return STATUSES[cp_status]
    except (KeyError, TypeError):
        raise UnknownStatusError(f"CP-SAT returned the unknown status {cp_status!r}") from None


class _LeanCpModel(cp_model.CpModel):
    """A CpModel without the deprecated CamelCase method aliases.

    CpModel() attaches those aliases to every new instance through the private hook
    ``_add_pre_pep8_methods``; skipping it saves about 0.1 ms per model build, a third
    of a 9x9 encode (bench/bench_cpsat_model.py, figures in bench/README.md). Nothing
    here calls a CamelCase name. tests/test_cpsat.py fails if OR-tools drops the hook.
    """

    def _add_pre_pep8_methods(self) -> None:
        return None


@dataclass
class Encoding:
    """A CP-SAT model of a puzzle and how to read a grid back from a solution."""

    cp: cp_model.CpModel
    decode: Decoder
    variables: int
    constraints: int


def encode(model: Model, encoding: str = ENCODINGS[0],
           domains: list[tuple[int, ...]] | None = None) -> Encoding:
    """The CP-SAT model of ``model`` under the named encoding.

    ``domains`` are the cells' candidates (computed from the givens if not passed);
    the puzzle must have no contradiction among its givens (see domains.contradiction).
    """
    domains = candidates(model) if domains is None else domains
    if encoding == "integer":
        return _integer(model, domains)
    if encoding == "boolean":
        return _boolean(model, domains)
    raise ValueError(f"unknown cpsat encoding {encoding!r}; valid: {', '.join(ENCODINGS)}")


def _integer(model: Model, domains: list[tuple[int, ...]]) -> Encoding:
    cp = _LeanCpModel()
    cells = []
    for cell, values in enumerate(domains):
        if model.givens[cell]:
            cells.append(cp.new_constant(model.givens[cell]))
        else:
            cells.append(cp.new_int_var_from_domain(cp_model.Domain.from_values(values), ""))
    for group in model.groups:
        cp.add_all_different([cells[c] for c in group.cells])
    for cage in model.cages:
        cp.add(sum(cells[c] for c in cage.cells) == cage.total)

    def decode(value: Callable[[Any], int]) -> Grid:
        return tuple(int(value(v)) for v in cells)

    empty = sum(1 for g in model.givens if not g)
    return Encoding(cp, decode, empty, len(model.groups) + len(model.cages))


def _boolean(model: Model, domains: list[tuple[int, ...]]) -> Encoding:
    cp = _LeanCpModel()
    givens, n = model.givens, model.n
    # is_value[cell][value]: the Boolean "cell holds value", for empty cells and their candidates
    is_value: list[dict[int, Any]] = [{} for _ in domains]
    constraints = 0
    for cell, values in enumerate(domains):
        if givens[cell]:
            continue
        is_value[cell] = {v: cp.new_bool_var("") for v in values}
        cp.add_exactly_one(is_value[cell].values())
        constraints += 1
    for group, present in zip(model.groups, given_values(model)):
        for value in range(1, n + 1):
            if value not in present:
                places = [is_value[c][value] for c in group.cells if value in is_value[c]]
                if len(group.cells) == n:
                    cp.add_exactly_one(places)
                else:  # a group smaller than the grid need not hold every value
                    cp.add_at_most_one(places)
                constraints += 1
    for cage in model.cages:
        given_sum = sum(givens[c] for c in cage.cells)
        cp.add(sum(v * b for c in cage.cells for v, b in is_value[c].items())
               == (cage.total or 0) - given_sum)  # Model.cages holds only cages with a total
        constraints += 1

    def decode(value: Callable[[Any], int]) -> Grid:
        return tuple(givens[cell] or next(v for v, b in is_value[cell].items() if value(b))
                     for cell in range(len(domains)))

    variables = sum(len(d) for d in is_value)
    return Encoding(cp, decode, variables, constraints)


class _Collector(cp_model.CpSolverSolutionCallback):
    """Keeps each solution's grid and stops the search at the limit."""

    def __init__(self, decode: Decoder, limit: int, grids: list[Grid]) -> None:
        super().__init__()
        self.decode, self.limit = decode, limit
        self.grids = grids  # a Counted list keeps a sample and counts
        self.found = 0
        self.stopped = False

    def on_solution_callback(self) -> None:
        self.grids.append(self.decode(self.value))
        self.found += 1
        if self.found >= self.limit:
            self.stopped = True
            self.stop_search()


def configured_solver(*, workers: int = DEFAULT_WORKERS, seed: int = DEFAULT_SEED,
                      parameters: dict[str, Any] | None = None,
                      time_limit: float | None = None) -> cp_model.CpSolver:
    """A CpSolver with this backend's settings: TUNED_PARAMETERS, then ``parameters``."""
    solver = cp_model.CpSolver()
    settings = solver.parameters
    for name, value in {**TUNED_PARAMETERS, **(parameters or {})}.items():
        setattr(settings, name, value)
    settings.random_seed = seed
    settings.num_workers = workers
    if time_limit is not None:
        settings.max_time_in_seconds = time_limit
    return solver


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          encoding: str = ENCODINGS[0], workers: int = DEFAULT_WORKERS, seed: int = DEFAULT_SEED,
          parameters: dict[str, Any] | None = None, found: list[Grid] | None = None) -> Result:
    """Solve with CP-SAT; up to max_solutions grids (appended to ``found`` when given: a
    Counted list counts them), stopping at time_limit seconds."""
    start = time.perf_counter()
    domains, refuted = reduced_or_refuted(model)
    if refuted is not None:
        return refuted
    built = encode(model, encoding, domains)
    stats = Stats(encode_time=time.perf_counter() - start, variables=built.variables,
                  constraints=built.constraints)

    solver = configured_solver(workers=workers, seed=seed, parameters=parameters,
                               time_limit=None if time_limit is None
                               else max(time_limit - (stats.encode_time or 0.0), 1e-3))
    settings = solver.parameters
    collector = None
    if max_solutions > 1:
        settings.enumerate_all_solutions = True
        settings.num_workers = 1  # CP-SAT enumerates with a single worker only
        collector = _Collector(built.decode, max_solutions, [] if found is None else found)

    begin = time.perf_counter()
    cp_status = solver.solve(built.cp, collector)
    stats.solve_time = time.perf_counter() - begin
    status = translate(cp_status)  # first: an unknown status raises before anything is read
    stats.nodes = solver.num_branches
    stats.conflicts = solver.num_conflicts
    stats.propagations = solver.num_binary_propagations + solver.num_integer_propagations
    return _result(status, cp_status, solver, built, collector, stats)


def _result(status: Status, cp_status: Any, solver: cp_model.CpSolver, built: Encoding,
            collector: _Collector | None, stats: Stats) -> Result:
    if status is Status.ERROR:
        return Result(Status.ERROR, [], False, stats,
                      f"CP-SAT: {solver.status_name(cp_status)} {built.cp.validate()}".strip())
    if status is Status.UNSAT:
        return Result(Status.UNSAT, [], True, stats)
    if collector is None:
        grids = [built.decode(solver.value)] if status is Status.SOLVED else []
        return finish(grids, False, stats, limit_hit=status is Status.TIMEOUT)
    # Enumeration: OPTIMAL means every solution was seen; FEASIBLE means a stop (ours or the clock).
    exhausted = cp_status == cp_model.OPTIMAL and not collector.stopped
    timed_out = not exhausted and not collector.stopped
    return finish(collector.grids, exhausted, stats, limit_hit=timed_out,
                  message="time limit reached" if timed_out else "")
