"""Exact cover with Knuth's Algorithm X and dancing links, in pure Python.

Sudoku as exact cover (Knuth, "Dancing Links", 2000): one row per (cell, value),
one column per constraint a filled grid meets exactly once:

- cell c is filled (one column per cell);
- group g holds value v (one column per group and value), for every group of the
  model: rows, columns, boxes, jigsaw regions, diagonals. So variants and every size
  need nothing special. A group with fewer than n cells (none of the bundled kinds)
  cannot hold every value: its columns are *secondary* (at most once), not in the
  header list, so the search never chooses them but covering still keeps them clean.

Row (c, v) has a 1 in the column of c and in the (g, v) column of every group g of c.
A given is pre-selected: its row's columns are covered before the search, as if the
search had chosen it. Then Algorithm X: choose the column with the fewest rows (Knuth's
S heuristic; ties go to the first in the header list, and the scan stops at a column of
size 0 or 1, which cannot be beaten), cover it, try each of its rows in turn (cover the
row's other columns, recurse, uncover in reverse), uncover it.

Two implementations that make the same choices in the same order (tests check the
counts agree):

- ``impl='fast'`` (default, this module): the links live in flat integer lists
  (L, R, U, D, C indexed by node number; node 0 the root, 1..m the column headers),
  built once per geometry and copied per puzzle; the search is a loop with an explicit
  stack, so 25x25 depth is no concern.
- ``impl='readable'``: ``solvers.backends.readable.dlx``, node objects and a recursive
  search written to be read next to Knuth's paper.

Killer cages: a cage's digits differ, which exact cover states like any small group
(secondary columns), but its total cannot be stated: exact cover asks each column to
be covered exactly once, and a sum is no such condition. A model with cage totals is
answered ``unsupported`` with that reason (CAGES_UNSUPPORTED); cages without totals
are only groups and are solved.

Counters: ``nodes`` = rows tried (a row chosen at a search level, not the givens);
``updates`` = link updates, Knuth's measure: one per node taken out of its list and one
per node put back (a column header leaving or rejoining the header list counts one too).
Pre-selecting the givens is counted in ``updates``.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from models import Grid, Model

from ..encodings.domains import clash_message
from ..encodings.exact_cover import CAGES_UNSUPPORTED, CLOCK_EVERY, column_layout
from ..options import Declaration, Option, node_limit
from ..result import COUNT_ALL, SAMPLE, Counted, Result, Stats, Status, finish, with_count
from .readable import dlx as readable

IMPLS = ("fast", "readable")
DECLARATION = Declaration(
    options=(
        Option("impl", "choice", "fast: flat integer link arrays and an explicit stack; readable: "
               "node objects and recursion, to be read next to Knuth's paper", default="fast",
               choices=IMPLS),
        node_limit("rows tried"),
    ),
    counters={
        "nodes": "rows tried (a (cell, value) row chosen at a search level)",
        "updates": "dancing-links updates: a node unlinked from, or relinked into, its list",
    },
    unsupported=CAGES_UNSUPPORTED,  # a cage's total is no exact-cover column
    family="exact-cover",  # with its readable twin (impl=readable)
    notes="best at listing many solutions; a readable twin",
    traces="solvers.backends.readable.dlx",
)


@dataclass(frozen=True)
class Matrix:
    """The exact-cover matrix of one geometry and set of groups, as flat link lists.

    Node 0 is the root, 1..columns are column headers, the rest are the 1s of the
    matrix, row by row. ``first[r]`` is the first node of row r = cell * n + value - 1.
    ``width[x]`` is how many other nodes node x's row has (what covering moves per row).
    """

    n: int
    columns: int
    left: tuple[int, ...]
    right: tuple[int, ...]
    up: tuple[int, ...]
    down: tuple[int, ...]
    column: tuple[int, ...]
    row: tuple[int, ...]
    width: tuple[int, ...]
    size: tuple[int, ...]
    first: tuple[int, ...]
    rightward: tuple[tuple[int, ...], ...]  # per node: its row-mates in R order
    leftward: tuple[tuple[int, ...], ...]  # per node: its row-mates in L order


@lru_cache(maxsize=16)
def matrix(n: int, groups: tuple[tuple[int, ...], ...]) -> Matrix:
    """The matrix for an n x n grid with these groups, built once and cached."""
    num_cells = n * n
    primary, rows = column_layout(n, num_cells, groups)
    m = len(primary)
    nodes = 1 + m + sum(len(r) for r in rows)
    left, right = list(range(nodes)), list(range(nodes))
    up, down = list(range(nodes)), list(range(nodes))
    column, row_of, width = list(range(nodes)), [-1] * nodes, [0] * nodes
    size = [0] * (m + 1)
    heads = [0] + [k + 1 for k in range(m) if primary[k]]  # the header list, root first
    for a, b in zip(heads, heads[1:] + heads[:1]):
        right[a], left[b] = b, a
    first = []
    x = m + 1
    for r, cols in enumerate(rows):
        first.append(x)
        for offset, k in enumerate(cols):
            h = k + 1
            column[x], row_of[x], width[x] = h, r, len(cols) - 1
            up[x], down[x] = up[h], h  # append at the bottom of column h
            down[up[h]] = x
            up[h] = x
            size[h] += 1
            left[x] = first[-1] + (offset - 1) % len(cols)
            right[x] = first[-1] + (offset + 1) % len(cols)
            x += 1
    rightward: list[tuple[int, ...]] = [()] * nodes
    leftward: list[tuple[int, ...]] = [()] * nodes
    for x in range(m + 1, nodes):
        mates = [right[x]]
        while mates[-1] != x:
            mates.append(right[mates[-1]])
        rightward[x] = tuple(mates[:-1])
        leftward[x] = tuple(reversed(mates[:-1]))
    return Matrix(n, m, tuple(left), tuple(right), tuple(up), tuple(down), tuple(column),
                  tuple(row_of), tuple(width), tuple(size), tuple(first), tuple(rightward),
                  tuple(leftward))


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          impl: str = "fast", node_limit: int | None = None) -> Result:
    """Solve as exact cover with dancing links; count up to max_solutions solutions."""
    return _solve(model, [], max_solutions, time_limit, impl, node_limit)


def count(model: Model, *, time_limit: float | None = None, sample: int = SAMPLE, impl: str = "fast",
          node_limit: int | None = None) -> Result:
    """Count every exact cover (count mode), keeping the first ``sample``."""
    found = Counted(sample)
    return with_count(_solve(model, found, COUNT_ALL, time_limit, impl, node_limit), found)


def _solve(model: Model, found: list[Any], max_solutions: int, time_limit: float | None, impl: str,
           node_limit: int | None) -> Result:
    """solve's work, each solution appended to ``found`` (a Counted list when counting)."""
    if impl == "readable":
        return readable.solve(model, max_solutions=max_solutions, time_limit=time_limit,
                              node_limit=node_limit, found=found)
    start = time.perf_counter()
    clash = clash_message(model)
    if clash:
        return Result(Status.UNSAT, [], True, Stats(nodes=0, updates=0,
                                                    solve_time=time.perf_counter() - start), clash)
    links = _Links(matrix(model.n, tuple(g.cells for g in model.groups)))
    for cell, value in enumerate(model.givens):
        if value:
            links.select(links.first[cell * model.n + value - 1])
    stats = Stats(encode_time=time.perf_counter() - start)
    begin = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    rows, limit_hit, budget_hit, exhausted = links.search(max_solutions, deadline, node_limit, found)
    stats.solve_time = time.perf_counter() - begin
    stats.nodes, stats.updates = links.nodes, links.updates
    solutions = [_grid(model, links.row, chosen) for chosen in rows]
    return finish(solutions, exhausted, stats, limit_hit=limit_hit, budget_hit=budget_hit)


