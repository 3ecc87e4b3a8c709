"""fast's 9x9 band kernel: the same verdicts, counts and solutions as the general kernel and
the checker on samples of every bundled 9x9 set; its limits, chunks, option and batch entry.

The general kernel makes mrv's decisions (tests/test_fast.py), so agreeing with it ties the
band kernel to the readable method too; every answer also goes through models.verify.
"""
from __future__ import annotations

import itertools
from functools import cache

import pytest

pytest.importorskip("numba", reason="the fast backend needs numba: pip install numba")

from models import Geometry, Model, Puzzle, iter_puzzles, verify
from solvers import Status, registry
from solvers.backends import _fast_bands, fast

from .conftest import PUZZLES, compare, load

SAMPLES_PER_FILE = 4
HEAD = 400
"""Puzzles read from the top of each file to sample from (17_clue.txt holds 20,000)."""


@cache
def _head(name: str) -> tuple[Puzzle, ...]:
    """The first HEAD puzzles of a bundled file (bad ones skipped)."""
    return tuple(p for p in itertools.islice(iter_puzzles(PUZZLES / name), HEAD) if isinstance(p, Puzzle))


def _standard_samples() -> list[pytest.param]:
    """Up to SAMPLES_PER_FILE standard 9x9 puzzles from the top of every bundled file (first,
    last, two between), each a parameter named file#index."""
    params = []
    for path in sorted(PUZZLES.glob("*.txt")):
        if path.name.startswith("malformed"):
            continue
        puzzles = _head(path.name)
        indexes = [i for i, p in enumerate(puzzles) if fast.standard_9x9(Model.from_puzzle(p))]
        if not indexes:
            continue
        step = max(1, (len(indexes) - 1) // (SAMPLES_PER_FILE - 1))
        chosen = sorted({*indexes[::step][:SAMPLES_PER_FILE - 1], indexes[-1]})
        params += [pytest.param(path.name, i, id=f"{path.name}#{i}") for i in chosen]
    return params


SAMPLES = _standard_samples()


def _both(puzzle: Puzzle, max_solutions: int) -> tuple:
    model = Model.from_puzzle(puzzle)
    bands = fast.solve(model, max_solutions=max_solutions, kernel="bands")
    general = fast.solve(model, max_solutions=max_solutions, kernel="general")
    return bands, general


def _puzzle(name: str, index: int) -> Puzzle:
    return _head(name)[index]


@pytest.mark.parametrize("name, index", SAMPLES)
def test_counting_to_two_gives_the_general_kernels_verdict_and_solutions(name: str, index: int) -> None:
    puzzle = _puzzle(name, index)
    bands, general = _both(puzzle, 2)
    assert bands.status is general.status and bands.unique is general.unique
    assert bands.complete == general.complete
    assert len(bands.solutions) == len(general.solutions) and len(set(bands.solutions)) == len(bands.solutions)
    assert all(verify(puzzle, s).ok for s in bands.solutions)
    if bands.unique:
        assert bands.solution == general.solution


@pytest.mark.parametrize("name, index", SAMPLES)
def test_counting_to_ten_finds_the_same_solutions(name: str, index: int) -> None:
    puzzle = _puzzle(name, index)
    bands, general = _both(puzzle, 10)
    assert len(bands.solutions) == len(general.solutions) and bands.status is general.status
    assert all(verify(puzzle, s).ok for s in bands.solutions)
    if bands.complete and general.complete:  # every solution found: the same set
        assert set(bands.solutions) == set(general.solutions)


@pytest.mark.parametrize("name, index", SAMPLES)
def test_a_first_solution_is_a_solution(name: str, index: int) -> None:
    puzzle = _puzzle(name, index)
    bands, general = _both(puzzle, 1)
    assert bands.status is general.status
    assert all(verify(puzzle, s).ok for s in bands.solutions)


@pytest.mark.parametrize("index, count", [(3, 2), (4, 3), (5, 4), (6, 10), (7, 125)])
def test_counts_every_solution_of_a_puzzle_with_several(index: int, count: int) -> None:
    puzzle = load("special_9x9_multiple_solutions.txt")[index]
    bands, general = _both(puzzle, 1000)
    assert bands.complete and len(set(bands.solutions)) == len(bands.solutions) == count
    assert set(bands.solutions) == set(general.solutions)
    assert all(verify(puzzle, s).ok for s in bands.solutions)


@pytest.mark.parametrize("index", range(4))
def test_refutes_an_unsolvable_puzzle(index: int) -> None:
    result = fast.solve(Model.from_puzzle(load("special_9x9_unsolvable.txt")[index]),
                        max_solutions=2, kernel="bands")
    assert result.status is Status.UNSAT and result.complete and not result.solutions


def test_givens_that_clash_are_unsat_with_a_message() -> None:
    givens = list(load("top95.txt")[0].givens)
    first = next(i for i, v in enumerate(givens) if v)
    row_mate = next(i for i in range(first - first % 9, first - first % 9 + 9) if not givens[i])
    givens[row_mate] = givens[first]
    result = fast.solve(Model.from_puzzle(Puzzle(Geometry.of(3, 3), tuple(givens))), kernel="bands")
    assert result.status is Status.UNSAT and result.complete and "contradict" in result.message


def test_a_batch_given_out_of_range_is_a_contradiction_not_a_crash() -> None:
    givens = fast.givens_array([load("top95.txt")[0]])
    givens[0, 0] = 10
    batch = fast.solve_batch(Model.from_puzzle(load("top95.txt")[0]), givens)
    assert batch.counts[0] == 0 and batch.complete[0]


def test_chunked_calls_find_what_one_call_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    # one guess per kernel call: every pause and resume of the search goes through the driver
    puzzle = load("special_9x9_multiple_solutions.txt")[7]
    whole = fast.solve(Model.from_puzzle(puzzle), max_solutions=1000, kernel="bands")
    monkeypatch.setattr(_fast_bands, "FIRST_CHUNK", 1)
    monkeypatch.setattr("solvers.backends._fast_drive.CHUNK", 1)
    chunked = fast.solve(Model.from_puzzle(puzzle), max_solutions=1000, kernel="bands")
    assert chunked.solutions == whole.solutions and chunked.complete
    assert (chunked.stats.nodes, chunked.stats.backtracks) == (whole.stats.nodes, whole.stats.backtracks)


def test_more_solutions_than_one_buffer_holds_come_back_distinct() -> None:
    puzzle = load("empty.txt")[2]
    assert fast.standard_9x9(Model.from_puzzle(puzzle))
    result = fast.solve(Model.from_puzzle(puzzle), max_solutions=150, kernel="bands")
    assert len(set(result.solutions)) == 150 and not result.complete
    assert result.status is Status.SOLVED and all(verify(puzzle, s).ok for s in result.solutions)


def test_a_spent_node_budget_is_unknown_and_counts_its_guesses() -> None:
    model = Model.from_puzzle(load("forum_hardest_1106.txt")[0])
    result = fast.solve(model, max_solutions=2, node_limit=3, kernel="bands")
    assert result.status is Status.UNKNOWN and result.stats.nodes == 3 and "node limit" in result.message
    full = fast.solve(model, max_solutions=2, kernel="bands")
    assert full.stats.nodes > 3 and full.stats.backtracks == full.stats.nodes


def test_a_zero_time_limit_gives_up_without_an_answer() -> None:
    result = fast.solve(Model.from_puzzle(load("top95.txt")[3]), max_solutions=2, time_limit=0.0,
                        kernel="bands")
    assert result.status is Status.TIMEOUT and not result.solutions


def test_propagation_alone_settles_an_easy_puzzle_and_counts_what_it_fixed() -> None:
    puzzle = load("easy50.txt")[0]
    result = fast.solve(Model.from_puzzle(puzzle), max_solutions=2, kernel="bands")
    assert result.unique and result.stats.nodes == 0 and result.stats.backtracks == 0
    assert result.stats.fixed_cells == result.stats.propagations == 81 - puzzle.num_givens


@pytest.mark.parametrize("name, index", [("top95.txt", 5), ("forum_hardest_1106.txt", 9),
                                         ("17_clue.txt", 0)])
def test_the_default_on_a_standard_grid_is_the_band_kernel(name: str, index: int) -> None:
    model = Model.from_puzzle(_head(name)[index])
    default = registry.get("fast").solve(model, max_solutions=2)
    bands = fast.solve(model, max_solutions=2, kernel="bands")
    assert default.solutions == bands.solutions
    assert (default.stats.nodes, default.stats.propagations) == (bands.stats.nodes, bands.stats.propagations)
    assert fast.search_for(model) == "bands"
    assert fast.search_for(model, inference="singles") == fast.search_for(model, branching="mrv") == "general"


@pytest.mark.parametrize("name", ["x_sudoku.txt", "jigsaw.txt", "16x16_forum_samples.txt",
                                  "generated_killer_9x9.txt"])
def test_the_band_kernel_says_it_cannot_solve_another_grid(name: str) -> None:
    model = Model.from_puzzle(load(name)[0])
    assert fast.search_for(model) == "general"
    result = registry.get("fast").solve(model, kernel="bands")
    assert result.status is Status.UNSUPPORTED and "standard 9x9" in result.message


def test_a_seed_solves_an_isomorph_with_the_band_kernel() -> None:
    puzzle = load("top95.txt")[3]
    result = fast.solve(Model.from_puzzle(puzzle), max_solutions=2, seed=7)
    assert result.unique and verify(puzzle, result.solution).ok


@pytest.mark.parametrize("max_solutions", [1, 2, 3])
@pytest.mark.parametrize("name", ["top95.txt", "special_9x9_multiple_solutions.txt",
                                  "special_9x9_unsolvable.txt"])
def test_a_batch_finds_what_one_call_per_puzzle_finds(name: str, max_solutions: int) -> None:
    puzzles = list(load(name)[:8])
    batch = fast.solve_batch(Model.from_puzzle(puzzles[0]), fast.givens_array(puzzles),
                             max_solutions=max_solutions)
    for index, puzzle in enumerate(puzzles):
        single = fast.solve(Model.from_puzzle(puzzle), max_solutions=max_solutions, kernel="bands")
        assert batch.counts[index] == len(single.solutions), index
        assert batch.complete[index] == single.complete and batch.nodes[index] == single.stats.nodes
        if single.solutions:
            assert tuple(batch.solutions[index].tolist()) == single.solution


@pytest.mark.slow
def test_the_kernel_option_is_checked_at_the_command_line() -> None:
    line = "".join(str(v or ".") for v in load("hardest.txt")[0].givens) + "\n"
    good = compare("solve", "-", "--solver", "fast:kernel=general", "--unique", stdin=line)
    assert good.returncode == 0 and "unique" in good.stdout, good.stderr
    bad = compare("solve", "-", "--solver", "fast:kernel=nine", stdin=line)
    assert bad.returncode == 2 and "kernel" in bad.stderr and "general" in bad.stderr
