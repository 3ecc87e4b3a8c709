"""The textbook backtracker: same search tree as the plain recursive method, limits, deep grids."""
from __future__ import annotations

import inspect
import sys

import pytest

from models import Model, Puzzle, verify
from solvers import Status
from solvers.backends import backtrack

from .conftest import load


def textbook(model: Model, max_solutions: int = 1) -> tuple[int, list[tuple[int, ...]]]:
    """The seeds' method written plainly: (calls of search, solutions found)."""
    grid = list(model.givens)
    groups = [group.cells for group in model.groups]
    calls = 0
    found: list[tuple[int, ...]] = []

    def allowed(cell: int, value: int) -> bool:
        return all(grid[other] != value for g in model.cell_groups[cell] for other in groups[g])

    def search() -> bool:
        nonlocal calls
        calls += 1
        if 0 not in grid:
            found.append(tuple(grid))
            return len(found) >= max_solutions
        cell = grid.index(0)
        for value in range(1, model.n + 1):
            if allowed(cell, value):
                grid[cell] = value
                if search():
                    return True
                grid[cell] = 0
        return False

    search()
    return calls, found


def param(name: str, index: int):
    return pytest.param(load(name)[index], id=f"{name.removesuffix('.txt')}-{index}")


@pytest.mark.parametrize("max_solutions", [1, 2])
@pytest.mark.parametrize("puzzle", [
    param("easy50.txt", 0), param("easy50.txt", 4), param("easy50.txt", 7),
    param("seeds.txt", 0), param("special_9x9_multiple_solutions.txt", 0),
    param("small_4x4.txt", 0), param("small_6x6.txt", 1), param("small_unsat.txt", 0),
    param("x_sudoku.txt", 0)])
def test_node_count_is_the_textbook_count(puzzle: Puzzle, max_solutions: int) -> None:
    if puzzle.diagonals and max_solutions == 2:
        pytest.skip("the plain reference takes too long to finish this count")
    model = Model.from_puzzle(puzzle)
    calls, found = textbook(model, max_solutions)
    result = backtrack.solve(model, max_solutions=max_solutions)
    assert result.stats.nodes == calls
    assert result.solutions == found
    assert result.complete == (len(found) < max_solutions)


def test_backtracks_are_placements_taken_back() -> None:
    # A unique puzzle counted to the end: every placement, including the solution's, is undone.
    result = backtrack.solve(Model.from_puzzle(load("easy50.txt")[0]), max_solutions=2)
    assert result.complete and result.stats.backtracks == result.stats.nodes - 1
    # Stopped at the first solution: the cells filled on its path stay placed.
    puzzle = load("easy50.txt")[0]
    first = backtrack.solve(Model.from_puzzle(puzzle))
    empty = puzzle.geometry.cells - puzzle.num_givens
    assert first.stats.backtracks == first.stats.nodes - 1 - empty


def test_node_limit_stops_with_exactly_that_many_nodes() -> None:
    result = backtrack.solve(Model.from_puzzle(load("top95.txt")[0]), node_limit=5000)
    assert result.status is Status.UNKNOWN and not result.complete
    assert result.stats.nodes == 5000 and "node limit" in result.message


def test_deep_25x25_search_needs_no_recursion() -> None:
    # A full 25x25 grid with every fifth row emptied: a search 125 levels deep, run with
    # the recursion limit only 60 frames above the current depth.
    puzzle = load("25x25_gecode_frisch.txt")[0]
    rows_blank = tuple(0 if (i // 25) % 5 == 0 else v for i, v in enumerate(_pattern_grid(5)))
    blanked = puzzle.with_givens(rows_blank)
    model = Model.from_puzzle(blanked)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 60)
    try:
        result = backtrack.solve(model, time_limit=60)
    finally:
        sys.setrecursionlimit(old_limit)
    assert result.status is Status.SOLVED and verify(blanked, result.solution).ok
    assert result.stats.nodes > 125


def test_clashing_givens_are_unsat_without_search() -> None:
    puzzle = load("small_4x4.txt")[0]
    clash = puzzle.with_givens((1, 1, *puzzle.givens[2:]))
    result = backtrack.solve(Model.from_puzzle(clash))
    assert result.status is Status.UNSAT and "twice in row 1" in result.message


def _pattern_grid(box: int) -> tuple[int, ...]:
    """A valid n x n grid (n = box*box): row r is row 0 shifted by box*(r % box) + r // box."""
    n = box * box
    return tuple((box * (r % box) + r // box + c) % n + 1 for r in range(n) for c in range(n))
