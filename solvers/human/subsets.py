"""Naked and hidden subsets (pairs, triples, quads).

Naked: k cells of a group whose candidates together are only k digits hold those digits,
so the digits leave the group's other cells (any all-different group will do, a cage too).
Hidden: k digits that, within a house, fit only in the same k cells fill those cells, so
the cells' other candidates go (a house only: the digits must appear in it).
"""
from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from .board import Board, Step, digit_words, digits

SIZES = {2: "pair", 3: "triple", 4: "quad"}


def naked_subset(size: int) -> Callable[[Board], Step | None]:
    """The finder of naked subsets of ``size`` cells."""
    technique = f"naked {SIZES[size]}"

    def find(board: Board) -> Step | None:
        layout = board.layout
        for name, cells in layout.groups:
            empty = [c for c in cells if board.cand[c]]
            if len(empty) <= size:
                continue
            small = [c for c in empty if board.cand[c].bit_count() <= size]
            for chosen in combinations(small, size):
                union = 0
                for c in chosen:
                    union |= board.cand[c]
                if union.bit_count() != size:
                    continue
                gone = [(c, d) for c in empty if c not in chosen
                        for d in digits(board.cand[c] & union)]
                if gone:
                    them = digit_words(union)
                    return Step(technique,
                                f"{technique} {them} in {layout.names(chosen)}: {them} "
                                f"leave the other cells of {name} "
                                f"({layout.names(sorted({c for c, _ in gone}))})",
                                eliminations=tuple(gone), group=name)
        return None

    find.__name__ = technique.replace(" ", "_")
    return find


def hidden_subset(size: int) -> Callable[[Board], Step | None]:
    """The finder of hidden subsets of ``size`` digits."""
    technique = f"hidden {SIZES[size]}"

    def find(board: Board) -> Step | None:
        layout = board.layout
        for name, cells in layout.houses:
            empty = [c for c in cells if board.cand[c]]
            if len(empty) <= size:
                continue
            where: dict[int, int] = {}  # digit -> bitmask of its positions among empty
            for position, c in enumerate(empty):
                for d in digits(board.cand[c]):
                    where[d] = where.get(d, 0) | 1 << position
            few = [d for d, spots in where.items() if spots.bit_count() <= size]
            for chosen in combinations(sorted(few), size):
                spots = 0
                for d in chosen:
                    spots |= where[d]
                if spots.bit_count() != size:
                    continue
                keep = 0
                for d in chosen:
                    keep |= 1 << (d - 1)
                held = [empty[p] for p in range(len(empty)) if spots >> p & 1]
                gone = [(c, d) for c in held for d in digits(board.cand[c] & ~keep)]
                if gone:
                    them = digit_words(keep)
                    return Step(technique,
                                f"{technique} {them} in {layout.names(held)}: within {name}, "
                                f"{them} fit only there, so the other candidates "
                                f"({digit_words(sum(1 << (d - 1) for d in {d for _, d in gone}))}) "
                                f"leave those cells", eliminations=tuple(gone), group=name)
        return None

    find.__name__ = technique.replace(" ", "_")
    return find
