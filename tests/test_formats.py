"""Reading every layout (line, grid, pretty, hex16, stdin) and writing them back."""
from __future__ import annotations

import io
import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models import (
    Geometry,
    Puzzle,
    PuzzleError,
    iter_puzzles,
    parse_puzzle,
    read_puzzles,
    read_text,
    to_grid,
    to_line,
    to_pretty,
    verify,
)

from .conftest import ROOT
from .grids import shuffled

PUZZLES = ROOT / "puzzles"
ROUND_TRIP_SIZES = [4, 6, 8, 9, 10, 12, 16, 20, 25]
NUMBER_ONLY_SIZES = [36, 49]  # beyond the 35 symbols: grid and pretty write integers


def read(name: str, **options) -> list[Puzzle]:
    batch = read_puzzles(PUZZLES / name, **options)
    assert not batch.errors, batch.errors
    return batch.puzzles


def some_givens(geometry: Geometry, rng: random.Random, keep: float = 0.4) -> Puzzle:
    """A consistent puzzle: a random subset of a valid full grid."""
    full = shuffled(geometry, rng)
    return Puzzle(geometry, tuple(v if rng.random() < keep else 0 for v in full))


# ---------------------------------------------------------------- the seeds

def test_seeds_line_file_mixes_9x9_and_16x16() -> None:
    seeds = read("seeds.txt")
    assert [p.n for p in seeds] == [9, 9, 9, 16, 16, 16, 9, 9, 9, 9, 9, 9, 9]
    assert [p.source.line for p in seeds] == list(range(4, 17))
    assert [p.source.index for p in seeds] == list(range(13))
    assert all(p.source.file.endswith("seeds.txt") for p in seeds)
    assert seeds[0].num_givens == 28 and seeds[3].num_givens == 106


@pytest.mark.parametrize("index", range(13))
def test_seed_solutions_verify_against_their_puzzles(index: int) -> None:
    puzzle, solution = read("seeds.txt")[index], read("seeds.solutions.txt")[index]
    assert solution.num_givens == solution.geometry.cells
    assert verify(puzzle, solution.givens).ok


@pytest.mark.parametrize("grid_index, line_index, layout", [
    (0, 6, "symbols separated by spaces"),
    (1, 8, "'-' for empty"),
    (2, 3, "16x16 integers"),
    (3, 4, "16x16 integers, no blank line before"),
    (4, 5, "16x16 integers, no blank line before"),
])
def test_seeds_grid_layouts_give_the_same_puzzles_as_the_line_file(grid_index: int, line_index: int,
                                                                    layout: str) -> None:
    grids, lines = read("seeds_grid.txt"), read("seeds.txt")
    assert len(grids) == 5
    assert grids[grid_index] == lines[line_index], layout
    solution = read("seeds.solutions.txt")[line_index]
    assert verify(grids[grid_index], solution.givens).ok


def test_seeds_grid_records_the_line_of_each_first_row() -> None:
    assert [p.source.line for p in read("seeds_grid.txt")] == [3, 14, 25, 41, 57]


# ---------------------------------------------------------------- line layout

NINE = "6.5..3.4....94.5...2..5...3.9.8....6.........2....6.9.3...7..2...8.19....7.3..8.4"


@pytest.mark.parametrize("empty", [".", "0", "-"])
def test_line_empties_are_all_the_same(empty: str) -> None:
    assert parse_puzzle(NINE.replace(".", empty)) == parse_puzzle(NINE)


def test_line_values_and_positions() -> None:
    p = parse_puzzle(NINE)
    assert p.geometry == Geometry.for_size(9)
    assert p.givens[:9] == (6, 0, 5, 0, 0, 3, 0, 4, 0)
    assert p.num_givens == 26 and p.variant == "standard"


def test_line_16x16_letters_and_25x25_letters() -> None:
    sixteen = read("16x16_gecode_janko.txt")[0]
    assert sixteen.n == 16 and max(sixteen.givens) <= 16
    letters = to_line(sixteen)
    assert set(letters) <= set(".123456789ABCDEFG")
    big = read("25x25_gecode_frisch.txt")
    assert len(big) == 18 and all(p.n == 25 for p in big)
    assert 25 in read("25x25_gecode_frisch.txt")[0].givens


def test_comments_and_blank_lines_are_skipped() -> None:
    text = f"# a comment\n\n   \n{NINE}\n# {NINE}\n\n{NINE}  # a note after the puzzle\n"
    batch = read_text(text)
    assert not batch.errors
    assert [p.source.line for p in batch.puzzles] == [4, 7]


