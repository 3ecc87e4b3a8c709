"""Propagation + MRV: its counters, its value orders, its limits and its refutations."""
from __future__ import annotations

import pytest

from models import Model, Puzzle, verify
from solvers import Status, registry
from solvers.backends import mrv

from .conftest import load


def model(name: str, index: int) -> Model:
    return Model.from_puzzle(load(name)[index])


def test_a_puzzle_solved_by_singles_alone_takes_no_decision() -> None:
    result = mrv.solve(model("easy50.txt", 0), max_solutions=2)
    assert result.status is Status.SOLVED and result.unique
    assert result.stats.nodes == 0 and result.stats.backtracks == 0
    assert result.stats.propagations == 81 - load("easy50.txt")[0].num_givens


def test_counters_on_a_puzzle_that_needs_search() -> None:
    result = mrv.solve(model("top95.txt", 3), max_solutions=2)
    assert result.unique is True
    stats = result.stats
    assert stats.nodes >= 2 and stats.propagations > 0
    # Counted to the end, every decision was taken back.
    assert stats.backtracks == stats.nodes


def test_locked_candidates_settle_a_puzzle_that_singles_must_search() -> None:
    locked = mrv.solve(model("top95.txt", 0), max_solutions=2, inference="locked")
    singles = mrv.solve(model("top95.txt", 0), max_solutions=2, inference="singles")
    assert locked.unique and singles.unique and locked.solution == singles.solution
    assert locked.stats.nodes == 0 and singles.stats.nodes > 0


@pytest.mark.parametrize("inference", mrv.INFERENCES)
@pytest.mark.parametrize("name, index", [("top95.txt", 5), ("16x16_forum_samples.txt", 1),
                                         ("jigsaw.txt", 0), ("x_sudoku.txt", 0)])
def test_each_inference_proves_uniqueness(inference: str, name: str, index: int) -> None:
    puzzle = load(name)[index]
    result = mrv.solve(Model.from_puzzle(puzzle), max_solutions=2, inference=inference)
    assert result.unique is True and result.complete and verify(puzzle, result.solution).ok


OPTION_CHOICES = [{"inference": i} for i in mrv.INFERENCES] + \
                 [{"value_order": v} for v in mrv.VALUE_ORDERS]


@pytest.mark.parametrize("options", OPTION_CHOICES,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_each_inference_and_value_order_counts_all_solutions(options: dict[str, str]) -> None:
    puzzle = load("special_9x9_multiple_solutions.txt")[6]  # exactly 10 solutions
    result = mrv.solve(Model.from_puzzle(puzzle), max_solutions=100, **options)
    assert result.complete and len(set(result.solutions)) == 10
    assert all(verify(puzzle, s).ok for s in result.solutions)


@pytest.mark.parametrize("inference", mrv.INFERENCES)
def test_each_inference_refutes_unsolvable_puzzles(inference: str) -> None:
    for puzzle in load("special_9x9_unsolvable.txt"):
        result = mrv.solve(Model.from_puzzle(puzzle), max_solutions=2, inference=inference)
        assert result.status is Status.UNSAT and result.complete, puzzle.source


def test_unknown_inference_is_an_error_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="singles"):
        mrv.solve(model("easy50.txt", 0), inference="pairs")


@pytest.mark.parametrize("value_order", mrv.VALUE_ORDERS)
@pytest.mark.parametrize("index", [0, 1, 2])
def test_each_value_order_finds_the_seeds_solutions(value_order: str, index: int) -> None:
    puzzle, known = load("seeds.txt")[index], load("seeds.solutions.txt")[index]
    result = mrv.solve(Model.from_puzzle(puzzle), value_order=value_order)
    assert result.solution == known.givens


def test_unknown_value_order_is_an_error_naming_the_choices() -> None:
    with pytest.raises(ValueError, match="least-used"):
        registry.get("mrv").solve(model("easy50.txt", 0), value_order="random")


@pytest.mark.parametrize("puzzle", [pytest.param(p, id=f"16x16-{i}") for i, p in
                                    enumerate(load("special_16x16_multiple_solutions.txt"))])
def test_16x16_puzzles_with_several_solutions(puzzle: Puzzle) -> None:
    result = mrv.solve(Model.from_puzzle(puzzle), max_solutions=2, time_limit=60)
    assert result.status is Status.SOLVED and result.unique is False
    assert len(set(result.solutions)) == 2 and all(verify(puzzle, s).ok for s in result.solutions)


def test_clashing_givens_are_unsat_before_search() -> None:
    puzzle = load("small_4x4.txt")[0]
    result = mrv.solve(Model.from_puzzle(puzzle.with_givens((1, 1, *puzzle.givens[2:]))))
    assert result.status is Status.UNSAT and result.complete and result.stats.nodes == 0


def test_node_limit_stops_the_search() -> None:
    result = mrv.solve(model("16x16_forum_samples.txt", 1), node_limit=10)
    assert result.stats.nodes == 10 and not result.complete
    assert result.status is Status.UNKNOWN and "node limit" in result.message


def test_a_full_grid_given_is_its_own_unique_solution() -> None:
    known = load("seeds.solutions.txt")[0]
    result = mrv.solve(Model.from_puzzle(known), max_solutions=2)
    assert result.solution == known.givens and result.unique is True
