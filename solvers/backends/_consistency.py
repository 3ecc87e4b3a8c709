"""Consistency levels on all-different groups, on bitmasks: mrv's ``inference='bounds'|'gac'|'sac'``.

These are the propagation schemes of Helmut Simonis, "Sudoku as a constraint problem"
(2005), each on its own, to a fixed point over every group of the model:

- ``bounds``: bounds consistency. A cell's smallest and largest candidates must each
  have a support in which every other cell of the group takes a value between its own
  bounds. Checked with Hall intervals: k cells whose bounds lie inside an interval of k
  values use all of it, so those values leave the bounds of the group's other cells.
  Holes inside a domain are never used, nor made.
- ``gac``: generalised arc consistency (Regin 1994). A candidate stays only if some
  assignment of the whole group uses it: an edge cell-value of the bipartite graph stays
  only if some maximum matching holds it. One maximum matching (Hopcroft-Karp) and the
  strongly connected components of the residual graph tell which (Berge: an edge is in
  some maximum matching iff it is matched, lies on an alternating cycle, or on an
  alternating path from a free value). networkx does both graph steps.
- ``sac``: singleton arc consistency on top of ``gac`` ("shaving"): a candidate goes
  when placing it and running ``gac`` to its fixed point meets a contradiction; repeated
  until no candidate goes (SAC-1).

A group smaller than the grid is all-different only (a value may be missing from it):
these levels treat every group as all-different, and in a group of n cells (n values)
that forces every value in by itself, so hidden singles come with ``gac`` for free.
Each level's fixed point is unique whatever the order the groups are revised in, so
``bounds`` <= ``gac`` <= ``sac`` in what they prune, and naked and hidden singles <= ``gac``.

A propagation function returns the cells it fixed (left with one candidate), or -1 on a
contradiction, like mrv's own rules.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

LEVELS = ("bounds", "gac", "sac")

Revise = Callable[[list[int], Sequence[int]], "list[int] | None"]
"""Makes one group consistent in place: the cells whose candidates shrank, or None when
the group cannot be satisfied."""


def _bit_values(mask: int) -> list[int]:
    """The values (1-based) of a candidate mask, ascending."""
    values = []
    while mask:
        low = mask & -mask
        values.append(low.bit_length())
        mask ^= low
    return values


def revise_bounds(cands: list[int], cells: Sequence[int]) -> list[int] | None:
    """Bounds consistency on one all-different group, to the group's own fixed point."""
    changed: list[int] = []
    while True:
        low = [(cands[c] & -cands[c]).bit_length() for c in cells]
        high = [cands[c].bit_length() for c in cells]
        if 0 in high:
            return None
        pruned = False
        for a in sorted(set(low)):
            for b in sorted({h for h in high if h >= a}):
                inside = [i for i in range(len(cells)) if low[i] >= a and high[i] <= b]
                if len(inside) > b - a + 1:
                    return None  # more cells than values in [a, b]
                if len(inside) < b - a + 1:
                    continue
                members = set(inside)
                for i, cell in enumerate(cells):
                    if i in members:
                        continue
                    # outside the Hall set, a cell has a bound outside [a, b]: the other
                    # bound, if inside, moves past the interval (values a..b at that end go)
                    c = cands[cell]
                    if a <= low[i] <= b:
                        c &= ~((1 << b) - 1)
                    elif a <= high[i] <= b:
                        c &= (1 << (a - 1)) - 1
                    if c != cands[cell]:
                        if not c:
                            return None
                        cands[cell] = c
                        if cell not in changed:
                            changed.append(cell)
                        pruned = True
                if pruned:
                    break  # bounds moved: look again from the start
            if pruned:
                break
        if not pruned:
            return changed


def revise_gac(cands: list[int], cells: Sequence[int]) -> list[int] | None:
    """Generalised arc consistency on one all-different group (Regin's matching algorithm)."""
    before = tuple(cands[cell] for cell in cells)
    after = _gac_masks(before)
    if after is None:
        return None
    changed = []
    for cell, old, new in zip(cells, before, after):
        if old != new:
            cands[cell] = new
            changed.append(cell)
    return changed


