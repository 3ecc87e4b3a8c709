"""The judge's own counter: how many solutions a puzzle has, re-derived by a plain search.

A count claim too large to ship every grid (``run --count``) cannot be checked grid by grid
as a claim of "these k solutions and no other" is (claims.py). The judge counts again by
its own method, sharing no code with any backend: candidates as bitmasks, naked singles
propagated to every peer, the open cell with the fewest candidates tried value by value,
each full grid counted (and the first ones checked by ``models.verify``). It reads the
puzzle's groups and cages from the shared ``Model``, as every backend and the reference CNF do.

A puzzle without givens and without cage totals is symmetric under relabelling the values,
so its solutions are n! times those with the first group (a row: n cells, all different)
holding 1..n in order: the empty 6x6 is counted as 720 x 39,168 = 28,200,960.

The count stops at ``limit`` (the claim plus one is enough to refute it) and at the
deadline; either way it says how far it got.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

from models import Grid, Model, Puzzle, verify

CLOCK_EVERY = 1024
"""Nodes between two looks at the clock."""
VERIFIED = 16
"""Grids of each count checked by models.verify (a fault of the counter shows at once)."""


@dataclass(frozen=True)
class Recount:
    """What the counter found: the number of solutions (None if it did not finish: the
    reason says why), and whether it stopped at its limit (then the count is a lower bound)."""

    count: int | None
    reason: str
    at_limit: bool = False


def count_solutions(puzzle: Puzzle, *, deadline: float, limit: int) -> Recount:
    """The puzzle's solutions counted, up to ``limit`` (more are not looked for), by
    ``deadline`` (a ``time.monotonic()`` value)."""
    model = Model.from_puzzle(puzzle)
    factor, start = _symmetry(model)
    cands = _start(model, start)
    if cands is None:
        return Recount(0, "the givens leave no solution (propagation alone)")
    counter = _Counter(model, deadline, max(1, -(-limit // factor)))
    found = counter.search(cands)
    if found is None:
        return Recount(None, counter.why)
    total = found * factor
    how = (f"{found:,} grids with the first row fixed, x {factor:,} relabellings" if factor > 1
           else f"{found:,} grids")
    return Recount(total, f"the judge's counter found {how} ({counter.nodes:,} nodes)",
                   at_limit=counter.full)


def _symmetry(model: Model) -> tuple[int, Grid | None]:
    """(n!, the first row fixed to 1..n) when every solution relabelled is one (no givens, no
    cage totals, a first group of n cells), else (1, None)."""
    first = model.groups[0].cells if model.groups else ()
    if any(model.givens) or model.cages or len(first) != model.n:
        return 1, None
    fixed = [0] * model.num_cells
    for value, cell in enumerate(first, start=1):
        fixed[cell] = value
    return math.factorial(model.n), tuple(fixed)


def _start(model: Model, fixed: Grid | None) -> list[int] | None:
    """Every cell's candidates after the givens (and the fixed row) are placed and their
    singles propagated; None on a contradiction."""
    full = (1 << model.n) - 1
    cands = [full] * model.num_cells
    values = fixed if fixed is not None else model.givens
    for cell, value in enumerate(values):
        if value and (not cands[cell] & (1 << (value - 1)) or not _place(cands, model.peers, cell, value - 1)):
            return None
    return cands


def _place(cands: list[int], peers: tuple[tuple[int, ...], ...], cell: int, value: int) -> bool:
    """Put value (0-based) in cell and propagate naked singles; False on a contradiction."""
    todo = [(cell, value)]
    while todo:
        cell, value = todo.pop()
        bit = 1 << value
        cands[cell] = bit
        for peer in peers[cell]:
            mask = cands[peer]
            if mask & bit:
                mask ^= bit
                if not mask:
                    return False
                cands[peer] = mask
                if not mask & (mask - 1):
                    todo.append((peer, mask.bit_length() - 1))
    return True


class _Counter:
    """Depth-first counting with an explicit stack (no recursion limit at 64x64)."""

    def __init__(self, model: Model, deadline: float, limit: int) -> None:
        self.model, self.deadline, self.limit = model, deadline, limit
        self.cages = [(cage.cells, cage.total) for cage in model.cages if cage.total is not None]
        self.nodes, self.found, self.full, self.why = 0, 0, False, ""

    def search(self, cands: list[int]) -> int | None:
        """The solutions below these candidates, up to the limit; None past the deadline."""
        stack = [cands]
        peers = self.model.peers
        while stack:
            cands = stack.pop()
            self.nodes += 1
            if not self.nodes % CLOCK_EVERY and time.monotonic() > self.deadline:
                self.why = (f"the judge's counter ran out of time after {self.nodes:,} nodes and "
                            f"{self.found:,} solutions")
                return None
            cell = _fewest(cands)
            if cell < 0:
                if self._counts(cands):
                    self.found += 1
                    if self.found >= self.limit:
                        self.full = True
                        return self.found
                continue
            mask = cands[cell]
            while mask:
                low = mask & -mask
                mask ^= low
                child = cands[:]
                if _place(child, peers, cell, low.bit_length() - 1):
                    stack.append(child)
        return self.found

    def _counts(self, cands: list[int]) -> bool:
        """Whether a full grid meets its cage totals (the first ones also verified)."""
        grid = tuple(mask.bit_length() for mask in cands)
        if any(sum(grid[c] for c in cells) != total for cells, total in self.cages):
            return False
        if self.found < VERIFIED and not verify(self.model.puzzle, grid).ok:
            raise AssertionError(f"the judge's counter built a grid that does not verify: {grid}")
        return True


def _fewest(cands: list[int]) -> int:
    """The open cell with the fewest candidates, or -1 when every cell is fixed."""
    best, fewest = -1, 65
    for cell, mask in enumerate(cands):
        if mask & (mask - 1):
            size = mask.bit_count()
            if size < fewest:
                best, fewest = cell, size
                if size == 2:
                    break
    return best
