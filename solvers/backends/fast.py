"""Compiled propagation and search: the mrv method as numba kernels over flat int arrays,
and a kernel of its own for the standard 9x9 grid.

This module declares the backend and chooses the search; the methods are in _fast.py (the
general kernel: any grid, variant and cage; its kernels in _fast_kernels.py, its driver in
_fast_drive.py), _fast_bands.py (the 9x9 band kernel) and _fast_learning.py (clause
learning), imported only when a puzzle is solved or ``prepare`` is called, so reading the
declaration never loads numba. Learning (learning=conflicts) states the groups only: a
killer cage's total is UNSUPPORTED there.
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from models import Model, Puzzle

from ..encodings.isomorph import solve_isomorph
from ..options import Declaration, Option, node_limit, seed
from ..result import Result, unsupported
from ._fast_search import branching_for, learning_for, search_for, standard_9x9

if TYPE_CHECKING:  # numpy and the batch's type come with numba, loaded only to solve
    import numpy as np

    from ._fast_batch import Batch

INFERENCES = ("singles", "locked", "subsets")
"""From weakest to strongest; each adds a rule to the one before."""
BRANCHINGS = ("mrv", "wdeg")
"""The two branching strategies; the option also takes ``auto``, which picks one per grid."""
BRANCHING_CHOICES = ("auto", *BRANCHINGS)
LEARNINGS = ("auto", "none", "conflicts")
KERNELS = ("auto", "general", "bands")
"""auto picks the band kernel where it applies; general and bands force one."""
BANDS_ONLY_9X9 = ("fast's band kernel (kernel=bands) solves the standard 9x9 grid only (rows, "
                  "columns, 3x3 boxes, no variant groups or cages); kernel=auto or general "
                  "solves this one")

DECLARATION = Declaration(
    options=(
        Option("inference", "choice", "locked: naked and hidden singles plus locked candidates; "
               "singles: singles only; subsets: locked plus naked and hidden subsets",
               default="locked", choices=INFERENCES),
        Option("branching", "choice", "mrv: the cell with the fewest candidates; wdeg: fewest "
               "candidates per failure weight of its groups (dom/wdeg), with Luby restarts; "
               "auto: wdeg on a Latin square (where depth-first mrv has heavy tails), mrv on "
               "every grid with boxes or regions", default="auto", choices=BRANCHING_CHOICES),
        node_limit("decisions"),
        Option("learning", "choice", "none: depth-first search; conflicts: clause learning over "
               "(cell, value) literals with VSIDS and restarts (inference and branching do not "
               "apply); auto: conflicts on grids of order 25 and more with boxes or regions and "
               "no cage totals, none elsewhere", default="auto", choices=LEARNINGS),
        seed("solve a random isomorph (values relabelled; on a plain grid the rows and columns "
             "reordered by the grid's symmetries), so value order and tie-breaks are random"),
        Option("kernel", "choice", "auto: the 9x9 band kernel on a standard 9x9 grid when "
               "inference, branching and learning are left at their defaults, the general kernel "
               "elsewhere; general: the general kernel always (mrv's decisions); bands: the band "
               "kernel (standard 9x9 only; its own rules and branching, so inference and "
               "branching do not apply)", default="auto", choices=KERNELS),
    ),
    counters={
        "nodes": "decisions (a value tried in a cell, or a place tried for a value), with the "
                 "band kernel guesses (a digit tried in a cell, not the strike of it that follows "
                 "its subtree)",
        "backtracks": "decisions undone (band kernel: guesses taken back)",
        "propagations": "cells fixed by the rules during the whole run (givens excluded)",
        "fixed_cells": "cells the rules fixed before the first decision",
        "restarts": "restarts of the search from the givens (branching=wdeg, learning=conflicts)",
        "conflicts": "conflicts analysed into a learnt clause (learning=conflicts)",
    },
    constraints=frozenset({"all-different", "sum"}),
    package="numba", imports="numba",
    family="mrv",  # mrv's method compiled: its agreement with mrv proves nothing
    notes="the speed frontier; needs numba",
)


@cache
def _method(search: str) -> ModuleType:
    """The module of a search (loads numba), imported once."""
    if search == "bands":
        from . import _fast_bands  # noqa: PLC0415 - loads numba and its kernels, only to solve
        return _fast_bands
    if search == "batch":
        from . import _fast_batch  # noqa: PLC0415 - loads numba and its kernels, only to solve
        return _fast_batch
    from . import _fast  # noqa: PLC0415 - loads numba and its kernels, only to solve
    return _fast


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          inference: str = "locked", branching: str = "auto", node_limit: int | None = None,
          learning: str = "auto", seed: int | None = None, kernel: str = "auto") -> Result:
    """Solve with compiled propagation and search; count up to max_solutions solutions."""
    if seed is not None:
        return solve_isomorph(solve, model, seed, max_solutions=max_solutions, time_limit=time_limit,
                              inference=inference, branching=branching, node_limit=node_limit,
                              learning=learning, kernel=kernel)
    if search_for(model, kernel, inference, branching, learning) == "bands":
        if kernel == "bands" and not standard_9x9(model):
            return unsupported(BANDS_ONLY_9X9)
        banded: Result = _method("bands").solve(model, max_solutions=max_solutions,
                                                time_limit=time_limit, node_limit=node_limit)
        return banded
    general: Result = _method("general").solve(
        model, max_solutions=max_solutions, time_limit=time_limit, inference=inference,
        branching=branching_for(model, branching), node_limit=node_limit, learning=learning_for(model, learning))
    return general


def count(model: Model, *, time_limit: float | None = None, sample: int = 16, inference: str = "locked",
          branching: str = "auto", node_limit: int | None = None, learning: str = "auto",
          seed: int | None = None, kernel: str = "auto") -> Result:
    """Count every solution (count mode) with the general kernel's depth-first search, keeping
    the first ``sample``; memory is the search's (a reused buffer of grids)."""
    if seed is not None:
        return solve_isomorph(count, model, seed, time_limit=time_limit, sample=sample, inference=inference,
                              branching=branching, node_limit=node_limit, learning=learning, kernel=kernel)
    if kernel == "bands" or learning == "conflicts":
        return unsupported("fast counts with its general kernel's depth-first search: kernel=auto or "
                           "general, learning=auto or none")
    counted: Result = _method("general").count(model, time_limit=time_limit, sample=sample, inference=inference,
                                               branching=branching_for(model, branching), node_limit=node_limit,
                                               learning="none")
    return counted


