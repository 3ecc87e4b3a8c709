"""A random isomorph of a model: how backtrack, mrv and fast take a ``seed``.

A seed relabels the values (value v becomes pi(v)) and, on a plain grid (rows, columns,
boxes and nothing else), reorders the cells by the grid's symmetries: bands of box rows,
rows within a band, stacks of box columns, columns within a stack. The backend then
solves that isomorph with its usual, deterministic order, and the solutions are mapped
back. Its value order is so randomised, and its ties between cells (broken by reading
order) are broken in a random one of the grid's reading orders: Gomes et al.'s
randomised tie-breaking, without touching a backend's kernels. A killer cage's total is
not invariant under relabelling, so with cage totals only the cells move (on a plain
grid); a variant grid (jigsaw, diagonals, extra groups) has only its values relabelled.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from models import Grid, Model

from ..result import Result, Solve


@dataclass(frozen=True)
class Isomorph:
    """The shuffled model, and how to map its grids back to the original's."""

    model: Model
    value_of: tuple[int, ...]  # shuffled value -> original value (index 0: empty)
    cell_of: tuple[int, ...]   # shuffled cell -> original cell

    def back(self, grid: Grid) -> Grid:
        """A grid of the shuffled model as a grid of the original one."""
        original = [0] * len(grid)
        for cell, value in enumerate(grid):
            original[self.cell_of[cell]] = self.value_of[value]
        return tuple(original)


def line_order(rng: random.Random, lines: int, per_band: int) -> list[int]:
    """A random order of lines that keeps each band's lines together (bands shuffled too)."""
    bands = list(range(lines // per_band))
    rng.shuffle(bands)
    order = []
    for band in bands:
        inside = list(range(band * per_band, (band + 1) * per_band))
        rng.shuffle(inside)
        order += inside
    return order


def _plain(model: Model) -> bool:
    """Whether the model is its puzzle's rows, columns and boxes (and cages) and nothing more."""
    puzzle = model.puzzle
    return (not puzzle.diagonals and puzzle.regions is None and not getattr(puzzle, "rules", ())
            and not getattr(puzzle, "extra_regions", ())
            and Model.from_puzzle(puzzle).groups == model.groups)


def random_isomorph(model: Model, seed: int) -> Isomorph:
    """The model with its values relabelled and (plain grids) its cells reordered by seed."""
    rng = random.Random(seed)
    n = model.n
    labels = list(range(1, n + 1))
    if not model.cages:
        rng.shuffle(labels)
    new_value = [0, *labels]  # original value -> shuffled value
    value_of = [0] * (n + 1)
    for original, shuffled in enumerate(new_value):
        value_of[shuffled] = original
    geometry = model.puzzle.geometry
    cell_of = list(range(n * n))
    plain = _plain(model)
    if plain:
        rows = line_order(rng, n, geometry.box_rows)
        cols = line_order(rng, n, geometry.box_cols)
        cell_of = [rows[r] * n + cols[c] for r in range(n) for c in range(n)]
    givens = tuple(new_value[model.givens[cell_of[cell]]] for cell in range(n * n))
    new_cell = [0] * (n * n)
    for shuffled, original in enumerate(cell_of):
        new_cell[original] = shuffled
    cages = tuple(replace(cage, cells=tuple(new_cell[c] for c in cage.cells))
                  for cage in model.puzzle.cages)
    puzzle = replace(model.puzzle, givens=givens, cages=cages)
    shuffled_model = Model.from_puzzle(puzzle) if plain else Model(puzzle, model.groups, model.cages)
    return Isomorph(shuffled_model, tuple(value_of), tuple(cell_of))


def solve_isomorph(solve: Solve | Callable[..., Result], model: Model, seed: int, **options: Any) -> Result:
    """``solve`` (a backend's solve function, or its count) on the seed's isomorph; solutions
    mapped back (a count is the same on every isomorph)."""
    isomorph = random_isomorph(model, seed)
    result = solve(isomorph.model, **options)
    result.solutions = [isomorph.back(grid) for grid in result.solutions]
    return result
