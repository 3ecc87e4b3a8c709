"""Killer cages through every registered backend: each states a cage's total its own way, or
says plainly that it cannot (exact cover). Parametrised over the registry and the puzzles of
tests/killers.py, so a failure names both; every answer is checked by the independent checker.
"""
from __future__ import annotations

import pytest

from models import Cage, Geometry, Puzzle, verify
from solvers import Result, Status
from solvers.registry import Backend

from .killers import MULTIPLE, SEARCHING, UNIQUE, UNSAT, oracle_solutions

LIMIT = 30.0
CANNOT = {"dlx": "exact cover cannot express a killer cage's total"}
"""Backends that answer 'unsupported' for cage totals, and the start of their reason."""
# What the larger cages cost (measured on this machine, max_solutions=2): cpsat, sat, pysat,
# mrv and fast prove them in a few seconds at most, and mip (with the cages' combination
# rows) in under 0.3 s of CPU; python-constraint (its sum and combination constraints, with
# forward checking) does not finish the first in five minutes, and plain backtracking needs
# far more than its node budget.
TOO_SLOW_FOR_LARGE_CAGES = {"csp", "backtrack"}


def solve(backend: Backend, puzzle: Puzzle, max_solutions: int) -> Result:
    """The backend's answer, under the work budget of its declared reach (solvers/options.py
    Reach), each solution checked; a skip, saying why, where it cannot or spent the budget."""
    budget = backend.declaration.reach.budget
    result = backend.solve(puzzle, max_solutions=max_solutions, time_limit=LIMIT, **budget)
    for solution in result.solutions:
        verdict = verify(puzzle, solution)
        assert verdict.ok, f"{backend.name} returned an invalid solution: {verdict}"
    if backend.name in CANNOT:
        assert result.status is Status.UNSUPPORTED and result.message.startswith(CANNOT[backend.name])
        pytest.skip(f"{backend.name} says it cannot: {result.message}")
    if budget and result.status is Status.UNKNOWN:
        pytest.skip(f"{backend.name} needs more than the budget of its declared reach here: {dict(budget)}")
    return result


def unique_case(name: str, *, slow: bool = False):
    marks = [pytest.mark.slow] if slow else []
    return pytest.param(name, id=name, marks=marks)


@pytest.mark.parametrize("name", [unique_case(k, slow=k.startswith("9x9")) for k in UNIQUE])
def test_a_killer_is_solved_and_proved_unique(backend: Backend, name: str) -> None:
    puzzle, solution = UNIQUE[name]
    result = solve(backend, puzzle, max_solutions=2)
    assert result.status is Status.SOLVED, f"{result.status}: {result.message}"
    assert result.unique is True and result.solution == tuple(map(int, solution))


LARGER_CAGES = ["9x9-big-cages-a"]
"""The larger-cage killer every backend proves: the other of tests/killers.py's SEARCHING goes
through the same encodings with more search (5-6 s of CPU on minizinc and choco, whose sums
propagate weakly, under 1 s elsewhere); the readable twins and the human solver take both."""


@pytest.mark.slow
@pytest.mark.parametrize("name", LARGER_CAGES)
def test_a_killer_with_larger_cages_is_proved_unique(backend: Backend, name: str) -> None:
    if backend.name in TOO_SLOW_FOR_LARGE_CAGES:
        pytest.skip(f"{backend.name} needs far more than {LIMIT:g} s here (see the comment above)")
    puzzle, solution = SEARCHING[name]
    result = solve(backend, puzzle, max_solutions=2)
    assert result.unique is True and result.solution == tuple(map(int, solution))


@pytest.mark.parametrize("name", list(UNSAT))
def test_an_impossible_killer_is_unsat(backend: Backend, name: str) -> None:
    result = solve(backend, UNSAT[name], max_solutions=2)
    assert result.status is Status.UNSAT and result.complete and not result.solutions


@pytest.mark.parametrize("name", list(MULTIPLE))
def test_every_solution_of_a_small_killer_is_found(backend: Backend, name: str) -> None:
    puzzle = MULTIPLE[name]
    result = solve(backend, puzzle, max_solutions=50)
    assert set(result.solutions) == oracle_solutions(puzzle), "not the brute-force oracle's solutions"
    assert len(result.solutions) == len(set(result.solutions)) and result.complete


def test_only_the_backends_that_cannot_state_a_sum_say_unsupported(backend: Backend) -> None:
    puzzle, _ = UNIQUE["4x4-a"]
    result = backend.solve(puzzle, max_solutions=1, time_limit=LIMIT)
    if backend.name in CANNOT:
        assert result.status is Status.UNSUPPORTED and not result.solutions
        assert result.message.startswith(CANNOT[backend.name])
    else:
        assert result.status is Status.SOLVED and verify(puzzle, result.solution).ok


def test_cages_without_totals_are_groups_every_backend_solves(backend: Backend) -> None:
    # no total: all-different only, which exact cover states as well as anyone; each cage's
    # two cells share no row, column or box, so the cage rules out grids
    givens = (1, 2) + (0,) * 14
    plain = Puzzle(Geometry.for_size(4), givens, cages=(Cage((0, 10)), Cage((3, 12))))
    expected = oracle_solutions(plain)
    assert 0 < len(expected) < len(oracle_solutions(Puzzle(Geometry.for_size(4), givens)))
    result = backend.solve(plain, max_solutions=50, time_limit=LIMIT)
    assert result.status is Status.SOLVED and result.complete
    assert set(result.solutions) == expected
