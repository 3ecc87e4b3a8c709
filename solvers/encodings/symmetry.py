"""Counting up to relabelling: a puzzle whose every constraint is blind to which digit is
which (groups that must all differ, no givens, no cage totals) has n! times as many
solutions as it has with its first group holding 1..n in order, since relabelling the
digits of a solution gives a solution and exactly one relabelling puts that group in order.
``Backend.count`` counts that smaller puzzle and multiplies (the empty 6x6: 39,168 x 720 =
28,200,960 grids).

>>> from models import parse_puzzle
>>> reduced = relabelled(Model.from_puzzle(parse_puzzle("." * 16)))
>>> reduced.factor, reduced.model.givens[:4]
(24, (1, 2, 3, 4))
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from models import Model


@dataclass(frozen=True)
class Relabelled:
    """The puzzle with its first group's digits fixed, and how many solutions each of its stands for."""

    model: Model
    factor: int


def relabelled(model: Model) -> Relabelled | None:
    """The model with its first group fixed to 1..n in cell order, or None when relabelling
    the digits could change what is a solution (givens, cage totals) or the first group is
    not a whole group of n cells."""
    first = model.groups[0].cells if model.groups else ()
    if any(model.givens) or model.cages or len(first) != model.n:
        return None
    givens = [0] * model.num_cells
    for value, cell in enumerate(first, start=1):
        givens[cell] = value
    puzzle = replace(model.puzzle, givens=tuple(givens))
    return Relabelled(Model(puzzle, model.groups, model.cages), math.factorial(model.n))