def test_one_file_mixes_sizes() -> None:
    four, sixteen = "12..34....43..21", to_line(read("seeds.txt")[3])
    batch = read_text("\n".join([NINE, four, sixteen, NINE]))
    assert [p.n for p in batch.puzzles] == [9, 4, 16, 9] and not batch.errors


# ---------------------------------------------------------------- grid layouts

GRID_SYMBOLS = """\
6 . 5 . . 3 . 4 .
. . . 9 4 . 5 . .
. 2 . . 5 . . . 3
. 9 . 8 . . . . 6
. . . . . . . . .
2 . . . . 6 . 9 .
3 . . . 7 . . 2 .
. . 8 . 1 9 . . .
. 7 . 3 . . 8 . 4"""


@pytest.mark.parametrize("layout, text", [
    ("spaced symbols", GRID_SYMBOLS),
    ("spaced '-' empties", GRID_SYMBOLS.replace(".", "-")),
    ("spaced integers", GRID_SYMBOLS.replace(".", "0")),
    ("compact rows", GRID_SYMBOLS.replace(" ", "")),
    ("compact '0' empties", GRID_SYMBOLS.replace(" ", "").replace(".", "0")),
    ("tabs and wide spacing", GRID_SYMBOLS.replace(" ", " \t  ")),
    ("indented rows", "\n".join("   " + row for row in GRID_SYMBOLS.splitlines())),
])
def test_grid_layouts_of_the_same_puzzle(layout: str, text: str) -> None:
    assert parse_puzzle(text) == parse_puzzle(NINE), layout


def test_compact_grid_with_full_rows_of_digits() -> None:
    solution = read("seeds.solutions.txt")[0]
    text = "\n".join(to_line(solution)[r * 9:(r + 1) * 9] for r in range(9))
    assert parse_puzzle(text) == solution


def test_compact_16x16_grid_is_not_mistaken_for_4x4_lines() -> None:
    puzzle = read("seeds.txt")[3]
    compact = to_grid(puzzle).replace(" ", "")
    batch = read_text(compact + "\n" + compact)  # and two of them without a blank line
    assert batch.puzzles == [puzzle, puzzle] and not batch.errors


def test_sixteen_4x4_line_puzzles_in_a_row_stay_4x4() -> None:
    lines = ["12..34....43..21", ".3.....4.1.....1", ".....1.2..3....1", "4..2.........13."] * 4
    batch = read_text("\n".join(lines))
    assert len(batch.puzzles) == 16 and {p.n for p in batch.puzzles} == {4}


def test_consecutive_grids_without_blank_lines() -> None:
    other = parse_puzzle(GRID_SYMBOLS.replace("6 . 5", ". . 5"))
    batch = read_text(GRID_SYMBOLS + "\n" + to_grid(other) + "\n" + GRID_SYMBOLS)
    assert batch.puzzles == [parse_puzzle(NINE), other, parse_puzzle(NINE)]
    assert [p.source.line for p in batch.puzzles] == [1, 10, 19]


def test_16x16_integer_rows_with_two_digit_values() -> None:
    text = "\n".join(" ".join(f"{v:2d}" for v in row) for row in _rows(read("seeds.txt")[3]))
    assert text.startswith("12  0  8  9  0  6 15  0")
    assert parse_puzzle(text) == read("seeds.txt")[3]


def test_comment_lines_inside_and_between_grids() -> None:
    rows = GRID_SYMBOLS.splitlines()
    text = ("# first\n" + "\n".join([*rows[:4], "# a note in the middle", "   # an indented one", *rows[4:]])
            + "\n\n# second\n" + GRID_SYMBOLS)
    batch = read_text(text)
    assert batch.puzzles == [parse_puzzle(NINE)] * 2 and not batch.errors


def test_sdk_style_file_is_read_as_a_grid(tmp_path: Path) -> None:
    sdk = tmp_path / "puzzle.sdk"
    sdk.write_text("#A some author\n#D a description\n#L Easy\n" + GRID_SYMBOLS.replace(" ", "") + "\n")
    assert read(str(sdk)) == [parse_puzzle(NINE)]


def test_forced_formats() -> None:
    assert read_text(NINE, fmt="line").puzzles == [parse_puzzle(NINE)]
    assert read_text(GRID_SYMBOLS, fmt="grid").puzzles == [parse_puzzle(NINE)]
    forced = read_text(GRID_SYMBOLS, fmt="line")  # each row is then a (too short) line puzzle
    assert not forced.puzzles and len(forced.errors) == 9
    with pytest.raises(ValueError, match="unknown format 'sdk'"):
        read_text(NINE, fmt="sdk")


# ---------------------------------------------------------------- pretty

