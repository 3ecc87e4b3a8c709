"""The seeds' textbook backtracker: first empty cell, values 1..n in order, check, recurse, undo.

The textbook method is the recursive function

    def search(grid):                     # one call = one node
        cell = first empty cell in reading order
        if there is none: grid is a solution; return
        for value in 1..n:
            if no group of cell holds value:
                grid[cell] = value; search(grid); grid[cell] = 0

Here it runs as a loop over an explicit depth counter (the k-th empty cell in
reading order is always the one filled at depth k), so 25x25 grids never meet
Python's recursion limit, and "no group holds value" is one OR of per-group
bitmasks. The search tree is the textbook one, value for value.

Killer cages: a value is allowed in a cell of a cage with a total only if the cage can
still be completed: with s the sum of the cage's filled cells and r its empty cells left
after this one, the value is at most total - s - (1 + 2 + ... + r) and at least
total - s - (n + (n - 1) + ... + (n - r + 1)), so the last cell of a cage takes exactly
what its total still needs. (Each is a bound on the values to try, so the check is one
mask, and the tree is the textbook tree with these values left out.)

Counters: ``nodes`` = calls of the textbook ``search``: the root call plus one per
value placed (so a puzzle with no empty cell takes 1 node); ``backtracks`` = values
placed and later taken back (to try the next value, or on return).

The readable twin, ``solvers.backends.readable.backtrack`` (``impl='readable'``), is the
recursive function above written out with a plain grid; it walks the same tree.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from models import Model

from ..encodings.cages import cage_clash
from ..encodings.domains import clash_message
from ..encodings.isomorph import solve_isomorph
from ..options import Declaration, Option, Reach, node_limit, seed
from ..result import COUNT_ALL, SAMPLE, Counted, Result, Stats, finish, stop_message, with_count

DECLARATION = Declaration(
    options=(
        node_limit("nodes"),
        Option("impl", "choice", "fast: bitmasks, a loop; readable: the recursive textbook function",
               default="fast", choices=("fast", "readable")),
        seed("solve a random isomorph (values relabelled; on a plain grid the rows and columns "
             "reordered by the grid's symmetries), so value order and tie-breaks are random"),
    ),
    counters={
        "nodes": "calls of the textbook recursion (the root plus one per value placed)",
        "backtracks": "values taken back",
    },
    constraints=frozenset({"all-different", "sum"}),
    family="backtrack",  # its readable twin (impl=readable) walks the same tree
    notes="the baseline; a readable twin",
    # the tests' cases within this reach take at most 257,655 nodes, the hard ones it still
    # solves at most 423,126: a case that spends the budget is skipped, so it costs no more
    reach=Reach(largest=9, hardness=0, budget={"node_limit": 500_000}),
    traces="solvers.backends.readable.backtrack",
)
_CLOCK_EVERY = 4096  # nodes between two looks at the clock (a power of two)


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          node_limit: int | None = None, impl: str = "fast", seed: int | None = None) -> Result:
    """Search in the textbook order; count up to max_solutions solutions."""
    if seed is not None:
        return solve_isomorph(solve, model, seed, max_solutions=max_solutions,
                              time_limit=time_limit, node_limit=node_limit, impl=impl)
    return _solve(model, [], max_solutions, time_limit, node_limit, impl)


def count(model: Model, *, time_limit: float | None = None, sample: int = SAMPLE,
          node_limit: int | None = None, impl: str = "fast", seed: int | None = None) -> Result:
    """Count every solution in the textbook order (count mode), keeping the first ``sample``."""
    if seed is not None:
        return solve_isomorph(count, model, seed, time_limit=time_limit, sample=sample,
                              node_limit=node_limit, impl=impl)
    found = Counted(sample)
    return with_count(_solve(model, found, COUNT_ALL, time_limit, node_limit, impl), found)


def _solve(model: Model, found: list[tuple[int, ...]], max_solutions: int, time_limit: float | None,
           node_limit: int | None, impl: str) -> Result:
    """solve's work, each solution appended to ``found`` (a Counted list when counting)."""
    if impl == "readable":
        from .readable import backtrack as readable  # noqa: PLC0415 - the teaching twin
        return readable.solve(model, max_solutions=max_solutions, time_limit=time_limit,
                              node_limit=node_limit, found=found)
    start = time.perf_counter()
    stats = Stats(nodes=0, backtracks=0)
    # the textbook search never looks at givens again, so a clash there must be caught
    # first or it would come back inside a 'solution'
    clash = clash_message(model) or cage_clash(model)
    if clash:
        stats.solve_time = time.perf_counter() - start
        return finish([], True, stats, limit_hit=False, message=clash)
    deadline = None if time_limit is None else start + time_limit
    solutions, limit_hit = _search(model, max_solutions, deadline, node_limit, stats, found)
    stats.solve_time = time.perf_counter() - start
    budget_hit = limit_hit and node_limit is not None and (stats.nodes or 0) >= node_limit
    message = stop_message(limit_hit, budget_hit)
    exhausted = not limit_hit and len(solutions) < max_solutions
    return finish(solutions, exhausted, stats, limit_hit=limit_hit and not budget_hit,
                  budget_hit=budget_hit, message=message)


