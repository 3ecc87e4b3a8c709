"""The constraint model: cells, domains and all-different groups, for standard, X and jigsaw puzzles."""
from __future__ import annotations

import random
import re
from dataclasses import FrozenInstanceError

import pytest

from models import (
    Duplicate,
    Geometry,
    Group,
    Model,
    Puzzle,
    RegionError,
    as_model,
    find_duplicate,
    parse_puzzle,
    read_puzzles,
)

from .conftest import PUZZLES, load

NINE = "6.5..3.4....94.5...2..5...3.9.8....6.........2....6.9.3...7..2...8.19....7.3..8.4"


def names(model: Model) -> list[str]:
    return [g.name for g in model.groups]


@pytest.mark.parametrize("n", [4, 6, 9, 12, 16, 25])
def test_standard_groups_are_the_geometry_units(n: int) -> None:
    g = Geometry.for_size(n)
    model = Model.from_puzzle(Puzzle(g, (0,) * g.cells))
    assert [grp.cells for grp in model.groups] == list(g.rows + g.cols + g.boxes)
    assert names(model)[:2] == ["row 1", "row 2"] and names(model)[n] == "column 1"
    assert names(model)[-1] == f"box {n}"
    assert (model.n, model.num_cells) == (n, n * n)
    assert all(len(grp.cells) == n for grp in model.groups)
    for cell in range(g.cells):
        row, col, box = g.rows[g.row_of(cell)], g.cols[g.col_of(cell)], g.boxes[g.box_of(cell)]
        assert set(model.peers[cell]) == (set(row) | set(col) | set(box)) - {cell}


def test_domains_and_givens() -> None:
    model = Model.from_puzzle(parse_puzzle(NINE))
    assert model.givens == parse_puzzle(NINE).givens
    assert model.domain(0) == (6,)
    assert model.domain(1) == tuple(range(1, 10))


def test_cell_groups_name_the_row_column_and_box_of_each_cell() -> None:
    model = Model.from_puzzle(parse_puzzle(NINE))
    cell = 4 * 9 + 7  # row 5, column 8
    assert [model.groups[i].name for i in model.cell_groups[cell]] == ["row 5", "column 8", "box 6"]
    assert all(cell in model.groups[i].cells for i in model.cell_groups[cell])


def test_x_sudoku_adds_both_diagonals() -> None:
    puzzle = load("x_sudoku.txt")[0]
    model = Model.from_puzzle(puzzle)
    assert puzzle.variant == "x" and puzzle.diagonals
    assert len(model.groups) == 29 and names(model)[-2:] == ["main diagonal", "anti-diagonal"]
    assert model.groups[-2].cells == (0, 10, 20, 30, 40, 50, 60, 70, 80)
    assert model.groups[-1].cells == (8, 16, 24, 32, 40, 48, 56, 64, 72)
    centre = 40
    assert len(model.cell_groups[centre]) == 5  # row, column, box and both diagonals
    standard = set(Model.from_puzzle(Puzzle(Geometry.for_size(9), (0,) * 81)).peers[centre])
    diagonals = set(range(0, 81, 10)) | set(range(8, 73, 8))
    assert set(model.peers[centre]) == (standard | diagonals) - {centre}
    assert len(model.peers[centre]) == 32 and len(model.peers[0]) == 26 and len(model.peers[1]) == 20


def test_x_groups_for_even_sizes_do_not_cross() -> None:
    model = Model.from_puzzle(Puzzle(Geometry.for_size(4), (0,) * 16, diagonals=True))
    assert model.groups[-2].cells == (0, 5, 10, 15) and model.groups[-1].cells == (3, 6, 9, 12)


def test_jigsaw_regions_replace_the_boxes() -> None:
    puzzle = load("jigsaw.txt")[0]
    model = Model.from_puzzle(puzzle)
    assert puzzle.variant == "jigsaw"
    assert len(model.groups) == 27
    assert not any(name.startswith("box") for name in names(model))
    regions = model.groups[18:]
    assert [r.name for r in regions] == [f"region {i}" for i in range(1, 10)]
    assert sorted(c for r in regions for c in r.cells) == list(range(81))
    for region in regions:
        number = int(region.name.split()[1])
        assert all(puzzle.regions[c] == number for c in region.cells)
    # the map starts '3777...' so cells 0 and 1 are in different regions, 1 and 2 the same
    assert model.cell_groups[0][-1] != model.cell_groups[1][-1] == model.cell_groups[2][-1]


def test_jigsaw_with_diagonals() -> None:
    base = load("jigsaw.txt")[0]
    puzzle = Puzzle(base.geometry, (0,) * 81, diagonals=True, regions=base.regions)
    model = Model.from_puzzle(puzzle)
    assert puzzle.variant == "jigsaw-x" and len(model.groups) == 29
    assert parse_puzzle("." * 81 + " variant=jigsaw-x regions=" + "".join(map(str, base.regions))) == puzzle


