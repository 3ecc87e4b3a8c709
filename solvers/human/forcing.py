"""Forcing chains: what every case of a choice leads to (propagation.py follows the cases).

Nishio forcing chain (SE 7.5): assume a digit in a cell and follow that digit alone, taking
off what it rules out; if that meets a contradiction (a house with no place for it, a cell
both holding it and not), the digit leaves the cell (and if assuming it absent does, it is
placed). Cell forcing chain (SE 8.0): each candidate of a cell in turn, followed through
cells with two candidates and houses with two places; what all of them lead to is true.
Region forcing chain (8.0): the same over each place of a digit in a house. Their weight is
the base plus SE's length bonus over the nodes of all branches (scale.py).
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

from models.symbols import symbol

from .board import Board, Link, Step
from .propagation import Context, Outcome, cell_digit, context, node_of, node_words, path_to, propagate
from .scale import length_bonus


@dataclass(frozen=True)
class Case:
    """One branch of a choice: its assumption (a node) and what it leads to."""

    start: int
    outcome: Outcome


@dataclass(frozen=True)
class Choice:
    """A set of cases one of which is true: its name in words and its cases."""

    words: str
    cases: tuple[Case, ...]


def nishio(board: Board) -> Step | None:
    """The lightest Nishio forcing chain: a digit whose assumption alone meets a contradiction."""
    ctx = context(board)
    best: tuple[float, Step] | None = None
    n = ctx.n
    for cell, mask in enumerate(board.cand):
        if mask.bit_count() < 2:
            continue
        for d in _digits(mask):
            for on in (True, False):
                start = node_of(cell, d, on, n)
                outcome = propagate(ctx, start, dynamic=True, digit=d)
                if not outcome.contradiction:
                    continue
                weight = round(7.5 + length_bonus(outcome.clash_size - 2), 1)
                if best is None or weight < best[0]:
                    best = (weight, contradiction_step(board, "Nishio forcing chain", start, outcome, weight))
                    if weight <= 7.5:
                        return best[1]
    return best[1] if best else None


def _digits(mask: int) -> list[int]:
    return [d for d in range(1, mask.bit_length() + 1) if mask >> (d - 1) & 1]


def forcing_chains(board: Board) -> Step | None:
    """The lightest cell or region forcing chain (static: through bivalue cells and
    conjugate pairs of the board as it stands), SE's multiple forcing chains."""
    ctx = context(board)
    cases = Cases(ctx, dynamic=False)
    best: tuple[float, int, Step] | None = None
    for choice, kind in choices(ctx, cases, cell_minimum=3):
        found = common(choice)
        if found is None:
            continue
        size, node = found
        weight = round(8.0 + length_bonus(size - 2), 1)
        if best is None or (weight, size) < best[:2]:
            technique = f"{kind} forcing chain"
            best = (weight, size, choice_step(board, technique, technique, choice, node, weight))
    return best[2] if best else None


class Cases:
    """The outcome of assuming each candidate true, each computed once."""

    def __init__(self, ctx: Context, dynamic: bool) -> None:
        self.ctx, self.dynamic = ctx, dynamic
        self.done: dict[int, Outcome] = {}

    def __call__(self, node: int) -> Case:
        if node not in self.done:
            self.done[node] = propagate(self.ctx, node, dynamic=self.dynamic)
        return Case(node, self.done[node])