def _search(model: Model, max_solutions: int, deadline: float | None, node_limit: int | None,
            stats: Stats, solutions: list[tuple[int, ...]]) -> tuple[list[tuple[int, ...]], bool]:
    """The textbook search as a loop; returns (solutions, appended to ``solutions``, and
    whether a limit stopped it)."""
    grid = list(model.givens)
    used = [0] * len(model.groups)           # per group: bitmask of the values it holds
    for index, group in enumerate(model.groups):
        for cell in group.cells:
            if grid[cell]:
                used[index] |= 1 << (grid[cell] - 1)
    empties = [cell for cell, value in enumerate(grid) if not value]
    cell_groups = [model.cell_groups[cell] for cell in empties]
    placed = [0] * len(empties)               # the bit placed at each depth, 0 = none
    if not empties:
        solutions.append(tuple(grid))
        stats.nodes, stats.backtracks = 1, 0
        return solutions, False
    record = lambda: solutions.append(_filled(grid, empties, placed))
    limit = -1 if node_limit is None else node_limit
    if model.cages:
        nodes, limit_hit = _run_any(cell_groups, used, placed, (1 << model.n) - 1, max_solutions,
                                    deadline, limit, record, _Cages(model, empties))
    else:
        # standard and jigsaw cells lie in exactly three groups: that loop is unrolled
        run = _run_three if all(len(groups) == 3 for groups in cell_groups) else _run_any
        nodes, limit_hit = run(cell_groups, used, placed, (1 << model.n) - 1, max_solutions,
                               deadline, limit, record)
    # Every placement but those still standing on the current path was taken back.
    stats.nodes, stats.backtracks = nodes, nodes - 1 - sum(1 for bit in placed if bit)
    return solutions, limit_hit


