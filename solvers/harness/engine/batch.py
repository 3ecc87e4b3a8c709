"""Batch runs: a backend's batch entry on a whole array of puzzles of one layout, in this
process, its answer checked at the boundary and every solution verified.

A batch entry (``registry.Backend.solve_batch``: fast's) solves many puzzles in compiled
calls with no Python between them, so it is not run in a worker under a limit enforced from
outside: the time limit is each puzzle's, kept by the kernel itself (fast: looked at every
256 decisions); a memory or CPU limit, a plugin or another executor cannot apply, and
``commands/batch.py`` refuses them. What the entry gives back is checked here, field by
field (shapes, types, ranges), as answers.py checks a worker's: a malformed answer is an
error for every puzzle of the call, never a solution. Every solution found is then checked
by ``models.verify_many`` (the independent checker over arrays), and two equal solutions
of one puzzle returned as different ones are caught.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from models import Model
from models.checker_many import verify_many
from models.puzzle_arrays import PuzzleArray

from ... import registry
from ..tasks import Configuration


@dataclass
class BatchAnswer:
    """One configuration's answers on one array of puzzles, one row per puzzle, checked.

    grids holds every solution found (zeros past each row's count); after ``verify``,
    ``verified`` is False for a row with a solution the checker rejects or the same solution
    twice (``problems`` says what, for those rows); ``error`` is set when the call failed or
    answered in a malformed way (every row is then an error)."""

    configuration: Configuration
    array: PuzzleArray
    grids: np.ndarray      # [puzzles, max_solutions, cells]
    counts: np.ndarray     # int64[puzzles]
    complete: np.ndarray   # bool[puzzles]
    timed_out: np.ndarray  # bool[puzzles]
    nodes: np.ndarray      # int64[puzzles]
    seconds: np.ndarray    # float64[puzzles]
    verified: np.ndarray   # bool[puzzles]
    problems: dict[int, str]
    error: str = ""


def load_batch(configuration: Configuration) -> None:
    """Load the configuration's backend and let it prepare its batch entry (fast: import numba,
    compile or load its batch kernels, calibrate the cycle counter): once a process, timed
    apart from the runs."""
    backend = registry.get(configuration.backend_name)
    backend.prepare({**backend.check_options(configuration.options_dict), "batch": True})


def run_batch(configuration: Configuration, array: PuzzleArray, *, max_solutions: int,
              time_limit: float, strict: bool = False) -> BatchAnswer:
    """The configuration's batch entry on every puzzle of the array, its answer checked at
    the boundary (not yet verified: ``verify``); with ``strict`` a ValueError from the entry
    (an option it cannot take) is raised, not made every run's error."""
    backend = registry.get(configuration.backend_name)
    model = Model.from_puzzle(array.template)
    started = time.perf_counter()
    try:
        answer = backend.solve_batch(model, array.givens, max_solutions=max_solutions,
                                     time_limit=time_limit, **configuration.options_dict)
        fields = _checked(answer, len(array), max_solutions, model.num_cells, model.n)
    except Exception as error:  # a failed or malformed batch is every run's error
        if strict and isinstance(error, ValueError):
            raise
        return _failed(configuration, array, max_solutions, f"{type(error).__name__}: {error}",
                       time.perf_counter() - started)
    rows = len(array)
    return BatchAnswer(configuration, array, fields["grids"], fields["counts"], fields["complete"],
                       fields["timed_out"], fields["nodes"], fields["seconds"], np.zeros(rows, bool),
                       {})


def verify(answer: BatchAnswer) -> None:
    """Check every solution of the answer (models.verify_many), and that no row holds the
    same solution twice: fills ``verified`` and ``problems``."""
    if not answer.error:
        answer.verified, answer.problems = _verify(answer.array, answer.grids, answer.counts)


def _checked(answer: Any, rows: int, max_solutions: int, cells: int, n: int) -> dict[str, np.ndarray]:
    """The answer's fields as arrays of the right shape and range; ValueError otherwise."""
    fields = {name: np.asarray(getattr(answer, name)) for name in
              ("grids", "counts", "complete", "timed_out", "nodes", "seconds")}
    grids = fields["grids"]
    if grids.shape != (rows, max_solutions, cells) or grids.dtype.kind not in "iu":
        raise ValueError(f"grids of shape {grids.shape} ({grids.dtype}), expected "
                         f"({rows}, {max_solutions}, {cells}) integers")
    for name in ("counts", "complete", "timed_out", "nodes", "seconds"):
        if fields[name].shape != (rows,):
            raise ValueError(f"{name} of shape {fields[name].shape}, expected ({rows},)")
    counts = fields["counts"].astype(np.int64)
    if ((counts < 0) | (counts > max_solutions)).any():
        raise ValueError(f"a count outside 0-{max_solutions}")
    seconds = fields["seconds"].astype(np.float64)
    if not np.isfinite(seconds).all() or (seconds < 0).any():
        raise ValueError("a time that is not a finite number of seconds >= 0")
    if (grids.dtype.kind == "i" and (grids < 0).any()) or (grids > n).any():
        raise ValueError(f"a grid value outside 0-{n}")
    return {"grids": grids, "counts": counts, "complete": fields["complete"].astype(bool),
            "timed_out": fields["timed_out"].astype(bool),
            "nodes": fields["nodes"].astype(np.int64), "seconds": seconds}


def _verify(array: PuzzleArray, grids: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, dict[int, str]]:
    """Whether each row's solutions all solve its puzzle and differ; what is wrong where not."""
    from models import verify  # noqa: PLC0415 - only for the rows that fail, to say why

    verified = np.ones(len(counts), bool)
    for k in range(grids.shape[1]):
        rows = np.flatnonzero(counts > k)
        if len(rows) == len(counts):  # every row has a k-th solution: no copy of the rows
            verified &= verify_many(array.template, array.givens, grids[:, k])
        elif len(rows):
            verified[rows] &= verify_many(array.template, array.givens[rows], grids[rows, k])
    problems: dict[int, str] = {}
    for row in np.flatnonzero(~verified).tolist():
        puzzle = array.puzzle(row)
        texts = [str(verify(puzzle, grids[row, k].tolist())) for k in range(int(counts[row]))]
        problems[row] = "; ".join(f"solution {k + 1}: {t}" if counts[row] > 1 else t
                                  for k, t in enumerate(texts) if t != "valid")
    for k in range(1, grids.shape[1]):  # the same solution twice, as if two
        having = np.flatnonzero(counts > k)
        for j in range(k):
            for row in having[(grids[having, k] == grids[having, j]).all(axis=1)].tolist():
                verified[row] = False
                problems[row] = "returned the same solution more than once, as if they were different"
    return verified, problems


def _failed(configuration: Configuration, array: PuzzleArray, max_solutions: int, error: str,
            call_s: float) -> BatchAnswer:
    rows, cells = len(array), array.givens.shape[1]
    none = np.zeros(rows, bool)
    return BatchAnswer(configuration, array, np.zeros((rows, max_solutions, cells), np.uint8),
                       np.zeros(rows, np.int64), none, none.copy(), np.zeros(rows, np.int64),
                       np.full(rows, call_s / max(1, rows)), none.copy(), {}, error)
