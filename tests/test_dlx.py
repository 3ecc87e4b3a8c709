"""The dlx backend: the exact-cover matrix, its counters, its limits, and its readable twin."""
from __future__ import annotations

import pytest

from models import Model, Puzzle, parse_puzzle, verify
from solvers import Status, registry
from solvers.backends import dlx
from solvers.backends.readable import dlx as readable

from .conftest import load

TWIN_CASES = [
    *[pytest.param(load("top95.txt")[i], id=f"top95-{i}") for i in (0, 1, 5)],
    pytest.param(load("hardest.txt")[0], id="hardest-0"),
    pytest.param(load("x_sudoku.txt")[0], id="x_sudoku-0"),
    pytest.param(load("jigsaw.txt")[0], id="jigsaw-0"),
    pytest.param(load("small_4x4.txt")[0], id="small_4x4-0"),
    pytest.param(load("small_6x6.txt")[0], id="small_6x6-0"),
    pytest.param(load("small_unsat.txt")[0], id="small_unsat-0"),
    pytest.param(load("special_9x9_multiple_solutions.txt")[6], id="ten-solutions"),
    pytest.param(load("16x16_forum_samples.txt")[0], id="16x16-0"),
    *[pytest.param(p, id=f"empty-{p.n}x{p.n}") for p in load("empty.txt")],
]


@pytest.mark.parametrize("max_solutions", [1, 2, 20])
@pytest.mark.parametrize("puzzle", TWIN_CASES)
def test_readable_twin_makes_the_same_choices(puzzle: Puzzle, max_solutions: int) -> None:
    model = Model.from_puzzle(puzzle)
    fast = dlx.solve(model, max_solutions=max_solutions)
    slow = readable.solve(model, max_solutions=max_solutions)
    assert fast.status is slow.status
    assert fast.solutions == slow.solutions  # the same solutions, in the same order
    assert fast.complete == slow.complete
    assert (fast.stats.nodes, fast.stats.updates) == (slow.stats.nodes, slow.stats.updates)
    for solution in fast.solutions:
        assert verify(puzzle, solution).ok


@pytest.mark.parametrize("impl", dlx.IMPLS)
def test_impl_option_reaches_each_implementation(impl: str) -> None:
    result = registry.solve("dlx", load("top95.txt")[0], impl=impl, max_solutions=2)
    assert result.status is Status.SOLVED and result.unique is True


def test_unknown_impl_is_refused_with_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="fast, readable"):
        registry.solve("dlx", load("top95.txt")[0], impl="quick")


@pytest.mark.parametrize("impl", dlx.IMPLS)
@pytest.mark.parametrize("bad", [-1, 1.5, True, "10"])
def test_a_bad_node_limit_is_refused(impl: str, bad: object) -> None:
    with pytest.raises(ValueError, match="node_limit"):
        registry.get("dlx").solve(Model.from_puzzle(load("top95.txt")[0]), impl=impl, node_limit=bad)


@pytest.mark.parametrize("impl", dlx.IMPLS)
def test_a_spent_node_budget_is_unknown_not_unsat(impl: str) -> None:
    model = Model.from_puzzle(load("top95.txt")[0])
    result = dlx.solve(model, impl=impl, node_limit=5)
    assert result.status is Status.UNKNOWN and not result.complete and not result.solutions
    assert result.stats.nodes == 5


@pytest.mark.parametrize("impl", dlx.IMPLS)
def test_a_budget_spent_after_a_solution_leaves_it_solved_and_incomplete(impl: str) -> None:
    model = Model.from_puzzle(load("top95.txt")[0])
    first = dlx.solve(model, impl=impl)
    result = dlx.solve(model, impl=impl, node_limit=first.stats.nodes, max_solutions=2)
    assert result.status is Status.SOLVED and result.solutions == first.solutions
    assert not result.complete and result.unique is None


@pytest.mark.parametrize("puzzle", [pytest.param(p, id=f"easy50-{i}")
                                    for i, p in enumerate(load("easy50.txt")[:3])])
def test_a_puzzle_settled_by_singles_tries_one_row_per_empty_cell(puzzle: Puzzle) -> None:
    # These need no guess: a column with one row is always left, and S picks it.
    result = dlx.solve(Model.from_puzzle(puzzle))
    assert result.stats.nodes == puzzle.givens.count(0)


def test_one_empty_cell_costs_the_counted_link_updates() -> None:
    # A 4x4 with its last cell empty. The search covers the cell's column (1 header + 3
    # row-mates of its one row) and the row's 3 other columns (1 header each, no row left):
    # 7 updates. Proving uniqueness then undoes exactly those: 7 more.
    model = Model.from_puzzle(parse_puzzle("123434122143432."))
    one, two = dlx.solve(model), dlx.solve(model, max_solutions=2)
    assert one.stats.nodes == two.stats.nodes == 1 and two.unique is True
    assert two.stats.updates - one.stats.updates == 7


def test_the_matrix_has_one_row_per_cell_value_and_a_column_per_constraint() -> None:
    plain = dlx.matrix(9, tuple(g.cells for g in Model.from_puzzle(load("top95.txt")[0]).groups))
    assert plain.columns == 81 + 27 * 9 and len(plain.first) == 729
    assert len(plain.column) - 1 - plain.columns == 729 * 4  # four 1s in every row
    x = Model.from_puzzle(load("x_sudoku.txt")[0])
    diagonal = dlx.matrix(9, tuple(g.cells for g in x.groups))
    assert diagonal.columns == 81 + 29 * 9
    assert len(diagonal.column) - 1 - diagonal.columns == 729 * 4 + 2 * 9 * 9


def test_a_group_smaller_than_the_grid_is_at_most_once() -> None:
    # A secondary column: never chosen, so the grid need not hold every value in it.
    model = Model.from_puzzle(parse_puzzle("." * 16))
    extra = Model(model.puzzle, (*model.groups, type(model.groups[0])("pair", (0, 5))))
    result = dlx.solve(extra, max_solutions=2)
    assert result.status is Status.SOLVED
    for grid in result.solutions:
        assert grid[0] != grid[5] and verify(model.puzzle, grid).ok


@pytest.mark.parametrize("impl", dlx.IMPLS)
def test_repeated_givens_are_unsat_with_the_reason(impl: str) -> None:
    puzzle = load("small_4x4.txt")[0]
    clash = puzzle.with_givens((1, 1, *puzzle.givens[2:]))
    result = dlx.solve(Model.from_puzzle(clash), impl=impl)
    assert result.status is Status.UNSAT and result.complete
    assert "1 twice in row 1" in result.message


def test_readable_time_limit_stops_the_search() -> None:
    result = dlx.solve(Model.from_puzzle(load("25x25_gecode_frisch.txt")[0]), impl="readable",
                       time_limit=0.05)
    assert result.status in (Status.TIMEOUT, Status.SOLVED)