def prepare(*, learning: str = "auto", kernel: str = "auto", batch: bool = False,
            model: Model | None = None, inference: str = "locked", branching: str = "auto",
            **_options: object) -> None:
    """Compile (or load from numba's cache) the kernels these options need for this model
    (the harness's worker passes each task's model, before the clock starts); without a
    model the kernels the options choose on the usual grids (learning=auto's clause learning
    is then compiled by the first large grid's solve).

    With a model, only the kernel that model takes: a worker whose kernel another process is
    compiling waits for it and compiles nothing else, for a run of one grid size (the default
    one, 9x9) never needs the other kernel, whose compile would hold the worker (and a core)
    three times as long (bench/README.md, "The README's first command on a fresh clone").
    Without a model, a process compiles first the kernels nobody else is compiling, then
    waits for the others."""
    if model is not None:
        searches = [search_for(model, kernel, inference, branching, learning)]
    elif learning == "conflicts":
        searches = ["learning"]
    else:
        searches = ["bands", "general"] if kernel == "auto" else [kernel]
    if batch:  # the batch entry: no learning kernel, and a cycle counter for each puzzle's time
        searches = [s for s in searches if s != "learning"]
        _method("batch").cycle_rate()
    waiting = [search for search in searches if not _prepare(search, batch, wait=False)]
    for search in waiting:
        _prepare(search, batch, wait=True)


def _prepare(search: str, batch: bool, *, wait: bool) -> bool:
    """Compile one search's kernels (or load them); False when another process is compiling
    them and ``wait`` is False."""
    if search == "bands":
        done: bool = _method("bands").prepare(batch=batch, wait=wait)
        return done
    learning = "conflicts" if search == "learning" else "none"
    done = _method("general").prepare(learning=learning, batch=batch, wait=wait)
    return done


def needs(model: Model, *, kernel: str = "auto", inference: str = "locked",
          branching: str = "auto", learning: str = "auto", **_options: object) -> str:
    """What ``prepare`` must have done before this model is solved under these options: the
    search it takes (light: the harness asks before handing a run over, to load a worker
    for it)."""
    return search_for(model, kernel, inference, branching, learning)


def solve_batch(model: Model, givens: np.ndarray, *, max_solutions: int = 2,
                time_limit: float | None = None, **options: Any) -> Batch:
    """Many puzzles of one layout in one compiled call (``_fast_batch.solve_batch``: its
    Batch, one row per puzzle): fast's batch entry, which ``run --batch`` calls."""
    batch: Batch = _method("batch").solve_batch(model, givens, max_solutions=max_solutions,
                                                time_limit=time_limit, **options)
    return batch


def givens_array(puzzles: Sequence[Puzzle]) -> np.ndarray:
    """The puzzles' givens as one uint8[puzzles, cells] array, as ``solve_batch`` takes them."""
    array: np.ndarray = _method("batch").givens_array(puzzles)
    return array
