"""fast's batch entry: many puzzles of one layout solved in compiled calls.

``solve_batch(model, givens, ...)`` takes the puzzles' givens as one uint8 array, every row
under the model's groups (and cages), and answers one row per puzzle: every solution found
(up to max_solutions), the count, whether the search was exhausted (so the count is exact),
whether the puzzle ran out of time, its nodes and its seconds. It solves with the 9x9 band
kernel where ``fast.solve`` would, else with the general kernel (mrv branching: restarts,
clause learning and seeds have no batch kernel, and asking for them is a ValueError).

No Python runs between the puzzles. Each puzzle's time is read off the processor's cycle
counter (_fast_kernels._cycles) and converted to seconds at the rate the counter ran over
the whole call, measured against the clock; a time limit applies to each puzzle from inside,
looked at every SLICE decisions, at a rate calibrated once per process. Where the processor
has no cycle counter (it reads 0), the limit cannot be kept and each puzzle is given an
equal share of the call's time.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

import numpy as np
from numba import types

from models import Model, Puzzle

from . import _fast, _fast_bands
from ._fast_kernels import CONTRADICTION, EXHAUSTED, LATE, compile_kernels, cycles
from ._fast_search import branching_for, learning_for, search_for

MAX_SOLUTIONS = 64
"""The most solutions a batch counts to per puzzle (its solution buffer)."""
INFERENCES = ("singles", "locked", "subsets")


class Batch(NamedTuple):
    """What solve_batch finds, one row (or entry) per puzzle."""

    solutions: np.ndarray  # uint8[puzzles, cells]: the first solution found (zeros if none)
    counts: np.ndarray     # int64[puzzles]: solutions found, at most max_solutions
    complete: np.ndarray   # bool[puzzles]: the space was exhausted, so the count is exact
    nodes: np.ndarray      # int64[puzzles]: decisions (the band kernel: guesses)
    grids: np.ndarray      # uint8[puzzles, max_solutions, cells]: every solution found
    timed_out: np.ndarray  # bool[puzzles]: given up at the time limit
    seconds: np.ndarray    # float64[puzzles]: the puzzle's own time inside the call


def givens_array(puzzles: Sequence[Puzzle]) -> np.ndarray:
    """The puzzles' givens as one uint8[puzzles, cells] array, as solve_batch takes them."""
    return np.array([p.givens for p in puzzles], np.uint8).reshape(len(puzzles), -1)


@cache
def cycle_rate() -> float:
    """Cycles a second of the processor's cycle counter, measured over 20 ms of sleep (the
    counter of current processors runs at one rate whatever the clock speed); 0 where there
    is no counter."""
    compile_kernels("fast's cycle counter", [(cycles, types.int64())])
    first, start = cycles(), time.perf_counter()
    time.sleep(0.02)
    return max(0.0, (cycles() - first) / (time.perf_counter() - start))


def batch_search(model: Model, inference: str = "locked", kernel: str = "auto",
                 branching: str = "auto", learning: str = "auto", seed: int | None = None) -> str:
    """The kernel a batch of this model runs under these options, 'bands' or 'general';
    ValueError for options no batch kernel has."""
    if learning_for(model, learning) != "none":
        raise ValueError(f"fast has no batch kernel for learning={learning} (clause learning "
                         "runs one puzzle a call" + (", and auto learns on grids of order 25 and "
                                                     "more" if learning == "auto" else "")
                         + "): use learning=none")
    if seed is not None:
        raise ValueError("fast's batch kernels take no seed (a seed solves a relabelled isomorph, "
                         "one puzzle a call)")
    if inference not in INFERENCES:
        raise ValueError(f"unknown inference {inference!r}; choose one of {INFERENCES}")
    search = search_for(model, kernel, inference, branching, learning)
    if search == "bands":
        if model.num_cells != 81 or model.cages:
            raise ValueError("kernel='bands' solves the standard 9x9 grid only")
        return search
    if branching_for(model, branching) != "mrv":
        raise ValueError("fast's batch kernels branch by mrv: dom/wdeg restarts from Python "
                         "between kernel calls" + (" (branching=auto is wdeg on a Latin square)"
                                                   if branching == "auto" else "")
                         + ": use branching=mrv")
    return search


def solve_batch(model: Model, givens: np.ndarray, *, max_solutions: int = 2,
                time_limit: float | None = None, inference: str = "locked",
                node_limit: int | None = None, kernel: str = "auto", branching: str = "auto",
                learning: str = "auto", seed: int | None = None) -> Batch:
    """Solve every row of givens (uint8[puzzles, cells], 0 an empty cell) under the groups of
    model (its own givens are not used) in one compiled call, counting each to max_solutions
    (2: unique or not; 1: any solution), each within node_limit nodes and time_limit seconds.

    The answers are not checked here: check them as any backend's (models.verify, or
    models.verify_many for many at once).
    """
    if not 1 <= max_solutions <= MAX_SOLUTIONS:
        raise ValueError(f"max_solutions must be between 1 and {MAX_SOLUTIONS} here, not {max_solutions}")
    if node_limit is not None and node_limit < 0:
        raise ValueError(f"node_limit must be at least 0, not {node_limit}")
    if time_limit is not None and not time_limit >= 0:
        raise ValueError(f"time_limit must be at least 0 seconds, not {time_limit}")
    if model.n > _fast.MAX_SIZE:
        raise ValueError(f"fast handles grids up to {_fast.MAX_SIZE}x{_fast.MAX_SIZE}, not "
                         f"{model.n}x{model.n}")
    givens = np.ascontiguousarray(givens, np.uint8)
    if givens.ndim != 2 or givens.shape[1] != model.num_cells:
        raise ValueError(f"givens must be an array of shape (puzzles, {model.num_cells}), "
                         f"not {givens.shape}")
    search = batch_search(model, inference, kernel, branching, learning, seed)
    rate = cycle_rate() if time_limit is not None else 0.0
    cycle_limit = max(1, int(time_limit * rate)) if time_limit is not None and rate > 0 else 0
    start, first = time.perf_counter(), cycles()
    if search == "bands":
        grids, counts = _fast_bands.solve_batch(givens, max_solutions, node_limit, cycle_limit)
    else:
        grids, counts = _fast.solve_batch(model, givens, max_solutions, inference, node_limit,
                                          cycle_limit)
    spent, elapsed = cycles() - first, time.perf_counter() - start
    if spent > 0 and elapsed > 0:
        seconds = counts[:, 3] * (elapsed / spent)
    else:
        seconds = np.full(len(givens), elapsed / max(1, len(givens)))
    codes = counts[:, 1]
    return Batch(grids[:, 0], counts[:, 0].copy(), (codes == EXHAUSTED) | (codes == CONTRADICTION),
                 counts[:, 2].copy(), grids, codes == LATE, seconds)
