"""Every kind of bad input gives a located error that says what was found and expected,
and a bad puzzle in a batch loses nothing else."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models import (
    BadCharacterError,
    CellCountError,
    DuplicateGivenError,
    Geometry,
    Puzzle,
    PuzzleError,
    RegionError,
    SizeError,
    ValueRangeError,
    check_duplicates,
    parse_puzzle,
    read_puzzles,
    read_text,
    to_line,
)

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
NINE = "6.5..3.4....94.5...2..5...3.9.8....6.........2....6.9.3...7..2...8.19....7.3..8.4"
EXPECT_9 = "(expected 1-9, or '.', '0' or '-' for empty)"

# (error type, line, row, column, what) for each bad puzzle, in file order
MALFORMED = [
    (BadCharacterError, 5, 1, 2, f"bad character 'x' at row 1, column 2 {EXPECT_9}"),
    (CellCountError, 7, None, None, "too few cells: found 80, expected 81 for 9x9 (a line puzzle has n*n cells)"),
    (CellCountError, 9, None, None, "too many cells: found 82, expected 81 for 9x9 (a line puzzle has n*n cells)"),
    (ValueRangeError, 11, 1, 1, "value 'H' (17) out of range at row 1, column 1 for a 16x16 grid "
                                "(expected 1-9 then A-G, or '.', '0' or '-' for empty)"),
    (DuplicateGivenError, 15, 3, 4, "duplicate 6 in row 3 at columns 2 and 4"),
    (DuplicateGivenError, 19, 3, 1, "duplicate 3 in column 1 at rows 1 and 3"),
    (DuplicateGivenError, 21, 2, 2, "duplicate 1 in box 1 at row 1, column 1 and row 2, column 2"),
    (RegionError, 23, None, None, "region 1 has 10 cells, expected 9"),
]
MALFORMED_GRID = [
    (BadCharacterError, 4, 2, 5, f"bad character 'x' at row 2, column 5 {EXPECT_9}"),
    (CellCountError, 16, 3, None, "row 3 has 8 cells, expected 9"),
    (CellCountError, 25, None, None, "too few rows: found 3, expected 9"),
    (SizeError, 30, None, None, "the first row has 7 cells, but 7x7 is not a valid grid "
                                "(sizes are box_rows x box_cols with both at least 2, such as 4, 6, 9, 16); "
                                "a Latin square of any side has 'variant=latin' on the line before its grid"),
    (ValueRangeError, 33, 1, 2, "value 17 out of range at row 1, column 2 for a 16x16 grid (expected 0 to 16)"),
]


def located(error: PuzzleError) -> tuple:
    return type(error), error.line, error.row, error.column, error.what


@pytest.mark.parametrize("name, expected, good_lines", [
    ("malformed.txt", MALFORMED, [3, 13, 17]),
    ("malformed_grid.txt", MALFORMED_GRID, [51]),
])
def test_malformed_files_give_each_located_error_and_keep_the_good_puzzles(
        name: str, expected: list, good_lines: list[int]) -> None:
    batch = read_puzzles(PUZZLES / name)
    assert [p.source.line for p in batch.puzzles] == good_lines
    assert [located(e) for e in batch.errors] == expected
    for error in batch.errors:
        assert error.file == str(PUZZLES / name)
        assert str(error) == f"{PUZZLES / name}, line {error.line}: {error.what}"


def test_error_indexes_count_every_puzzle_good_or_bad() -> None:
    batch = read_puzzles(PUZZLES / "malformed.txt")
    indexes = sorted([p.source.index for p in batch.puzzles] + [e.index for e in batch.errors])
    assert indexes == list(range(11))


@pytest.mark.parametrize("name, what", [
    ("special_9x9_invalid_givens.txt", ["duplicate 5 in box 5 at row 4, column 6 and row 5, column 4",
                                        "duplicate 1 in column 5 at rows 2 and 4",
                                        "duplicate 2 in row 5 at columns 1 and 9"]),
    ("special_16x16_invalid_givens.txt", ["duplicate A in column 14 at rows 1 and 10"]),
])
def test_published_invalid_givens_are_caught(name: str, what: list[str]) -> None:
    batch = read_puzzles(PUZZLES / name)
    assert not batch.puzzles
    assert [e.what for e in batch.errors] == what
    assert all(isinstance(e, DuplicateGivenError) for e in batch.errors)


# ---------------------------------------------------------------- each kind, in both layouts

GRID = "\n".join(" ".join(NINE[r * 9:(r + 1) * 9]) for r in range(9))


@pytest.mark.parametrize("text, kind, row, column, what", [
    (NINE[:4] + "x" + NINE[5:], BadCharacterError, 1, 5, "bad character 'x' at row 1, column 5"),
    (NINE[:10] + "A" + NINE[11:], BadCharacterError, 2, 2, "bad character 'A' at row 2, column 2"),
    ("5" + "." * 15, ValueRangeError, 1, 1, "value '5' (5) out of range at row 1, column 1 for a 4x4 grid"),
    ("." * 80, CellCountError, None, None, "too few cells: found 80, expected 81"),
    ("." * 82, CellCountError, None, None, "too many cells: found 82, expected 81"),
    ("." * 49, SizeError, None, None, "49 cells make a 7x7 grid, but size 7 is not a valid grid"),
    ("3..3" + "." * 12, DuplicateGivenError, 1, 4, "duplicate 3 in row 1 at columns 1 and 4"),
    ("1 2 3 4 5 6 7\n" + GRID, SizeError, None, None, "the first row has 7 cells, but 7x7 is not a valid grid"),
    (GRID.replace(". 9 . 8", ". 9 . 8 .", 1), CellCountError, 4, None, "row 4 has 10 cells, expected 9"),
    (GRID.replace(". 9 . 8", ". Q . 8", 1), BadCharacterError, 4, 2, "bad character 'Q' at row 4, column 2"),
    (GRID.replace(". 9 . 8", ". 10 . 8", 1), ValueRangeError, 4, 2,
     "value 10 out of range at row 4, column 2 for a 9x9 grid (expected 0 to 9)"),
    (GRID.replace(". 9 . 8", ". 9x . 8", 1), CellCountError, 4, None, "row 4 has 10 cells, expected 9"),
    ("\n".join(GRID.splitlines()[:8]), CellCountError, None, None, "too few rows: found 8, expected 9"),
    (GRID.replace(". 9 . 8", ". 9 . 9", 1), DuplicateGivenError, 4, 4,
     "duplicate 9 in row 4 at columns 2 and 4"),
    (GRID.replace("2 . . . . 6", "2 . . . . 3", 1), DuplicateGivenError, 6, 6,
     "duplicate 3 in column 6 at rows 1 and 6"),
])
def test_each_error_kind_names_row_column_and_what(text: str, kind, row, column, what) -> None:
    batch = read_text(text)
    error = batch.errors[0]
    assert isinstance(error, kind)
    assert error.what.startswith(what), error.what
    assert (error.row, error.column) == (row, column)
    assert error.line >= 1 and str(error).startswith(f"<string>, line {error.line}: ")


def test_grid_errors_point_at_the_line_of_the_bad_row() -> None:
    text = "# header\n\n" + GRID.replace(". 9 . 8", ". Q . 8", 1)
    error = read_text(text, name="mine.txt").errors[0]
    assert (error.file, error.line, error.row, error.column) == ("mine.txt", 6, 4, 2)
    assert str(error).startswith("mine.txt, line 6: bad character 'Q' at row 4, column 2")


def test_duplicate_in_a_box_names_both_cells() -> None:
    text = "1" + "." * 9 + "1" + "." * 70
    with pytest.raises(DuplicateGivenError) as caught:
        parse_puzzle(text)
    assert caught.value.what == "duplicate 1 in box 1 at row 1, column 1 and row 2, column 2"


def test_duplicate_on_a_diagonal_of_an_x_sudoku() -> None:
    text = "1" + "." * 29 + "1" + "." * 50  # rows 1 and 4, columns 1 and 4: different boxes
    assert parse_puzzle(text).num_givens == 2
    with pytest.raises(DuplicateGivenError) as caught:
        parse_puzzle(text + " variant=x")
    assert caught.value.what == "duplicate 1 in main diagonal at row 1, column 1 and row 4, column 4"


def test_check_duplicates_on_a_puzzle_built_in_code() -> None:
    g = Geometry.for_size(4)
    check_duplicates(Puzzle(g, (1, 2, 3, 4) + (0,) * 12))
    with pytest.raises(DuplicateGivenError, match="duplicate 2 in column 2 at rows 1 and 4"):
        check_duplicates(Puzzle(g, (1, 2, 3, 4) + (0,) * 8 + (0, 2, 0, 0)))


@pytest.mark.parametrize("suffix, what", [
    (" regions=" + "1" * 80, "region map has 80 cells, expected 81"),
    (" regions=" + "1" * 81, "region 1 has 81 cells, expected 9"),
    (" regions=" + "." + "1" * 80, "bad region symbol '.' at row 1, column 1"),
    (" regions=" + "A" * 81, "bad region symbol 'A' at row 1, column 1"),
    (" variant=jigsaw", "variant=jigsaw needs a region map"),
    (" variant=y", "unknown variant 'y'"),
    (" varient=x", "unknown field 'varient=x'"),
])
def test_variant_field_errors(suffix: str, what: str) -> None:
    with pytest.raises(PuzzleError) as caught:
        parse_puzzle(NINE + suffix)
    assert caught.value.what.startswith(what)


def test_hex16_errors() -> None:
    hexed = "0" + "." * 255
    assert parse_puzzle(hexed, hex16=True).givens[0] == 1
    with pytest.raises(BadCharacterError, match="bad character 'G' at row 1, column 1"):
        parse_puzzle("G" + "." * 255, hex16=True)


# ---------------------------------------------------------------- the error values themselves

def test_errors_are_value_errors_with_a_kind_and_a_location() -> None:
    for kind in (BadCharacterError, ValueRangeError, CellCountError, SizeError, DuplicateGivenError,
                 RegionError):
        assert issubclass(kind, PuzzleError) and issubclass(kind, ValueError)
        assert kind.kind != PuzzleError.kind
    error = BadCharacterError("bad character 'x' at row 1, column 2", row=1, column=2)
    assert str(error) == "<string>: bad character 'x' at row 1, column 2"
    assert error.located(file="a.txt", line=7, index=3) is error
    assert str(error) == "a.txt, line 7: bad character 'x' at row 1, column 2"
    assert (error.file, error.line, error.index, error.row, error.column) == ("a.txt", 7, 3, 1, 2)


# ---------------------------------------------------------------- a batch goes on

BAD_LINES = [NINE[:-1], NINE + ".", "x" + NINE[1:], "99" + NINE[2:], "." * 49, NINE + " variant=q"]


@settings(max_examples=30, deadline=None)
@given(order=st.permutations(range(8)), bad=st.lists(st.sampled_from(BAD_LINES), min_size=1, max_size=4),
       seed=st.integers(0, 1000))
def test_one_bad_puzzle_loses_nothing_else(order: list[int], bad: list[str], seed: int) -> None:
    goods = [to_line(p) for p in read_puzzles(PUZZLES / "top95.txt").puzzles[:8]]
    lines = [goods[i] for i in order]
    rng = random.Random(seed)
    for text in bad:
        lines.insert(rng.randrange(len(lines) + 1), text)
    batch = read_text("\n".join(lines))
    assert [to_line(p) for p in batch.puzzles] == [goods[i] for i in order]
    assert len(batch.errors) == len(bad)
    assert [lines[e.line - 1] for e in batch.errors] == [t for t in lines if t in BAD_LINES]
