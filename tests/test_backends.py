"""The contract every registered backend meets, parametrised so a failure names backend and puzzle.

Every solution a backend returns is checked with the independent checker.
"""
from __future__ import annotations

import pytest

from models import Model, Puzzle, verify
from models.model import Group
from solvers import Result, Status, registry
from solvers.registry import Backend
from solvers.result import COUNTERS

from .conftest import cpu_seconds, load, on_every_backend

# A time limit generous enough for every backend on these small cases. The textbook
# backtracker's blind search is hopeless on some of them, so it also gets a budget of
# search nodes: machine-independent, so the same cases skip everywhere, with the reason.
LIMIT = 30.0
BUDGETS = {"backtrack": {"node_limit": 1_000_000}}


def solve(backend: Backend, puzzle: Puzzle, **kwargs) -> Result:
    options = {**BUDGETS.get(backend.name, {}), **kwargs}
    result = backend.solve(puzzle, time_limit=options.pop("time_limit", LIMIT), **options)
    assert type(result.status) is Status, result  # the enum itself, not a string that equals one
    for solution in result.solutions:
        verdict = verify(puzzle, solution)
        assert verdict.ok, f"{backend.name} returned an invalid solution: {verdict}"
    assert len(result.solutions) <= kwargs.get("max_solutions", 1)
    assert result.stats.wall_time > 0
    return result


def solved(backend: Backend, puzzle: Puzzle, **kwargs) -> Result:
    result = solve(backend, puzzle, **kwargs)
    if backend.name == "backtrack" and not result.complete and (
            result.status is Status.UNKNOWN or len(result.solutions) < kwargs.get("max_solutions", 1)):
        pytest.skip(f"the textbook backtracker needs more than its budget here: {BUDGETS['backtrack']}")
    assert result.status is Status.SOLVED, f"{result.status}: {result.message}"
    return result


def cases(name: str, indexes: range | list[int] | None = None) -> list:
    puzzles = load(name)
    chosen = range(len(puzzles)) if indexes is None else indexes
    return [pytest.param(puzzles[i], id=f"{name.removesuffix('.txt')}-{i}") for i in chosen]


# Each backend on every case below, but the pairs that take over ~0.3 s of CPU (measured, see
# docs/architecture.md "Test tiers") only in the slow tier: the quick one keeps cheaper cases of
# each kind on every backend.
BACKTRACK_16X16 = {"16x16_forum_samples-0", "16x16_forum_samples-1", "tsathis_samples_16x16-0",
                   "tsathis_samples_16x16-1", "tsathis_samples_16x16-2"}
# minizinc starts a process and flattens the model for every solve (about 0.1 s of CPU,
# docs/results.md): the quick tier keeps a few cases of each kind for it
MINIZINC_SEEDS = {str(i) for i in range(3, 13)}


@pytest.mark.parametrize("backend_name, index", on_every_backend(
    [pytest.param(i, id=str(i)) for i in range(len(load("seeds.txt")))],
    slow={"backtrack": {"1", "3", "4", "5", "11", "12"}, "minizinc": MINIZINC_SEEDS}))
def test_seeds_give_their_known_solutions(backend: Backend, index: int) -> None:
    puzzle, known = load("seeds.txt")[index], load("seeds.solutions.txt")[index]
    assert solved(backend, puzzle).solution == known.givens


@pytest.mark.parametrize("backend_name, puzzle", on_every_backend(
    cases("top95.txt", [0, 1, 2]) + cases("hardest.txt", [0, 5]) + cases("easy50.txt", [0])
    + cases("special_9x9_valid_edge_cases.txt"), slow={"backtrack": {"top95-0", "top95-1", "hardest-0"},
                                                       "minizinc": {"top95-1", "top95-2", "hardest-5", "easy50-0"}}))
def test_solves_9x9(backend: Backend, puzzle: Puzzle) -> None:
    solved(backend, puzzle)


@pytest.mark.parametrize("backend_name, puzzle", on_every_backend(
    cases("16x16_forum_samples.txt") + cases("tsathis_samples_16x16.txt"),
    slow={"backtrack": BACKTRACK_16X16, "csp": {"16x16_forum_samples-1"},
          "minizinc": BACKTRACK_16X16 - {"16x16_forum_samples-1"}}))
def test_solves_16x16(backend: Backend, puzzle: Puzzle) -> None:
    solved(backend, puzzle)


@pytest.mark.parametrize("puzzle", cases("small_4x4.txt") + cases("small_6x6.txt"))
def test_small_geometries_have_unique_solutions(backend: Backend, puzzle: Puzzle) -> None:
    result = solved(backend, puzzle, max_solutions=2)
    assert result.unique is True and result.complete