@lru_cache(maxsize=1 << 16)
def _gac_masks(masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """The candidate masks of one all-different group made arc consistent, or None if the
    group cannot be satisfied. Cached: shaving revisits the same group states many times."""
    taken = 0
    for m in masks:
        if not m:
            return None
        if not m & (m - 1):
            if m & taken:
                return None  # two cells fixed to one value
            taken |= m
    # A fixed cell is matched to its value in every matching: the value leaves the others.
    result = [m if not m & (m - 1) else m & ~taken for m in masks]
    open_cells = [i for i, m in enumerate(masks) if m & (m - 1)]
    if any(not result[i] for i in open_cells):
        return None
    if len(open_cells) < 2:
        return tuple(result)
    # Cells are 0, 1, ...; values -1, -2, ... (value v is node -v).
    edges = [(i, -v) for i in open_cells for v in _bit_values(result[i])]
    import networkx as nx  # noqa: PLC0415 - its import (over 0.1 s) paid only when a matching is needed

    graph = nx.Graph(edges)
    matching = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=open_cells)
    if any(i not in matching for i in open_cells):
        return None  # the group's open cells cannot all take different values
    # Residual graph: a matched edge points cell -> value, an unmatched one value -> cell.
    residual = nx.DiGraph((i, v) if matching[i] == v else (v, i) for i, v in edges)
    component = {}
    for number, members in enumerate(nx.strongly_connected_components(residual)):
        for node in members:
            component[node] = number
    reached: set[int] = set()
    for value in (node for node in graph if node < 0 and node not in matching):
        reached |= nx.descendants(residual, value) | {value}
    for i, v in edges:
        if matching[i] != v and component[i] != component[v] and v not in reached:
            result[i] &= ~(1 << (-v - 1))  # the edge is in no maximum matching
    return tuple(result)


def fixpoint(cands: list[int], dirty: int, groups: Sequence[Sequence[int]],
             group_bits: Sequence[int], revise: Revise) -> int:
    """Revise the groups in ``dirty`` (bit g: group g) and every group they change, until none
    changes; the cells fixed on the way, or -1 on a contradiction."""
    fixed = 0
    while dirty:
        low = dirty & -dirty
        dirty ^= low
        changed = revise(cands, groups[low.bit_length() - 1])
        if changed is None:
            return -1
        for cell in changed:
            c = cands[cell]
            if not c & (c - 1):
                fixed += 1
            dirty |= group_bits[cell] & ~low  # a revised group is at its own fixed point
    return fixed


def singleton_fixpoint(cands: list[int], dirty: int, groups: Sequence[Sequence[int]],
                       group_bits: Sequence[int]) -> int:
    """``gac``, then shaving to a fixed point: each candidate whose placement ``gac`` refutes
    goes. The cells fixed, or -1 on a contradiction."""
    fixed = fixpoint(cands, dirty, groups, group_bits, revise_gac)
    if fixed < 0:
        return -1
    shaved = True
    while shaved:
        shaved = False
        for cell, c in enumerate(cands):
            if not c & (c - 1):
                continue
            for value in _bit_values(c):
                bit = 1 << (value - 1)
                if not cands[cell] & bit or not cands[cell] & (cands[cell] - 1):
                    continue  # gone already, or the cell is fixed now
                trial = cands[:]
                trial[cell] = bit
                if fixpoint(trial, group_bits[cell], groups, group_bits, revise_gac) >= 0:
                    continue
                cands[cell] &= ~bit
                shaved = True
                if not cands[cell] & (cands[cell] - 1):
                    fixed += 1
                more = fixpoint(cands, group_bits[cell], groups, group_bits, revise_gac)
                if more < 0:
                    return -1
                fixed += more
    return fixed


def propagator(level: str, groups: Sequence[Sequence[int]], group_bits: Sequence[int]
               ) -> Callable[[list[int], int], int]:
    """The propagation of one level: (candidates, dirty groups) -> cells fixed, or -1."""
    if level == "sac":
        return lambda cands, dirty: singleton_fixpoint(cands, dirty, groups, group_bits)
    revise = {"bounds": revise_bounds, "gac": revise_gac}[level]
    return lambda cands, dirty: fixpoint(cands, dirty, groups, group_bits, revise)
