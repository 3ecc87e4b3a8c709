"""The ``choco`` backend: Choco's all-different and sum constraints, solved by Choco through
pychoco (Choco compiled to a native library: no Java virtual machine is started).

One integer variable 1..n per empty cell and a constant per given; one ``all_different`` per
group of the model, at the consistency level the ``consistency`` option names (Choco's own
names: AC is arc consistency by Zhang's improvement of Regin's matching, BC bounds
consistency, DEFAULT bounds plus a probabilistic arc-consistency filter); one ``sum`` per
cage total. Search: Choco's default strategy, or one the ``search`` option names; a
``seed`` switches to Choco's random search (random cell and value) seeded by it.

Several solutions by enumeration in one search, stopped at max_solutions. Choco's search
state is translated explicitly (:data:`SEARCH_STATES`): TERMINATED is a search exhausted,
STOPPED a limit (the solution count, or the time limit Choco checks itself); anything else
is an error.

Counters: Choco's nodes, fails and backtracks, read from the native library directly
(pychoco 0.4's ``Solver.get_node_count`` returns the time count instead), and restarts.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from models import Grid, Model

from ..options import Declaration, Option, OptionError, seed
from ..result import COUNT_ALL, SAMPLE, Counted, Result, Stats, finish, with_count

CONSISTENCIES = ("AC", "AC_REGIN", "AC_ZHANG", "BC", "DEFAULT")
"""Choco's all-different filtering algorithms, pychoco's default (AC) first."""
SEARCHES = {
    "default": "set_default_search",
    "dom_over_w_deg": "set_dom_over_w_deg_search",
    "dom_over_w_deg_ref": "set_dom_over_w_deg_ref_search",
    "min_dom_lb": "set_min_dom_lb_search",
    "activity": "set_activity_based_search",
    "conflict_history": "set_conflict_history_search",
    "input_order": "set_input_order_lb_search",
    "random": "set_random_search",
}
"""The search option -> the pychoco Solver method that sets it."""
SEARCH_STATES = {"TERMINATED": True, "STOPPED": False}
"""Choco's search state after a search -> whether the search space was exhausted."""


def _resolve(options: dict[str, Any]) -> dict[str, Any]:
    """A seed means Choco's random search: made explicit, and refused with another search."""
    chosen, number = options["search"], options["seed"]
    if number is not None and chosen not in ("default", "random"):
        raise OptionError(f"option 'seed' seeds Choco's random search; search={chosen} takes no seed "
                          f"(leave search at default or random)")
    if number is not None or chosen == "random":
        return {**options, "search": "random", "seed": 0 if number is None else number}
    return options


DECLARATION = Declaration(
    options=(
        Option("consistency", "choice", "the all-different filtering: AC (arc consistency, Zhang's "
               "Regin), AC_REGIN, AC_ZHANG, BC (bounds), DEFAULT (bounds plus probabilistic AC)",
               default="AC", choices=CONSISTENCIES),
        Option("search", "choice", "Choco's search strategy: default (Choco's own), dom_over_w_deg, "
               "dom_over_w_deg_ref, min_dom_lb (MRV, smallest value), activity, conflict_history, "
               "input_order, random (seeded by seed, 0 unless given)", default="default",
               choices=tuple(SEARCHES)),
        seed("Choco's random search (random cell, random value) with this seed"),
    ),
    counters={
        "nodes": "Choco search nodes",
        "conflicts": "Choco fails (a propagation emptied a domain)",
        "backtracks": "Choco backtracks",
        "restarts": "Choco restarts",
        "variables": "integer variables (one per empty cell)",
        "constraints": "constraints posted (one all-different per group, one sum per cage)",
    },
    constraints=frozenset({"all-different", "sum"}),
    package="pychoco", imports="pychoco", extra="cp", resolve=_resolve,
    notes="the `cp` extra (pychoco)",
)


