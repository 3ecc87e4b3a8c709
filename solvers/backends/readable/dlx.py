"""Dancing links as Knuth wrote them: node objects and a recursive search.

Read this next to Donald E. Knuth, "Dancing Links" (Millennial Perspectives in
Computer Science, 2000; arXiv cs/0011047). The names follow the paper: every 1 of
the matrix is a data object ``x`` with links ``L[x] R[x] U[x] D[x]`` and its column
header ``C[x]``; a column object also has a size ``S`` and a name ``N``; the root
``h`` heads the list of column objects. The heart of the method is that a node taken
out of a doubly linked list still remembers its neighbours, so

    L[R[x]] <- L[x],  R[L[x]] <- R[x]      removes x, and
    L[R[x]] <- x,     R[L[x]] <- x         puts it back.

This is the readable twin of ``solvers.backends.dlx`` (``impl='fast'``, flat integer
arrays and a loop). Both build the matrix from the same ``column_layout`` (one row per
(cell, value); columns "cell filled" and "group holds value" for the model's groups),
pre-select the givens, choose columns the same way (fewest rows, first in the list on a
tie, a column of size 0 or 1 ends the scan) and try rows top to bottom, so they give
the same solutions in the same order with the same ``nodes`` and ``updates``
(tests/test_dlx.py checks this). Use ``dlx`` with ``impl='readable'`` to run it.
"""
from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import takewhile
from typing import TypeVar, cast

from models import Grid, Model
from models.symbols import symbol

from ...encodings.domains import clash_message
from ...encodings.exact_cover import CAGES_UNSUPPORTED, CLOCK_EVERY, column_layout
from ...result import Result, Stats, Status, finish, unsupported
from ...trace import Trace
from .limits import Limits, Stop, recursion_room


class Node:
    """A data object: a 1 in the matrix, in one row and one column."""

    def __init__(self, column: Column | None, row: tuple[int, int] = (-1, -1)) -> None:
        self.L: Node = self
        self.R: Node = self
        self.U: Node = self
        self.D: Node = self
        self.C: Column = column if column is not None else cast(Column, self)  # a header is its own column
        self.row = row  # (cell, value) of the matrix row this 1 is in; (-1, -1) for a header


class Column(Node):
    """A column object: the header of a column, with its size S and name N."""

    def __init__(self, name: str, cells: tuple[int, ...] = ()) -> None:
        super().__init__(None)
        self.S = 0
        self.N = name
        self.cells = cells  # the cells the column is about (its cell, or its group's), for the trace


N = TypeVar("N", bound=Node)
"""walk() yields what it starts from: columns along the header list, nodes along a row or column."""


