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
from dataclasses import dataclass, field

from .basics import BASIC_NAMES, BASICS, Masks
from .board import Board

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
    basics: Masks | None = None  # given: the cases use the basic techniques too


def context(board: Board, basics: bool = False) -> Context:
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
    return Context(board, n, board.cand[:], where, filled, house_mask, Masks(layout) if basics else None)


@dataclass
class Outcome:
    """What one assumption leads to: per node id reached, (parent, ancestors); and a
    contradiction if it meets one: its words, the nodes it rests on, and its ancestors."""

    reached: dict[int, tuple[int, int]] = field(default_factory=dict)
    contradiction: str = ""
    clash: tuple[int, ...] = ()
    clash_ancestors: int = 0
    clash_size: int = 0  # SE's count: the ancestors of each node of the clash, added
    basic: dict[int, str] = field(default_factory=dict)  # node a basic technique took off -> its name


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
        self.queue: deque[tuple[int, int, int]] = deque()
        self.changed_digits = self.changed_cells = 0  # what the case took candidates from
        layout = ctx.board.layout
        self.peer_mask, self.cell_houses = layout.peer_mask, layout.cell_houses

    def run(self, start: int) -> Outcome:
        cell, d, _on = cell_digit(start, self.n)
        self._reach(start, cell, d, START, 1 << start)
        queue, out = self.queue, self.out
        from_on, from_off = self._from_on, (self._dynamic_singles if self.dynamic else self._static_singles)
        while not out.contradiction:
            if queue:
                node, cell, d = queue.popleft()
                from_on(node, cell, d) if node & 1 else from_off(node, cell, d)
            elif not (self.ctx.basics and self.dynamic and self._basics()):
                break
        return out

    def _reach(self, node: int, cell: int, d: int, parent: int, ancestors: int) -> None:
        """Reach ``node`` (``d`` in ``cell``, true if the node is odd) from ``parent``."""
        reached = self.out.reached
        if node in reached:
            return
        if node ^ 1 in reached:
            other = node ^ 1
            reached[node] = (parent, ancestors)  # kept for the words: the clash's two paths
            self._clash(f"{_words(node, self.n)} and {_words(other, self.n)} both follow", (node, other),
                        ancestors | reached[other][1], ancestors.bit_count() + reached[other][1].bit_count())
            return
        bit = 1 << (d - 1)
        if not self.cand[cell] & bit:
            return  # already false on the board (or taken off by this propagation)
        reached[node] = (parent, ancestors)
        self.queue.append((node, cell, d))
        if node & 1:
            filled = self.filled
            for h in self.cell_houses[cell]:
                filled[h] |= bit
        elif self.dynamic:
            self.cand[cell] &= ~bit
            self.where[d] &= ~(1 << cell)
            self.changed_digits |= bit
            self.changed_cells |= 1 << cell

    def _clash(self, words: str, nodes: tuple[int, ...], ancestors: int, size: int) -> None:
        self.out.contradiction, self.out.clash = words, nodes
        self.out.clash_ancestors, self.out.clash_size = ancestors, size

    def _from_on(self, node: int, cell: int, d: int) -> None:
        ancestors = self.out.reached[node][1]
        reach, n = self._reach, self.n
        base = 2 * cell * n  # the false node of digit 1 in this cell
        if not self.digit:
            others = self.ctx.cand[cell] & ~(1 << (d - 1))
            while others:
                low = others & -others
                x = low.bit_length()
                off = base + 2 * (x - 1)
                reach(off, cell, x, node, ancestors | 1 << off)
                others ^= low
        peers = self.ctx.where[d] & self.peer_mask[cell]
        step = 2 * (d - 1)
        while peers:
            low = peers & -peers
            peer = low.bit_length() - 1
            off = 2 * peer * n + step
            reach(off, peer, d, node, ancestors | 1 << off)
            peers ^= low

    def _static_singles(self, node: int, cell: int, d: int) -> None:
        n, ancestors = self.n, self.out.reached[node][1]
        mask = self.ctx.cand[cell]
        if not self.digit and mask.bit_count() == 2:
            x = (mask & ~(1 << (d - 1))).bit_length()
            on = node_of(cell, x, True, n)
            self._reach(on, cell, x, node, ancestors | 1 << on)
        where, house_mask = self.ctx.where[d], self.ctx.house_mask
        for h in self.cell_houses[cell]:
            spots = where & house_mask[h] & ~(1 << cell)
            if spots and not spots & (spots - 1):
                other = spots.bit_length() - 1
                on = node_of(other, d, True, n)
                self._reach(on, other, d, node, ancestors | 1 << on)

    def _dynamic_singles(self, node: int, cell: int, d: int) -> None:
        n, reached = self.n, self.out.reached
        if not self.digit:
            left = self.cand[cell]
            if not left:
                self._hidden_clash(f"{_cell(cell, n)} has no candidate left", cell, self.ctx.cand[cell], 0)
                return
            if not left & (left - 1):
                x = left.bit_length()
                on = node_of(cell, x, True, n)
                if on not in reached:
                    self._reach(on, cell, x, node, self._hidden(cell, self.ctx.cand[cell] & ~left, 0) | 1 << on)
        bit, where, filled = 1 << (d - 1), self.where[d], self.filled
        for h in self.cell_houses[cell]:
            if filled[h] & bit:
                continue
            house = self.ctx.house_mask[h]
            spots = where & house
            if spots and spots & (spots - 1):
                continue
            removed = self.ctx.where[d] & house & ~spots
            if not spots:
                self._hidden_clash(f"{d} has no place left in {self.ctx.board.layout.houses[h][0]}",
                                   -1, removed, d)
                return
            other = spots.bit_length() - 1
            on = node_of(other, d, True, n)
            if on not in reached:
                self._reach(on, other, d, node, self._hidden(-1, removed, d) | 1 << on)

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
        assert self.ctx.basics is not None
        for find in BASICS:
            found = find(self.ctx.basics, self.cand, self.where, self.changed_digits, self.changed_cells)
            if found is None:
                continue
            gone, area, digit_mask = found
            ancestors = self._rule_parents(area, digit_mask)
            for cell, d in gone:
                off = node_of(cell, d, False, self.n)
                self.out.basic[off] = BASIC_NAMES[find.__name__]
                self._reach(off, cell, d, BASIC, ancestors | 1 << off)
            return True
        return False

    def _rule_parents(self, area: int, digit_mask: int) -> int:
        """The ancestors a basic step rests on: every false node of its digits in its cells."""
        n, ancestors = self.n, 0
        for node, (_, node_ancestors) in self.out.reached.items():
            if not node & 1:
                cell, d = divmod(node >> 1, n)
                if area >> cell & 1 and digit_mask >> d & 1:
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