class UnknownSearchStateError(RuntimeError):
    """Choco ended a search in a state this backend does not know how to translate."""


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          consistency: str = "AC", search: str = "default", seed: int | None = None) -> Result:
    """Solve with Choco; up to max_solutions grids, stopping at time_limit seconds."""
    solver, cells, stats = _built(model, consistency, search, seed)
    remaining = None if time_limit is None else max(time_limit - (stats.encode_time or 0.0), 0.001)
    began = time.perf_counter()
    found = solver.find_all_solutions(solution_limit=max_solutions,
                                      time_limit=None if remaining is None else f"{remaining:.3f}s")
    stats.solve_time = time.perf_counter() - began
    grids: list[Grid] = [tuple(answer.get_int_val(cell) for cell in cells) for answer in found]
    _read_counters(solver, stats)
    return translate(solver.get_search_state(), grids, max_solutions, stats)


def count(model: Model, *, time_limit: float | None = None, sample: int = SAMPLE, consistency: str = "AC",
          search: str = "default", seed: int | None = None) -> Result:
    """Count every solution (count mode): Choco's search resumed solution after solution, each
    counted, the first ``sample`` read and kept."""
    solver, cells, stats = _built(model, consistency, search, seed)
    if time_limit is not None:
        solver.limit_time(f"{max(time_limit - (stats.encode_time or 0.0), 0.001):.3f}s")
    found = Counted(sample)
    began = time.perf_counter()
    while solver.solve():
        if len(found) < found.keep:
            found.append(tuple(cell.get_value() for cell in cells))
        else:
            found.total += 1
    stats.solve_time = time.perf_counter() - began
    _read_counters(solver, stats)
    return with_count(translate(solver.get_search_state(), list(found), COUNT_ALL, stats), found)


def _built(model: Model, consistency: str, search: str, seed: int | None) -> tuple[Any, list[Any], Stats]:
    """The model posted in Choco: its solver (search set), the cells' variables, and stats with
    the encoding's time and size."""
    from pychoco.model import Model as ChocoModel  # noqa: PLC0415 - the solver library, loaded only to solve

    start = time.perf_counter()
    choco = ChocoModel()
    cells = [choco.intvar(given) if given else choco.intvar(1, model.n) for given in model.givens]
    for group in model.groups:
        choco.all_different([cells[c] for c in group.cells], consistency).post()
    for cage in model.cages:
        choco.sum([cells[c] for c in cage.cells], "=", cage.total or 0).post()  # Model.cages: totals only
    solver = choco.get_solver()
    _set_search(solver, search, seed, [cells[c] for c, given in enumerate(model.givens) if not given])
    stats = Stats(encode_time=time.perf_counter() - start, variables=model.givens.count(0),
                  constraints=len(model.groups) + len(model.cages))
    return solver, cells, stats


def _read_counters(solver: Any, stats: Stats) -> None:
    """Choco's counters, read from the native library (see the module docstring)."""
    from pychoco import backend  # noqa: PLC0415 - the solver library, loaded only to solve

    handle = solver._handle
    stats.nodes, stats.conflicts = _counter(backend.get_node_count, handle), _counter(backend.get_fail_count, handle)
    stats.backtracks = _counter(backend.get_backtrack_count, handle)
    stats.restarts = _counter(backend.get_restart_count, handle)


def _set_search(solver: Any, search: str, seed: int | None, open_cells: list[Any]) -> None:
    """Choco's default search, or the one named, over the open cells."""
    if search == "default" or not open_cells:
        return
    method = getattr(solver, SEARCHES[search])
    if search == "random":
        method(*open_cells, seed=seed or 0)
    else:
        method(*open_cells)


def translate(state: str, grids: list[Grid], max_solutions: int, stats: Stats) -> Result:
    """The Result of a search that ended in Choco's ``state``; UnknownSearchStateError for a
    state it cannot be."""
    if state not in SEARCH_STATES:
        raise UnknownSearchStateError(f"Choco ended its search in the unknown state {state!r}")
    exhausted = SEARCH_STATES[state]
    limit_hit = not exhausted and len(grids) < max_solutions  # stopped, but not by the count: the clock
    return finish(grids, exhausted, stats, limit_hit=limit_hit)


def _counter(read: Callable[[Any], Any], handle: Any) -> int:
    """One of the native counters (the binding's functions carry no types)."""
    return int(read(handle))
