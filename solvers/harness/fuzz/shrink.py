"""Shrinking a failing puzzle: delta debugging over its parts down to a 1-minimal puzzle.

A puzzle's parts are its givens, its killer cages, its extra regions, each whole-grid rule,
its diagonals (X) and its jigsaw regions (without them, the boxes: kept only if no two
givens then clash). Zeller and Hildebrandt's ddmin removes chunks of parts, halving the
chunks when none can go, and ends when no single part can go without the failure going
too: the puzzle is then 1-minimal. Every candidate is tested once (results are cached).

>>> from models import parse_puzzle
>>> puzzle = parse_puzzle("12..34....43..21")
>>> fails = lambda p: p.givens[0] == 1 and p.givens[15] == 1
>>> small, tests, minimal = shrink(puzzle, fails)
>>> (small.num_givens, minimal)
(2, True)
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from models import Model, Puzzle, find_duplicate
from models.geometry import valid_size

Part = tuple[str, int]
"""('given', cell), ('cage', index), ('extra', index), ('rule', index), ('diagonals', 0),
('regions', 0)."""


def parts_of(puzzle: Puzzle, pinned: Sequence[Part] = ()) -> list[Part]:
    """The parts shrinking may remove, givens first (the ones in ``pinned`` stay)."""
    parts: list[Part] = [("given", cell) for cell, value in enumerate(puzzle.givens) if value]
    parts += [("cage", index) for index in range(len(puzzle.cages))]
    parts += [("extra", index) for index in range(len(puzzle.extra_regions))]
    parts += [("rule", index) for index in range(len(puzzle.rules))]
    if puzzle.diagonals:
        parts.append(("diagonals", 0))
    if puzzle.regions is not None and valid_size(puzzle.n):
        parts.append(("regions", 0))
    return [part for part in parts if part not in pinned]


def rebuild(puzzle: Puzzle, removed: set[Part]) -> Puzzle | None:
    """The puzzle without the removed parts; None when two givens then clash (jigsaw regions
    gone: the boxes come back)."""
    givens = tuple(0 if ("given", cell) in removed else value for cell, value in enumerate(puzzle.givens))
    smaller = replace(
        puzzle, givens=givens,
        cages=tuple(cage for i, cage in enumerate(puzzle.cages) if ("cage", i) not in removed),
        extra_regions=tuple(r for i, r in enumerate(puzzle.extra_regions) if ("extra", i) not in removed),
        rules=tuple(rule for i, rule in enumerate(puzzle.rules) if ("rule", i) not in removed),
        diagonals=puzzle.diagonals and ("diagonals", 0) not in removed,
        regions=None if ("regions", 0) in removed else puzzle.regions)
    if ("regions", 0) in removed and find_duplicate(givens, Model.from_puzzle(smaller).groups):
        return None
    return smaller


def shrink(puzzle: Puzzle, fails: Callable[[Puzzle], bool], *, pinned: Sequence[Part] = (),
           deadline: float | None = None) -> tuple[Puzzle, int, bool]:
    """The smallest failing puzzle ddmin reaches from ``puzzle`` (which fails), the tests
    made, and whether it is 1-minimal (False when the deadline, a time.monotonic() value,
    stopped it first)."""
    cache: dict[frozenset[Part], bool] = {}

    def test(removed: frozenset[Part]) -> bool:
        if removed not in cache:
            candidate = rebuild(puzzle, set(removed))
            cache[removed] = candidate is not None and fails(candidate)
        return cache[removed]

    kept, minimal = ddmin(parts_of(puzzle, pinned), lambda left: test(frozenset(
        set(parts_of(puzzle, pinned)) - set(left))), deadline)
    removed = set(parts_of(puzzle, pinned)) - set(kept)
    return rebuild(puzzle, removed) or puzzle, len(cache), minimal


def ddmin(parts: list[Part], fails: Callable[[list[Part]], bool],
          deadline: float | None = None) -> tuple[list[Part], bool]:
    """A 1-minimal sublist of ``parts`` that still fails (``fails`` of the full list is true),
    and whether it was reached before the deadline."""
    chunks = 2
    while len(parts) >= 1:
        if deadline is not None and time.monotonic() > deadline:
            return parts, False
        size = -(-len(parts) // chunks)
        pieces = [parts[i:i + size] for i in range(0, len(parts), size)]
        for index, piece in enumerate(pieces):
            if len(pieces) > 2 and fails(piece):  # the failure lives in one piece
                parts, chunks = piece, 2
                break
            rest = [part for other, p in enumerate(pieces) if other != index for part in p]
            if fails(rest):  # one piece can go
                parts, chunks = rest, max(chunks - 1, 2)
                break
        else:
            if chunks >= len(parts):
                return parts, True
            chunks = min(2 * chunks, len(parts))
    return parts, True
