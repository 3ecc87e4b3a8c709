"""What the backends share about killer cages: their names, and the digit sets that make a total.

A cage's digits differ (the model also holds the cage as an all-different group)
and, where it has a total, sum to it. The digit sets of ``size`` distinct values
from 1..n that sum to ``total`` are the cage's *combinations*: the SAT encoding
allows only these, and the propagation searches prune a cell's candidates to the
union of the combinations still open.

>>> [sorted(c) for c in combinations(2, 17, 9)]
[[8, 9]]
>>> [sorted(c) for c in combinations(3, 10, 9)]
[[1, 2, 7], [1, 3, 6], [1, 4, 5], [2, 3, 5]]
>>> combination_masks(2, 5, 4)  # {1, 4} and {2, 3}, value v as bit v - 1
(9, 6)
"""
from __future__ import annotations

from functools import cache

from models import Cage, Model


@cache
def combinations(size: int, total: int, n: int) -> tuple[frozenset[int], ...]:
    """Every set of ``size`` distinct values from 1..n summing to ``total``, in lexicographic
    order (built digit by digit, a branch dropped as soon as its total is out of reach)."""
    found: list[frozenset[int]] = []

    def extend(chosen: list[int], low: int, left: int, room: int) -> None:
        if room == 0:
            if left == 0:
                found.append(frozenset(chosen))
            return
        for digit in range(low, n - room + 2):
            smallest = room * (2 * digit + room - 1) // 2  # digit, digit + 1, ...
            largest = room * (2 * n - room + 1) // 2       # n, n - 1, ...
            if smallest > left:
                return
            if largest < left:
                return
            chosen.append(digit)
            extend(chosen, digit + 1, left - digit, room - 1)
            chosen.pop()

    if 0 < size <= n:
        extend([], 1, total, size)
    return tuple(found)


@cache
def combination_masks(size: int, total: int, n: int) -> tuple[int, ...]:
    """The combinations as bitmasks, value v as bit v - 1 (as mrv and fast hold candidates)."""
    return tuple(sum(1 << (v - 1) for v in digits) for digits in combinations(size, total, n))


def cage_number(model: Model, cage: Cage) -> int:
    """The cage's 1-based number in the puzzle, as in its group's name ('cage 3')."""
    return model.puzzle.cages.index(cage) + 1


def open_combinations(model: Model, cage: Cage) -> tuple[frozenset[int], ...]:
    """The cage's combinations that hold every digit given in it (all of them without givens)."""
    given = {model.givens[c] for c in cage.cells if model.givens[c]}
    return tuple(digits for digits in combinations(len(cage.cells), cage.total or 0, model.n)
                 if given <= digits)


def cage_clash(model: Model) -> str:
    """'no 2 different digits with the given 4 sum to 17 in cage 3', or '' when every cage's
    givens can still be completed to its total."""
    for cage in model.cages:
        if not open_combinations(model, cage):
            given = sorted(model.givens[c] for c in cage.cells if model.givens[c])
            with_givens = f" with the given {', '.join(map(str, given))}" if given else ""
            return (f"no {len(cage.cells)} different digits{with_givens} sum to {cage.total} "
                    f"in cage {cage_number(model, cage)}")
    return ""


LEVELS_CAGES_UNSUPPORTED = ("the consistency levels (bounds, gac, sac) reason about all-different "
                            "groups alone, not a cage's total: use inference='singles' or 'locked'")
"""Why mrv and its readable twin answer unsupported for a consistency level on a cage total."""
