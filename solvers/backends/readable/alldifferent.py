"""What bounds consistency and generalised arc consistency remove from one all-different group.

Read beside Helmut Simonis, "Sudoku as a constraint problem" (2005), and Jean-Charles
Regin, "A filtering algorithm for constraints of difference in CSPs" (1994). Each function
takes the candidate sets of the cells of one group (one set per cell, in the group's
order) and returns the (position, value) pairs that cannot be part of any assignment of
the group, or None when the group has no assignment at all. They never change their input.

- ``bounds_prunings``: looks only at each cell's smallest and largest candidate. When k
  cells have all their candidates inside an interval of k values (a Hall interval), they
  use up those values, so no other cell may take them *at its bounds*; a value in the
  middle of a domain is never removed (that is what makes it weaker than arc consistency).
- ``arc_prunings``: a value stays in a cell only if some assignment of the whole group
  gives it to that cell. Find one maximum matching of cells to values; an edge is in
  some other maximum matching exactly when it lies on an alternating cycle or on an
  alternating path from a value no cell took (Berge), which the strongly connected
  components of the matching's residual graph tell at once.

``solvers.backends._consistency`` does the same on bitmasks for the fast ``mrv``.
"""
from __future__ import annotations

from collections.abc import Sequence

import networkx as nx

Pruning = tuple[int, int]  # (position in the group, value)


def bounds_prunings(domains: Sequence[set[int]]) -> list[Pruning] | None:
    """What bounds consistency removes from one all-different group; None if it fails."""
    current = [set(domain) for domain in domains]
    removed: list[Pruning] = []
    moved = True
    while moved:  # a bound that moves can make a new Hall interval: look again
        if not all(current):
            return None
        moved = False
        bounds = [(min(d), max(d)) for d in current]
        for low in sorted({lo for lo, _ in bounds}):
            for high in sorted({hi for _, hi in bounds if hi >= low}):
                inside = {i for i, (lo, hi) in enumerate(bounds) if low <= lo and hi <= high}
                width = high - low + 1
                if len(inside) > width:
                    return None  # more cells than values in the interval
                if len(inside) < width:
                    continue
                for i, (lo, hi) in enumerate(bounds):
                    if i in inside:
                        continue
                    # a cell outside the Hall interval with a bound inside it: that bound
                    # moves out, taking the interval's values at that end with it
                    if low <= lo <= high:
                        gone = {v for v in current[i] if v <= high}
                    elif low <= hi <= high:
                        gone = {v for v in current[i] if v >= low}
                    else:
                        continue
                    current[i] -= gone
                    removed += [(i, v) for v in sorted(gone)]
                    moved = True
                if moved:
                    break
            if moved:
                break
    return removed


def arc_prunings(domains: Sequence[set[int]]) -> list[Pruning] | None:
    """What generalised arc consistency removes from one all-different group; None if it fails."""
    cells = [("cell", i) for i in range(len(domains))]
    graph = nx.Graph()
    graph.add_nodes_from(cells)
    graph.add_edges_from((("cell", i), ("value", v)) for i, domain in enumerate(domains)
                         for v in domain)
    matching = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=cells)
    if any(cell not in matching for cell in cells):
        return None  # the cells cannot all take different values
    # The residual graph: a matched edge points from the cell to its value, every other
    # edge from the value to the cell. Walking it alternates unmatched and matched edges.
    residual = nx.DiGraph()
    residual.add_nodes_from(graph)
    for cell in cells:
        for value in graph[cell]:
            residual.add_edge(*((cell, value) if matching[cell] == value else (value, cell)))
    component = {node: number for number, members in
                 enumerate(nx.strongly_connected_components(residual)) for node in members}
    free_values = [node for node in graph if node[0] == "value" and node not in matching]
    from_free = set(free_values).union(*(nx.descendants(residual, v) for v in free_values))
    removed = []
    for cell in cells:
        for value in graph[cell]:
            in_some_matching = (matching[cell] == value or component[cell] == component[value]
                                or value in from_free)
            if not in_some_matching:
                removed.append((cell[1], value[1]))
    return sorted(removed)
