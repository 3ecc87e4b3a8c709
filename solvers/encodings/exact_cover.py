"""Sudoku as exact cover: the column layout both dancing-links implementations build from
(solvers/backends/dlx.py, flat link arrays, and its readable twin, node objects)."""
from __future__ import annotations

CAGES_UNSUPPORTED = ("exact cover cannot express a killer cage's total: each column is covered "
                     "exactly once, and a sum of digits is no such condition")
"""Why both implementations answer 'unsupported' for a model with cage totals."""
CLOCK_EVERY = 64
"""Rows tried between two looks at the clock, in both implementations."""


def column_layout(n: int, num_cells: int, groups: tuple[tuple[int, ...], ...]
                  ) -> tuple[list[bool], list[list[int]]]:
    """Which columns are primary, and the columns of each row (cell * n + value - 1).

    Column k (0-based) is: k < num_cells, cell k filled; after that, group g holds value
    v at num_cells + g * n + v - 1. Both implementations build from this one layout.
    """
    primary = [True] * num_cells + [len(group) == n for group in groups for _ in range(n)]
    cell_groups: list[list[int]] = [[] for _ in range(num_cells)]
    for g, group in enumerate(groups):
        for cell in group:
            cell_groups[cell].append(g)
    rows = [[cell] + [num_cells + g * n + value for g in cell_groups[cell]]
            for cell in range(num_cells) for value in range(n)]
    return primary, rows
