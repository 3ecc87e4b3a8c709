"""The anchor for bench_dlx.py: Algorithm X on a dict of sets, the way Ali Assaf published it.

Assaf's idea (his "Algorithm X in 30 lines!" page): no links at all. The matrix is two
dicts: ``X`` maps each column to the *set* of rows that have a 1 there, ``Y`` maps each
row to the list of its columns. Choosing a row removes, for each of its columns, every
clashing row from every other column's set and pops the column out of ``X`` (kept on a
stack to put back); undoing puts them back in reverse. The search is a recursive
generator that picks the column with the smallest set (Knuth's S heuristic) and yields
each solution. For Sudoku the rows are (row, column, value) triples and the columns are
cell, row-value, column-value and box-value pairs; the givens are selected before the
search. Set operations run in C, which is what makes this short program fast.

This is our own code written from that description, not a copy; it handles the standard
boxed grid only, which is all the anchor measurement (top95) needs.
"""
from __future__ import annotations

from collections.abc import Iterator
from itertools import product

Row = tuple[int, int, int]


def _exact_cover(box_rows: int, box_cols: int) -> tuple[dict, dict[Row, list]]:
    n = box_rows * box_cols
    rows: dict[Row, list] = {}
    for r, c, v in product(range(n), range(n), range(1, n + 1)):
        box = (r // box_rows) * box_rows + c // box_cols
        rows[(r, c, v)] = [("cell", r, c), ("row", r, v), ("col", c, v), ("box", box, v)]
    columns: dict = {}
    for row, cols in rows.items():
        for col in cols:
            columns.setdefault(col, set()).add(row)
    return columns, rows


def _take(columns: dict, rows: dict[Row, list], row: Row) -> list[set]:
    """Choose row: drop every row that clashes with it; the popped column sets, to restore."""
    popped = []
    for col in rows[row]:
        for clash in columns[col]:
            for other in rows[clash]:
                if other != col:
                    columns[other].remove(clash)
        popped.append(columns.pop(col))
    return popped


def _give_back(columns: dict, rows: dict[Row, list], row: Row, popped: list[set]) -> None:
    """Undo _take, in reverse order."""
    for col in reversed(rows[row]):
        columns[col] = popped.pop()
        for clash in columns[col]:
            for other in rows[clash]:
                if other != col:
                    columns[other].add(clash)


def _search(columns: dict, rows: dict[Row, list], partial: list[Row]) -> Iterator[list[Row]]:
    if not columns:
        yield list(partial)
        return
    col = min(columns, key=lambda k: len(columns[k]))
    for row in list(columns[col]):
        partial.append(row)
        popped = _take(columns, rows, row)
        yield from _search(columns, rows, partial)
        _give_back(columns, rows, row, popped)
        partial.pop()


def solutions(givens: tuple[int, ...], box_rows: int, box_cols: int) -> Iterator[tuple[int, ...]]:
    """Every solution of the puzzle as a grid tuple (a generator: take as many as needed)."""
    n = box_rows * box_cols
    columns, rows = _exact_cover(box_rows, box_cols)
    for cell, value in enumerate(givens):
        if value:
            _take(columns, rows, (cell // n, cell % n, value))
    for chosen in _search(columns, rows, []):
        grid = list(givens)
        for r, c, v in chosen:
            grid[r * n + c] = v
        yield tuple(grid)
