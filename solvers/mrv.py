"""Constraint propagation plus minimum-remaining-values search, on bitmasks, in pure Python.

Each cell holds its candidates as a bitmask (bit v-1 for value v). After every
decision two rules run to a fixed point:

- naked single: a cell with one candidate left removes it from all its peers;
- hidden single: a value that only one unsolved cell of a group can take goes there.

A contradiction (a cell with no candidate, a group value with no place, one cell
needing two values) ends the branch. Otherwise the search branches on the unsolved
cell with the fewest candidates. The search is an explicit stack, so depth is no
concern on 25x25, and each branch works on a copy of the candidate list.

Counters: ``nodes`` = decisions (a value tried for a branching cell);
``backtracks`` = decisions undone (their branch failed, or was left after a
solution to look for more); ``propagations`` = cells fixed by the two rules.
"""
from __future__ import annotations

import time
from collections.abc import Sequence

from models import Model

from .result import Result, Stats, finish

OPTIONS = {
    "value_order": "'ascending' (default): values 1..n; 'least-used': values placed least "
                   "often in the grid so far first (the seeds' order)",
    "node_limit": "stop (status timeout, or solved and incomplete) after this many decisions",
}
VALUE_ORDERS = ("ascending", "least-used")
_CLOCK_EVERY = 64  # decisions between two looks at the clock


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          value_order: str = "ascending", node_limit: int | None = None) -> Result:
    """Solve with propagation and MRV search; count up to max_solutions solutions."""
    if value_order not in VALUE_ORDERS:
        raise ValueError(f"unknown value_order {value_order!r}; choose one of {VALUE_ORDERS}")
    if max_solutions < 1:
        raise ValueError(f"max_solutions must be at least 1, not {max_solutions}")
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    full = (1 << model.n) - 1
    peers = model.peers
    groups = [group.cells for group in model.groups]
    stats = Stats(nodes=0, backtracks=0, propagations=0)

    cands = [full] * model.num_cells
    queue = []
    for cell, value in enumerate(model.givens):
        if value:
            cands[cell] = 1 << (value - 1)
            queue.append(cell)
    group_bits = [sum(1 << g for g in cell_groups) for cell_groups in model.cell_groups]
    forced = _propagate(cands, queue, (1 << len(groups)) - 1, peers, groups, group_bits, full)
    if forced < 0:
        stats.solve_time = time.perf_counter() - start
        return finish([], True, stats, limit_hit=False, message="the givens contradict each other")
    stats.propagations = forced

    solutions, limit_hit, exhausted = _search(
        cands, peers, groups, group_bits, full, max_solutions, deadline, node_limit,
        value_order == "least-used", stats)
    stats.solve_time = time.perf_counter() - start
    grids = [tuple(c.bit_length() for c in s) for s in solutions]
    message = ""
    if limit_hit:
        message = "node limit reached" if node_limit is not None and stats.nodes >= node_limit \
            else "time limit reached"
    return finish(grids, exhausted, stats, limit_hit=limit_hit, message=message)


def _search(cands: list[int], peers: Sequence[Sequence[int]], groups: list[tuple[int, ...]],
            group_bits: list[int], full: int, max_solutions: int, deadline: float | None,
            node_limit: int | None, least_used: bool, stats: Stats
            ) -> tuple[list[list[int]], bool, bool]:
    """Depth-first search from a propagated state.

    Returns the solutions, whether a limit stopped the search, and whether it exhausted
    the search space (False also when it stopped at max_solutions).
    """
    solutions: list[list[int]] = []
    cell = _fewest_candidates(cands)
    if cell < 0:
        return [cands], False, True
    # A frame: the state before branching, the branching cell, its untried values (last = next).
    stack = [(cands, cell, _order(cands, cell, least_used))]
    nodes = backtracks = propagations = 0
    limit = node_limit if node_limit is not None else -1
    limit_hit = False
    perf_counter = time.perf_counter
    propagate = _propagate
    fewest = _fewest_candidates
    order = _order
    while stack:
        state, cell, untried = stack[-1]
        if not untried:
            stack.pop()
            if stack:
                backtracks += 1  # the parent's decision that led here failed
            continue
        if nodes == limit or (deadline is not None and not nodes % _CLOCK_EVERY
                              and perf_counter() > deadline):
            limit_hit = True
            break
        nodes += 1
        child = state[:]
        child[cell] = untried.pop()
        forced = propagate(child, [cell], group_bits[cell], peers, groups, group_bits, full)
        if forced < 0:
            backtracks += 1
            continue
        propagations += forced
        next_cell = fewest(child)
        if next_cell >= 0:
            stack.append((child, next_cell, order(child, next_cell, least_used)))
            continue
        solutions.append(child)
        if len(solutions) >= max_solutions:
            break
        backtracks += 1  # leave this solution to look for another
    stats.nodes, stats.backtracks = nodes, backtracks
    stats.propagations = (stats.propagations or 0) + propagations
    return solutions, limit_hit, not stack


def _propagate(cands: list[int], queue: list[int], dirty: int,
               peers: Sequence[Sequence[int]], groups: list[tuple[int, ...]],
               group_bits: list[int], full: int) -> int:
    """Naked and hidden singles to a fixed point; the cells fixed, or -1 on a contradiction.

    queue holds cells just fixed whose value is not yet removed from their peers; dirty
    has bit g set when group g may hold a new hidden single (its candidates changed).
    """
    forced = 0
    pop, push = queue.pop, queue.append
    while True:
        while queue:
            cell = pop()
            bit = cands[cell]
            for peer in peers[cell]:
                c = cands[peer]
                if c & bit:
                    c ^= bit
                    if not c & (c - 1):
                        if not c:
                            return -1
                        push(peer)
                        forced += 1
                    cands[peer] = c
                    dirty |= group_bits[peer]
        if not dirty:
            return forced
        scan, dirty = dirty, 0
        while scan:
            low = scan & -scan
            scan ^= low
            group = groups[low.bit_length() - 1]
            once = twice = solved = 0
            for cell in group:
                m = cands[cell]
                if m & (m - 1):
                    twice |= once & m
                    once |= m
                else:
                    solved |= m
            if once | solved != full:
                return -1  # some value has no place left in this group
            hidden = once & ~twice & ~solved
            if hidden:
                for cell in group:
                    m = cands[cell] & hidden
                    if m:
                        if m & (m - 1):
                            return -1  # one cell is the only place for two values
                        cands[cell] = m
                        push(cell)
                        forced += 1
                        dirty |= group_bits[cell]


def _fewest_candidates(cands: list[int]) -> int:
    """The first unsolved cell with the fewest candidates, or -1 if every cell is solved."""
    best, best_count = -1, 1 << 30
    for cell, c in enumerate(cands):
        if c & (c - 1):
            count = c.bit_count()
            if count < best_count:
                best, best_count = cell, count
                if count == 2:
                    break
    return best


def _order(cands: list[int], cell: int, least_used: bool) -> list[int]:
    """The cell's candidate bits, the one to try first last (the list is popped)."""
    bits = []
    m = cands[cell]
    while m:
        bit = m & -m
        bits.append(bit)
        m ^= bit
    if least_used:
        used = {bit: 0 for bit in bits}
        for c in cands:
            if c in used:
                used[c] += 1
        bits.sort(key=lambda b: (used[b], b))
    bits.reverse()
    return bits
