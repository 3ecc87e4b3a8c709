"""A small, trusted reference backend for the harness tests: propagation plus search.

Written independently of the toolkit's backends, so the harness can be tested before
(and alongside) them. Candidates are sets; assigning a value removes it from the
cell's peers, and a value with one place left in a group goes there.
"""
from __future__ import annotations

import time

from models import Model
from solvers.result import Result, Stats, finish


class _OutOfTime(Exception):
    pass


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          **options: object) -> Result:
    """Every solution up to max_solutions, by propagation and smallest-domain-first search."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    peers = model.peers
    groups = [group.cells for group in model.groups]
    cell_groups = model.cell_groups
    stats = Stats(nodes=0)

    def place(cands: list[set[int]], cell: int, value: int) -> bool:
        return all(remove(cands, cell, other) for other in list(cands[cell]) if other != value)

    def remove(cands: list[set[int]], cell: int, value: int) -> bool:
        if value not in cands[cell]:
            return True
        cands[cell].discard(value)
        if not cands[cell]:
            return False
        if len(cands[cell]) == 1:
            (last,) = cands[cell]
            if not all(remove(cands, peer, last) for peer in peers[cell]):
                return False
        for index in cell_groups[cell]:
            spots = [c for c in groups[index] if value in cands[c]]
            if not spots:
                return False
            if len(spots) == 1 and len(cands[spots[0]]) > 1 and not place(cands, spots[0], value):
                return False
        return True

    solutions: list[tuple[int, ...]] = []

    def search(cands: list[set[int]]) -> None:
        stats.nodes += 1
        if deadline is not None and time.monotonic() > deadline:
            raise _OutOfTime
        open_cells = [c for c in range(len(cands)) if len(cands[c]) > 1]
        if not open_cells:
            solutions.append(tuple(next(iter(s)) for s in cands))
            return
        cell = min(open_cells, key=lambda c: len(cands[c]))
        for value in sorted(cands[cell]):
            trial = [set(s) for s in cands]
            if place(trial, cell, value):
                search(trial)
            if len(solutions) >= max_solutions:
                return

    start = [set(range(1, model.n + 1)) for _ in range(model.num_cells)]
    consistent = all(place(start, c, v) for c, v in enumerate(model.givens) if v)
    try:
        if consistent:
            search(start)
    except _OutOfTime:
        return finish(solutions, False, stats, limit_hit=True)
    return finish(solutions, len(solutions) < max_solutions, stats, limit_hit=False)