def choices(ctx: Context, cases: Cases, cell_minimum: int) -> Iterator[tuple[Choice, str]]:
    """Each cell with at least ``cell_minimum`` candidates (its candidates; kind 'cell') and
    each digit with two or more places in a house (its places; kind 'region'), as a choice."""
    board, n = ctx.board, ctx.n
    for cell, mask in enumerate(board.cand):
        if mask.bit_count() >= cell_minimum:
            yield (Choice(f"{board.layout.name(cell)} holds {_or([symbol(d) for d in _digits(mask)])}",
                          tuple(cases(node_of(cell, d, True, n)) for d in _digits(mask))),
                   "cell")
    for name, house in board.layout.houses:
        for d in range(1, n + 1):
            spots = board.places(house, d)
            if len(spots) >= 2:
                yield (Choice(f"{symbol(d)} goes in {name} in {_or([board.layout.name(c) for c in spots])}",
                              tuple(cases(node_of(c, d, True, n)) for c in spots)),
                       "region")


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def common(choice: Choice) -> tuple[int, int] | None:
    """(SE's size, node) of the conclusion every case reaches with the fewest nodes in all
    (cases that meet a contradiction are impossible: the choice is skipped, nets use them)."""
    if any(case.outcome.contradiction for case in choice.cases):
        return None
    first, *rest = (case.outcome.reached for case in choice.cases)
    best: tuple[int, int] | None = None
    for node, (_, ancestors) in first.items():
        if all(node in other for other in rest):
            size = ancestors.bit_count() + sum(other[node][1].bit_count() for other in rest)
            if best is None or size < best[0]:
                best = (size, node)
    return best


def conclusion_words(node: int, board: Board) -> str:
    cell, d, on = cell_digit(node, board.layout.n)
    name = board.layout.name(cell)
    return f"{name} = {symbol(d)}" if on else f"{symbol(d)} leaves {name}"


def effect(node: int, n: int) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]:
    """(placements, eliminations) of a conclusion node."""
    cell, d, on = cell_digit(node, n)
    return (((cell, d),), ()) if on else ((), ((cell, d),))


def chain_words(outcome: Outcome, node: int, n: int) -> str:
    """'r4c5=2 → r4c1≠2 → r6c1=2'; a path that starts where a basic technique took a candidate
    off says so: '(by an X-wing) r5c3≠9 → ...'."""
    nodes = path_to(outcome, node)
    start = f"(by {outcome.basic[nodes[0]]}) " if nodes[0] in outcome.basic else ""
    return start + " → ".join(node_words(v, n) for v in nodes)


def path_links(outcome: Outcome, node: int, n: int) -> list[Link]:
    """The links of the path to ``node``: to a true node strong, to a false one weak."""
    nodes = path_to(outcome, node)
    found = []
    for a, b in pairwise(nodes):
        (ca, da, _), (cb, db, on) = cell_digit(a, n), cell_digit(b, n)
        found.append(Link((ca,), da, (cb,), db, on))
    return found


def choice_step(board: Board, technique: str, title: str, choice: Choice, node: int, weight: float) -> Step:
    n = board.layout.n
    paths = "; ".join(chain_words(case.outcome, node, n) for case in choice.cases)
    links = tuple(link for case in choice.cases for link in path_links(case.outcome, node, n))
    placements, gone = effect(node, n)
    return Step(technique, f"{title}: {choice.words}, and each case leads to "
                f"{node_words(node, n)}: {paths}; so {conclusion_words(node, board)}",
                placements=placements, eliminations=gone, weight=weight, links=links)


def contradiction_step(board: Board, title: str, start: int, outcome: Outcome, weight: float,
                       technique: str = "") -> Step:
    """The assumption ``start`` meets a contradiction: its opposite is true (``title`` begins
    the sentence; ``technique``, the title unless given, names the step)."""
    n = board.layout.n
    cell, d, on = cell_digit(start, n)
    shown = outcome.clash or _last_false(outcome)
    paths = "; ".join(chain_words(outcome, v, n) for v in shown)
    links = tuple(link for v in shown for link in path_links(outcome, v, n))
    opposite = node_of(cell, d, not on, n)
    placements, gone = effect(opposite, n)
    name = board.layout.name(cell)
    were = f"were {name} {symbol(d)}" if on else f"were {symbol(d)} not in {name}"
    return Step(technique or title, f"{title}: {were}, {paths}, and {outcome.contradiction}; so "
                f"{conclusion_words(opposite, board)}",
                placements=placements, eliminations=gone, weight=weight, links=links)


def _last_false(outcome: Outcome) -> tuple[int, ...]:
    """The latest node reached: where a contradiction without a clashing pair showed."""
    return (next(reversed(outcome.reached)),)

