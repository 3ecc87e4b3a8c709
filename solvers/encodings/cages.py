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
>>> combination_masks(2, 5, 4)  # {1, 4} and {2, 3} as bitmasks of values
(18, 12)
"""
from __future__ import annotations

from functools import cache
from itertools import combinations as subsets

from models import Cage, Model


@cache
def combinations(size: int, total: int, n: int) -> tuple[frozenset[int], ...]:
    """Every set of ``size`` distinct values from 1..n summing to ``total``, smallest first."""
    if size > n or not size * (size + 1) // 2 <= total <= size * (2 * n - size + 1) // 2:
        return ()
    return tuple(frozenset(digits) for digits in subsets(range(1, n + 1), size)
                 if sum(digits) == total)


@cache
def combination_masks(size: int, total: int, n: int) -> tuple[int, ...]:
    """The combinations as bitmasks, value v as bit v (the propagation searches' candidate sets)."""
    return tuple(sum(1 << v for v in digits) for digits in combinations(size, total, n))


def cage_number(model: Model, cage: Cage) -> int:
    """The cage's 1-based number in the puzzle, as in its group's name ('cage 3')."""
    return model.puzzle.cages.index(cage) + 1


def cage_label(model: Model, cage: Cage) -> str:
    """'cage 3 (total 17)'."""
    return f"cage {cage_number(model, cage)} (total {cage.total})"
