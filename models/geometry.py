"""Grid geometry: size, box shape, and the rows, columns and boxes derived from them.

Cells are numbered 0 .. n*n-1 in reading order; values are 1 .. n and 0 is empty.
A Latin square (rows and columns only, any side from 2) is the box shape 1 x n: a box
of one row is that row, so it has no boxes of its own (``boxes`` is empty).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

MIN_SIZE = 4
MAX_SIZE = 64
MIN_LATIN = 2
"""The smallest Latin square: sides 2 and 3 have no boxes, so only Latin squares have them."""


class GeometryError(ValueError):
    """A size or box shape that no Sudoku grid has."""


@dataclass(frozen=True)
class Geometry:
    """An n x n grid split into boxes of box_rows x box_cols cells (n = box_rows * box_cols).

    ``box_rows == 1`` is a Latin square: rows and columns only, no boxes.

    >>> g = Geometry.for_size(6)
    >>> (g.box_rows, g.box_cols, len(g.rows), g.boxes[1])
    (2, 3, 6, (3, 4, 5, 9, 10, 11))
    >>> latin = Geometry.latin_square(5)
    >>> (latin.label(), len(latin.rows), len(latin.cols), latin.boxes)
    ('5x5 Latin square', 5, 5, ())
    """

    box_rows: int
    box_cols: int
    rows: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    cols: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    boxes: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        latin = self.box_rows == 1 and MIN_LATIN <= self.box_cols <= MAX_SIZE
        if not latin and (self.box_rows < 2 or self.box_cols < 2 or not MIN_SIZE <= self.n <= MAX_SIZE):
            raise GeometryError(
                f"boxes of {self.box_rows}x{self.box_cols} give no valid grid "
                f"(sides {MIN_SIZE} to {MAX_SIZE}, boxes at least 2x2; or 1 x n for a Latin "
                f"square of side {MIN_LATIN} to {MAX_SIZE})"
            )
        n, br, bc = self.n, self.box_rows, self.box_cols
        rows = tuple(tuple(r * n + c for c in range(n)) for r in range(n))
        cols = tuple(tuple(r * n + c for r in range(n)) for c in range(n))
        boxes = () if latin else tuple(
            tuple((top + r) * n + left + c for r in range(br) for c in range(bc))
            for top in range(0, n, br)
            for left in range(0, n, bc)
        )
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "boxes", boxes)

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        # pickled as its box shape: the rows, columns and boxes are rebuilt (once per process, cached)
        # where it is unpickled, instead of travelling with every puzzle sent to a worker
        return _of, (self.box_rows, self.box_cols)

    @property
    def n(self) -> int:
        """Side length: the number of rows, columns, boxes and values."""
        return self.box_rows * self.box_cols

    @property
    def latin(self) -> bool:
        """Whether this is a Latin square: rows and columns only, no boxes."""
        return self.box_rows == 1

    @property
    def cells(self) -> int:
        """Number of cells, n * n."""
        return self.n * self.n


    def row_of(self, cell: int) -> int:
        return cell // self.n

    def col_of(self, cell: int) -> int:
        return cell % self.n

    def box_of(self, cell: int) -> int:
        """The cell's box, numbered in reading order; 0 for every cell of a Latin square
        (no boxes: the whole grid is one area, as drawings outline it)."""
        if self.latin:
            return 0
        row, col = divmod(cell, self.n)
        return (row // self.box_rows) * (self.n // self.box_cols) + col // self.box_cols

    def label(self) -> str:
        """Human name such as '9x9' or '6x6 (2x3 boxes)'."""
        base = f"{self.n}x{self.n}"
        if self.latin:
            return f"{base} Latin square"
        return base if self.box_rows == self.box_cols else f"{base} ({self.box_rows}x{self.box_cols} boxes)"

    @staticmethod
    def for_size(n: int) -> Geometry:
        """The usual geometry for side n: the squarest boxes with box_rows <= box_cols."""
        return _for_size(n)

    @staticmethod
    def latin_square(n: int) -> Geometry:
        """The (cached) Latin square of side n: rows and columns only (box shape 1 x n)."""
        if not MIN_LATIN <= n <= MAX_SIZE:
            raise GeometryError(f"a Latin square has a side from {MIN_LATIN} to {MAX_SIZE}, not {n}")
        return _of(1, n)

    @staticmethod
    def of(box_rows: int, box_cols: int) -> Geometry:
        """The (cached) geometry with the given box shape."""
        return _of(box_rows, box_cols)


def valid_size(n: int) -> bool:
    """Whether boxes of at least 2x2 cells tile an n x n grid."""
    return MIN_SIZE <= n <= MAX_SIZE and _box_rows_for(n) is not None


def _box_rows_for(n: int) -> int | None:
    best = None
    for r in range(2, n):
        if n % r == 0 and r <= n // r:
            best = r
    return best


@cache
def _of(box_rows: int, box_cols: int) -> Geometry:
    return Geometry(box_rows, box_cols)


@cache
def _for_size(n: int) -> Geometry:
    box_rows = _box_rows_for(n) if MIN_SIZE <= n <= MAX_SIZE else None
    if box_rows is None:
        raise GeometryError(
            f"size {n} is not a valid grid: it must be box_rows x box_cols "
            f"with both at least 2 and n from {MIN_SIZE} to {MAX_SIZE}"
        )
    return _of(box_rows, n // box_rows)
