"""The independent checker catches each kind of wrong solution and names where it is wrong."""
from __future__ import annotations

import ast
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models import Geometry, Model, Puzzle, read_puzzles, verify

from .conftest import ROOT
from .grids import ALL_SIZES, pattern, shuffled

PUZZLES = ROOT / "puzzles"


def load(name: str) -> list[Puzzle]:
    batch = read_puzzles(PUZZLES / name)
    assert not batch.errors, batch.errors
    return batch.puzzles


SEED = load("seeds.txt")[6]
SOLUTION = load("seeds.solutions.txt")[6].givens  # 6 1 5 | 7 8 3 | 2 4 9 on row 1


def swapped(grid: tuple[int, ...], a: int, b: int) -> tuple[int, ...]:
    cells = list(grid)
    cells[a], cells[b] = cells[b], cells[a]
    return tuple(cells)


def changed(grid: tuple[int, ...], cell: int, value: object) -> tuple:
    cells = list(grid)
    cells[cell] = value
    return tuple(cells)


def test_a_right_solution_is_ok() -> None:
    verdict = verify(SEED, SOLUTION)
    assert verdict.ok and bool(verdict) and verdict.problems == () and str(verdict) == "valid"
    assert verify(Model.from_puzzle(SEED), list(SOLUTION)).ok  # a Model and a list do as well


def test_given_changed() -> None:
    # swap two cells of row 1 (columns 1 and 2): column 1 held the given 6
    verdict = verify(SEED, swapped(SOLUTION, 0, 1))
    assert not verdict.ok
    assert "given 6 changed to 1 at row 1, column 1" in verdict.problems
    assert "duplicate 1 in column 1 at rows 1 and 6" not in verdict.problems  # that 1 moved, rows stay fine


def test_swapping_two_open_cells_in_a_row_breaks_their_columns() -> None:
    # columns 2 and 4 of row 1 are open in the puzzle; swapping keeps the row, breaks both columns
    assert SEED.givens[1] == 0 and SEED.givens[3] == 0
    verdict = verify(SEED, swapped(SOLUTION, 1, 3))
    assert not any("given" in p for p in verdict.problems)
    assert any(p.startswith("duplicate 7 in column 2 at rows 1 and ") for p in verdict.problems)
    assert any(p.startswith("duplicate 1 in column 4 at rows 1 and ") for p in verdict.problems)
    assert any(p.startswith("duplicate 7 in box 1 at row 1, column 2 and ") for p in verdict.problems)


@pytest.mark.parametrize("value, what", [
    (10, "value 10 out of range 1-9 at row 1, column 2"),
    (-1, "value -1 out of range 1-9 at row 1, column 2"),
    (0, "empty cell (0) at row 1, column 2"),
    ("1", "value '1' out of range 1-9 at row 1, column 2"),
    (True, "value True out of range 1-9 at row 1, column 2"),
    (None, "value None out of range 1-9 at row 1, column 2"),
])
def test_value_out_of_range(value: object, what: str) -> None:
    verdict = verify(SEED, changed(SOLUTION, 1, value))
    assert verdict.problems[0] == what
    # the bad value is reported once, not again as a duplicate
    assert not any(p.startswith("duplicate") for p in verdict.problems)


@pytest.mark.parametrize("length", [0, 80, 82, 256])
def test_wrong_length(length: int) -> None:
    grid = (SOLUTION * 4)[:length]
    assert verify(SEED, grid).problems == (f"solution has {length} cells, expected 81",)


def test_duplicate_in_a_row_names_the_row_and_columns() -> None:
    # row 1 is 6 1 5 7 8 3 2 4 9: writing 5 in column 2 clashes with column 3
    verdict = verify(SEED, changed(SOLUTION, 1, 5))
    assert "duplicate 5 in row 1 at columns 2 and 3" in verdict.problems
    assert any(p.startswith("duplicate 5 in column 2 at rows ") for p in verdict.problems)
    assert "duplicate 5 in box 1 at row 1, column 2 and row 1, column 3" in verdict.problems


def test_duplicate_in_a_box_only() -> None:
    # a full grid whose rows and columns are right but whose boxes are not: a Latin square
    latin = tuple((r + c) % 9 + 1 for r in range(9) for c in range(9))
    verdict = verify(Puzzle(Geometry.for_size(9), (0,) * 81), latin)
    assert verdict.problems and all(" in box " in p for p in verdict.problems)
    assert "duplicate 2 in box 1 at row 1, column 2 and row 2, column 1" in verdict.problems


def test_duplicate_on_a_diagonal_only_matters_for_x_sudoku() -> None:
    grid = pattern(Geometry.for_size(9))
    plain = Puzzle(Geometry.for_size(9), (0,) * 81)
    assert verify(plain, grid).ok
    verdict = verify(Puzzle(plain.geometry, plain.givens, diagonals=True), grid)
    assert any(p.startswith("duplicate ") and " in main diagonal at " in p for p in verdict.problems)
    assert any(" in anti-diagonal at " in p for p in verdict.problems)


