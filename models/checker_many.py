"""The independent checker for many solutions at once: ``verify``'s rules over numpy arrays.

For the batch entries (``run --batch``), where one call of ``verify`` per answer would cost
more than the solving. It is ``checker.py``'s checker: the same groups, from checker.py's own
arithmetic (``_groups``: rows, columns, boxes, regions, diagonals, disjoint groups, extra
regions), never ``Model.groups`` nor any backend's tables; a row passes when its values are
all 1..n, keep the givens, and differ within every group. The rules no group states (a
knight's or king's move apart, killer cages) are checked by ``verify`` itself, row by row;
so is every row that fails here, to say what is wrong.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .checker import _groups, verify

if TYPE_CHECKING:  # only for the type hints
    import numpy as np

    from .puzzle import Puzzle


def verify_many(template: Puzzle, givens: np.ndarray, solutions: np.ndarray) -> np.ndarray:
    """For each row, whether solutions[row] solves the puzzle of template's layout (its
    geometry, variant groups, rules and cages) with givens[row]: bool[rows]."""
    import numpy as np  # noqa: PLC0415 - only for the batch entries

    geometry = template.geometry
    n = geometry.n
    grid, given = np.asarray(solutions), np.asarray(givens)
    if grid.ndim != 2 or grid.shape != given.shape or grid.shape[1] != n * n:
        raise ValueError(f"solutions and givens must both be (rows, {n * n}) arrays, not "
                         f"{grid.shape} and {given.shape}")
    ok: np.ndarray = ((grid >= 1) & (grid <= n)).all(axis=1) & ((given == 0) | (given == grid)).all(axis=1)
    # one bit a value, in the narrowest type that holds n bits (a value out of range: no bit)
    kind = np.uint16 if n <= 16 else np.uint32 if n <= 32 else np.uint64
    bit = np.array([0] + [1 << (v - 1) for v in range(1, n + 1)], kind)
    bits = bit[np.where((grid >= 1) & (grid <= n), grid, 0)]
    by_size: dict[int, list[list[int]]] = {}
    for _, group in _groups(n, geometry.box_rows, geometry.box_cols, template.diagonals,
                            template.regions, set(template.rules), template.extra_regions):
        by_size.setdefault(len(group), []).append(group)
    for groups in by_size.values():
        picked = bits[:, np.array(groups, np.int64)]
        total = picked.sum(axis=2, dtype=np.uint64)
        ok &= (total == np.bitwise_or.reduce(picked, axis=2)).all(axis=1)
    if set(template.rules) & {"antiknight", "antiking"} or template.cages:
        for row in np.flatnonzero(ok).tolist():
            puzzle = template.with_givens(tuple(int(v) for v in given[row].tolist()))
            ok[row] = verify(puzzle, [int(v) for v in grid[row].tolist()]).ok
    return ok
