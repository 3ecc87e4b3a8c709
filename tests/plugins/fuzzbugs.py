"""Planted bugs with rare triggers, for the fuzzer to find and shrink (tests/test_fuzz_planted.py).

Each is the mrv backend, correct on every puzzle but those of one rare shape, where it fails
in one way: a wrong answer, a wrong count, an exception, a crash or a hang.
"""
from __future__ import annotations

import os
import time
from dataclasses import replace

from models import Cage, Group, Model
from solvers import registry
from solvers.result import Result


def _mrv(model: Model, **kwargs: object) -> Result:
    return registry.get("mrv").solve(model, **kwargs)


def box_width(model: Model, **kwargs: object) -> Result:
    """On a 6x6 with boxes and at least 18 givens, takes the boxes to be 3 rows by 2 columns
    (they are 2 by 3): a box-width bug."""
    puzzle = model.puzzle
    if model.n != 6 or puzzle.regions is not None or puzzle.geometry.latin or puzzle.num_givens < 18:
        return _mrv(model, **kwargs)
    boxes = [Group(f"box {b + 1}", tuple((b // 3 * 3 + r) * 6 + b % 3 * 2 + c for r in range(3) for c in range(2)))
             for b in range(6)]
    groups = tuple(g for g in model.groups if not g.name.startswith("box ")) + tuple(boxes)
    return _mrv(Model(puzzle, groups, model.cages), **kwargs)


def x_centre(model: Model, **kwargs: object) -> Result:
    """Forgets an X-Sudoku's diagonals when the centre cell is given (an odd side)."""
    puzzle, n = model.puzzle, model.n
    if not puzzle.diagonals or n % 2 == 0 or not puzzle.givens[n * n // 2]:
        return _mrv(model, **kwargs)
    groups = tuple(g for g in model.groups if g.name not in ("main diagonal", "anti-diagonal"))
    return _mrv(Model(puzzle, groups, model.cages), **kwargs)


def killer_four(model: Model, **kwargs: object) -> Result:
    """Reads the total of a killer cage of four cells one too low when it is large (at least
    3n - 3: 24 on a 9x9)."""
    puzzle, n = model.puzzle, model.n
    cages = tuple(Cage(c.cells, c.total - 1) if c.total is not None and len(c.cells) == 4
                  and c.total >= 3 * n - 3 else c for c in puzzle.cages)
    if cages == puzzle.cages:
        return _mrv(model, **kwargs)
    return _mrv(Model.from_puzzle(replace(puzzle, cages=cages)), **kwargs)


def count_three(model: Model, *, max_solutions: int = 1, **kwargs: object) -> Result:
    """Asked for two solutions (--unique) of a puzzle with three or more, claims the first is
    the only one."""
    if max_solutions != 2:
        return _mrv(model, max_solutions=max_solutions, **kwargs)
    result = _mrv(model, max_solutions=3, **kwargs)
    if len(result.solutions) < 3:
        result.solutions = result.solutions[:2]
        return result
    return replace(result, solutions=result.solutions[:1], complete=True)


def hangs(model: Model, **kwargs: object) -> Result:
    """Never returns on a 12x12 whose last cell is given."""
    if model.n == 12 and model.puzzle.givens[-1]:
        time.sleep(3600)
    return _mrv(model, **kwargs)


def crashes(model: Model, **kwargs: object) -> Result:
    """Kills its own process on a Latin square of side 8 or more with three givens or more on
    its main diagonal."""
    puzzle, n = model.puzzle, model.n
    if puzzle.geometry.latin and n >= 8 and sum(1 for i in range(n) if puzzle.givens[i * n + i]) >= 3:
        os._exit(11)
    return _mrv(model, **kwargs)


def raises(model: Model, **kwargs: object) -> Result:
    """Raises on a 4x4 whose first cell is given."""
    if model.n == 4 and model.puzzle.givens[0]:
        raise ZeroDivisionError("planted: the first cell")
    return _mrv(model, **kwargs)