def test_pretty_9x9_has_box_borders_and_reads_back() -> None:
    puzzle = parse_puzzle(NINE)
    pretty = to_pretty(puzzle)
    lines = pretty.splitlines()
    assert lines[0] == "+-------+-------+-------+"
    assert lines[1] == "| 6 . 5 | . . 3 | . 4 . |"
    assert len(lines) == 13 and lines[4] == lines[0]
    assert parse_puzzle(pretty) == puzzle


def test_pretty_6x6_boxes_are_2_rows_by_3_columns() -> None:
    lines = to_pretty(read("small_6x6.txt")[0]).splitlines()
    assert lines[0] == "+-------+-------+" and lines[3] == lines[0]
    assert lines[1].count("|") == 3


def test_several_pretty_grids_in_one_text() -> None:
    puzzles = read("small_6x6.txt")
    assert read_text("\n".join(to_pretty(p) for p in puzzles)).puzzles == puzzles


# ---------------------------------------------------------------- hex16

def test_hex16_reads_0_to_F_as_1_to_16() -> None:
    puzzle = read("seeds.txt")[3]
    hexed = to_line(puzzle, hex16=True)
    assert hexed.startswith("B.78.5E.3..AD.C0")
    assert parse_puzzle(hexed, hex16=True) == puzzle
    assert parse_puzzle(to_grid(puzzle, hex16=True), hex16=True) == puzzle


def test_hex16_leaves_other_sizes_alone() -> None:
    hexed = to_line(read("seeds.txt")[3], hex16=True)
    batch = read_text(f"{NINE}\n{hexed}\n", hex16=True)
    assert batch.puzzles == [parse_puzzle(NINE), read("seeds.txt")[3]]


def test_without_hex16_a_0_to_F_puzzle_is_an_error_not_a_guess() -> None:
    hexed = to_line(read("seeds.txt")[3], hex16=True)
    with pytest.raises(PuzzleError, match="bad character 'G' at row 1, column 16"):
        parse_puzzle(hexed.replace("0", "G"), hex16=True)  # 'G' is no hex digit


def test_hex16_writer_refuses_other_sizes() -> None:
    with pytest.raises(ValueError, match="hex16 writes 16x16 puzzles only, not 9x9"):
        to_line(parse_puzzle(NINE), hex16=True)


# ---------------------------------------------------------------- sources, encodings, stdin

def test_read_from_path_string_and_open_file() -> None:
    path = PUZZLES / "small_4x4.txt"
    by_path = read_puzzles(path).puzzles
    assert read_puzzles(str(path)).puzzles == by_path
    with open(path, encoding="utf-8") as handle:
        assert read_puzzles(handle).puzzles == by_path
    assert read_puzzles(io.StringIO(path.read_text())).puzzles == by_path


@pytest.mark.parametrize("ending", ["\r\n", "\r", "\n"])
@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_any_line_end_and_a_byte_order_mark(tmp_path: Path, ending: str, bom: str) -> None:
    text = bom + ending.join(["# comment", NINE, "", GRID_SYMBOLS.replace("\n", ending), ""])
    path = tmp_path / "windows.txt"
    path.write_bytes(text.encode("utf-8"))
    batch = read_puzzles(path)
    assert batch.puzzles == [parse_puzzle(NINE)] * 2 and not batch.errors
    assert [p.source.line for p in batch.puzzles] == [2, 4]
    assert read_text(text).puzzles == batch.puzzles


def test_stdin_via_dash() -> None:
    code = ("from models import read_puzzles\n"
            "b = read_puzzles('-')\n"
            "print(len(b.puzzles), len(b.errors), b.puzzles[0].source, b.errors[0].file)\n")
    stdin = f"{NINE}\n\n{GRID_SYMBOLS}\n\n6x5\n"
    out = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, text=True,
                         cwd=ROOT, check=True, timeout=60)
    assert out.stdout.split() == ["2", "1", "<stdin>,", "line", "1", "<stdin>"]


def test_parse_puzzle_wants_exactly_one() -> None:
    with pytest.raises(PuzzleError, match="expected one puzzle, found 2"):
        parse_puzzle(NINE + "\n" + NINE)
    with pytest.raises(PuzzleError, match="expected one puzzle, found 0"):
        parse_puzzle("# nothing here\n")


# ---------------------------------------------------------------- round trips

@pytest.mark.parametrize("n", ROUND_TRIP_SIZES)
@pytest.mark.parametrize("writer", ["line", "grid", "grid-numbers", "pretty"])
def test_round_trip_every_geometry(n: int, writer: str) -> None:
    rng = random.Random(n)
    g = Geometry.for_size(n)
    for puzzle in (some_givens(g, rng), some_givens(g, rng, keep=1.0), Puzzle(g, (0,) * g.cells)):
        text = {"line": to_line, "grid": to_grid, "pretty": to_pretty,
                "grid-numbers": lambda p: to_grid(p, numbers=True)}[writer](puzzle)
        assert parse_puzzle(text) == puzzle


