"""Which of ``fast``'s searches solves a model: light (no numba), so the backend's
declaration module and its kernels' modules can both ask."""
from __future__ import annotations

from functools import cache

from models import Geometry, Group, Model, Puzzle

SEARCHES = ("bands", "general", "learning")
"""The 9x9 band kernel (_fast_bands), the general kernel (_fast), clause learning
(_fast_learning)."""
LEARNING_FROM = 25
"""learning=auto learns from conflicts on grids with boxes (or regions) of this order and
more: on the minimal Frisch 25x25 puzzles depth-first search proves 6 of 18 in 60 s and
clause learning 15, while on the generated 16x16 and 25x25 sets it is 1.1-2x slower (docs/results.md)."""


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


def learning_for(model: Model, learning: str) -> str:
    """The learning ``learning`` names for this model: ``auto`` is conflicts on a grid of order
    LEARNING_FROM or more that is not a Latin square (restarts serve those: branching=auto)
    and has no cage totals (the learning search cannot state them), none elsewhere."""
    if learning != "auto":
        return learning
    large = model.n >= LEARNING_FROM and not model.puzzle.geometry.latin and not model.cages
    return "conflicts" if large else "none"


def search_for(model: Model, kernel: str = "auto", inference: str = "locked",
               branching: str = "auto", learning: str = "auto") -> str:
    """The search these options choose for this model: 'learning' (learning=conflicts, or
    auto on a large grid: learning_for), 'bands' (kernel=bands, or kernel=auto on a standard
    9x9 grid with inference and branching at their defaults) or 'general'."""
    if learning_for(model, learning) == "conflicts":
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
