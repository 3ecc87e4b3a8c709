"""The textbook backtracker as the textbook writes it: a recursive function over a grid.

Read this next to Peter Norvig's essay "Solving Every Sudoku Puzzle" (norvig.com/sudoku.html),
which starts from this method before it adds propagation. One call of :meth:`search`
is one node of the search tree: take the first empty cell in reading order, try the
values 1..n that no group of the cell holds yet, and for each one recurse, then undo.

This is the readable twin of ``solvers.backends.backtrack`` (``impl='fast'``: a loop
over an explicit depth counter with a bitmask of the values each group holds, the
group loop unrolled). Both walk the same tree in the same order, so they give the
same solutions, ``nodes`` and ``backtracks`` (tests/test_readable.py checks this).
``backtrack`` with ``impl='readable'`` runs it; ``mrv`` with ``inference='none'`` and
``branching='first'`` is the same search, counting decisions instead of calls.

Killer cages: a value is allowed in a cell of a cage with a total only if the cage can
still reach its total (:meth:`Backtracker.cage_allows`): the values placed in it, this
one, and the least (or the most) its other empty cells could add with different values.

Counters: ``nodes`` = calls of :meth:`search` (the root plus one per value placed);
``backtracks`` = values placed and later taken back.
"""
from __future__ import annotations

import time

from models import Cage, Grid, Model

from ...encodings.cages import cage_clash
from ...encodings.domains import clash_message
from ...result import Result, Stats, finish, stop_message
from ...trace import Trace
from .limits import Limits, Stop, recursion_room

CLOCK_EVERY = 4096  # nodes between two looks at the clock, as in the fast backtrack


class Backtracker:
    """The grid, the order of its empty cells, and the recursive search over them."""

    def __init__(self, model: Model, limits: Limits, trace: Trace | None) -> None:
        self.n = model.n
        self.grid = list(model.givens)
        self.groups = [group.cells for group in model.groups]
        self.cell_groups = model.cell_groups
        self.empties = [cell for cell, value in enumerate(self.grid) if not value]
        self.cages_of: list[list[Cage]] = [[] for _ in self.grid]  # the cages with totals
        for cage in model.cages:
            for cell in cage.cells:
                self.cages_of[cell].append(cage)
        self.limits, self.trace = limits, trace
        self.found: list[Grid] = []
        self.nodes = self.backtracks = 0

    def allowed(self, cell: int, value: int) -> bool:
        """No group of the cell holds value yet, and every cage of the cell can still be completed."""
        return all(self.grid[other] != value
                   for g in self.cell_groups[cell] for other in self.groups[g]) and all(
            self.cage_allows(cage, value) for cage in self.cages_of[cell])

    def cage_allows(self, cage: Cage, value: int) -> bool:
        """With value in one of its empty cells, the cage's total is still within reach: its
        other r empty cells add at least 1 + ... + r and at most n + ... + (n - r + 1)."""
        need = (cage.total or 0) - value - sum(self.grid[c] for c in cage.cells)
        rest = sum(1 for c in cage.cells if not self.grid[c]) - 1
        return rest * (rest + 1) // 2 <= need <= rest * (2 * self.n - rest + 1) // 2

    def search(self, depth: int) -> None:
        """Fill the empty cells from the depth-th on; record each complete grid."""
        self.nodes += 1
        if depth == len(self.empties):
            self.found.append(tuple(self.grid))
            self.emit("solved", depth, count=len(self.found))
            if len(self.found) >= self.limits.max_solutions:
                raise Stop
            return
        cell = self.empties[depth]
        values = [v for v in range(1, self.n + 1) if self.allowed(cell, v)]
        if not values:
            self.emit("contradiction", depth, rule="no candidate", cell=cell, cells=[cell])
        for number, value in enumerate(values):
            self.limits.check(self.nodes)
            self.grid[cell] = value
            self.emit("decide", depth + 1, cell=cell, value=value, rule="first empty cell",
                      alternatives=[[cell, v] for v in values[number + 1:]],
                      forced=len(values) == 1)
            self.search(depth + 1)
            self.grid[cell] = 0
            self.backtracks += 1
            self.emit("backtrack", depth + 1, cell=cell, value=value)

    def emit(self, kind: str, depth: int, **fields: object) -> None:
        """Record a step when tracing."""
        if self.trace is not None:
            self.trace.emit(kind, depth, **fields)


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          node_limit: int | None = None, trace: Trace | None = None,
          found: list[Grid] | None = None) -> Result:
    """Search in the textbook order; count up to max_solutions solutions (appended to
    ``found`` when given: a Counted list counts them)."""
    start = time.perf_counter()
    stats = Stats(nodes=0, backtracks=0)
    if trace is not None:
        trace.start(model, "backtrack:impl=readable")
    clash = clash_message(model) or cage_clash(model)  # the search never looks at the givens again
    if clash:
        if trace is not None:
            trace.emit("contradiction", 0, rule="givens clash", message=clash)
        stats.solve_time = time.perf_counter() - start
        return finish([], True, stats, limit_hit=False, message=clash)
    limits = Limits(max_solutions, start, time_limit, node_limit, CLOCK_EVERY)
    backtracker = Backtracker(model, limits, trace)
    if found is not None:
        backtracker.found = found
    exhausted = False
    with recursion_room(model.num_cells):
        try:
            backtracker.search(0)
            exhausted = True
        except Stop:
            pass
    stats.nodes, stats.backtracks = backtracker.nodes, backtracker.backtracks
    stats.solve_time = time.perf_counter() - start
    message = stop_message(limits.limit_hit, limits.budget_hit)
    return finish(backtracker.found, exhausted, stats, limit_hit=limits.limit_hit,
                  budget_hit=limits.budget_hit, message=message)
