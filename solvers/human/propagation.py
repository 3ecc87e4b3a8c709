"""What follows from assuming one candidate true or false: the engine of forcing chains and
nets (forcing.py, nets.py).

A candidate is a digit in a cell; as a *node* it is assumed true (on) or false (off). From a
true candidate its cell's other digits and its digit in every peer turn false. From a false
one, where that leaves one candidate in its cell, or one place for its digit in a house, that
one turns true. *Static* propagation (forcing chains) reads those singles off the board as it
stands: only a cell that had two candidates, or a house where the digit had two places, gives
one. *Dynamic* propagation (nets) takes every false candidate off a copy of the board, so
singles that several eliminations make together count too. Nishio's propagation follows one
digit only. With ``basics``, when nothing else follows, locked candidates, naked and hidden
pairs and X-wings on the copy go on (SE's forcing chains with basic techniques).

Each node reached keeps its parent (the node it follows from, for the words and the picture)
and its ancestors as a bitmask of node ids: SE's length of a chain is the number of nodes it
rests on, the hidden ones (the eliminations that made a single) included.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from .board import Board, Step

START, BASIC = -1, -2
"""The parent of the assumed node, and of a node a basic technique took off."""


def node_of(cell: int, digit: int, on: bool, n: int) -> int:
    """The id of a node: two per candidate, the false one even."""
    return 2 * (cell * n + digit - 1) + on


def cell_digit(node: int, n: int) -> tuple[int, int, bool]:
    """(cell, digit, on) of a node id."""
    index, on = divmod(node, 2)
    cell, d = divmod(index, n)
    return cell, d + 1, bool(on)


@dataclass
class Context:
    """The board the assumptions are made on, read once for all of them."""

    board: Board
    n: int
    cand: list[int]
    where: list[int]  # digit -> cells holding it (bitmask)
    filled: list[int]  # house -> digits already placed in it (bitmask)
    house_mask: list[int]
    basics: tuple[Callable[[Board], Step | None], ...] = ()


def context(board: Board, basics: tuple[Callable[[Board], Step | None], ...] = ()) -> Context:
    layout, n = board.layout, board.layout.n
    where = [0] * (n + 1)
    for cell, mask in enumerate(board.cand):
        m = mask
        while m:
            low = m & -m
            where[low.bit_length()] |= 1 << cell
            m ^= low
    house_mask = [sum(1 << c for c in cells) for _, cells in layout.houses]
    filled = [board.placed(cells) for _, cells in layout.houses]
    return Context(board, n, board.cand[:], where, filled, house_mask, basics)


@dataclass
class Outcome:
    """What one assumption leads to: per node id reached, (parent, ancestors); and a
    contradiction if it meets one: its words, the nodes it rests on, and its ancestors."""

    reached: dict[int, tuple[int, int]] = field(default_factory=dict)
    contradiction: str = ""
    clash: tuple[int, ...] = ()
    clash_ancestors: int = 0
    clash_size: int = 0  # SE's count: the ancestors of each node of the clash, added


def propagate(ctx: Context, start: int, *, dynamic: bool, digit: int = 0) -> Outcome:
    """The consequences of the node ``start``; ``digit``: follow that digit only (Nishio)."""
    return _Run(ctx, dynamic, digit).run(start)


class _Run:
    """One propagation: the copy of the board it changes (dynamic) and what it reached."""

    def __init__(self, ctx: Context, dynamic: bool, digit: int) -> None:
        self.ctx, self.dynamic, self.digit = ctx, dynamic, digit
        self.n = ctx.n
        self.cand = ctx.cand[:] if dynamic else ctx.cand
        self.where = ctx.where[:] if dynamic else ctx.where
        self.filled = ctx.filled[:]
        self.out = Outcome()
        self.queue: deque[int] = deque()
        layout = ctx.board.layout
        self.peer_mask, self.cell_houses = layout.peer_mask, layout.cell_houses

    def run(self, start: int) -> Outcome:
        cell, d, on = cell_digit(start, self.n)
        self._reach(start, START, 1 << start)
        while not self.out.contradiction:
            if self.queue:
                node = self.queue.popleft()
                self._from_on(node) if node & 1 else self._from_off(node)
            elif not (self.ctx.basics and self.dynamic and self._basics()):
                break
        return self.out

    def _reach(self, node: int, parent: int, ancestors: int) -> None:
        reached = self.out.reached
        if node in reached:
            return
        other = node ^ 1
        if other in reached:
            self._clash(f"{_words(node, self.n)} and {_words(other, self.n)} both follow", (node, other),
                        ancestors | reached[other][1], ancestors.bit_count() + reached[other][1].bit_count())
            return
        cell, d, on = cell_digit(node, self.n)
        if not self.cand[cell] >> (d - 1) & 1:
            return  # already false on the board (or taken off by this propagation)
        reached[node] = (parent, ancestors)
        self.queue.append(node)
        if self.dynamic and not on:
            self.cand[cell] &= ~(1 << (d - 1))
            self.where[d] &= ~(1 << cell)
        if on:
            for h in self.cell_houses[cell]:
                self.filled[h] |= 1 << (d - 1)

    def _clash(self, words: str, nodes: tuple[int, ...], ancestors: int, size: int) -> None:
        self.out.contradiction, self.out.clash = words, nodes
        self.out.clash_ancestors, self.out.clash_size = ancestors, size

    def _from_on(self, node: int) -> None:
        cell, d, _ = cell_digit(node, self.n)
        ancestors = self.out.reached[node][1]
        n = self.n
        if not self.digit:
            others = self.ctx.cand[cell] & ~(1 << (d - 1))
            while others:
                low = others & -others
                off = node_of(cell, low.bit_length(), False, n)
                self._reach(off, node, ancestors | 1 << off)
                others ^= low
        peers = self.ctx.where[d] & self.peer_mask[cell]
        while peers:
            low = peers & -peers
            off = node_of(low.bit_length() - 1, d, False, n)
            self._reach(off, node, ancestors | 1 << off)
            peers ^= low

    def _from_off(self, node: int) -> None:
        cell, d, _ = cell_digit(node, self.n)
        if self.dynamic:
            self._dynamic_singles(node, cell, d)
        else:
            self._static_singles(node, cell, d)

    def _static_singles(self, node: int, cell: int, d: int) -> None:
        n, ancestors = self.n, self.out.reached[node][1]
        mask = self.ctx.cand[cell]
        if not self.digit and mask.bit_count() == 2:
            on = node_of(cell, (mask & ~(1 << (d - 1))).bit_length(), True, n)
            self._reach(on, node, ancestors | 1 << on)
        for h in self.cell_houses[cell]:
            spots = self.ctx.where[d] & self.ctx.house_mask[h] & ~(1 << cell)
            if spots and not spots & (spots - 1):
                on = node_of(spots.bit_length() - 1, d, True, n)
                self._reach(on, node, ancestors | 1 << on)

    def _dynamic_singles(self, node: int, cell: int, d: int) -> None:
        n, reached = self.n, self.out.reached
        if not self.digit:
            left = self.cand[cell]
            gone = self.ctx.cand[cell] & ~left
            if not left:
                self._hidden_clash(f"{_cell(cell, n)} has no candidate left", cell, gone, 0)
                return
            if not left & (left - 1) and node_of(cell, left.bit_length(), True, n) not in reached:
                on = node_of(cell, left.bit_length(), True, n)
                self._reach(on, node, self._hidden(cell, gone, 0) | 1 << on)
        for h in self.cell_houses[cell]:
            if self.filled[h] >> (d - 1) & 1:
                continue
            spots = self.where[d] & self.ctx.house_mask[h]
            removed = self.ctx.where[d] & self.ctx.house_mask[h] & ~spots
            if not spots:
                self._hidden_clash(f"{d} has no place left in {self.ctx.board.layout.houses[h][0]}",
                                   -1, removed, d)
                return
            if not spots & (spots - 1):
                on = node_of(spots.bit_length() - 1, d, True, n)
                if on not in reached:
                    self._reach(on, node, self._hidden(-1, removed, d) | 1 << on)

    def _hidden(self, cell: int, gone: int, digit: int) -> int:
        """The ancestors of a single: those of every false node that made it (a cell's digits
        ``gone``, or a digit's places ``gone``)."""
        n, reached, ancestors = self.n, self.out.reached, 0
        while gone:
            low = gone & -gone
            off = (node_of(cell, low.bit_length(), False, n) if digit == 0
                   else node_of(low.bit_length() - 1, digit, False, n))
            if off in reached:
                ancestors |= reached[off][1]
            gone ^= low
        return ancestors

    def _hidden_clash(self, words: str, cell: int, gone: int, digit: int) -> None:
        ancestors = self._hidden(cell, gone, digit)
        self._clash(words, (), ancestors, ancestors.bit_count())

    def _basics(self) -> bool:
        """One basic technique on the copy of the board; True if it took something off."""
        board = self.ctx.board
        values = board.values[:]
        for node in self.out.reached:
            if node & 1:
                cell, d, _ = cell_digit(node, self.n)
                values[cell] = d
        cand = [0 if values[c] else m for c, m in enumerate(self.cand)]
        view = Board(board.layout, values, cand)
        for find in self.ctx.basics:
            step = find(view)
            if step is None:
                continue
            ancestors = self._rule_parents(step)
            for cell, d in step.eliminations:
                off = node_of(cell, d, False, self.n)
                self._reach(off, BASIC, ancestors | 1 << off)
            return bool(step.eliminations)
        return False

    def _rule_parents(self, step: Step) -> int:
        """The ancestors a basic step rests on: every false node of its digits in the houses
        of the cells it clears."""
        n, ancestors, area = self.n, 0, 0
        for cell, _ in step.eliminations:
            for h in self.cell_houses[cell]:
                area |= self.ctx.house_mask[h]
        touched = {d for _, d in step.eliminations}
        for node, (_, node_ancestors) in self.out.reached.items():
            cell, d, on = cell_digit(node, n)
            if not on and d in touched and area >> cell & 1:
                ancestors |= node_ancestors
        return ancestors


def _cell(cell: int, n: int) -> str:
    row, col = divmod(cell, n)
    return f"r{row + 1}c{col + 1}"


def _words(node: int, n: int) -> str:
    cell, d, on = cell_digit(node, n)
    return f"{_cell(cell, n)}{'=' if on else '≠'}{d}"


def node_words(node: int, n: int) -> str:
    """'r4c5=2' (true) or 'r4c5≠2' (false)."""
    return _words(node, n)


def path_to(outcome: Outcome, node: int) -> list[int]:
    """The nodes from the assumption to ``node`` through each one's parent."""
    nodes = [node]
    while outcome.reached[nodes[-1]][0] >= 0:
        nodes.append(outcome.reached[nodes[-1]][0])
    return nodes[::-1]