def test_duplicate_in_a_jigsaw_region() -> None:
    # the standard pattern is no solution of the jigsaw's irregular regions
    jigsaw = load("jigsaw.txt")[0].with_givens((0,) * 81)
    verdict = verify(jigsaw, pattern(jigsaw.geometry))
    assert verdict.problems and all(" in region " in p for p in verdict.problems)
    assert not any(" in box " in p for p in verdict.problems)


def test_a_valid_x_sudoku_grid_passes_with_its_diagonals() -> None:
    grid = (1, 2, 3, 4,  3, 4, 1, 2,  4, 3, 2, 1,  2, 1, 4, 3)
    assert verify(Puzzle(Geometry.for_size(4), (0,) * 16, diagonals=True), grid).ok


def test_a_valid_jigsaw_grid_passes_with_its_regions() -> None:
    # a 6x6 "jigsaw" whose regions are tall 3x2 boxes: the tall-box pattern satisfies it,
    # although it breaks the usual 2x3 boxes
    tall = Geometry.of(3, 2)
    regions = tuple(tall.box_of(c) + 1 for c in range(36))
    grid = pattern(tall)
    assert verify(Puzzle(Geometry.for_size(6), (0,) * 36, regions=regions), grid).ok
    assert not verify(Puzzle(Geometry.for_size(6), (0,) * 36), grid).ok


@pytest.mark.parametrize("n", [4, 6, 8, 9, 10, 12, 16, 20, 25, 36])
def test_valid_full_grids_of_every_size_verify(n: int) -> None:
    g = Geometry.for_size(n)
    grid = shuffled(g, random.Random(n))
    assert verify(Puzzle(g, (0,) * g.cells), grid).ok
    keep = tuple(v if i % 3 == 0 else 0 for i, v in enumerate(grid))
    assert verify(Puzzle(g, keep), grid).ok


def test_6x6_checks_2x3_boxes_not_3x2() -> None:
    wide, tall = Geometry.of(2, 3), Geometry.of(3, 2)
    grid = pattern(wide)
    assert verify(Puzzle(wide, (0,) * 36), grid).ok
    assert any(" in box " in p for p in verify(Puzzle(tall, (0,) * 36), grid).problems)


def test_checker_shares_no_code_with_the_model_or_solvers() -> None:
    # at run time the checker imports only the standard library; the model and puzzle
    # are named for type hints alone, under TYPE_CHECKING
    tree = ast.parse((ROOT / "models" / "checker.py").read_text())
    runtime = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            runtime.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            runtime |= {alias.name for alias in node.names}
    assert runtime <= {"__future__", "collections.abc", "dataclasses", "functools", "operator", "typing"}, runtime


# ---------------------------------------------------------------- properties

SIZES = st.sampled_from([n for n in ALL_SIZES if n <= 16])


def draw_change(n: int, seed: int, data: st.DataObject) -> tuple[Geometry, tuple[int, ...], int, int]:
    """A random valid grid, a cell of it, and a value other than the grid's there."""
    g = Geometry.for_size(n)
    grid = shuffled(g, random.Random(seed))
    cell = data.draw(st.integers(0, g.cells - 1), label="cell")
    return g, grid, cell, data.draw(st.integers(1, n).filter(lambda v: v != grid[cell]), label="value")


@settings(max_examples=60, deadline=None)
@given(n=SIZES, seed=st.integers(0, 2**32), data=st.data())
def test_one_cell_changed_fails_verify(n: int, seed: int, data: st.DataObject) -> None:
    g, grid, cell, value = draw_change(n, seed, data)
    verdict = verify(Puzzle(g, (0,) * g.cells), changed(grid, cell, value))
    assert not verdict.ok
    row, col = cell // n + 1, cell % n + 1
    # the new value now appears twice in the cell's row, column and box
    assert any(p.startswith(f"duplicate {value} in row {row} at columns ") for p in verdict.problems)
    assert any(p.startswith(f"duplicate {value} in column {col} at rows ") for p in verdict.problems)
    assert any(p.startswith(f"duplicate {value} in box ") for p in verdict.problems)


@settings(max_examples=40, deadline=None)
@given(n=SIZES, seed=st.integers(0, 2**32), data=st.data())
def test_one_given_changed_is_named(n: int, seed: int, data: st.DataObject) -> None:
    g, grid, cell, other = draw_change(n, seed, data)
    puzzle = Puzzle(g, changed((0,) * g.cells, cell, other))
    verdict = verify(puzzle, grid)
    assert verdict.problems == (f"given {other} changed to {grid[cell]} at row {cell // n + 1}, "
                                f"column {cell % n + 1}",)


@settings(max_examples=40, deadline=None)
@given(n=SIZES, seed=st.integers(0, 2**32))
def test_any_valid_grid_with_its_own_givens_verifies(n: int, seed: int) -> None:
    g = Geometry.for_size(n)
    rng = random.Random(seed)
    grid = shuffled(g, rng)
    puzzle = Puzzle(g, tuple(v if rng.random() < 0.5 else 0 for v in grid))
    assert verify(puzzle, grid).ok
