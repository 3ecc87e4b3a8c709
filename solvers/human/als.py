"""Almost locked sets: ALS-XZ and ALS-XY-wing.

An almost locked set (ALS) is k cells of one house holding k+1 digits between them: take one
digit away and the rest are locked there. Two ALSs share a *restricted common* digit x when
every cell of one that holds x sees every cell of the other that holds x: they cannot both
hold x, so one of them is locked without x.

ALS-XZ: ALSs A and B with restricted common x and another common digit z. One of them is
locked without x, so it holds z: z leaves every cell that sees all the z-cells of both.
ALS-XY-wing: ALSs A and B each share a restricted common digit with a third, C (x with A, y
with B, x and y different). C lacks at most one of its digits, so it holds x or y: then A is
locked without x, or B without y, and a digit z common to A and B is in one of them: z leaves
every cell that sees all the z-cells of both.

SE has none of these (scale.py): an ALS-XZ whose two sets share only x and z is Sukaku
Explainer's wing of as many cells (four 5.5, five 6.2, six 6.6), any other weighs SE's base for
chains mixing cells and houses, 7.0, plus the length bonus of its cells; so does an ALS-XY-wing.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from models.symbols import symbol

from .board import Board, Link, Step, digits
from .scale import als_weight, length_bonus

MAX_CELLS = 4
"""The largest almost locked set looked for (cells)."""


@dataclass(frozen=True)
class Als:
    """An almost locked set: its cells (and as a bitmask), digits, house, and per digit the
    cells holding it and the cells seeing all of those."""

    cells: tuple[int, ...]
    bits: int
    digits: int
    house: str
    where: tuple[int, ...]
    sees: tuple[int, ...]


_CACHE: list[tuple[tuple[int, ...], int, list[Als]]] = []


def almost_locked_sets(board: Board) -> list[Als]:
    """Every ALS of up to MAX_CELLS cells in a house (the last board's kept)."""
    key = tuple(board.cand)
    if _CACHE and _CACHE[0][0] == key and _CACHE[0][1] == id(board.layout):
        return _CACHE[0][2]
    layout, cand = board.layout, board.cand
    found: dict[tuple[int, ...], Als] = {}
    everything = (1 << len(cand)) - 1
    for name, house in layout.houses:
        empty = [c for c in house if cand[c]]
        for size in range(1, min(MAX_CELLS, len(empty) - 1) + 1):
            for cells in combinations(empty, size):
                mask = 0
                for c in cells:
                    mask |= cand[c]
                if mask.bit_count() != size + 1 or cells in found:
                    continue
                bits = sum(1 << c for c in cells)
                where, sees = [0] * (layout.n + 1), [0] * (layout.n + 1)
                for d in digits(mask):
                    seen = everything
                    for c in cells:
                        if cand[c] >> (d - 1) & 1:
                            where[d] |= 1 << c
                            seen &= layout.peer_mask[c]
                    sees[d] = seen & ~bits
                found[cells] = Als(cells, bits, mask, name, tuple(where), tuple(sees))
    sets = list(found.values())
    _CACHE[:] = [(key, id(layout), sets)]
    return sets


def _restricted(a: Als, b: Als) -> int:
    """The digits a and b share that they cannot both hold (a bitmask)."""
    found = 0
    for d in digits(a.digits & b.digits):
        if b.where[d] & ~a.sees[d] == 0:
            found |= 1 << (d - 1)
    return found


def _targets(board: Board, a: Als, b: Als, z: int) -> list[int]:
    """Cells outside both holding z that see every z-cell of a and of b."""
    mask = a.sees[z] & b.sees[z] & ~(a.bits | b.bits)
    return [c for c in range(len(board.cand)) if mask >> c & 1 and board.cand[c] >> (z - 1) & 1]


def _describe(board: Board, als: Als) -> str:
    return f"{board.layout.names(als.cells)} ({_digits(als.digits)} in {als.house})"


def _digits(mask: int) -> str:
    return "".join(symbol(d) for d in digits(mask)) if max(digits(mask)) <= 9 else ",".join(
        symbol(d) for d in digits(mask))


def als_xz(board: Board, below: float = float("inf")) -> Step | None:
    """The ALS-XZ with the fewest cells that removes something."""
    sets = almost_locked_sets(board)
    best: Step | None = None
    for i, a in enumerate(sets):
        for b in sets[i + 1:]:
            shared = (a.digits & b.digits).bit_count()
            if a.bits & b.bits or shared < 2:
                continue
            weight = als_weight(len(a.cells) + len(b.cells), shared == 2)
            if weight >= min(below, best.weight if best else below):
                continue
            restricted = _restricted(a, b)
            for x in digits(restricted):
                for z in digits(a.digits & b.digits & ~(1 << (x - 1))):
                    gone = _targets(board, a, b, z)
                    if gone:
                        best = _xz_step(board, a, b, x, z, gone, weight)
                        break
                if best is not None and best.weight == weight:
                    break
    return best


def _xz_step(board: Board, a: Als, b: Als, x: int, z: int, gone: list[int], weight: float) -> Step:
    layout = board.layout
    see = "which sees" if len(gone) == 1 else "which see"
    links = (Link(_cells(a.where[x]), x, _cells(b.where[x]), x, False),
             Link(_cells(a.where[z]), z, _cells(a.where[x]), x, True),
             Link(_cells(b.where[x]), x, _cells(b.where[z]), z, True))
    return Step("ALS-XZ", f"ALS-XZ: the almost locked sets {_describe(board, a)} and "
                f"{_describe(board, b)} cannot both hold {symbol(x)} (its cells see each other), so "
                f"one of them is locked without it and holds {symbol(z)}: {symbol(z)} leaves "
                f"{layout.names(gone)}, {see} every {symbol(z)} of both",
                eliminations=tuple((c, z) for c in gone), weight=weight, links=links)


def _cells(mask: int) -> tuple[int, ...]:
    return tuple(c for c in range(mask.bit_length()) if mask >> c & 1)


def als_xy_wing(board: Board, below: float = float("inf")) -> Step | None:
    """The ALS-XY-wing with the fewest cells that removes something."""
    if below <= 7.0:
        return None
    sets = almost_locked_sets(board)
    partners: dict[int, list[tuple[int, int]]] = {}
    for i, a in enumerate(sets):
        for j in range(i + 1, len(sets)):
            b = sets[j]
            if a.bits & b.bits or not a.digits & b.digits:
                continue
            for x in digits(_restricted(a, b)):
                partners.setdefault(i, []).append((j, x))
                partners.setdefault(j, []).append((i, x))
    best: Step | None = None
    for c, near in partners.items():
        pivot = sets[c]
        for (i, x), (j, y) in combinations(near, 2):
            a, b = sets[i], sets[j]
            if x == y or i == j or a.bits & b.bits:
                continue
            weight = round(7.0 + length_bonus(len(a.cells) + len(b.cells) + len(pivot.cells)), 1)
            if weight >= min(below, best.weight if best else below):
                continue
            for z in digits(a.digits & b.digits & ~(1 << (x - 1)) & ~(1 << (y - 1))):
                gone = [g for g in _targets(board, a, b, z) if not pivot.bits >> g & 1]
                if gone:
                    best = _xy_step(board, pivot, a, b, (x, y, z), gone, weight)
                    break
    return best


def _xy_step(board: Board, pivot: Als, a: Als, b: Als, xyz: tuple[int, int, int], gone: list[int],
             weight: float) -> Step:
    x, y, z = xyz
    layout = board.layout
    see = "which sees" if len(gone) == 1 else "which see"
    links = (Link(_cells(a.where[x]), x, _cells(pivot.where[x]), x, False),
             Link(_cells(pivot.where[x]), x, _cells(pivot.where[y]), y, True),
             Link(_cells(pivot.where[y]), y, _cells(b.where[y]), y, False))
    return Step("ALS-XY-wing", f"ALS-XY-wing: the almost locked set {_describe(board, pivot)} "
                f"lacks at most one of its digits, so it holds {symbol(x)} or {symbol(y)}; then "
                f"{_describe(board, a)} is locked without {symbol(x)} or {_describe(board, b)} "
                f"without {symbol(y)}, and either way {symbol(z)} is in one of them, so it leaves "
                f"{layout.names(gone)}, {see} every {symbol(z)} of both",
                eliminations=tuple((c, z) for c in gone),
                weight=weight, links=links)
