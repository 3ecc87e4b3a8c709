"""Innies and outies (killer Sudoku's rule of 45): a house's digits sum to n(n+1)/2, so the
cages inside a set of houses tell the sum of the cells they leave uncovered.

A *region* is one house, or m adjacent rows, m adjacent columns, or two neighbouring boxes
of a band or a stack (m houses sum to m * n(n+1)/2). The *innies* are the region's cells
that no cage wholly inside it covers: they sum to the region's total less those cages'
totals. When every cell of the region is in some cage, the cages that reach into it cover
it and poke out: the *outies*, their cells outside it, sum to those cages' totals less the
region's total. Counting only the reaching cages that lie mostly inside gives both at once:
the innies left over minus the outies of those cages make a known difference. Once the
placed digits are taken off, a single cell left is fixed; a few cells (up to MAX_CELLS)
become a virtual cage whose sum rules out the candidates no filling uses (digits that see
each other differ; others may repeat). Cages must not overlap for the sums to hold, so a
model with overlapping cages gets no step from here, and nor does a model without cages.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import lru_cache

from models.symbols import symbol

from .board import Board, Layout, Step, digit_words, digits, words

MAX_CELLS = 4
"""The most empty cells a virtual cage may have (a few: a person adds up a few cells)."""


@dataclass(frozen=True)
class Sum:
    """Innies minus outies make a known total: the region and the cages that say so."""

    technique: str
    region: str  # 'row 1', 'rows 1 and 2', 'columns 4 to 6', 'boxes 1 and 2'
    region_total: int
    cages: tuple[int, ...]  # indexes into layout.cages: the ones counted
    cages_total: int
    innies: tuple[int, ...]  # the region's cells the counted cages leave out
    outies: tuple[int, ...]  # the counted cages' cells outside the region
    total: int  # sum(innies) - sum(outies)


ONE = "innies and outies"
SEVERAL = "innies and outies of several houses"

_SUMS: weakref.WeakKeyDictionary[Layout, tuple[tuple[Sum, ...], tuple[Sum, ...]]] = \
    weakref.WeakKeyDictionary()


def innies_outies(board: Board) -> Step | None:
    """The first sum over one house that places a cell or rules out a candidate."""
    return _first_step(board, _sums(board.layout)[0])


def innies_outies_several(board: Board) -> Step | None:
    """The same over 2 or more adjacent rows or columns, or two neighbouring boxes."""
    return _first_step(board, _sums(board.layout)[1])


def _first_step(board: Board, sums: tuple[Sum, ...]) -> Step | None:
    values, cand, peers = board.values, board.cand, board.layout.peers
    for known in sums:
        cells = known.innies + known.outies
        empty = [c for c in cells if not values[c]]
        if not empty or len(empty) > MAX_CELLS:
            continue
        sign = {c: 1 for c in known.innies} | {c: -1 for c in known.outies}
        target = known.total - sum(sign[c] * values[c] for c in cells if values[c])
        signs = tuple(sign[c] for c in empty)
        if all(s < 0 for s in signs):  # outies alone: say it as a plain sum
            signs, target = tuple(-s for s in signs), -target
        apart = tuple(tuple(j for j in range(i) if empty[j] in peers[c]) for i, c in enumerate(empty))
        support = _support(tuple(cand[c] for c in empty), signs, target, apart)
        gone = [(c, d) for c, s in zip(empty, support) for d in digits(cand[c] & ~s)]
        equation = _equation(board, empty, signs, target)
        if len(empty) == 1 and support[0]:
            value = support[0].bit_length()
            return Step(known.technique, _sentence(board, known, cells, empty, equation, ""),
                        placements=((empty[0], value),), group=known.region)
        if gone:
            ruled = _ruled_out(board, empty, support)
            return Step(known.technique, _sentence(board, known, cells, empty, equation, ruled),
                        eliminations=tuple(gone), group=known.region)
    return None


def _equation(board: Board, empty: list[int], signs: tuple[int, ...], target: int) -> str:
    """'r1c9 = 7', 'r1c8 + r1c9 = 11', 'r1c9 - r2c5 = 3' (the positive terms first)."""
    name = board.layout.name
    plus = [name(c) for c, s in zip(empty, signs) if s > 0]
    minus = [name(c) for c, s in zip(empty, signs) if s < 0]
    right = symbol(target) if len(empty) == 1 and 1 <= target <= board.layout.n else str(target)
    return " - ".join([" + ".join(plus), *minus]) + f" = {right}"


def _sentence(board: Board, known: Sum, cells: tuple[int, ...], empty: list[int], equation: str,
              ruled: str) -> str:
    """'innies and outies: row 1 sums to 45; the cages inside it (cages 1 and 2) sum to 38,
    so r1c9 = 7 (an innie)', or with several cells '..., so r1c8 + r1c9 = 11 (innies),
    which rules out 1 and 2 in r1c8; 9 in r1c9'."""
    layout = board.layout
    several = known.region_total > _house_total(layout.n)
    it = "them" if several else "it"
    cages = _cage_words(layout, known.cages)
    one = len(known.cages) == 1
    cover, add_up = ("covers", "sums") if one else ("cover", "sum")
    if not known.outies:
        inside = "cage inside" if one else "cages inside"
        why = f"the {inside} {it} ({cages}) {add_up} to {known.cages_total}"
    elif not known.innies:
        why = f"{cages} {cover} {it} and {add_up} to {known.cages_total}"
    else:
        why = (f"{cages} {add_up} to {known.cages_total} and {cover} {it} but for "
               f"{layout.names(known.innies)}")
    placed = [c for c in cells if board.values[c]]
    if placed:
        why += (f", and {words([symbol(board.values[c]) for c in placed])} "
                f"{'is' if len(placed) == 1 else 'are'} already in {layout.names(placed)}")
    head = f"{known.technique}: {known.region} {'sum' if several else 'sums'} to {known.region_total}; {why}, so "
    kinds = {"innie" if c in known.innies else "outie" for c in empty}
    kind = f"an {kinds.pop()}" if len(empty) == 1 else " and ".join(f"{k}s" for k in sorted(kinds))
    impossible = f", which rules out {ruled}" if ruled else ""
    return head + f"{equation} ({kind}){impossible}"


