"""The generator's own search: naked and hidden singles over bitmask candidates, and a
depth-first search from the cell with the fewest candidates, its values in a random order
or ascending, a value to avoid tried last.

Built on the model's public structure only (its groups and each cell's peers), so the
generator depends on no backend's internals; the backends check what it makes through the
registry. Candidates are a list with one bitmask per cell (bit v-1 for value v).

>>> from models import parse_puzzle
>>> search = SinglesSearch(Model.from_puzzle(parse_puzzle("1234341221434321")))
>>> search.start(parse_puzzle("1.3.3.1.2.4.4.2.").givens) is not None
True
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from models import Grid, Model


@dataclass(frozen=True)
class Found:
    """What a search gave: a solution (or None), the decisions it made, whether its budget ran out."""

    solution: Grid | None
    nodes: int
    ran_out: bool


class SinglesSearch:
    """Singles propagation and depth-first search for one model's groups."""

    def __init__(self, model: Model):
        self.n, self.full = model.n, (1 << model.n) - 1
        self.peers = model.peers
        self.groups = tuple(group.cells for group in model.groups)
        self.group_bits = [sum(1 << g for g in groups) for groups in model.cell_groups]
        self.whole = sum(1 << g for g, cells in enumerate(self.groups) if len(cells) == self.n)
        """The groups of n cells: each must hold every value (a smaller one need not)."""

    def start(self, givens: Sequence[int]) -> list[int] | None:
        """Candidates after propagating the givens, or None if they contradict each other."""
        cands = [1 << (value - 1) if value else self.full for value in givens]
        return cands if self.propagate(cands, list(range(len(cands)))) else None

    def propagate(self, cands: list[int], changed: Sequence[int]) -> bool:
        """Naked and hidden singles to a fixed point from the cells whose candidates just
        changed; False on a contradiction (a cell without candidates, a full group missing
        a value, a cell the only place of two values)."""
        peers, group_bits = self.peers, self.group_bits
        queue = [cell for cell in changed if not cands[cell] & (cands[cell] - 1)]
        if any(not cands[cell] for cell in queue):
            return False
        dirty = 0
        for cell in changed:
            dirty |= group_bits[cell]
        while True:
            while queue:
                cell = queue.pop()
                bit = cands[cell]
                for peer in peers[cell]:
                    left = cands[peer]
                    if left & bit:
                        left ^= bit
                        if not left & (left - 1):
                            if not left:
                                return False
                            queue.append(peer)
                        cands[peer] = left
                        dirty |= group_bits[peer]
            scan, dirty = dirty & self.whole, 0
            if not scan:
                return True
            while scan:
                low = scan & -scan
                scan ^= low
                if not self._hidden_singles(cands, self.groups[low.bit_length() - 1], queue):
                    return False
            for cell in queue:
                dirty |= group_bits[cell]

    def _hidden_singles(self, cands: list[int], cells: tuple[int, ...], queue: list[int]) -> bool:
        """Fix (and queue) each value with one place left in a group of n cells; False if a
        value has no place, or one cell is the only place of two values."""
        once = twice = solved = 0
        for cell in cells:
            mask = cands[cell]
            if mask & (mask - 1):
                twice |= once & mask
                once |= mask
            else:
                solved |= mask
        if once | solved != self.full:
            return False
        hidden = once & ~twice & ~solved
        if hidden:
            for cell in cells:
                bit = cands[cell] & hidden
                if bit:
                    if bit & (bit - 1):
                        return False
                    cands[cell] = bit
                    queue.append(cell)
        return True

    def search(self, cands: list[int], rng: random.Random | None, node_budget: int | None = None,
               avoid: Grid | None = None) -> Found:
        """One solution from propagated candidates, depth first: the open cell with the fewest
        candidates (the first in reading order on a tie), its values shuffled by ``rng`` or
        ascending, ``avoid``'s value last; within ``node_budget`` decisions if given."""
        nodes, frames, state = 0, [], cands
        while True:
            cell = self._fewest(state)
            if cell < 0:
                return Found(tuple(m.bit_length() for m in state), nodes, False)
            frames.append((state, cell, self._values(state[cell], cell, rng, avoid)))
            while frames:
                parent, cell, bits = frames[-1]
                if not bits:
                    frames.pop()
                    continue
                if node_budget is not None and nodes >= node_budget:
                    return Found(None, nodes, True)
                nodes += 1
                child = parent[:]
                child[cell] = bits.pop()
                if self.propagate(child, [cell]):
                    state = child
                    break
            else:
                return Found(None, nodes, False)

    def _fewest(self, state: list[int]) -> int:
        """The open cell with the fewest candidates, the first in reading order on a tie (-1:
        none is open)."""
        best, fewest = -1, self.n + 1
        for cell, mask in enumerate(state):
            if mask & (mask - 1):
                count = mask.bit_count()
                if count < fewest:
                    best, fewest = cell, count
                    if count == 2:
                        break
        return best

    def _values(self, mask: int, cell: int, rng: random.Random | None, avoid: Grid | None) -> list[int]:
        """A cell's candidate bits in the order the stack pops them: the first to try last."""
        bits = [1 << v for v in range(self.n) if mask >> v & 1]
        if rng is not None:
            rng.shuffle(bits)
        else:
            bits.reverse()  # ascending when popped
        if avoid is not None and (last := 1 << (avoid[cell] - 1)) in bits:
            bits.remove(last)
            bits.insert(0, last)
        return bits