@pytest.mark.parametrize("backend_name, puzzle", on_every_backend(
    cases("x_sudoku.txt") + cases("jigsaw.txt"),
    slow={"backtrack": {"x_sudoku-1", "x_sudoku-2", "jigsaw-0", "jigsaw-1", "jigsaw-2"}, "csp": {"jigsaw-1"},
          "minizinc": {"x_sudoku-1", "x_sudoku-2", "jigsaw-1", "jigsaw-2"}}))
def test_variants_are_solved_under_their_own_groups(backend: Backend, puzzle: Puzzle) -> None:
    # verify() inside solve() checks the diagonals or regions too
    result = solved(backend, puzzle, max_solutions=2)
    assert result.unique is True


@pytest.mark.parametrize("puzzle", cases("empty.txt"))
def test_empty_grid_is_solved_and_not_unique(backend: Backend, puzzle: Puzzle) -> None:
    result = solved(backend, puzzle, max_solutions=2)
    assert len(result.solutions) == 2 and result.solutions[0] != result.solutions[1]
    assert result.unique is False


@pytest.mark.parametrize("backend_name, puzzle", on_every_backend(
    cases("small_unsat.txt") + cases("special_9x9_unsolvable.txt"),
    slow={"backtrack": {"special_9x9_unsolvable-2"}}))
def test_unsolvable_puzzles_are_unsat(backend: Backend, puzzle: Puzzle) -> None:
    result = solve(backend, puzzle, max_solutions=2)
    if result.status is Status.UNKNOWN and backend.name == "backtrack" and puzzle.n == 9:
        pytest.skip(f"the textbook backtracker cannot refute this puzzle within {BUDGETS['backtrack']}")
    assert result.status is Status.UNSAT, f"{result.status}: {result.message}"
    assert result.complete and not result.solutions


# Lines 4-7 of the Sudopedia file have exactly 2, 3, 4 and 10 solutions.
@pytest.mark.parametrize("backend_name, puzzle, count", on_every_backend([
    pytest.param(load("special_9x9_multiple_solutions.txt")[i], c, id=f"{c}-solutions")
    for i, c in ((3, 2), (4, 3), (5, 4), (6, 10))], slow={"dimacs": {"10-solutions"}}))
def test_counts_every_solution_of_small_multiple_puzzles(backend: Backend, puzzle: Puzzle,
                                                         count: int) -> None:
    everything = solved(backend, puzzle, max_solutions=50)
    assert len(everything.solutions) == count and everything.complete
    assert len(set(everything.solutions)) == count
    two = solved(backend, puzzle, max_solutions=2)
    assert len(set(two.solutions)) == 2 and two.unique is False


def test_time_limit_is_honoured_without_a_wrong_answer(backend: Backend) -> None:
    if not backend.interruptible:
        pytest.skip(f"{backend.name} cannot be interrupted from inside; the harness limits it from outside")
    puzzle = load("25x25_gecode_frisch.txt")[0]
    solve(backend, load("seeds.txt")[0])  # loaded and warm: the bound below is the search's, not an import's
    start = cpu_seconds()  # not the wall clock: a loaded machine stretches that, not the work done
    result = solve(backend, puzzle, time_limit=0.2)
    spent = cpu_seconds() - start
    assert result.status in (Status.TIMEOUT, Status.SOLVED)
    assert result.status is Status.SOLVED or not result.solutions
    assert spent < 0.2 + 5.0, f"a 0.2 s limit took {spent:.1f} s of CPU"


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


EXTRA_GROUPS = [(0, 10), (0, 80), (0, 40, 80)]
ONE_EXTRA_GROUP = {"mip", "dimacs"}  # 3-9 s of CPU a case (a re-solve per solution): the last case only


@pytest.mark.slow  # enumerates up to 125 solutions on every backend
@pytest.mark.parametrize("backend_name, extra", [
    pytest.param(name, extra, id=f"{name}-{'-'.join(map(str, extra))}")
    for name in registry.names() for extra in EXTRA_GROUPS
    if name not in ONE_EXTRA_GROUP or extra == EXTRA_GROUPS[-1]])
def test_a_group_smaller_than_the_grid_holds_each_value_at_most_once(backend: Backend,
                                                                     extra: tuple[int, ...]) -> None:
    # A variant's group of fewer than n cells is all-different but need not hold every
    # value: a backend that treats it as a full group refutes a puzzle that has solutions.
    puzzle = load("special_9x9_multiple_solutions.txt")[7]  # 125 solutions (Sudopedia)
    every = registry.solve("backtrack", puzzle, max_solutions=200).solutions
    assert len(every) == 125
    expected = {s for s in every if len({s[c] for c in extra}) == len(extra)}
    base = Model.from_puzzle(puzzle)
    model = Model(puzzle, base.groups + (Group("extra", extra),))
    result = backend.solve(model, max_solutions=200)  # no time limit: a loaded machine must not cut it short
    assert set(result.solutions) == expected, f"{backend.name}: {len(result.solutions)} solutions, not {len(expected)}"
    assert result.complete
