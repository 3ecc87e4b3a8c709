"""Valid full grids of any geometry for tests, built by formula rather than by a solver.

``pattern`` gives the classic shifted-rows grid; ``shuffled`` permutes it in ways that
keep every row, column and box all different: rows within a band, bands, columns
within a stack, stacks, and the symbols themselves.
"""
from __future__ import annotations

import random

from models import Geometry

ALL_SIZES = [n for n in range(4, 65) if any(n % r == 0 and 2 <= r <= n // r for r in range(2, n))]
"""Every side length a Geometry accepts: 4, 6, 8, 9, 10, 12, ... 64."""


def pattern(geometry: Geometry) -> tuple[int, ...]:
    """value = (r * box_cols + r // box_rows + c) mod n + 1: a valid full grid for any box shape."""
    n, br, bc = geometry.n, geometry.box_rows, geometry.box_cols
    return tuple((r * bc + r // br + c) % n + 1 for r in range(n) for c in range(n))


def shuffled(geometry: Geometry, rng: random.Random) -> tuple[int, ...]:
    """A random-looking valid full grid: the pattern under validity-keeping permutations."""
    n, br, bc = geometry.n, geometry.box_rows, geometry.box_cols
    bands = rng.sample(range(n // br), n // br)
    rows = [band * br + r for band in bands for r in rng.sample(range(br), br)]
    stacks = rng.sample(range(n // bc), n // bc)
    cols = [stack * bc + c for stack in stacks for c in rng.sample(range(bc), bc)]
    symbols = [0, *rng.sample(range(1, n + 1), n)]
    base = pattern(geometry)
    return tuple(symbols[base[r * n + c]] for r in rows for c in cols)


def is_valid(geometry: Geometry, grid: tuple[int, ...]) -> bool:
    """A plain restatement of the rules, for checking the builders themselves."""
    n = geometry.n
    units = geometry.rows + geometry.cols + geometry.boxes
    return all(sorted(grid[c] for c in unit) == list(range(1, n + 1)) for unit in units)
