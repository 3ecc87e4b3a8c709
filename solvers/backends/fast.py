"""Compiled propagation and MRV search: the mrv method as numba kernels over flat int arrays.

This module declares the backend; the method is in _fast.py (and its kernels in
_fast_kernels.py, _fast_learning.py, its driver in _fast_drive.py), imported only when a
puzzle is solved or ``prepare`` is called, so reading the declaration never loads numba.
Learning (learning=conflicts) states the groups only: a killer cage's total is UNSUPPORTED
there.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from models import Model, Puzzle

from ..encodings.isomorph import solve_isomorph
from ..options import Declaration, Option, node_limit, seed
from ..result import Result

if TYPE_CHECKING:  # numpy and the batch's type come with numba, loaded only to solve
    import numpy as np

    from ._fast import Batch

INFERENCES = ("singles", "locked", "subsets")
"""From weakest to strongest; each adds a rule to the one before."""
BRANCHINGS = ("mrv", "wdeg")
"""The two branching strategies; the option also takes ``auto``, which picks one per grid."""
BRANCHING_CHOICES = ("auto", *BRANCHINGS)
LEARNINGS = ("none", "conflicts")

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
               "apply)", default="none", choices=LEARNINGS),
        seed("solve a random isomorph (values relabelled; on a plain grid the rows and columns "
             "reordered by the grid's symmetries), so value order and tie-breaks are random"),
    ),
    counters={
        "nodes": "decisions (a value tried in a cell, or a place tried for a value)",
        "backtracks": "decisions undone",
        "propagations": "cells fixed by the rules during the whole run (givens excluded)",
        "fixed_cells": "cells the rules fixed before the first decision",
        "restarts": "restarts of the search from the givens (branching=wdeg, learning=conflicts)",
        "conflicts": "conflicts analysed into a learnt clause (learning=conflicts)",
    },
    constraints=frozenset({"all-different", "sum"}),
    package="numba", imports="numba",
    notes="the speed frontier; needs numba",
)


def branching_for(model: Model, branching: str) -> str:
    """The strategy ``branching`` names for this model: ``auto`` is wdeg on a Latin square
    (rows and columns only; quasigroup completion has heavy-tailed depth-first runtimes that
    restarts cut, bench/README.md) and mrv elsewhere, where fast then makes mrv's decisions."""
    if branching != "auto":
        return branching
    return "wdeg" if model.puzzle.geometry.latin else "mrv"


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          inference: str = "locked", branching: str = "auto",
          node_limit: int | None = None, learning: str = "none", seed: int | None = None) -> Result:
    """Solve with compiled propagation and MRV search; count up to max_solutions solutions."""
    branching = branching_for(model, branching)
    if seed is not None:
        return solve_isomorph(solve, model, seed, max_solutions=max_solutions, time_limit=time_limit,
                              inference=inference, branching=branching, node_limit=node_limit,
                              learning=learning)
    from ._fast import solve as search  # noqa: PLC0415 - loads numba and its kernels, only to solve
    return search(model, max_solutions=max_solutions, time_limit=time_limit, inference=inference,
                  branching=branching, node_limit=node_limit, learning=learning)


def prepare(*, learning: str = "none", batch: bool = False, **_options: object) -> None:
    """Compile (or load from numba's cache) the kernels these options need: the harness's
    worker calls it when it loads the backend, before the clock starts."""
    from ._fast import prepare as compile_kernels  # noqa: PLC0415 - loads numba, only to run
    compile_kernels(learning=learning, batch=batch)


def givens_array(puzzles: Sequence[Puzzle]) -> np.ndarray:
    """The puzzles' givens as one uint8[puzzles, cells] array, as ``solve_batch`` takes them."""
    from ._fast import givens_array as array  # noqa: PLC0415 - loads numba, only when asked for
    return array(puzzles)


def solve_batch(model: Model, givens: np.ndarray, *, max_solutions: int = 2, inference: str = "locked",
                node_limit: int | None = None) -> Batch:
    """Every row of givens (uint8[puzzles, cells]) solved under the model's groups in one
    compiled call, counting each to max_solutions (_fast.solve_batch tells the details)."""
    from ._fast import solve_batch as batch  # noqa: PLC0415 - loads numba, only to solve
    return batch(model, givens, max_solutions=max_solutions, inference=inference, node_limit=node_limit)
