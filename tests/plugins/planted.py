"""Planted bad backends: each fails in one way the harness must catch and categorise.

They all take the common call, and all but the crashing ones start from the
reference solver's real answer, so only the planted fault is wrong.
"""
from __future__ import annotations

import os
import signal
import time

from reference import solve as reference_solve  # the plugin's folder is on sys.path

from models import Model
from solvers.result import Result, Stats, Status


def invalid_grid(model: Model, **kwargs: object) -> Result:
    """Swaps two open cells of one row: the rows still hold 1..n, but columns repeat."""
    result = reference_solve(model, **kwargs)
    grid = list(result.solutions[0])
    n = model.n
    for row in range(n):
        open_cells = [row * n + c for c in range(n) if not model.givens[row * n + c]]
        if len(open_cells) >= 2:
            a, b = open_cells[:2]
            grid[a], grid[b] = grid[b], grid[a]
            break
    return Result(Status.SOLVED, [tuple(grid)], False, result.stats)


def changes_given(model: Model, **kwargs: object) -> Result:
    """Relabels values 1 and 2 everywhere: still a valid Sudoku grid, but not this puzzle's."""
    result = reference_solve(model, **kwargs)
    swap = {1: 2, 2: 1}
    grid = tuple(swap.get(v, v) for v in result.solutions[0])
    return Result(Status.SOLVED, [grid], False, result.stats)


def false_unsat(model: Model, **kwargs: object) -> Result:
    """Claims, with proof, that there is no solution."""
    return Result(Status.UNSAT, [], True, Stats(nodes=1))


def false_unique(model: Model, **kwargs: object) -> Result:
    """Finds one solution and claims it is the only one."""
    result = reference_solve(model, max_solutions=1)
    return Result(Status.SOLVED, result.solutions[:1], True, result.stats)


def sleeper(model: Model, **kwargs: object) -> Result:
    """Ignores its time limit (first touching the file $SLEEPER_MARK names, if set, so a test
    knows the sweep is under way)."""
    mark = os.environ.get("SLEEPER_MARK")
    if mark:
        open(mark, "a").close()
    time.sleep(3600)
    return Result(Status.ERROR, message="woke up")


def raiser(model: Model, **kwargs: object) -> Result:
    """Raises instead of answering."""
    raise RuntimeError("planted failure in raiser")


def exits(model: Model, **kwargs: object) -> Result:
    """Ends its own process at once, as a crashing extension might."""
    os._exit(3)


def self_kill(model: Model, **kwargs: object) -> Result:
    """Kills its own process with a signal."""
    os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(5)
    return Result(Status.ERROR, message="still alive")


def not_a_result(model: Model, **kwargs: object) -> dict:
    """Returns something else than a Result."""
    return {"status": "solved"}


def duplicate_solution(model: Model, **kwargs: object) -> Result:
    """Returns its one solution twice, as if the puzzle had two."""
    result = reference_solve(model, max_solutions=1)
    return Result(Status.SOLVED, result.solutions[:1] * 2, False, result.stats)


def false_count(model: Model, *, max_solutions: int = 1, **kwargs: object) -> Result:
    """Finds every solution asked for but keeps only the first half, claiming that is all."""
    result = reference_solve(model, max_solutions=max_solutions)
    kept = result.solutions[:max(1, len(result.solutions) // 2)]
    return Result(Status.SOLVED, kept, True, result.stats)
