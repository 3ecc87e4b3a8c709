"""The contract every registered backend meets, parametrised so a failure names backend and puzzle.

Every solution a backend returns is checked with the independent checker.
"""
from __future__ import annotations

from functools import cache

import pytest

from models import Model, Puzzle, verify
from models.model import Group
from solvers import Result, Status, registry
from solvers.registry import Backend
from solvers.result import COUNTERS

from .conftest import Case, load, on_every_backend

# A time limit generous enough for every backend on these small cases. A backend whose search
# is hopeless on some of them declares a work budget in its reach (solvers/options.py Reach):
# machine-independent, so the same cases skip everywhere, with the reason.
LIMIT = 30.0


def solve(backend: Backend, puzzle: Puzzle, **kwargs) -> Result:
    options = {**backend.declaration.reach.budget, **kwargs}
    result = backend.solve(puzzle, time_limit=options.pop("time_limit", LIMIT), **options)
    assert type(result.status) is Status, result  # the enum itself, not a string that equals one
    for solution in result.solutions:
        verdict = verify(puzzle, solution)
        assert verdict.ok, f"{backend.name} returned an invalid solution: {verdict}"
    assert len(result.solutions) <= kwargs.get("max_solutions", 1)
    assert result.stats.wall_time > 0
    return result


def skip_if_budget_spent(backend: Backend, result: Result, wanted: int = 1) -> None:
    """Skip, saying so, when the work budget of the backend's reach stopped it short."""
    budget = backend.declaration.reach.budget
    if budget and not result.complete and (result.status is Status.UNKNOWN or len(result.solutions) < wanted):
        pytest.skip(f"{backend.name} needs more than the budget of its declared reach here: {dict(budget)}")


def solved(backend: Backend, puzzle: Puzzle, **kwargs) -> Result:
    result = solve(backend, puzzle, **kwargs)
    skip_if_budget_spent(backend, result, kwargs.get("max_solutions", 1))
    assert result.status is Status.SOLVED, f"{result.status}: {result.message}"
    return result


def cases(name: str, indexes: range | list[int] | None = None, hard: dict[int, int] | None = None) -> list[Case]:
    """The puzzles of a file as cases, ``hard`` giving the hardness (Reach's scale) of those
    above 0: measured on the backends with the least inference (see docs/architecture.md)."""
    puzzles = load(name)
    chosen = range(len(puzzles)) if indexes is None else indexes
    return [Case((puzzles[i],), f"{name.removesuffix('.txt')}-{i}", puzzles[i].n, (hard or {}).get(i, 0))
            for i in chosen]


def params(chosen: list[Case]) -> list:
    """Cases as plain parameters, for a test every backend runs in the quick tier."""
    return [pytest.param(*case.values, id=case.id) for case in chosen]


SEEDS = [Case((i,), str(i), load("seeds.txt")[i].n, 1 if i in (1, 3, 4, 5, 11, 12) else 0)
         for i in range(len(load("seeds.txt")))]


@pytest.mark.parametrize("backend_name, index", on_every_backend(SEEDS))
def test_seeds_give_their_known_solutions(backend: Backend, index: int) -> None:
    puzzle, known = load("seeds.txt")[index], load("seeds.solutions.txt")[index]
    assert solved(backend, puzzle).solution == known.givens


@pytest.mark.parametrize("backend_name, puzzle", on_every_backend(
    cases("top95.txt", [0, 1, 2], hard={0: 1, 1: 1}) + cases("hardest.txt", [0, 5], hard={0: 1})
    + cases("easy50.txt", [0]) + cases("special_9x9_valid_edge_cases.txt")))
def test_solves_9x9(backend: Backend, puzzle: Puzzle) -> None:
    solved(backend, puzzle)


@pytest.mark.parametrize("backend_name, puzzle", on_every_backend(
    cases("16x16_forum_samples.txt", hard={0: 1, 1: 2}) + cases("tsathis_samples_16x16.txt", hard={0: 1, 1: 1, 2: 1})))
def test_solves_16x16(backend: Backend, puzzle: Puzzle) -> None:
    solved(backend, puzzle)


@pytest.mark.parametrize("puzzle", params(cases("small_4x4.txt") + cases("small_6x6.txt")))
def test_small_geometries_have_unique_solutions(backend: Backend, puzzle: Puzzle) -> None:
    result = solved(backend, puzzle, max_solutions=2)
    assert result.unique is True and result.complete


@pytest.mark.parametrize("backend_name, puzzle", on_every_backend(
    cases("x_sudoku.txt", hard={1: 1, 2: 1}) + cases("jigsaw.txt", hard={0: 1, 1: 2, 2: 1})))
def test_variants_are_solved_under_their_own_groups(backend: Backend, puzzle: Puzzle) -> None:
    # verify() inside solve() checks the diagonals or regions too
    result = solved(backend, puzzle, max_solutions=2)
    assert result.unique is True


