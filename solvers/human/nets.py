"""Forcing nets: forcing chains whose cases follow every single they make, however many
eliminations it took (SE's dynamic forcing chains), the last resort before a guess.

Each case is propagated on a copy of the board (propagation.py, dynamic): a cell left with one
candidate, or a digit left with one place in a house, is filled, whatever removed the others.
A *contradiction* net: a candidate whose assumption meets a contradiction is false (and one
whose absence does is true). A *digit* net: what a candidate's presence and its absence both
lead to is true. *Cell* and *region* nets: what every candidate of a cell, or every place of a
digit in a house, leads to. Forcing nets weigh 8.5, with basic techniques (locked candidates,
naked and hidden pairs, X-wing) inside the cases 9.0, each plus SE's length bonus over the
nodes of all cases (scale.py).
"""
from __future__ import annotations

from collections.abc import Callable

from models.symbols import symbol

from .board import Board, Step
from .forcing import Case, Cases, Choice, choice_step, choices, common, contradiction_step
from .propagation import context, node_of, propagate
from .scale import length_bonus


def forcing_nets(board: Board) -> Step | None:
    """The lightest forcing net (SE's dynamic forcing chains, 8.5 and up)."""
    return _nets(board, "forcing net", 8.5, basics=False)


def forcing_nets_plus(board: Board) -> Step | None:
    """The lightest forcing net whose cases also use basic techniques (9.0 and up)."""
    return _nets(board, "forcing net with basic techniques", 9.0, basics=True)


Best = tuple[float, int, Callable[[], Step]]


def _nets(board: Board, technique: str, base: float, basics: bool) -> Step | None:
    ctx = context(board, basics)
    n = ctx.n
    cases = Cases(ctx, dynamic=True)
    best: Best | None = None

    def offer(size: int, make: Callable[[float], Step]) -> None:
        nonlocal best
        weight = round(base + length_bonus(size - 2), 1)
        if best is None or (weight, size) < best[:2]:
            best = (weight, size, lambda: make(weight))

    for cell, mask in enumerate(board.cand):
        if mask.bit_count() < 2:
            continue
        for d in (d for d in range(1, n + 1) if mask >> (d - 1) & 1):
            on = cases(node_of(cell, d, True, n))
            off = Case(node_of(cell, d, False, n), propagate(ctx, node_of(cell, d, False, n), dynamic=True))
            for case in (on, off):
                if case.outcome.contradiction:
                    offer(case.outcome.clash_size, _contradiction(board, technique, case))
            if mask.bit_count() >= 3 and not on.outcome.contradiction and not off.outcome.contradiction:
                choice = Choice(f"{board.layout.name(cell)} is {symbol(d)} or not", (on, off))
                _offer_common(board, choice, f"{technique} (digit)", technique, offer)
    for choice, kind in choices(ctx, cases, cell_minimum=2):
        _offer_common(board, choice, f"{technique} ({kind})", technique, offer)
    return best[2]() if best else None


def _contradiction(board: Board, technique: str, case: Case) -> Callable[[float], Step]:
    def make(weight: float) -> Step:
        return contradiction_step(board, f"{technique} (contradiction)", case.start, case.outcome, weight,
                                  technique)
    return make


def _offer_common(board: Board, choice: Choice, title: str, technique: str,
                  offer: Callable[[int, Callable[[float], Step]], None]) -> None:
    found = common(choice)
    if found is not None:
        size, node = found
        offer(size, lambda w: choice_step(board, technique, title, choice, node, w))