class DancingLinks:
    """The matrix of one puzzle, the partial solution O, and Algorithm X over them."""

    def __init__(self, model: Model) -> None:
        n = model.n
        primary, rows = column_layout(n, model.num_cells, tuple(g.cells for g in model.groups))
        self.h = Column("root")
        self.columns = [Column(name, cells) for name, cells in zip(column_names(model),
                                                                   column_cells(model))]
        for k, column in enumerate(self.columns):
            if primary[k]:  # secondary columns stay out of the header list
                self._append_right(self.h, column)
        self.first: dict[tuple[int, int], Node] = {}
        for r, cols in enumerate(rows):
            cell, value = divmod(r, n)
            row = [Node(self.columns[k], (cell, value + 1)) for k in cols]
            for x in row:
                self._append_below(x.C, x)
                x.C.S += 1
            for x in row[1:]:
                self._append_right(row[0], x)
            self.first[(cell, value + 1)] = row[0]
        self.O: list[Node] = []  # the rows chosen so far, one per level
        self.nodes = self.updates = 0
        self.trace: Trace | None = None  # set to record each step

    @staticmethod
    def _append_right(start: Node, x: Node) -> None:
        """Put x at the end of start's horizontal list (just left of start)."""
        x.L, x.R = start.L, start
        start.L.R = x
        start.L = x

    @staticmethod
    def _append_below(column: Column, x: Node) -> None:
        """Put x at the bottom of the column (just above its header)."""
        x.U, x.D = column.U, column
        column.U.D = x
        column.U = x

    @staticmethod
    def walk(x: N, link: str) -> Iterator[N]:
        """The paper's "for each j <- R[x], R[R[x]], ..., while j != x" for link R, L, U or D."""
        j = getattr(x, link)
        while j is not x:
            yield j
            j = getattr(j, link)

    def cover(self, c: Column) -> None:
        """Knuth's cover: unlink c from the headers, and every row of c from its other columns."""
        c.R.L, c.L.R = c.L, c.R
        self.updates += 1
        for i in self.walk(c, "D"):
            for j in self.walk(i, "R"):
                j.D.U, j.U.D = j.U, j.D
                j.C.S -= 1
                self.updates += 1

    def uncover(self, c: Column) -> None:
        """Knuth's uncover: exactly the reverse of cover, so every link comes back."""
        for i in self.walk(c, "U"):
            for j in self.walk(i, "L"):
                j.C.S += 1
                j.D.U = j.U.D = j
                self.updates += 1
        c.R.L = c.L.R = c
        self.updates += 1

    def choose_column(self) -> Column:
        """Knuth's S heuristic: the column with the fewest rows (the first on a tie).

        A column of size 0 or 1 cannot be beaten by a later one, so the scan stops there.
        """
        best: Column | None = None
        for c in self.walk(self.h, "R"):
            if best is None or c.S < best.S:
                best = c
                if c.S <= 1:
                    break
        assert best is not None  # search() only asks when the header list is not empty
        return best

    def select(self, x: Node) -> None:
        """Choose x's row outside the search (a given): cover all its columns."""
        self.cover(x.C)
        for j in self.walk(x, "R"):
            self.cover(j.C)

    def search(self, k: int, found: list[Grid], grid: list[int], limits: Limits) -> None:
        """Knuth's search(k): if R[h] = h a solution is found; otherwise choose a column
        c, cover it, try each of its rows r in turn, and uncover c."""
        if self.h.R is self.h:
            solution = grid[:]
            for chosen in self.O:
                cell, value = chosen.row
                solution[cell] = value
            found.append(tuple(solution))
            if self.trace is not None:
                self.trace.emit("solved", k, count=len(found))
            if len(found) >= limits.max_solutions:
                raise Stop
            return
        c = self.choose_column()
        if self.trace is not None and c.S == 0:
            self.trace.emit("contradiction", k, rule="no row", column=c.N, cells=list(c.cells))
        forced = c.S == 1  # one row left: taking it is forced, not a choice
        self.cover(c)
        for r in self.walk(cast(Node, c), "D"):  # the rows of column c
            limits.check(self.nodes)
            self.nodes += 1
            self.O.append(r)  # O_k <- r
            if self.trace is not None:
                self.trace.emit("decide", k + 1, cell=r.row[0], value=r.row[1], rule="fewest rows",
                                group=c.N, forced=forced, alternatives=[list(x.row) for x in
                                              takewhile(lambda x: x is not c, self.walk(r, "D"))])
            for j in self.walk(r, "R"):
                self.cover(j.C)
            self.search(k + 1, found, grid, limits)
            r = self.O.pop()
            for j in self.walk(r, "L"):
                self.uncover(j.C)
            if self.trace is not None:
                self.trace.emit("backtrack", k + 1, cell=r.row[0], value=r.row[1])
        self.uncover(c)


def column_names(model: Model) -> list[str]:
    """What each column of ``column_layout`` stands for, in words ('r1c2 filled', '5 in row 3')."""
    n = model.n
    cells = [f"r{cell // n + 1}c{cell % n + 1} filled" for cell in range(model.num_cells)]
    return cells + [f"{symbol(v)} in {group.name}" for group in model.groups for v in range(1, n + 1)]


def column_cells(model: Model) -> list[tuple[int, ...]]:
    """The cells each column of ``column_layout`` is about, in the order of ``column_names``."""
    n = model.n
    cells = [(cell,) for cell in range(model.num_cells)]
    return cells + [group.cells for group in model.groups for _ in range(n)]


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          node_limit: int | None = None, trace: Trace | None = None,
          found: list[Grid] | None = None) -> Result:
    """Solve as exact cover with node objects; the same answers and counters as dlx (the
    solutions appended to ``found`` when given: a Counted list counts them)."""
    if model.cages:
        return unsupported(CAGES_UNSUPPORTED)
    start = time.perf_counter()
    if trace is not None:
        trace.start(model, "dlx:impl=readable")
    clash = clash_message(model)
    if clash:
        if trace is not None:
            trace.emit("contradiction", 0, rule="givens clash", message=clash)
        return Result(Status.UNSAT, [], True, Stats(nodes=0, updates=0,
                                                    solve_time=time.perf_counter() - start), clash)
    links = DancingLinks(model)
    links.trace = trace
    for cell, value in enumerate(model.givens):
        if value:
            links.select(links.first[(cell, value)])
    stats = Stats(encode_time=time.perf_counter() - start)
    begin = time.perf_counter()
    limits = Limits(max_solutions, start, time_limit, node_limit, CLOCK_EVERY)
    found = [] if found is None else found
    exhausted = False
    with recursion_room(model.num_cells):
        try:
            links.search(0, found, list(model.givens), limits)
            exhausted = True
        except Stop:
            pass
    stats.solve_time = time.perf_counter() - begin
    stats.nodes, stats.updates = links.nodes, links.updates
    return finish(found, exhausted, stats, limit_hit=limits.limit_hit, budget_hit=limits.budget_hit)