@pytest.mark.parametrize("regions, what", [
    ((1,) * 81, "region 1 has 81 cells, expected 9"),
    (tuple(range(1, 10)) * 8, "region map has 72 cells, expected 81"),
    (tuple(range(0, 9)) * 9, "region 9 has 0 cells, expected 9"),  # regions are numbered from 1
])
def test_region_maps_that_do_not_tile_the_grid_are_refused(regions: tuple, what: str) -> None:
    with pytest.raises(RegionError, match=what):
        Puzzle(Geometry.for_size(9), (0,) * 81, regions=regions)


def test_region_map_errors_from_a_file_are_located() -> None:
    error = read_puzzles(PUZZLES / "malformed.txt").errors[-1]
    assert isinstance(error, RegionError) and error.line == 23
    assert error.what == "region 1 has 10 cells, expected 9"


def test_every_variant_file_models_as_its_variant() -> None:
    for puzzle in load("x_sudoku.txt"):
        assert Model.from_puzzle(puzzle).groups[-1].name == "anti-diagonal"
    for puzzle in load("jigsaw.txt"):
        assert Model.from_puzzle(puzzle).groups[-1].name == "region 9"


def test_as_model_accepts_either() -> None:
    puzzle = parse_puzzle(NINE)
    model = as_model(puzzle)
    assert isinstance(model, Model) and model.puzzle is puzzle
    assert as_model(model) is model


def test_models_of_the_same_shape_share_their_tables() -> None:
    a, b = (Model.from_puzzle(p) for p in load("top95.txt")[:2])
    assert a.groups is b.groups and a.peers is b.peers


# ---------------------------------------------------------------- Puzzle values

def test_puzzle_is_immutable_and_givens_become_a_tuple() -> None:
    puzzle = Puzzle(Geometry.for_size(4), [1, 2, 3, 4] + [0] * 12)
    assert isinstance(puzzle.givens, tuple) and puzzle.num_givens == 4
    with pytest.raises(FrozenInstanceError):
        puzzle.givens = (0,) * 16  # type: ignore[misc]  # the point: a frozen puzzle refuses it


def test_puzzle_source_is_kept_but_not_compared() -> None:
    a, b = load("easy50.txt")[0], parse_puzzle(NINE)
    assert a.source.file.endswith("easy50.txt") and str(a.source) == f"{a.source.file}, line {a.source.line}"
    again = parse_puzzle("\n\n" + NINE)
    assert again == b and again.source.line == 3


def test_with_givens_keeps_geometry_variant_and_source() -> None:
    puzzle = load("jigsaw.txt")[1]
    other = puzzle.with_givens((0,) * 81)
    assert other.regions == puzzle.regions and other.source == puzzle.source and other.num_givens == 0


@pytest.mark.parametrize("givens, what", [
    ((0,) * 80, "80 givens for a 9x9 grid"),
    ((10,) + (0,) * 80, "given 10 at row 1, column 1 is not 0 (empty) or 1-9"),
    ((0,) * 9 + (-1,) + (0,) * 71, "given -1 at row 2, column 1"),
    (("5",) + (0,) * 80, "given '5' at row 1, column 1"),
])
def test_puzzle_refuses_bad_givens(givens: tuple, what: str) -> None:
    with pytest.raises(ValueError, match=re.escape(what)):
        Puzzle(Geometry.for_size(9), givens)


def test_group_is_a_plain_value() -> None:
    assert Group("row 1", (0, 1)) == Group("row 1", (0, 1))


# cells of a 4x4 grid (0-based, reading order) holding a 1 twice, and the group that catches it first
@pytest.mark.parametrize("cells, variant, group", [
    ((1, 2), {}, "row 1"),
    ((4, 12), {}, "column 1"),
    ((0, 5), {}, "box 1"),
    ((0, 15), {"diagonals": True}, "main diagonal"),
    ((3, 12), {"diagonals": True}, "anti-diagonal"),
])
def test_find_duplicate_names_the_first_group_the_value_and_both_cells(
        cells: tuple[int, int], variant: dict, group: str) -> None:
    givens = [0] * 16
    for cell in cells:
        givens[cell] = 1
    model = Model.from_puzzle(Puzzle(Geometry.for_size(4), tuple(givens), **variant))
    duplicate = find_duplicate(model.givens, model.groups)
    assert duplicate == Duplicate(next(g for g in model.groups if g.name == group), 1, *cells)


def test_find_duplicate_is_none_without_a_repeat_and_ignores_empty_cells() -> None:
    model = Model.from_puzzle(parse_puzzle(NINE))
    assert find_duplicate(model.givens, model.groups) is None


@pytest.mark.parametrize("seed", range(4))
def test_find_duplicate_gives_what_the_scan_in_order_gives(seed: int) -> None:
    rng = random.Random(seed)  # grids with and without repeats; a list of groups takes the plain scan
    groups = Model.from_puzzle(Puzzle(Geometry.for_size(9), (0,) * 81, diagonals=seed % 2 == 1)).groups
    for _ in range(200):
        values = [rng.choice([0, 0, 0, *range(1, 10)]) if rng.random() < 0.3 else 0 for _ in range(81)]
        assert find_duplicate(values, groups) == find_duplicate(values, list(groups))
