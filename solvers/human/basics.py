"""Basic techniques on a case's copy of the board, for forcing nets with basic techniques: locked
candidates, naked and hidden pairs, X-wings (SE's dynamic forcing chains (+) use these four).

They work on bitmasks (a digit's places per house) rather than on a Board, because a net runs
them at every pause of every case. Each returns the eliminations of the first step it finds
(as (cell, digit) pairs), and the cells and digits whose removed candidates it rests on.

A net is tried only when none of these applies to the board itself, so a step can only come
from what the case changed: each looks only at the digits (``digits``, a bitmask) and the cells
(``cells``) the case took candidates from.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from .board import Layout

Found = tuple[list[tuple[int, int]], int, int] | None
"""(eliminations, the cells and the digits the step rests on as bitmasks), or None."""


@dataclass
class Masks:
    """The houses of a layout as cell bitmasks, and its box-line crossings."""

    layout: Layout

    @cached_property
    def houses(self) -> list[int]:
        return [_bits(cells) for _, cells in self.layout.houses]

    @cached_property
    def crossings(self) -> list[tuple[int, int, int]]:
        """(shared cells, rest of the house, rest of the other group) for every house and group
        that share two or more cells."""
        return [(_bits(shared), _bits(rest), _bits(other)) for _, _, shared, rest, other in self.layout.house_pairs]

    @cached_property
    def line_masks(self) -> tuple[list[int], list[int]]:
        """The rows and the columns as cell bitmasks."""
        return [_bits(r) for r in self.layout.rows], [_bits(c) for c in self.layout.cols]


def _bits(cells: tuple[int, ...]) -> int:
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


def _cells(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def locked(masks: Masks, cand: list[int], where: list[int], digits: int, cells: int) -> Found:  # noqa: ARG001 - one signature for every basic technique
    """A digit confined, within a house, to its crossing with another group."""
    for d in _digits(digits):
        places = where[d]
        if not places:
            continue
        for shared, rest, other in masks.crossings:
            if places & shared and not places & rest and places & other:
                return [(c, d) for c in _cells(places & other)], shared | rest, 1 << (d - 1)
    return None


def naked_pair(masks: Masks, cand: list[int], where: list[int], digits: int, cells: int) -> Found:  # noqa: ARG001 - one signature for every basic technique
    """Two cells of a house holding the same two digits only."""
    for house in masks.houses:
        if not house & cells:
            continue
        seen: dict[int, int] = {}
        for cell in _cells(house):
            mask = cand[cell]
            if mask.bit_count() != 2:
                continue
            if mask in seen:
                pair = 1 << seen[mask] | 1 << cell
                gone = [(c, d) for d in _digits(mask) for c in _cells(where[d] & house & ~pair)]
                if gone:
                    return gone, pair, -1
            seen[mask] = cell
    return None


def hidden_pair(masks: Masks, cand: list[int], where: list[int], digits: int, cells: int) -> Found:  # noqa: ARG001 - one signature for every basic technique
    """Two digits that fit, within a house, only in the same two cells."""
    for house in masks.houses:
        if not house & cells:
            continue
        seen: dict[int, int] = {}
        for d in range(1, len(where)):
            places = where[d] & house
            if places.bit_count() != 2:
                continue
            if places in seen:
                keep = 1 << (d - 1) | 1 << (seen[places] - 1)
                gone = [(c, x) for c in _cells(places) for x in _digits(cand[c] & ~keep)]
                if gone:
                    return gone, house, keep
            seen[places] = d
    return None


def x_wing(masks: Masks, cand: list[int], where: list[int], digits: int, cells: int) -> Found:  # noqa: ARG001 - one signature for every basic technique
    """A digit with the same two places in two rows (or columns): it leaves those columns."""
    n = masks.layout.n
    for rows, (base, cover) in ((True, masks.line_masks), (False, masks.line_masks[::-1])):
        for d in _digits(digits):
            places = where[d]
            seen: dict[tuple[int, int], int] = {}
            for b, line in enumerate(base):
                spots = places & line
                if spots.bit_count() != 2:
                    continue
                first = spots & -spots
                key = _positions(first.bit_length() - 1, (spots ^ first).bit_length() - 1, n, rows)
                if key in seen:
                    inside = line | base[seen[key]]
                    gone = [(c, d) for k in key for c in _cells(places & cover[k] & ~inside)]
                    if gone:
                        return gone, inside, 1 << (d - 1)
                seen[key] = b
    return None


def _positions(a: int, b: int, n: int, rows: bool) -> tuple[int, int]:
    """The cover lines of two cells of a base line: their columns (base rows) or rows."""
    return (a % n, b % n) if rows else (a // n, b // n)


def _digits(mask: int) -> list[int]:
    return [d for d in range(1, mask.bit_length() + 1) if mask >> (d - 1) & 1]


BASICS: tuple[Callable[[Masks, list[int], list[int], int, int], Found], ...] = (
    locked, naked_pair, hidden_pair, x_wing)
"""The four, lightest first."""
BASIC_NAMES = {"locked": "locked candidates", "naked_pair": "naked pair", "hidden_pair": "hidden pair",
               "x_wing": "X-wing"}
"""Each one's name in a sentence."""