class _Cages:
    """What the search keeps about the cages with totals: per depth the cages of its cell;
    per cage the sum it still needs and its cells still empty; per count r of empty
    cells the least and the most r different values sum to."""

    def __init__(self, model: Model, empties: list[int]) -> None:
        n, grid = model.n, model.givens
        self.need = [(cage.total or 0) - sum(grid[c] for c in cage.cells) for cage in model.cages]
        self.empty = [sum(1 for c in cage.cells if not grid[c]) for cage in model.cages]
        member: dict[int, list[int]] = {}
        for k, cage in enumerate(model.cages):
            for cell in cage.cells:
                member.setdefault(cell, []).append(k)
        self.at = [tuple(member.get(cell, ())) for cell in empties]
        self.least = [r * (r + 1) // 2 for r in range(n + 1)]
        self.most = [r * (2 * n - r + 1) // 2 for r in range(n + 1)]

    def allowed(self, depth: int, full: int) -> int:
        """The mask of the values each cage of the depth's cell still allows there."""
        mask = full
        for k in self.at[depth]:
            rest = self.empty[k] - 1
            low = max(self.need[k] - self.most[rest], 1)
            high = self.need[k] - self.least[rest]
            mask &= ((1 << high) - 1 if high > 0 else 0) & ~((1 << (low - 1)) - 1)
        return mask

    def change(self, depth: int, value: int, cells: int) -> None:
        """Add value to the cages of the depth's cell (cells -1: it fills one) or take it back."""
        for k in self.at[depth]:
            self.need[k] -= value
            self.empty[k] += cells


def _filled(grid: list[int], empties: list[int], placed: list[int]) -> tuple[int, ...]:
    """The grid with the placed values written into its empty cells."""
    for cell, bit in zip(empties, placed):
        grid[cell] = bit.bit_length()
    return tuple(grid)


# The two loops below are the same search; _run_three unrolls the group loop for
# three groups per cell (row, column, box or region), the common case. The copy is
# deliberate (the unrolled loop takes about a third less time: all of hardest.txt in 0.95 s
# against 1.47 s, side by side on 2026-11-23) and is the one pair `duplicates` is expected
# to list; keep the two in step.
# Each returns (nodes, whether a limit stopped it). A step at some depth takes the
# smallest allowed value above the one placed there last (or gives up and steps back).

def _run_three(cell_groups: list[tuple[int, ...]], used: list[int], placed: list[int], full: int,
               max_solutions: int, deadline: float | None, limit: int,
               record: Callable[[], None]) -> tuple[int, bool]:
    nodes, found, last = 1, 0, len(placed) - 1
    perf_counter = time.perf_counter
    depth = 0
    while depth >= 0:
        a, b, c = cell_groups[depth]
        bit = placed[depth]
        free = full & ~(used[a] | used[b] | used[c])
        if bit:
            free &= -(bit << 1)               # only values above the last one tried
        if not free:
            if bit:
                used[a] ^= bit
                used[b] ^= bit
                used[c] ^= bit
                placed[depth] = 0
            depth -= 1
            continue
        if nodes == limit or (deadline is not None and not nodes & (_CLOCK_EVERY - 1)
                              and perf_counter() > deadline):
            return nodes, True
        new = free & -free                    # the smallest allowed value
        swap = bit | new
        used[a] ^= swap
        used[b] ^= swap
        used[c] ^= swap
        placed[depth] = new
        nodes += 1                            # the recursive call for this placement
        if depth < last:
            depth += 1
            continue
        record()
        found += 1
        if found >= max_solutions:
            return nodes, False
    return nodes, False


def _run_any(cell_groups: list[tuple[int, ...]], used: list[int], placed: list[int], full: int,
             max_solutions: int, deadline: float | None, limit: int,
             record: Callable[[], None], cages: _Cages | None = None) -> tuple[int, bool]:
    nodes, found, last = 1, 0, len(placed) - 1
    perf_counter = time.perf_counter
    depth = 0
    while depth >= 0:
        groups = cell_groups[depth]
        bit = placed[depth]
        taken = 0
        for g in groups:
            taken |= used[g]
        free = full & ~taken
        if bit:
            free &= -(bit << 1)
        if cages is not None:  # the cages' bounds, with this cell's last value taken out
            if bit:
                cages.change(depth, -bit.bit_length(), 1)
            free &= cages.allowed(depth, full)
            if free:
                cages.change(depth, (free & -free).bit_length(), -1)
        if not free:
            if bit:
                for g in groups:
                    used[g] ^= bit
                placed[depth] = 0
            depth -= 1
            continue
        if nodes == limit or (deadline is not None and not nodes & (_CLOCK_EVERY - 1)
                              and perf_counter() > deadline):
            return nodes, True
        new = free & -free
        swap = bit | new
        for g in groups:
            used[g] ^= swap
        placed[depth] = new
        nodes += 1
        if depth < last:
            depth += 1
            continue
        record()
        found += 1
        if found >= max_solutions:
            return nodes, False
    return nodes, False
