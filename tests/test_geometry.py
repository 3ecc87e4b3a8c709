"""Geometry: rows, columns and boxes for every box shape (and the peers a standard model derives
from them), and the sizes that are refused."""
from __future__ import annotations

import random

import pytest

from models import Geometry, GeometryError, Model, Puzzle, valid_size

from .grids import ALL_SIZES, is_valid, pattern, shuffled


@pytest.mark.parametrize("n, units, peers", [(4, 12, 7), (6, 18, 12), (9, 27, 20), (12, 36, 28),
                                             (16, 48, 39), (25, 75, 64)])
def test_unit_and_peer_counts_of_common_sizes(n: int, units: int, peers: int) -> None:
    model = Model.from_puzzle(Puzzle(Geometry.for_size(n), (0,) * n * n))
    assert len(model.groups) == units
    assert {len(p) for p in model.peers} == {peers}


@pytest.mark.parametrize("n, box_rows, box_cols", [(4, 2, 2), (6, 2, 3), (8, 2, 4), (9, 3, 3),
                                                   (10, 2, 5), (12, 3, 4), (16, 4, 4), (20, 4, 5),
                                                   (25, 5, 5), (36, 6, 6), (64, 8, 8)])
def test_for_size_picks_the_squarest_boxes_wider_than_tall(n: int, box_rows: int, box_cols: int) -> None:
    g = Geometry.for_size(n)
    assert (g.box_rows, g.box_cols, g.n, g.cells) == (box_rows, box_cols, n, n * n)


def test_6x6_boxes_are_2_rows_by_3_columns() -> None:
    g = Geometry.for_size(6)
    first = g.boxes[0]
    assert first == (0, 1, 2, 6, 7, 8)
    assert len({g.row_of(c) for c in first}) == 2 and len({g.col_of(c) for c in first}) == 3
    assert g.label() == "6x6 (2x3 boxes)"


def test_12x12_boxes_are_3_rows_by_4_columns() -> None:
    g = Geometry.for_size(12)
    for box in g.boxes:
        assert len({g.row_of(c) for c in box}) == 3 and len({g.col_of(c) for c in box}) == 4


@pytest.mark.parametrize("n", ALL_SIZES)
def test_invariants_for_every_valid_size(n: int) -> None:
    g = Geometry.for_size(n)
    assert valid_size(n)
    assert len(g.rows) == len(g.cols) == len(g.boxes) == n
    for kind in (g.rows, g.cols, g.boxes):
        # each kind of unit partitions the grid into n units of n cells
        assert all(len(unit) == n for unit in kind)
        assert sorted(c for unit in kind for c in unit) == list(range(n * n))
    expected_peers = 3 * n - g.box_rows - g.box_cols - 1
    model_peers = [set(p) for p in Model.from_puzzle(Puzzle(g, (0,) * n * n)).peers]
    assert {len(p) for p in model_peers} == {expected_peers}
    step = 1 if n <= 25 else 7  # big grids: a spread of cells keeps the run short
    for cell in range(0, n * n, step):
        peers = model_peers[cell]
        assert cell not in peers and len(peers) == expected_peers
        row, col, box = g.rows[g.row_of(cell)], g.cols[g.col_of(cell)], g.boxes[g.box_of(cell)]
        assert cell in row and cell in col and cell in box
        assert peers == (set(row) | set(col) | set(box)) - {cell}
    # boxes are box_rows x box_cols rectangles
    for box in g.boxes:
        rows = sorted({g.row_of(c) for c in box})
        cols = sorted({g.col_of(c) for c in box})
        assert len(rows) == g.box_rows and rows == list(range(rows[0], rows[0] + g.box_rows))
        assert len(cols) == g.box_cols and cols == list(range(cols[0], cols[0] + g.box_cols))


def test_peers_are_symmetric() -> None:
    peers = Model.from_puzzle(Puzzle(Geometry.for_size(12), (0,) * 144)).peers
    assert all(a in peers[b] for a in range(144) for b in peers[a])


def test_geometries_are_cached_and_compare_by_shape() -> None:
    assert Geometry.for_size(9) is Geometry.for_size(9)
    assert Geometry.of(3, 3) is Geometry.for_size(9)
    assert Geometry.of(3, 2) != Geometry.for_size(6)  # 3 rows x 2 columns is another shape
    assert Geometry.of(3, 2).boxes[0] == (0, 1, 6, 7, 12, 13)


@pytest.mark.parametrize("n", [-4, 0, 1, 2, 3, 5, 7, 11, 13, 17, 23, 29, 31, 37, 61, 65, 100])
def test_sizes_without_a_box_shape_are_refused(n: int) -> None:
    assert not valid_size(n)
    with pytest.raises(GeometryError, match=f"size {n} is not a valid grid"):
        Geometry.for_size(n)


@pytest.mark.parametrize("box_rows, box_cols", [(4, 1), (1, 1), (0, 9), (9, 8), (1, 65), (2, 1)])
def test_box_shapes_that_give_no_grid_are_refused(box_rows: int, box_cols: int) -> None:
    with pytest.raises(GeometryError, match="give no valid grid"):
        Geometry(box_rows, box_cols)


@pytest.mark.parametrize("n", ALL_SIZES)
def test_grid_builders_used_by_the_tests_are_valid(n: int) -> None:
    g = Geometry.for_size(n)
    assert is_valid(g, pattern(g))
    assert is_valid(g, shuffled(g, random.Random(n)))
    assert shuffled(g, random.Random(1)) != shuffled(g, random.Random(2))


@pytest.mark.parametrize("n", [2, 3, 5, 9, 17, 36, 64])
def test_a_latin_square_has_rows_and_columns_and_no_boxes(n: int) -> None:
    g = Geometry.latin_square(n)
    assert (g.latin, g.n, g.boxes, len(g.rows), len(g.cols)) == (True, n, (), n, n)
    assert g is Geometry.of(1, n)
    assert all(len(p) == 2 * (n - 1) for p in Model.from_puzzle(Puzzle(g, (0,) * n * n)).peers)
    assert {g.box_of(cell) for cell in range(g.cells)} == {0}
    assert g.label() == f"{n}x{n} Latin square"


@pytest.mark.parametrize("n", [-1, 0, 1, 65])
def test_latin_squares_outside_sides_2_to_64_are_refused(n: int) -> None:
    with pytest.raises(GeometryError, match="Latin square has a side from 2 to 64"):
        Geometry.latin_square(n)


def test_boxed_geometries_are_not_latin() -> None:
    assert not Geometry.for_size(9).latin and not Geometry.of(2, 3).latin
