"""Which of ``fast``'s searches solves a model: light (no numba), so the backend's
declaration module and its kernels' modules can both ask."""
from __future__ import annotations

from functools import cache

from models import Geometry, Group, Model, Puzzle

SEARCHES = ("bands", "general", "learning")
"""The 9x9 band kernel (_fast_bands), the general kernel (_fast), clause learning
(_fast_learning)."""


@cache
def _standard_groups() -> tuple[Group, ...]:
    """The groups of a plain 9x9 puzzle (Model.from_puzzle caches them: models built from
    puzzles share this very tuple)."""
    return Model.from_puzzle(Puzzle(Geometry.of(3, 3), (0,) * 81)).groups


def standard_9x9(model: Model) -> bool:
    """Whether the model is the standard 9x9 grid: its rows, columns and 3x3 boxes (in the
    order Model.from_puzzle gives them) and nothing more, no cage totals.

    >>> standard_9x9(Model.from_puzzle(Puzzle(Geometry.of(3, 3), (0,) * 81)))
    True
    >>> standard_9x9(Model.from_puzzle(Puzzle(Geometry.of(3, 3), (0,) * 81, diagonals=True)))
    False
    """
    standard = _standard_groups()
    if model.groups is standard:
        return not model.cages
    if model.n != 9 or model.cages or len(model.groups) != 27:
        return False
    return all(group.cells == mine.cells for group, mine in zip(model.groups, standard, strict=True))


def search_for(model: Model, kernel: str = "auto", inference: str = "locked",
               branching: str = "auto", learning: str = "none") -> str:
    """The search these options choose for this model: 'learning' (learning=conflicts),
    'bands' (kernel=bands, or kernel=auto on a standard 9x9 grid with inference, branching
    and learning at their defaults) or 'general'."""
    if learning == "conflicts":
        return "learning"
    if kernel == "general":
        return "general"
    if kernel == "bands" or (inference == "locked" and branching == "auto" and standard_9x9(model)):
        return "bands"
    return "general"


def branching_for(model: Model, branching: str) -> str:
    """The strategy ``branching`` names for this model: ``auto`` is wdeg on a Latin square
    (rows and columns only; quasigroup completion has heavy-tailed depth-first runtimes that
    restarts cut, bench/README.md) and mrv elsewhere, where fast then makes mrv's decisions."""
    if branching != "auto":
        return branching
    return "wdeg" if model.puzzle.geometry.latin else "mrv"
