"""Innies and outies (killer Sudoku's rule of 45): a house's digits sum to n(n+1)/2, so the
cages inside a set of houses tell the sum of the cells they leave uncovered.

A *region* is one house, or m adjacent rows or m adjacent columns (m houses sum to
m * n(n+1)/2). The *innies* are the region's cells that no cage wholly inside it covers:
they sum to the region's total less those cages' totals. When every cell of the region is
in some cage, the cages that reach into it cover it and poke out: the *outies*, their cells
outside it, sum to those cages' totals less the region's total. Once the placed digits are
taken off, a single cell left is fixed; a few cells (up to MAX_CELLS) become a virtual cage
whose sum rules out the candidates no filling uses (digits that see each other differ;
others may repeat). Cages must not overlap for the sums to hold, so a model with
overlapping cages gets no step from here, and nor does a model without cages.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import lru_cache

from models.symbols import symbol

from .board import Board, Layout, Step, digit_words, words

MAX_CELLS = 4
"""The most empty cells a virtual cage may have (a few: a person adds up a few cells)."""


@dataclass(frozen=True)
class Sum:
    """Cells whose digits make a known total, and the region and cages that say so."""

    technique: str
    region: str  # 'row 1', 'rows 1 and 2', 'columns 4 to 6'
    region_total: int
    side: str  # 'innie' or 'outie'
    cages: tuple[int, ...]  # indexes into layout.cages
    cages_total: int
    cells: tuple[int, ...]  # the innies or the outies
    total: int  # what ``cells`` sum to


ONE = "innies and outies"
SEVERAL = "innies and outies of several houses"

_SUMS: weakref.WeakKeyDictionary[Layout, tuple[tuple[Sum, ...], tuple[Sum, ...]]] = \
    weakref.WeakKeyDictionary()


def innies_outies(board: Board) -> Step | None:
    """The first sum over one house that places a cell or rules out a candidate."""
    return _first_step(board, _sums(board.layout)[0])


def innies_outies_several(board: Board) -> Step | None:
    """The same over 2 or more adjacent rows or columns."""
    return _first_step(board, _sums(board.layout)[1])


def _first_step(board: Board, sums: tuple[Sum, ...]) -> Step | None:
    values, cand = board.values, board.cand
    for known in sums:
        empty = [c for c in known.cells if not values[c]]
        if not empty or len(empty) > MAX_CELLS:
            continue
        placed = [c for c in known.cells if values[c]]
        target = known.total - sum(values[c] for c in placed)
        peers = board.layout.peers
        apart = tuple(tuple(j for j in range(i) if empty[j] in peers[c]) for i, c in enumerate(empty))
        support = _support(tuple(cand[c] for c in empty), target, apart)
        gone = [(c, d) for c, s in zip(empty, support) for d in _digits(cand[c] & ~s)]
        if len(empty) == 1 and support[0]:
            return Step(known.technique, _sentence(board, known, placed, empty, target, ""),
                        placements=((empty[0], target),), group=known.region)
        if gone:
            ruled = _ruled_out(board, empty, support)
            return Step(known.technique, _sentence(board, known, placed, empty, target, ruled),
                        eliminations=tuple(gone), group=known.region)
    return None


def _sentence(board: Board, known: Sum, placed: list[int], empty: list[int], target: int,
              ruled: str) -> str:
    """'innies and outies: row 1 sums to 45; the cages inside it (cages 1 and 2) sum to 38,
    so r1c9 = 7 (an innie)', or with several cells '..., so r1c8 + r1c9 = 11 (innies),
    which rules out 1 and 2 in r1c8 and 9 in r1c9'."""
    layout = board.layout
    it = "them" if known.region_total > _house_total(layout.n) else "it"
    cages = _cage_words(layout, known.cages)
    if known.side == "innie":
        why = f"the cages inside {it} ({cages}) sum to {known.cages_total}"
    else:
        why = f"{cages} cover {it} and sum to {known.cages_total}"
    if placed:
        why += (f", and {words([symbol(board.values[c]) for c in placed])} "
                f"{'is' if len(placed) == 1 else 'are'} already in {layout.names(placed)}")
    verb = "sums" if it == "it" else "sum"
    head = f"{known.technique}: {known.region} {verb} to {known.region_total}; {why}, so "
    if len(empty) == 1:
        value = symbol(target) if 1 <= target <= layout.n else str(target)
        impossible = f", which rules out {ruled}" if ruled else ""  # every candidate: a dead end
        return head + f"{layout.name(empty[0])} = {value} (an {known.side}){impossible}"
    cells = " + ".join(layout.name(c) for c in empty)
    return head + f"{cells} = {target} ({known.side}s), which rules out {ruled}"


