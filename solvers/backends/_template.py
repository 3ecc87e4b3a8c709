"""A template for a new backend: copy this file to ``solvers/backends/NAME.py``, add one row
``Backend("NAME", "one line on the method", "solvers.backends.NAME")`` to
``solvers/registry.py``'s BACKENDS, and nothing else by hand (``python -m tests.docs_tables``
writes its rows into the docs' tables): ``compare.py list NAME`` shows its options,
``--solvers NAME:OPTION=VALUE`` is checked against them before anything runs, and the
harness, the Python API and the tests (parametrised over the registry, each backend's cases
chosen by the ``reach`` it declares) run it through ``Backend.solve``, which checks the
limits and options, so ``solve`` below trusts them.

What is here is a real, small method (it passes the shared backend tests when registered):
depth-first search over the empty cells in order, each value checked against the cell's
peers. Replace ``_search`` with yours. If your method needs a package, name it in
``package``/``imports`` and import it inside ``solve`` (or a private sibling module), never
at the top: the declaration must be readable without it.
"""
from __future__ import annotations

import time

from models import Grid, Model

from ..options import Declaration, Option, Reach, node_limit
from ..result import Result, Stats, finish, stop_message

DECLARATION = Declaration(
    options=(
        node_limit("values tried"),
        Option("value_order", "choice", "ascending: values 1..n; descending: n..1",
               default="ascending", choices=("ascending", "descending")),
    ),
    counters={"nodes": "values tried in a cell", "backtracks": "values taken back"},
    constraints=frozenset({"all-different"}),  # add "sum" once killer cages are modelled
    package=None, imports=None,                 # e.g. "ortools", "ortools"
    notes="a template to copy",                 # the README's notes column, a few words
    # what it finishes within the contract tests' budget (solvers/options.py Reach): a blind
    # search stops at 9x9 puzzles with plenty of givens; the rest run in the full tier only,
    # under this node budget (about twice what its cases within reach take), and skip when
    # they spend it
    reach=Reach(largest=9, hardness=0, budget={"node_limit": 500_000}),
)


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          node_limit: int | None = None, value_order: str = "ascending") -> Result:
    """Depth-first search in cell order; up to max_solutions grids."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    stats = Stats(nodes=0, backtracks=0)
    values = range(1, model.n + 1) if value_order == "ascending" else range(model.n, 0, -1)
    grid = list(model.givens)
    if any(grid[cell] and grid[cell] in {grid[p] for p in model.peers[cell]}
           for cell in range(len(grid))):
        stats.solve_time = time.perf_counter() - start
        return finish([], True, stats, limit_hit=False, message="the givens contradict each other")
    solutions: list[Grid] = []
    empties = [cell for cell, value in enumerate(grid) if not value]
    stopped = _search(model, grid, empties, 0, list(values), solutions, max_solutions,
                      deadline, node_limit, stats)
    stats.solve_time = time.perf_counter() - start
    budget_hit = stopped and node_limit is not None and (stats.nodes or 0) >= node_limit
    return finish(solutions, not stopped and len(solutions) < max_solutions, stats,
                  limit_hit=stopped and not budget_hit, budget_hit=budget_hit,
                  message=stop_message(stopped, budget_hit))


def _search(model: Model, grid: list[int], empties: list[int], depth: int, values: list[int],
            solutions: list[Grid], wanted: int, deadline: float | None,
            budget: int | None, stats: Stats) -> bool:
    """Fill empties[depth:]; True when a limit stopped the search."""
    if depth == len(empties):
        solutions.append(tuple(grid))
        return False
    cell = empties[depth]
    taken = {grid[peer] for peer in model.peers[cell]}
    for value in values:
        if value in taken:
            continue
        if (budget is not None and (stats.nodes or 0) >= budget) or (
                deadline is not None and time.perf_counter() > deadline):
            return True
        stats.nodes = (stats.nodes or 0) + 1
        grid[cell] = value
        stopped = _search(model, grid, empties, depth + 1, values, solutions, wanted, deadline,
                          budget, stats)
        grid[cell] = 0
        if stopped or len(solutions) >= wanted:
            return stopped
        stats.backtracks = (stats.backtracks or 0) + 1
    return False