@pytest.mark.parametrize("n", NUMBER_ONLY_SIZES)
def test_round_trip_beyond_35_uses_numbers(n: int) -> None:
    g = Geometry.for_size(n)
    puzzle = some_givens(g, random.Random(n))
    grid = to_grid(puzzle)
    assert f" {n}" in grid or grid.startswith(str(n))
    assert parse_puzzle(grid) == puzzle
    assert parse_puzzle(to_pretty(puzzle)) == puzzle
    with pytest.raises(ValueError, match="use to_grid"):
        to_line(puzzle)


def test_variants_round_trip_through_the_line_format() -> None:
    for name in ("x_sudoku.txt", "jigsaw.txt"):
        for puzzle in read(name):
            again = parse_puzzle(to_line(puzzle))
            assert again == puzzle and again.variant == puzzle.variant


ROUND_TRIPPED_OF_A_FILE = 1_000
"""The puzzles of a bundled file round-tripped, from its top: all of every file but 17_clue.txt,
whose 20,000 are 17-clue 9x9 lines alike (all of it was 4 s of CPU)."""


@pytest.mark.slow
def test_round_trip_of_every_bundled_file_through_line() -> None:
    for path in sorted(PUZZLES.glob("*.txt")):
        read = itertools.islice(iter_puzzles(path), ROUND_TRIPPED_OF_A_FILE)
        for puzzle in (item for item in read if isinstance(item, Puzzle)):
            assert parse_puzzle(to_line(puzzle)) == puzzle, (path.name, puzzle.source)


def _rows(puzzle: Puzzle) -> list[tuple[int, ...]]:
    n = puzzle.n
    return [puzzle.givens[r * n:(r + 1) * n] for r in range(n)]


# ---------------------------------------------------------------- properties

GEOMETRIES = st.sampled_from([Geometry.for_size(n) for n in ROUND_TRIP_SIZES])
WRITERS = st.sampled_from(["line", "grid", "numbers", "pretty"])


def _write(puzzle: Puzzle, writer: str) -> str:
    if writer == "line":
        return to_line(puzzle)
    if writer == "grid":
        return to_grid(puzzle)
    if writer == "numbers":
        return to_grid(puzzle, numbers=True)
    return to_pretty(puzzle)


@settings(max_examples=40, deadline=None)
@given(geometry=GEOMETRIES, seed=st.integers(0, 2**32), writer=WRITERS)
def test_any_valid_full_grid_reads_back_the_same(geometry: Geometry, seed: int, writer: str) -> None:
    puzzle = Puzzle(geometry, shuffled(geometry, random.Random(seed)))
    again = parse_puzzle(_write(puzzle, writer))
    assert again.givens == puzzle.givens
    assert again.n == puzzle.n


@settings(max_examples=40, deadline=None)
@given(geometry=GEOMETRIES, seed=st.integers(0, 2**32), keep=st.floats(0, 1), writer=WRITERS)
def test_random_givens_read_back_the_same(geometry: Geometry, seed: int, keep: float, writer: str) -> None:
    puzzle = some_givens(geometry, random.Random(seed), keep)
    again = parse_puzzle(_write(puzzle, writer))
    assert again.givens == puzzle.givens


@settings(max_examples=25, deadline=None)
@given(puzzles=st.lists(st.tuples(GEOMETRIES, st.integers(0, 2**32), WRITERS), min_size=1, max_size=5),
       blank=st.booleans())
def test_a_file_of_many_puzzles_reads_back_in_order(puzzles: list, blank: bool) -> None:
    written = [some_givens(g, random.Random(seed)) for g, seed, _ in puzzles]
    texts = [_write(p, w) for p, (_, _, w) in zip(written, puzzles)]
    batch = read_text(("\n\n" if blank else "\n").join(texts))
    assert not batch.errors
    assert [p.givens for p in batch.puzzles] == [p.givens for p in written]


@pytest.mark.parametrize("numbers", [True, False], ids=["numbers", "symbols"])
def test_a_4x4_line_right_after_a_16x16_grid_is_its_own_puzzle(numbers: bool) -> None:
    # Found by the fuzz above: a 16-cell line after whole 16x16 grid rows was taken for a
    # 17th grid row and the file was called a layout fault.
    big = some_givens(Geometry(4, 4), random.Random(0))
    small = some_givens(Geometry(2, 2), random.Random(0))
    batch = read_text(to_grid(big, numbers=numbers) + "\n" + to_line(small))
    assert not batch.errors
    assert [p.givens for p in batch.puzzles] == [big.givens, small.givens]