def _ruled_out(board: Board, empty: list[int], support: tuple[int, ...]) -> str:
    """'1 and 2 in r1c8; 9 in r1c9'; cells losing the same digits are named together:
    '3 and 5 in r8c3 and r9c3'."""
    cells_by_digits: dict[int, list[int]] = {}
    for c, s in zip(empty, support):
        if board.cand[c] & ~s:
            cells_by_digits.setdefault(board.cand[c] & ~s, []).append(c)
    return "; ".join(f"{digit_words(m)} in {board.layout.names(cells)}"
                     for m, cells in cells_by_digits.items())


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
    several += _box_pairs(layout)
    return (tuple(s for region in one for s in _region_sums(layout, ONE, *region)),
            tuple(s for region in several for s in _region_sums(layout, SEVERAL, *region)))


def _box_pairs(layout: Layout) -> list[tuple[str, int, tuple[int, ...]]]:
    """Two neighbouring boxes of a band or a stack, when the boxes are houses (no jigsaw)."""
    geometry = layout.model.puzzle.geometry
    houses = {cells for _, cells in layout.houses}
    boxes = geometry.boxes
    if not boxes or not houses.issuperset(boxes):
        return []
    across = geometry.n // geometry.box_cols  # boxes in a band
    pairs = []
    for i in range(len(boxes)):
        for j in (i + 1, i + across):
            if j < len(boxes) and (j == i + across or j // across == i // across):
                pairs.append((f"boxes {i + 1} and {j + 1}", 2, boxes[i] + boxes[j]))
    return pairs


def _span(first: int, size: int) -> str:
    """'1 and 2', '4 to 6'."""
    return f"{first} and {first + 1}" if size == 2 else f"{first} to {first + size - 1}"


def _region_sums(layout: Layout, technique: str, name: str, houses: int, cells: tuple[int, ...]
                 ) -> list[Sum]:
    """The sums of one region: its innies (the cages inside counted), its outies (every cage
    reaching in counted, when they cover it) and, between the two, innies and outies with
    the reaching cages that lie mostly inside counted; each kept when it has 1 to n cells."""
    region = frozenset(cells)
    inside = [i for i, cage in enumerate(layout.cages) if region.issuperset(cage.cells)]
    reaching = [i for i, cage in enumerate(layout.cages)
                if region.intersection(cage.cells) and not region.issuperset(cage.cells)]
    mostly = [i for i in reaching
              if 2 * len(region.intersection(layout.cages[i].cells)) > len(layout.cages[i].cells)]
    found: list[Sum] = []
    for counted in (inside, inside + reaching, inside + mostly):
        chosen = tuple(sorted(counted))
        if not chosen or any(s.cages == chosen for s in found):
            continue
        in_cages = {c for i in chosen for c in layout.cages[i].cells}
        innies = tuple(c for c in cells if c not in in_cages)
        outies = tuple(sorted(in_cages - region))
        cages_total = sum(layout.cages[i].total or 0 for i in chosen)
        if 1 <= len(innies) + len(outies) <= layout.n:
            total = houses * _house_total(layout.n)
            found.append(Sum(technique, name, total, chosen, cages_total, innies, outies,
                             total - cages_total))
    return found


@lru_cache(maxsize=1 << 14)
def _support(masks: tuple[int, ...], signs: tuple[int, ...], target: int,
             apart: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """For each cell, the candidates used by some filling of the cells whose signed sum
    (sign[i] * digit[i]) makes ``target``, where cell i's digit differs from those of the
    cells in ``apart[i]``."""
    count = len(masks)
    support = [0] * count
    chosen = [0] * count
    most = [0] * (count + 1)  # the largest and smallest signed sums the cells from i on add
    least = [0] * (count + 1)
    for i in range(count - 1, -1, -1):
        high, low = masks[i].bit_length(), (masks[i] & -masks[i]).bit_length()
        most[i] = most[i + 1] + (high if signs[i] > 0 else -low)
        least[i] = least[i + 1] + (low if signs[i] > 0 else -high)

    def fill(i: int, left: int) -> bool:
        if i == count:
            return left == 0
        if not least[i] <= left <= most[i]:
            return False
        works = False
        for d in digits(masks[i]):
            if any(chosen[j] == d for j in apart[i]):
                continue
            chosen[i] = d
            if fill(i + 1, left - signs[i] * d):
                works = True
                support[i] |= 1 << (d - 1)
        return works

    fill(0, target)
    return tuple(support)