def _ruled_out(board: Board, empty: list[int], support: tuple[int, ...]) -> str:
    """'1 and 2 in r1c8 and 9 in r1c9'; cells losing the same digits are named together:
    '3 and 5 in r8c3 and r9c3'."""
    cells_by_digits: dict[int, list[int]] = {}
    for c, s in zip(empty, support):
        if board.cand[c] & ~s:
            cells_by_digits.setdefault(board.cand[c] & ~s, []).append(c)
    return words([f"{digit_words(m)} in {board.layout.names(cells)}"
                  for m, cells in cells_by_digits.items()])


def _cage_words(layout: Layout, cages: tuple[int, ...]) -> str:
    """'cage 3', 'cages 1, 4 and 7' (the models' numbering)."""
    numbers = [layout.cage_names.get(layout.cages[i].cells, "cage ?").removeprefix("cage ")
               for i in cages]
    return ("cage " if len(numbers) == 1 else "cages ") + words(numbers)


def _house_total(n: int) -> int:
    return n * (n + 1) // 2


def _sums(layout: Layout) -> tuple[tuple[Sum, ...], tuple[Sum, ...]]:
    """(the sums over one house, the sums over several adjacent rows or columns), worked out
    once per layout: which cages lie inside each region, and which cells they leave."""
    if layout not in _SUMS:
        _SUMS[layout] = _work_out(layout)
    return _SUMS[layout]


def _work_out(layout: Layout) -> tuple[tuple[Sum, ...], tuple[Sum, ...]]:
    cages = layout.cages
    covered = [c for cage in cages for c in cage.cells]
    if not cages or len(covered) != len(set(covered)):
        return (), ()  # no cages, or overlapping ones: a region's sum says nothing safe
    one = [(name, 1, cells) for name, cells in layout.houses]
    several = []
    for lines, word in ((layout.rows, "row"), (layout.cols, "column")):
        for size in range(2, layout.n):
            for first in range(layout.n - size + 1):
                cells = tuple(c for line in lines[first:first + size] for c in line)
                several.append((f"{word}s {_span(first + 1, size)}", size, cells))
    return (tuple(s for region in one for s in _region_sums(layout, ONE, *region)),
            tuple(s for region in several for s in _region_sums(layout, SEVERAL, *region)))


def _span(first: int, size: int) -> str:
    """'1 and 2', '4 to 6'."""
    return f"{first} and {first + 1}" if size == 2 else f"{first} to {first + size - 1}"


def _region_sums(layout: Layout, technique: str, name: str, houses: int, cells: tuple[int, ...]
                 ) -> list[Sum]:
    """The innie sum and the outie sum of one region, when each has between 1 and n cells."""
    total = houses * _house_total(layout.n)
    inside, reaching = [], []
    region = frozenset(cells)
    for i, cage in enumerate(layout.cages):
        if region.issuperset(cage.cells):
            inside.append(i)
        elif region.intersection(cage.cells):
            reaching.append(i)
    found = []
    in_cages = {c for i in inside for c in layout.cages[i].cells}
    innies = tuple(c for c in cells if c not in in_cages)
    in_total = sum(layout.cages[i].total or 0 for i in inside)
    if inside and 1 <= len(innies) <= layout.n:
        found.append(Sum(technique, name, total, "innie", tuple(inside), in_total, innies,
                         total - in_total))
    all_cages = tuple(sorted(inside + reaching))
    if reaching and region.issubset(c for i in all_cages for c in layout.cages[i].cells):
        outies = tuple(sorted(c for i in reaching for c in layout.cages[i].cells if c not in region))
        cages_total = sum(layout.cages[i].total or 0 for i in all_cages)
        if len(outies) <= layout.n:
            found.append(Sum(technique, name, total, "outie", all_cages, cages_total, outies,
                             cages_total - total))
    return found


def _digits(mask: int) -> tuple[int, ...]:
    return tuple(d + 1 for d in range(mask.bit_length()) if mask >> d & 1)


@lru_cache(maxsize=1 << 14)
def _support(masks: tuple[int, ...], target: int, apart: tuple[tuple[int, ...], ...]
             ) -> tuple[int, ...]:
    """For each cell, the candidates used by some filling of the cells that sums to
    ``target``, where cell i's digit differs from those of the cells in ``apart[i]``."""
    support = [0] * len(masks)
    chosen = [0] * len(masks)
    most = [0] * (len(masks) + 1)  # the largest and smallest sums the cells after i can add
    least = [0] * (len(masks) + 1)
    for i in range(len(masks) - 1, -1, -1):
        most[i] = most[i + 1] + masks[i].bit_length()
        least[i] = least[i + 1] + (masks[i] & -masks[i]).bit_length()

    def fill(i: int, left: int) -> bool:
        if i == len(masks):
            return left == 0
        if not least[i] <= left <= most[i]:
            return False
        works = False
        for d in _digits(masks[i]):
            if d > left or any(chosen[j] == d for j in apart[i]):
                continue
            chosen[i] = d
            if fill(i + 1, left - d):
                works = True
                support[i] |= 1 << (d - 1)
        return works

    fill(0, target)
    return tuple(support)
