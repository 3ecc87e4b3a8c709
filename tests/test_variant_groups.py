"""Latin squares and the extra all-different groups (single diagonals, anti-knight, anti-king,
disjoint groups, extra regions): the Model's groups, the independent checker, every backend."""
from __future__ import annotations

import pytest

from models import Geometry, Model, Puzzle, verify
from models.errors import ConstraintError
from solvers import Status
from solvers.registry import Backend

CYCLIC5 = tuple((r + c) % 5 + 1 for r in range(5) for c in range(5))
"""The 5x5 Latin square whose row r is 1..5 shifted by r."""
SUDOKU4 = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)


def latin(n: int, givens: tuple[int, ...] | None = None) -> Puzzle:
    return Puzzle(Geometry.latin_square(n), givens or (0,) * (n * n))


def test_a_latin_square_model_has_rows_and_columns_only() -> None:
    model = Model.from_puzzle(latin(5))
    assert [g.name for g in model.groups] == [f"row {i}" for i in range(1, 6)] + \
        [f"column {i}" for i in range(1, 6)]
    assert latin(5).variant == "latin"


def test_the_checker_accepts_a_latin_square_that_is_no_sudoku() -> None:
    assert verify(latin(5), CYCLIC5).ok
    nine = tuple((r + c) % 9 + 1 for r in range(9) for c in range(9))  # its boxes repeat digits
    assert verify(latin(9), nine).ok
    assert not verify(Puzzle(Geometry.for_size(9), (0,) * 81), nine).ok


def test_the_checker_finds_a_repeat_in_a_latin_column() -> None:
    bad = list(CYCLIC5)
    bad[0], bad[1] = bad[1], bad[0]  # row 1 still all different; columns 1 and 2 now repeat
    problems = verify(latin(5), bad).problems
    assert any("column 1" in p for p in problems) and not any("row" in p.split(" at")[0] for p in problems)


@pytest.mark.parametrize("rule, group", [
    ("main-diagonal", "main diagonal"), ("anti-diagonal", "anti-diagonal"),
    ("antiknight", "knight's move r1c1-r2c3"), ("antiking", "king's move r1c1-r2c2"),
    ("disjoint-groups", "disjoint group 1")])
def test_each_rule_adds_its_groups_to_the_model(rule: str, group: str) -> None:
    puzzle = Puzzle(Geometry.for_size(4), (0,) * 16, rules=(rule,))
    names = [g.name for g in Model.from_puzzle(puzzle).groups]
    assert group in names and puzzle.variant == rule


def test_rule_group_counts_follow_the_geometry() -> None:
    model = Model.from_puzzle(Puzzle(Geometry.for_size(9), (0,) * 81,
                                     rules=("antiknight", "antiking", "disjoint-groups")))
    count = {kind: sum(g.name.startswith(kind) for g in model.groups)
             for kind in ("knight's", "king's", "disjoint")}
    assert count == {"knight's": 4 * 8 * 7, "king's": 2 * 8 * 8, "disjoint": 9}
    disjoint = next(g for g in model.groups if g.name == "disjoint group 5")
    assert disjoint.cells == (10, 13, 16, 37, 40, 43, 64, 67, 70)  # the centre of each box


def test_both_diagonal_rules_are_x_sudoku() -> None:
    both = Puzzle(Geometry.for_size(4), (0,) * 16, rules=("anti-diagonal", "main-diagonal"))
    assert both == Puzzle(Geometry.for_size(4), (0,) * 16, diagonals=True)
    assert both.rules == () and both.variant == "x"


@pytest.mark.parametrize("rules, cell_a, cell_b, words", [
    (("antiknight",), 0, 6, "knight's move"), (("antiking",), 0, 5, "king's move"),
    (("main-diagonal",), 0, 5, "main diagonal"), (("anti-diagonal",), 3, 6, "anti-diagonal"),
    (("disjoint-groups",), 0, 2, "disjoint group 1")])
def test_the_checker_finds_a_rule_broken(rules: tuple[str, ...], cell_a: int, cell_b: int,
                                         words: str) -> None:
    grid = [0] * 16
    grid[cell_a] = grid[cell_b] = 1
    problems = verify(Puzzle(Geometry.for_size(4), (0,) * 16, rules=rules), grid).problems
    assert any(words in p for p in problems), problems


def test_the_checker_finds_an_extra_region_repeat() -> None:
    puzzle = Puzzle(Geometry.for_size(4), (0,) * 16, extra_regions=((1, 6, 11),))
    assert verify(puzzle, SUDOKU4).ok  # cells 1, 6, 11 hold 2, 1, 3
    puzzle = Puzzle(Geometry.for_size(4), (0,) * 16, extra_regions=((0, 5, 10),))
    assert any("extra region 1" in p for p in verify(puzzle, SUDOKU4).problems)  # 1, 4, 4


@pytest.mark.parametrize("kwargs, words", [
    ({"rules": ("knights",)}, "unknown rule 'knights'"),
    ({"rules": ("disjoint-groups",), "geometry": Geometry.latin_square(4)}, "needs boxes"),
    ({"extra_regions": ((),)}, "extra region 1 has no cells"),
    ({"extra_regions": ((0, 16),)}, "names cell 16"),
    ({"extra_regions": ((0, 0),)}, "names a cell twice")])
def test_bad_rules_and_extra_regions_are_refused(kwargs: dict, words: str) -> None:
    geometry = kwargs.pop("geometry", Geometry.for_size(4))
    with pytest.raises(ConstraintError, match=words):
        Puzzle(geometry, (0,) * 16, **kwargs)


LATIN7 = tuple((r * 3 + c) % 7 + 1 for r in range(7) for c in range(7))
GROUP_CASES = {
    "latin-5": Puzzle(Geometry.latin_square(5), tuple(v if i % 3 == 0 else 0 for i, v in enumerate(CYCLIC5))),
    "latin-7": Puzzle(Geometry.latin_square(7), tuple(v if i % 2 == 0 else 0 for i, v in enumerate(LATIN7))),
    "latin-2": Puzzle(Geometry.latin_square(2), (1, 0, 0, 0)),
    "main-diagonal-4x4": Puzzle(Geometry.for_size(4), (0,) * 16, rules=("main-diagonal",)),
    "antiknight-disjoint-6x6": Puzzle(Geometry.for_size(6), (0,) * 36,
                                      rules=("antiknight", "disjoint-groups")),
    "antiking-extra-region-6x6": Puzzle(Geometry.for_size(6), (0,) * 36, rules=("antiking",),
                                        extra_regions=((0, 7, 14, 21),)),
}


@pytest.mark.parametrize("name", GROUP_CASES)
def test_every_backend_solves_latin_squares_and_extra_groups(backend: Backend, name: str) -> None:
    puzzle = GROUP_CASES[name]
    result = backend.solve(puzzle, max_solutions=2, time_limit=30.0)
    assert result.status is Status.SOLVED, f"{result.status}: {result.message}"
    for solution in result.solutions:
        assert verify(puzzle, solution).ok, f"{backend.name}: {verify(puzzle, solution)}"


def test_every_backend_proves_an_antiking_4x4_impossible(backend: Backend) -> None:
    # every 2x2 window's four cells differ, which forces each row to be the row above it
    # shifted by two columns: row 3 then repeats row 1 in every column
    puzzle = Puzzle(Geometry.for_size(4), (0,) * 16, rules=("antiking",))
    result = backend.solve(puzzle, max_solutions=1, time_limit=30.0)
    assert result.status is Status.UNSAT, f"{backend.name}: {result.status} {result.solutions}"
