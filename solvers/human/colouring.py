"""Simple colouring: chains of conjugate pairs of one digit, coloured in two alternating colours.

A conjugate pair is a house where the digit has exactly two places: one of them holds it.
Following such pairs links cells into a chain whose cells alternate between two colours, and
exactly one colour holds the digit. Two cells of one colour that see each other would both
hold it, so that colour is false and the digit leaves all its cells (a *colour wrap*); a cell
outside the chain that sees both colours cannot hold the digit (a *colour trap*). It weighs
the chain of one digit it amounts to (scale.py, taken to pass through rows, columns and boxes):
a trap the chain between the two cells seen, a wrap the chain from one of the two cells that
see each other to the other.
"""
from __future__ import annotations

from models.symbols import symbol

from .board import Board, Step
from .scale import one_digit_weight


def simple_colouring(board: Board, below: float = float("inf")) -> Step | None:
    layout = board.layout
    for digit in range(1, layout.n + 1):
        bit = 1 << (digit - 1)
        links: dict[int, set[int]] = {}
        for _, cells in layout.houses:
            places = [c for c in cells if board.cand[c] & bit]
            if len(places) == 2:
                a, b = places
                links.setdefault(a, set()).add(b)
                links.setdefault(b, set()).add(a)
        seen: set[int] = set()
        for start in sorted(links):
            if start in seen:
                continue
            colour = {start: 0}
            queue = [start]
            for cell in queue:
                for other in sorted(links[cell]):
                    if other not in colour:
                        colour[other] = 1 - colour[cell]
                        queue.append(other)
            seen.update(colour)
            if len(colour) < 3:
                continue  # one pair alone is a locked-candidates move, not a chain
            step = _wrap(board, digit, colour, links) or _trap(board, digit, colour, links)
            if step and step.weight < below:
                return step
    return None


def _chain(board: Board, colour: dict[int, int]) -> str:
    layout = board.layout
    return (f"the chain of conjugate pairs coloured {layout.names(sorted(c for c in colour if not colour[c]))}"
            f" against {layout.names(sorted(c for c in colour if colour[c]))}")


def _weight(strong: int) -> float:
    """A chain of one digit with this many strong links, through rows, columns and boxes."""
    return one_digit_weight(max(strong, 2), True, True, True, grouped=False)


def _distance(links: dict[int, set[int]], a: int, b: int) -> int:
    """The number of conjugate links between two cells of one chain."""
    seen, ring, steps = {a}, [a], 0
    while ring and b not in ring:
        following = []
        for cell in ring:
            for other in links[cell] - seen:
                seen.add(other)
                following.append(other)
        ring, steps = following, steps + 1
    return steps


def _wrap(board: Board, digit: int, colour: dict[int, int], links: dict[int, set[int]]) -> Step | None:
    layout = board.layout
    cells = sorted(colour)
    for i, a in enumerate(cells):
        for b in cells[i + 1:]:
            if colour[a] == colour[b] and b in layout.peers[a]:
                false = sorted(c for c in cells if colour[c] == colour[a])
                d = symbol(digit)
                return Step("simple colouring",
                            f"simple colouring on {d}: in {_chain(board, colour)} one side holds "
                            f"{d}; {layout.name(a)} and {layout.name(b)} are on the same side and "
                            f"see each other, so that side is false and {d} leaves "
                            f"{layout.names(false)}",
                            eliminations=tuple((c, digit) for c in false),
                            weight=_weight(_distance(links, a, b) // 2 + 1))
    return None


def _trap(board: Board, digit: int, colour: dict[int, int], links: dict[int, set[int]]) -> Step | None:
    layout = board.layout
    bit = 1 << (digit - 1)
    gone, nodes = [], 0
    for cell, mask in enumerate(board.cand):
        if mask & bit and cell not in colour:
            sides = {colour[p] for p in layout.peers[cell] if p in colour}
            if len(sides) == 2:
                gone.append(cell)
                if len(gone) == 1:  # the chain between the nearest two cells it sees
                    seen = [p for p in layout.peers[cell] if p in colour]
                    nodes = min(_distance(links, a, b) + 1 for a in seen for b in seen
                                if colour[a] != colour[b])
    if not gone:
        return None
    d = symbol(digit)
    return Step("simple colouring",
                f"simple colouring on {d}: in {_chain(board, colour)} one side holds {d}, and "
                f"{layout.names(gone)} {'sees' if len(gone) == 1 else 'see'} cells of both sides, so "
                f"{d} leaves {'it' if len(gone) == 1 else 'them'}",
                eliminations=tuple((c, digit) for c in gone), weight=_weight(nodes // 2))
