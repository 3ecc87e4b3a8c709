"""Mutators: a puzzle's symmetries (cells moved, digits relabelled) and one given more or less.

A symmetry moves every cell and relabels every digit, and takes the puzzle's explicit
structure (jigsaw regions, killer cages, extra regions) along. It is kept only if it maps
the puzzle's groups onto the mutant's groups, checked on the two models (``preserves``):
so a band permutation is refused on an X-Sudoku (its diagonals would move), a
transposition on 2x3 boxes, a relabelling under killer totals, and any move the knight's
and king's rules would not survive. What survives maps solutions to solutions, one to one.

>>> from models import parse_puzzle
>>> puzzle = parse_puzzle("1...........4..3")
>>> mutant = Symmetry("transpose", cells_transposed(4), tuple(range(5)))
>>> preserves(puzzle, mutant), mutant.apply(puzzle).givens[3]
(True, 4)
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from models import Cage, Grid, Model, Puzzle

from ...encodings.isomorph import line_order

KINDS = ("relabel digits", "permute rows", "permute columns", "permute bands", "permute stacks",
         "transpose", "rotate", "reflect")
"""The symmetries tried, in words (a puzzle keeps those that preserve its groups)."""


@dataclass(frozen=True)
class Symmetry:
    """One symmetry of a grid: ``cells[c]`` is where cell c goes, ``digits[v]`` what digit v
    becomes (``digits[0]`` is 0: empty stays empty)."""

    name: str
    cells: tuple[int, ...]
    digits: tuple[int, ...]

    def grid(self, grid: Grid) -> Grid:
        """A grid (a solution, or givens) moved and relabelled."""
        moved = [0] * len(grid)
        for cell, value in enumerate(grid):
            moved[self.cells[cell]] = self.digits[value]
        return tuple(moved)

    def apply(self, puzzle: Puzzle) -> Puzzle:
        """The mutant: givens, regions, cages and extra regions moved along."""
        regions = None
        if puzzle.regions is not None:
            moved = [0] * len(puzzle.regions)
            for cell, region in enumerate(puzzle.regions):
                moved[self.cells[cell]] = region
            regions = tuple(moved)
        cages = tuple(Cage(tuple(sorted(self.cells[c] for c in cage.cells)), cage.total)
                      for cage in puzzle.cages)
        extra = tuple(tuple(sorted(self.cells[c] for c in cells)) for cells in puzzle.extra_regions)
        return replace(puzzle, givens=self.grid(puzzle.givens), regions=regions, cages=cages,
                       extra_regions=extra)


def preserves(puzzle: Puzzle, symmetry: Symmetry) -> bool:
    """Whether the symmetry maps every group of the puzzle onto a group of the mutant, one to
    one (and keeps every killer total, which a relabelling of digits does not)."""
    if puzzle.cages and any(v != d for v, d in enumerate(symmetry.digits)) and \
            any(cage.total is not None for cage in puzzle.cages):
        return False
    moved = {frozenset(symmetry.cells[c] for c in group.cells) for group in Model.from_puzzle(puzzle).groups}
    return moved == {frozenset(group.cells) for group in Model.from_puzzle(symmetry.apply(puzzle)).groups}


def random_symmetry(puzzle: Puzzle, rng: random.Random) -> Symmetry | None:
    """A random symmetry that preserves the puzzle's groups (kinds tried in random order), or
    None if no kind does (or each draws the identity)."""
    for kind in rng.sample(KINDS, len(KINDS)):
        symmetry = draw(kind, puzzle, rng)
        identity = symmetry.cells == tuple(range(len(symmetry.cells))) and \
            symmetry.digits == tuple(range(len(symmetry.digits)))
        if not identity and preserves(puzzle, symmetry):
            return symmetry
    return None


def draw(kind: str, puzzle: Puzzle, rng: random.Random) -> Symmetry:
    """A random symmetry of one kind for the puzzle's grid (not yet checked to preserve it)."""
    n = puzzle.n
    same = tuple(range(n + 1))
    band = 1 if puzzle.geometry.latin or puzzle.regions is not None else puzzle.geometry.box_rows
    stack = 1 if puzzle.geometry.latin or puzzle.regions is not None else puzzle.geometry.box_cols
    identity = list(range(n))
    makers: dict[str, Callable[[], Symmetry]] = {
        "relabel digits": lambda: Symmetry(kind, tuple(range(n * n)),
                                           (0, *rng.sample(range(1, n + 1), n))),
        "permute rows": lambda: Symmetry(kind, _lines(line_order(rng, n, band), identity), same),
        "permute columns": lambda: Symmetry(kind, _lines(identity, line_order(rng, n, stack)), same),
        "permute bands": lambda: Symmetry(kind, _lines(_whole(rng, n, band), identity), same),
        "permute stacks": lambda: Symmetry(kind, _lines(identity, _whole(rng, n, stack)), same),
        "transpose": lambda: Symmetry(kind, cells_transposed(n), same),
        "rotate": lambda: Symmetry(kind, tuple(c % n * n + n - 1 - c // n for c in range(n * n)), same),
        "reflect": lambda: Symmetry(kind, tuple(c // n * n + n - 1 - c % n for c in range(n * n)), same),
    }
    return makers[kind]()


def cells_transposed(n: int) -> tuple[int, ...]:
    """Where each cell goes when rows become columns."""
    return tuple(c % n * n + c // n for c in range(n * n))


def _lines(rows: list[int], cols: list[int]) -> tuple[int, ...]:
    """Where each cell goes when the lines are reordered: ``rows[new]`` is the row that moves
    to place ``new``, and likewise the columns."""
    n = len(rows)
    new_row = {old: new for new, old in enumerate(rows)}
    new_col = {old: new for new, old in enumerate(cols)}
    return tuple(new_row[c // n] * n + new_col[c % n] for c in range(n * n))


def _whole(rng: random.Random, n: int, per_band: int) -> list[int]:
    """Whole bands of ``per_band`` lines shuffled, each band's lines in their order."""
    bands = rng.sample(range(n // per_band), n // per_band)
    return [band * per_band + inside for band in bands for inside in range(per_band)]


def with_given(puzzle: Puzzle, solution: Grid, rng: random.Random) -> tuple[Puzzle, int] | None:
    """The puzzle with one more given taken from one of its solutions, and its cell (None
    when every cell is given)."""
    empty = [cell for cell, value in enumerate(puzzle.givens) if not value]
    if not empty:
        return None
    cell = rng.choice(empty)
    givens = list(puzzle.givens)
    givens[cell] = solution[cell]
    return puzzle.with_givens(tuple(givens)), cell


def without_given(puzzle: Puzzle, rng: random.Random) -> tuple[Puzzle, int] | None:
    """The puzzle with one given emptied, and its cell (None when it has no given)."""
    held = [cell for cell, value in enumerate(puzzle.givens) if value]
    if not held:
        return None
    cell = rng.choice(held)
    givens = list(puzzle.givens)
    givens[cell] = 0
    return puzzle.with_givens(tuple(givens)), cell
