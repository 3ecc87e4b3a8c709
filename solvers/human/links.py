"""The links between candidates that chains are made of, for one moment of the board.

A *node* is a digit in one cell (a candidate), or a digit in two or three cells of one box
that lie in one line (a *grouped node*: the digit is in one of them). A *strong* link between
two nodes says at least one of them is true: the only two places of a digit in a house, or
the only two digits of a cell. A *weak* link says not both are true: the same digit in cells
that see each other, or two digits of one cell. Strong links are drawn solid and written '=',
weak ones dashed and written '-'.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise

from models.symbols import symbol

from .board import Board, Link, digits

HOUSE, CELL = 0, 1
"""Kinds of strong link: a digit's two places in a house, or a cell's two digits."""


@dataclass
class Graph:
    """The nodes of one board and their links, built once per board state (graph_of)."""

    board: Board
    digit: list[int] = field(default_factory=list)  # node -> its digit
    cells: list[tuple[int, ...]] = field(default_factory=list)  # node -> its cells
    bits: list[int] = field(default_factory=list)  # node -> its cells as a bitmask
    sees: list[int] = field(default_factory=list)  # node -> cells seeing all its cells (bitmask)
    strong: list[list[tuple[int, int]]] = field(default_factory=list)  # node -> (node, HOUSE|CELL)
    weak: list[list[int]] = field(default_factory=list)  # node -> linked nodes false when it is true
    places: list[int] = field(default_factory=list)  # digit -> the cells holding it (bitmask)
    ids: dict[tuple[tuple[int, ...], int], int] = field(default_factory=dict)

    def node(self, cells: tuple[int, ...], digit: int) -> int:
        """The id of the node for these cells and digit (made on first use)."""
        key = (cells, digit)
        found = self.ids.get(key)
        if found is not None:
            return found
        layout = self.board.layout
        self.ids[key] = number = len(self.digit)
        bits = 0
        sees = (1 << layout.n * layout.n) - 1
        for cell in cells:
            bits |= 1 << cell
            sees &= layout.peer_mask[cell]
        self.digit.append(digit)
        self.cells.append(cells)
        self.bits.append(bits)
        self.sees.append(sees & ~bits)
        self.strong.append([])
        self.weak.append([])
        return number

    def link(self, a: int, b: int, kind: int) -> None:
        if a != b and all(other != b for other, _ in self.strong[a]):
            self.strong[a].append((b, kind))
            self.strong[b].append((a, kind))

    def name(self, node: int) -> str:
        """'r4c2', or a grouped node 'r4c23' (a box's cells in row 4, columns 2 and 3)."""
        cells, n = self.cells[node], self.board.layout.n
        if len(cells) == 1:
            return self.board.layout.name(cells[0])
        rows = sorted({c // n + 1 for c in cells})
        cols = sorted({c % n + 1 for c in cells})
        glue = "" if n <= 9 else ","
        return (f"r{glue.join(map(str, rows))}c{glue.join(map(str, cols))}" if len(rows) == 1 or len(cols) == 1
                else "|".join(self.board.layout.name(c) for c in cells))

    def grouped(self, node: int) -> bool:
        return len(self.cells[node]) > 1


_CACHE: list[tuple[tuple[int, ...], int, Graph]] = []


def graph_of(board: Board) -> Graph:
    """The graph of the board as it stands (the last one is kept: a pool asks for it often)."""
    key = tuple(board.cand)
    if _CACHE and _CACHE[0][0] == key and _CACHE[0][1] == id(board.layout):
        return _CACHE[0][2]
    graph = _build(board)
    _CACHE[:] = [(key, id(board.layout), graph)]
    return graph


def _build(board: Board) -> Graph:
    layout, cand, n = board.layout, board.cand, board.layout.n
    graph = Graph(board, places=[0] * (n + 1))
    for cell, mask in enumerate(cand):
        for d in digits(mask):
            graph.node((cell,), d)
            graph.places[d] |= 1 << cell
        if mask and mask.bit_count() == 2:
            a, b = digits(mask)
            graph.link(graph.node((cell,), a), graph.node((cell,), b), CELL)
    for _, house in layout.houses:
        for d in range(1, n + 1):
            spots = board.places(house, d)
            if len(spots) == 2:
                graph.link(graph.node((spots[0],), d), graph.node((spots[1],), d), HOUSE)
            elif len(spots) > 2:
                _grouped_links(graph, house, d, spots)
    _weak_links(graph)
    return graph


def _grouped_links(graph: Graph, house: tuple[int, ...], digit: int, spots: list[int]) -> None:
    """Strong links with grouped nodes: the digit's places in the house split into two
    parts, each one cell or the cells of one box in one line."""
    layout = graph.board.layout
    n = layout.n
    for box in layout.boxes:
        inside = [c for c in spots if c in box]
        if not inside or len(inside) == len(spots):
            continue
        rest = [c for c in spots if c not in box]
        if _segment(inside, box, n) and _segment(rest, None, n) and (len(inside) > 1 or len(rest) > 1):
            graph.link(graph.node(tuple(inside), digit), graph.node(tuple(rest), digit), HOUSE)
    if house not in layout.boxes:
        return
    splits: tuple[Callable[[int], int], ...] = (lambda c: c // n, lambda c: c % n)
    for line_of in splits:  # a box split by a row, or a column
        for key in {line_of(c) for c in spots}:
            part = [c for c in spots if line_of(c) == key]
            rest = [c for c in spots if line_of(c) != key]
            if rest and _segment(rest, house, n) and (len(part) > 1 or len(rest) > 1):
                graph.link(graph.node(tuple(part), digit), graph.node(tuple(rest), digit), HOUSE)


def _segment(cells: list[int], box: tuple[int, ...] | None, n: int) -> bool:
    """One cell, or cells of one line within one box (a box given, or any box holding them)."""
    if len(cells) == 1:
        return True
    one_line = len({c // n for c in cells}) == 1 or len({c % n for c in cells}) == 1
    return one_line and (box is None or all(c in box for c in cells))


def _weak_links(graph: Graph) -> None:
    """For each node with a strong link, the nodes with strong links it turns false."""
    linked = [v for v in range(len(graph.digit)) if graph.strong[v]]
    by_digit: dict[int, list[int]] = {}
    for v in linked:
        by_digit.setdefault(graph.digit[v], []).append(v)
    by_cell: dict[int, list[int]] = {}
    for v in linked:
        if len(graph.cells[v]) == 1:
            by_cell.setdefault(graph.cells[v][0], []).append(v)
    bits, sees = graph.bits, graph.sees
    for u in linked:
        weak = [v for v in by_digit[graph.digit[u]] if v != u and bits[v] & ~sees[u] == 0]
        if len(graph.cells[u]) == 1:
            weak += [v for v in by_cell.get(graph.cells[u][0], ()) if v != u]
        graph.weak[u] = weak


def node_words(graph: Graph, node: int) -> str:
    """'(4)r2c3': the digit in brackets, then the cell or group."""
    return f"({symbol(graph.digit[node])}){graph.name(node)}"


def eureka(graph: Graph, nodes: list[int], loop: bool = False) -> str:
    """A chain in Eureka notation: '(4)r2c3=(4-7)r2c7=(7)r8c7', links alternately strong and
    weak from the first; a cell written once where the chain passes between two of its digits.
    On one digit the digit is left out ('r2c3=r2c7-r8c7=r8c1'). For a loop the closing weak
    link back to the first node is written too."""
    same_digit = len({graph.digit[v] for v in nodes}) == 1

    def word(v: int) -> str:
        return graph.name(v) if same_digit else node_words(graph, v)

    text, i = "", 0
    while i < len(nodes):
        a = nodes[i]
        if (not same_digit and i + 1 < len(nodes) and len(graph.cells[a]) == 1
                and graph.cells[a] == graph.cells[nodes[i + 1]]):
            sign = "=" if i % 2 == 0 else "-"
            text += f"({symbol(graph.digit[a])}{sign}{symbol(graph.digit[nodes[i + 1]])}){graph.name(a)}"
            i += 2
        else:
            text += word(a)
            i += 1
        if i < len(nodes):
            text += "=" if (i - 1) % 2 == 0 else "-"
    if loop:
        text += "-" + word(nodes[0])
    return text


def chain_links(graph: Graph, nodes: list[int], loop: bool = False) -> tuple[Link, ...]:
    """The links of an alternating chain (strong first) for pictures."""
    found = []
    pairs = list(pairwise(nodes))
    if loop:
        pairs.append((nodes[-1], nodes[0]))
    for k, (a, b) in enumerate(pairs):
        found.append(Link(graph.cells[a], graph.digit[a], graph.cells[b], graph.digit[b], k % 2 == 0))
    return tuple(found)
