"""The Puzzle value: a geometry, its givens, any variant, and where it came from."""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import RegionError
from .geometry import Geometry

Grid = tuple[int, ...]
"""n*n values in reading order; 0 is an empty cell."""


@dataclass(frozen=True)
class Source:
    """Where a puzzle was read: file name, 1-based line of its first row, 0-based index in the file."""

    file: str = "<string>"
    line: int = 0
    index: int = 0

    def __str__(self) -> str:
        return f"{self.file}, line {self.line}" if self.line else self.file


@dataclass(frozen=True)
class Cage:
    """Cells whose digits are all different and, when ``total`` is set, sum to it (killer Sudoku)."""

    cells: tuple[int, ...]
    total: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", tuple(self.cells))


@dataclass(frozen=True)
class Puzzle:
    """A Sudoku puzzle: immutable givens on a geometry, optionally a variant.

    ``diagonals`` adds both main diagonals as all-different groups (X-Sudoku);
    ``regions`` gives each cell a region number 1..n that replaces the boxes (jigsaw);
    ``cages`` are killer cages (distinct digits, and a total where one is given).
    """

    geometry: Geometry
    givens: Grid
    diagonals: bool = False
    regions: Grid | None = None
    source: Source = field(default_factory=Source, compare=False)
    cages: tuple[Cage, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "givens", tuple(self.givens))
        if self.regions is not None:
            object.__setattr__(self, "regions", tuple(self.regions))
        object.__setattr__(self, "cages", tuple(self.cages))
        n = self.geometry.n
        if len(self.givens) != self.geometry.cells:
            raise ValueError(f"{len(self.givens)} givens for a {self.geometry.label()} grid")
        bad = next((i for i, v in enumerate(self.givens)
                    if not isinstance(v, int) or not 0 <= v <= n), None)
        if bad is not None:
            raise ValueError(f"given {self.givens[bad]!r} at row {bad // n + 1}, column {bad % n + 1} "
                             f"is not 0 (empty) or 1-{n}")
        if self.regions is not None:
            _check_regions(self.regions, n)

    @property
    def n(self) -> int:
        return self.geometry.n

    @property
    def num_givens(self) -> int:
        """How many cells are filled in."""
        return sum(1 for v in self.givens if v)

    @property
    def variant(self) -> str:
        """'standard', 'x', 'jigsaw' or 'jigsaw-x'."""
        parts = ((["jigsaw"] if self.regions else []) + (["x"] if self.diagonals else [])
                 + (["killer"] if self.cages else []))
        return "-".join(parts) or "standard"

    def with_givens(self, givens: Grid) -> Puzzle:
        """The same puzzle (geometry, variant, source) with other givens."""
        return Puzzle(self.geometry, tuple(givens), self.diagonals, self.regions, self.source,
                      self.cages)


def _check_regions(regions: Grid, n: int) -> None:
    """A jigsaw region map names regions 1..n, each of exactly n cells."""
    if len(regions) != n * n:
        raise RegionError(f"region map has {len(regions)} cells, expected {n * n}")
    for region in range(1, n + 1):
        size = regions.count(region)
        if size != n:
            raise RegionError(f"region {region} has {size} cells, expected {n}")
