"""Skyscraper, two-string kite and turbot fish: two conjugate pairs of one digit joined where
one end of each sees the other.

A conjugate pair is a house where the digit has exactly two places: one of them holds it.
With pairs A=B and C=D where B sees C, B and C are not both the digit, so A or D is: the
digit leaves every cell that sees both A and D (an X-chain of four cells, A=B-C=D). The shape
names it: a *skyscraper* has both pairs in parallel lines (two rows or two columns) joined in a
line; a *two-string kite* one pair in a row and one in a column; a *turbot fish* any other
such chain (a pair in a box). They weigh what Sukaku Explainer gives them: 4.0, 4.1 and 4.2.
"""
from __future__ import annotations

from collections.abc import Iterator

from models.symbols import symbol

from .board import Board, Link, Step

SKYSCRAPER, KITE, TURBOT = "skyscraper", "two-string kite", "turbot fish"


WEIGHTS = {SKYSCRAPER: 4.0, KITE: 4.1, TURBOT: 4.2}


def skyscraper(board: Board) -> Step | None:
    return _first(board, SKYSCRAPER)


def two_string_kite(board: Board) -> Step | None:
    return _first(board, KITE)


def turbot_fish(board: Board) -> Step | None:
    return _first(board, TURBOT)


def _first(board: Board, shape: str) -> Step | None:
    for digit, pair, other, _ in _chains(board):
        if _shape(pair, other) != shape:
            continue
        step = _step(board, shape, digit, pair, other)
        if step is not None:
            return step
    return None


Pair = tuple[str, int, int]  # the house, the end that joins, the far end


def _chains(board: Board) -> Iterator[tuple[int, Pair, Pair, str]]:
    """(digit, first pair, second pair, a group holding both joining ends) for every two
    conjugate pairs of a digit whose near ends see each other (and are not the same cell)."""
    layout = board.layout
    for digit in range(1, layout.n + 1):
        pairs = []
        for name, house in layout.houses:
            spots = board.places(house, digit)
            if len(spots) == 2:
                pairs.append((name, spots[0], spots[1]))
        for i, (h1, a1, b1) in enumerate(pairs):
            for h2, a2, b2 in pairs[i + 1:]:
                if {a1, b1} & {a2, b2}:
                    continue
                for near1, far1 in ((a1, b1), (b1, a1)):
                    for near2, far2 in ((a2, b2), (b2, a2)):
                        joint = _joint(board, near1, near2)
                        if joint:
                            yield digit, (h1, near1, far1), (h2, near2, far2), joint


def _joint(board: Board, a: int, b: int) -> str:
    """The name of a group holding both cells ('' when they do not see each other)."""
    if b not in board.layout.peers[a]:
        return ""
    for name, cells in board.layout.groups:
        if a in cells and b in cells:
            return name
    return ""


def _kind(name: str) -> str:
    return "line" if name.startswith(("row ", "column ")) else "box"


def _shape(pair: Pair, other: Pair) -> str:
    """The name by the houses of the two pairs: two rows or two columns, a row and a column,
    or a box (or another house)."""
    kinds = (_kind(pair[0]), _kind(other[0]))
    if kinds != ("line", "line"):
        return TURBOT
    return SKYSCRAPER if pair[0].split()[0] == other[0].split()[0] else KITE


def _step(board: Board, shape: str, digit: int, pair: Pair, other: Pair) -> Step | None:
    layout = board.layout
    far1, far2 = pair[2], other[2]
    chain = {pair[1], pair[2], other[1], other[2]}
    gone = sorted(c for c in layout.peers[far1] & layout.peers[far2]
                  if c not in chain and board.cand[c] >> (digit - 1) & 1)
    if not gone:
        return None
    d = symbol(digit)
    see = "which sees" if len(gone) == 1 else "which see"
    links = (Link((far1,), digit, (pair[1],), digit, True), Link((pair[1],), digit, (other[1],), digit, False),
             Link((other[1],), digit, (far2,), digit, True))
    return Step(shape, f"{shape} on {d}: in {pair[0]}, {d} can go only in {layout.name(pair[1])} and "
                f"{layout.name(far1)}, in {other[0]} only in {layout.name(other[1])} and "
                f"{layout.name(far2)}; {layout.name(pair[1])} and {layout.name(other[1])} see each "
                f"other, so one of {layout.name(far1)} and {layout.name(far2)} is {d}, and {d} "
                f"leaves {layout.names(gone)}, {see} both",
                eliminations=tuple((c, digit) for c in gone), weight=WEIGHTS[shape], links=links)
