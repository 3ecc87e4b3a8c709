"""The Puzzle value: a geometry, its givens, any variant, and where it came from."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .drawing import grid_svg
from .errors import ConstraintError, RegionError
from .geometry import Geometry

RULES = ("main-diagonal", "anti-diagonal", "antiknight", "antiking", "disjoint-groups")
"""Whole-grid rules a puzzle may carry, each a set of all-different groups worked out from the
geometry: one diagonal alone (both are ``diagonals``); cells a chess knight's move apart
differ; cells a king's move apart differ (the diagonal neighbours: the others share a row or
column); cells at the same place in their boxes differ (disjoint groups)."""

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
    ``cages`` are killer cages (distinct digits, and a total where one is given);
    ``rules`` names whole-grid rules from ``RULES`` (kept in that order; both diagonals
    together are ``diagonals``); ``extra_regions`` are further sets of cells that must all
    differ (f-puzzles' extra regions). A Latin-square geometry has no boxes.
    """

    geometry: Geometry
    givens: Grid
    diagonals: bool = False
    regions: Grid | None = None
    source: Source = field(default_factory=Source, compare=False)
    cages: tuple[Cage, ...] = ()
    rules: tuple[str, ...] = ()
    extra_regions: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "givens", tuple(self.givens))
        if self.regions is not None:
            object.__setattr__(self, "regions", tuple(self.regions))
        if self.cages or type(self.cages) is not tuple:
            object.__setattr__(self, "cages", tuple(self.cages))
        if self.extra_regions or type(self.extra_regions) is not tuple:
            object.__setattr__(self, "extra_regions", tuple(tuple(r) for r in self.extra_regions))
        self._normalise_rules()
        n = self.geometry.n
        if len(self.givens) != self.geometry.cells:
            raise ValueError(f"{len(self.givens)} givens for a {self.geometry.label()} grid")
        givens = self.givens  # plain ints in 0..n (the usual case) checked in C, else one by one
        plain = set(map(type, givens)) <= {int, bool} and min(givens) >= 0 and max(givens) <= n
        bad = None if plain else next((i for i, v in enumerate(givens)
                                       if not isinstance(v, int) or not 0 <= v <= n), None)
        if bad is not None:
            raise ValueError(f"given {self.givens[bad]!r} at row {bad // n + 1}, column {bad % n + 1} "
                             f"is not 0 (empty) or 1-{n}")
        if self.regions is not None:
            _check_regions(self.regions, n)
        for number, cage in enumerate(self.cages, start=1):
            _check_cells(cage.cells, n, f"cage {number}")
            _check_total(cage, number)
        for number, region in enumerate(self.extra_regions, start=1):
            _check_cells(region, n, f"extra region {number}")

    def _normalise_rules(self) -> None:
        """Rules in RULES order, once each; both diagonals become ``diagonals``."""
        if not self.rules:  # none (the usual case): nothing to order or check
            object.__setattr__(self, "rules", ())
            return
        unknown = sorted(set(self.rules) - set(RULES))
        if unknown:
            raise ConstraintError(f"unknown rule {unknown[0]!r} (expected one of {', '.join(RULES)})")
        rules = set(self.rules)
        if {"main-diagonal", "anti-diagonal"} <= rules:
            object.__setattr__(self, "diagonals", True)
        if self.diagonals:
            rules -= {"main-diagonal", "anti-diagonal"}
        if "disjoint-groups" in rules and (self.regions is not None or self.geometry.latin):
            raise ConstraintError("disjoint-groups needs boxes: a jigsaw or a Latin square has none")
        object.__setattr__(self, "rules", tuple(rule for rule in RULES if rule in rules))

    @property
    def n(self) -> int:
        return self.geometry.n

    @property
    def num_givens(self) -> int:
        """How many cells are filled in."""
        return sum(1 for v in self.givens if v)

    @property
    def variant(self) -> str:
        """Its kinds joined by '-': 'standard', or from 'jigsaw' (or 'latin'), 'x', the rules,
        'extra-regions' and 'killer', e.g. 'x', 'jigsaw-x', 'latin', 'antiknight-killer'."""
        shape = ["jigsaw"] if self.regions else ["latin"] if self.geometry.latin else []
        parts = (shape + (["x"] if self.diagonals else []) + list(self.rules)
                 + (["extra-regions"] if self.extra_regions else [])
                 + (["killer"] if self.cages else []))
        return "-".join(parts) or "standard"

    def _repr_svg_(self) -> str:
        """The grid drawn, as a notebook shows it."""
        return grid_svg(self, caption=f"{self.geometry.label()} {self.variant}, "
                                      f"{self.num_givens} givens")

    def with_givens(self, givens: Grid) -> Puzzle:
        """The same puzzle (geometry, variant, source) with other givens."""
        return replace(self, givens=tuple(givens))


def _check_regions(regions: Grid, n: int) -> None:
    """A jigsaw region map names regions 1..n, each of exactly n cells."""
    if len(regions) != n * n:
        raise RegionError(f"region map has {len(regions)} cells, expected {n * n}")
    for region in range(1, n + 1):
        size = regions.count(region)
        if size != n:
            raise RegionError(f"region {region} has {size} cells, expected {n}")


def _check_cells(cells: tuple[int, ...], n: int, name: str) -> None:
    """A cage or extra region: distinct cells of the grid, at least one (more than n cells
    cannot all differ: a puzzle without solutions, which is no error)."""
    if not cells:
        raise ConstraintError(f"{name} has no cells")
    bad = next((c for c in cells if not isinstance(c, int) or not 0 <= c < n * n), None)
    if bad is not None:
        raise ConstraintError(f"{name} names cell {bad!r}, not a cell of a {n}x{n} grid (0-{n * n - 1})")
    if len(set(cells)) != len(cells):
        raise ConstraintError(f"{name} names a cell twice")


def _check_total(cage: Cage, number: int) -> None:
    """A total is a positive whole number (one that no digits can make is a puzzle without
    solutions, which is no error)."""
    if cage.total is not None and (not isinstance(cage.total, int) or isinstance(cage.total, bool)
                                   or cage.total < 1):
        raise ConstraintError(f"cage {number} total {cage.total!r} is not a positive whole number")
