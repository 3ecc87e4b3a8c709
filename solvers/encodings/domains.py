"""Cell domains reduced by the givens, shared by the encoding backends (cpsat, csp).

Reducing a domain by the givens is modelling, not search: an empty cell cannot
take a value that is already given in one of its groups. Nothing else is
inferred here (no singles, no propagation), so each backend's solver still does
all of the solving.

>>> from models import Model, parse_puzzle
>>> model = Model.from_puzzle(parse_puzzle("12..34....43..21"))
>>> candidates(model)[2], candidates(model)[0]
((3,), (1,))
>>> contradiction(model, candidates(model)) is None
True
"""
from __future__ import annotations

import time

from models import Model, find_duplicate

from ..result import Result, Stats, Status
from .cages import cage_clash


def given_values(model: Model) -> list[frozenset[int]]:
    """For each group of the model, the values given in it."""
    givens = model.givens
    return [frozenset(givens[c] for c in group.cells if givens[c]) for group in model.groups]


def candidates(model: Model) -> list[tuple[int, ...]]:
    """For each cell: its given, or the values 1..n not given in any of its groups."""
    givens, n = model.givens, model.n
    taken = given_values(model)
    everything = frozenset(range(1, n + 1))
    result: list[tuple[int, ...]] = []
    for cell, groups in enumerate(model.cell_groups):
        if givens[cell]:
            result.append((givens[cell],))
            continue
        left = everything.difference(*(taken[g] for g in groups))
        result.append(tuple(sorted(left)))
    return result


def clash_message(model: Model) -> str:
    """'the givens hold 5 twice in row 3', or '' when no group repeats a given."""
    duplicate = find_duplicate(model.givens, model.groups)
    if duplicate is None:
        return ""
    return f"the givens hold {duplicate.value} twice in {duplicate.group.name}"


def contradiction(model: Model, domains: list[tuple[int, ...]]) -> str | None:
    """Why the givens alone make the puzzle unsolvable (a repeated given, a cell with no
    value left, a cage whose givens no combination of digits completes to its total), or
    None. Encodings cannot express an empty domain, so backends check first."""
    clash = clash_message(model) or cage_clash(model)
    if clash:
        return clash
    for cell, values in enumerate(domains):
        if not values:
            n = model.n
            return f"no value is left for row {cell // n + 1}, column {cell % n + 1}"
    return None


def reduced_or_refuted(model: Model) -> tuple[list[tuple[int, ...]], Result | None]:
    """The reduced domains, and the UNSAT Result if the givens alone already rule out a solution."""
    start = time.perf_counter()
    domains = candidates(model)
    reason = contradiction(model, domains)
    if reason is None:
        return domains, None
    return domains, Result(Status.UNSAT, [], True, Stats(encode_time=time.perf_counter() - start),
                           reason)