def _grid(model: Model, row_of: tuple[int, ...], chosen: list[int]) -> Grid:
    grid = list(model.givens)
    n = model.n
    for x in chosen:
        cell, value = divmod(row_of[x], n)
        grid[cell] = value + 1
    return tuple(grid)


class _Links:
    """One puzzle's working copy of the links, with cover and uncover bound to it.

    The horizontal links never change during the search (rows are never unlinked from
    themselves), so each node's row-mates, in R order and in L order, are fixed tuples
    taken from the matrix: the loops over a row read them instead of following R or L.
    """

    def __init__(self, m: Matrix) -> None:
        L, R = list(m.left), list(m.right)
        U, D = list(m.up), list(m.down)
        S = list(m.size)
        C, W, rightward, leftward = m.column, m.width, m.rightward, m.leftward
        self.R, self.D, self.C, self.row, self.first = R, D, C, m.row, m.first
        self.rightward, self.leftward = rightward, leftward
        self.S = S
        self.nodes = 0
        updates = [0]

        def cover(c: int) -> None:
            """Take column c out of the header list and its rows out of their other columns."""
            R[L[c]], L[R[c]] = R[c], L[c]
            count = 1
            i = D[c]
            while i != c:
                count += W[i]
                for j in rightward[i]:
                    u, d = U[j], D[j]
                    D[u], U[d] = d, u
                    S[C[j]] -= 1
                i = D[i]
            updates[0] += count

        def uncover(c: int) -> None:
            """Undo cover(c), in exactly the reverse order."""
            count = 1
            i = U[c]
            while i != c:
                count += W[i]
                for j in leftward[i]:
                    S[C[j]] += 1
                    U[D[j]] = D[U[j]] = j
                i = U[i]
            R[L[c]] = L[R[c]] = c
            updates[0] += count

        self.cover, self.uncover, self._updates = cover, uncover, updates

    @property
    def updates(self) -> int:
        return self._updates[0]

    def select(self, x: int) -> None:
        """Pre-select the row of node x: cover its column, then its other columns."""
        self.cover(self.C[x])
        for j in self.rightward[x]:
            self.cover(self.C[j])

    def search(self, max_solutions: int, deadline: float | None, node_limit: int | None,
               solutions: list[list[int]]) -> tuple[list[list[int]], bool, bool, bool]:
        """Algorithm X as a loop; the chosen nodes of each solution found (appended to
        ``solutions``), whether the clock or the node budget stopped it, and whether the
        search space was exhausted."""
        R, D, C, S = self.R, self.D, self.C, self.S
        rightward, leftward = self.rightward, self.leftward
        cover, uncover = self.cover, self.uncover
        clock = time.perf_counter
        budget = -1 if node_limit is None else node_limit
        chosen: list[int] = []  # the row (a node of it) tried at each level
        nodes = found = 0
        limit_hit = budget_hit = False
        x = -1  # -1: go down a level; otherwise the node whose row to try next at this level
        while True:
            if x < 0:
                if R[0] == 0:  # every primary column covered: a solution
                    solutions.append(chosen[:])
                    found += 1
                    if found >= max_solutions:
                        break
                    x = 0  # go back up
                else:
                    c, best = 0, 1 << 30
                    h = R[0]
                    while h:
                        s = S[h]
                        if s < best:
                            c, best = h, s
                            if s <= 1:
                                break
                        h = R[h]
                    cover(c)
                    x = D[c]
            if x > 0 and x != C[x]:  # a row to try at this level
                if nodes == budget:
                    budget_hit = True
                    break
                if deadline is not None and not nodes % CLOCK_EVERY and clock() > deadline:
                    limit_hit = True
                    break
                nodes += 1
                chosen.append(x)
                for j in rightward[x]:
                    cover(C[j])
                x = -1
                continue
            if x > 0:  # the column's rows are used up: uncover it and go back up
                uncover(x)
            if not chosen:
                break
            x = chosen.pop()  # undo this level's row, then try the next row of its column
            for j in leftward[x]:
                uncover(C[j])
            x = D[x]
        self.nodes = nodes
        stopped = limit_hit or budget_hit or found >= max_solutions
        exhausted = not chosen and not stopped
        return solutions, limit_hit, budget_hit, exhausted