@pytest.mark.parametrize("puzzle", params(cases("empty.txt")))
def test_empty_grid_is_solved_and_not_unique(backend: Backend, puzzle: Puzzle) -> None:
    result = solved(backend, puzzle, max_solutions=2)
    assert len(result.solutions) == 2 and result.solutions[0] != result.solutions[1]
    assert result.unique is False


@pytest.mark.parametrize("backend_name, puzzle", on_every_backend(
    cases("small_unsat.txt") + cases("special_9x9_unsolvable.txt", hard={2: 1})))
def test_unsolvable_puzzles_are_unsat(backend: Backend, puzzle: Puzzle) -> None:
    result = solve(backend, puzzle, max_solutions=2)
    skip_if_budget_spent(backend, result)
    assert result.status is Status.UNSAT, f"{result.status}: {result.message}"
    assert result.complete and not result.solutions


# Lines 4-7 of the Sudopedia file have exactly 2, 3, 4 and 10 solutions.
@pytest.mark.parametrize("backend_name, puzzle, count", on_every_backend([
    Case((load("special_9x9_multiple_solutions.txt")[i], c), f"{c}-solutions", 9, solutions=c)
    for i, c in ((3, 2), (4, 3), (5, 4), (6, 10))]))
def test_counts_every_solution_of_small_multiple_puzzles(backend: Backend, puzzle: Puzzle,
                                                         count: int) -> None:
    everything = solved(backend, puzzle, max_solutions=50)
    assert len(everything.solutions) == count and everything.complete
    assert len(set(everything.solutions)) == count
    two = solved(backend, puzzle, max_solutions=2)
    assert len(set(two.solutions)) == 2 and two.unique is False


@pytest.mark.parametrize("arguments, message", [
    ({"max_solutions": 0}, "max_solutions must be"), ({"max_solutions": 1.5}, "max_solutions must be"),
    ({"time_limit": -1.0}, "time_limit must be"), ({"time_limit": float("inf")}, "time_limit must be"),
    ({"time_limit": float("nan")}, "time_limit must be"), ({"no_such_option": 1}, "unknown option .no_such_option."),
])
def test_the_registry_refuses_bad_shared_arguments(backend: Backend, arguments: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        backend.solve(load("seeds.txt")[0], **arguments)


def test_every_backend_names_its_counters_in_the_vocabulary(backend: Backend) -> None:
    result = solve(backend, load("seeds.txt")[0])
    measured = {k for k in result.stats.as_dict() if not k.endswith("_time")}
    declared = dict(backend.declaration.counters)
    assert set(declared) <= set(COUNTERS), f"{backend.name} declares counters outside the vocabulary"
    assert measured <= set(declared), f"{backend.name} measures {measured - set(declared)} unnamed"


LISTED = 125
"""The solutions of the puzzle below (special_9x9_multiple_solutions.txt's puzzle 8)."""
EXTRA_GROUPS = {(0, 10): 125, (0, 80): 113, (0, 40, 80): 68, (26, 33, 54): 3}
"""An extra group -> the solutions that keep it. A backend runs the groups whose solutions it
lists within its declared reach (one that re-solves per solution took 2-5 s of CPU on 68): every
backend runs the last, three cells in three rows, columns and boxes that only 3 solutions keep."""


@cache
def every_solution_of_the_125() -> frozenset[tuple[int, ...]]:
    """The 125 solutions of the puzzle, listed by backtrack once for every case below (the same
    list each time: about 0.1 s of CPU a case)."""
    every = registry.solve("backtrack", load("special_9x9_multiple_solutions.txt")[7], max_solutions=200)
    assert len(every.solutions) == LISTED and every.complete
    return frozenset(every.solutions)


@pytest.mark.slow  # enumerates up to 125 solutions on every backend
@pytest.mark.parametrize("backend_name, extra", [
    pytest.param(name, extra, id=f"{name}-{'-'.join(map(str, extra))}")
    for name in registry.names() for extra, kept in EXTRA_GROUPS.items()
    if registry.get(name).declaration.reach.solutions >= kept])
def test_a_group_smaller_than_the_grid_holds_each_value_at_most_once(backend: Backend,
                                                                     extra: tuple[int, ...]) -> None:
    # A variant's group of fewer than n cells is all-different but need not hold every
    # value: a backend that treats it as a full group refutes a puzzle that has solutions.
    puzzle = load("special_9x9_multiple_solutions.txt")[7]  # 125 solutions (Sudopedia)
    every = every_solution_of_the_125()
    expected = {s for s in every if len({s[c] for c in extra}) == len(extra)}
    assert len(expected) == EXTRA_GROUPS[extra]
    base = Model.from_puzzle(puzzle)
    model = Model(puzzle, (*base.groups, Group("extra", extra)))
    result = backend.solve(model, max_solutions=200)  # no time limit: a loaded machine must not cut it short
    assert set(result.solutions) == expected, f"{backend.name}: {len(result.solutions)} solutions, not {len(expected)}"
    assert result.complete
