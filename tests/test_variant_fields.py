"""The variant fields of the line and grid formats: Latin squares, rules, extra regions and
cages are read and written back unchanged, and bad fields get located errors."""
from __future__ import annotations

import pytest

from models import (
    Cage,
    Geometry,
    Puzzle,
    PuzzleError,
    parse_puzzle,
    read_text,
    to_grid,
    to_line,
    to_pretty,
)
from models.errors import ConstraintError, SizeError

CYCLIC5 = tuple((r + c) % 5 + 1 for r in range(5) for c in range(5))
LATIN40 = tuple(((r + c) % 40 + 1) if (r * 7 + c) % 3 else 0 for r in range(40) for c in range(40))
KILLER4 = Puzzle(Geometry.for_size(4), (0,) * 16,
                 cages=(Cage((0, 1), 3), Cage((2, 3, 7), 9), Cage((4, 8)), Cage((15,), 1)))

PUZZLES = {
    "latin-2": Puzzle(Geometry.latin_square(2), (1, 0, 0, 0)),
    "latin-5": Puzzle(Geometry.latin_square(5), tuple(v if i % 3 else 0 for i, v in enumerate(CYCLIC5))),
    "latin-9-x": Puzzle(Geometry.latin_square(9), (0,) * 81, diagonals=True),
    "jigsaw-5": Puzzle(Geometry.latin_square(5), (0,) * 25,
                       regions=(1, 1, 1, 2, 2, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 5, 3, 4, 4, 4, 5, 5, 5, 5, 4)),
    "killer-4": KILLER4,
    "rules-9": Puzzle(Geometry.for_size(9), (0,) * 80 + (5,),
                      rules=("anti-diagonal", "antiknight", "antiking", "disjoint-groups")),
    "extra-6": Puzzle(Geometry.for_size(6), (0,) * 36, extra_regions=((0, 7, 14), (35, 28))),
}


@pytest.mark.parametrize("name", PUZZLES)
@pytest.mark.parametrize("writer", [to_line, to_grid, to_pretty])
def test_a_variant_puzzle_reads_back_as_written(name: str, writer) -> None:
    puzzle = PUZZLES[name]
    assert parse_puzzle(writer(puzzle)) == puzzle


def test_a_latin_square_beyond_35_is_written_as_numbers_with_its_field() -> None:
    puzzle = Puzzle(Geometry.latin_square(40), LATIN40)
    text = to_grid(puzzle)
    assert text.splitlines()[0] == "variant=latin" and len(text.splitlines()) == 41
    assert parse_puzzle(text) == puzzle


def test_the_line_fields_say_what_the_puzzle_holds() -> None:
    assert to_line(KILLER4).split()[1:] == ["cage=3:R1C1,R1C2", "cage=9:R1C3,R1C4,R2C4",
                                           "cage=R2C1,R3C1", "cage=1:R4C4"]
    assert to_line(PUZZLES["latin-9-x"]).split()[1:] == ["variant=latin-x"]
    assert to_line(PUZZLES["rules-9"]).split()[1:] == [
        "variant=anti-diagonal-antiknight-antiking-disjoint-groups"]


def test_fields_before_a_grid_apply_to_that_grid_only() -> None:
    text = "variant=latin\n1 2 3\n. . .\n. . .\n\n1...\n....\n....\n....\n"
    batch = read_text(text)
    assert not batch.errors and [p.variant for p in batch.puzzles] == ["latin", "standard"]


@pytest.mark.parametrize("text, error, words", [
    ("1... variant=latin-killer", ConstraintError, "variant=killer needs its cages"),
    ("1... variant=latin-jigsaw", PuzzleError, "a jigsaw's regions replace boxes"),
    ("1.3. variant=lattin", PuzzleError, "unknown variant 'lattin'"),
    ("1... variant=latin variant=x", PuzzleError, "field variant= given twice"),
    ("1... variant=latin cage=5:R1C1,R3C1", ConstraintError, "cell 'R3C1' is outside the 2x2 grid"),
    ("1... variant=latin cage=x:R1C1", ConstraintError, "the total 'x' is not a whole number"),
    ("1... variant=latin cage=0:R1C1,R1C2", ConstraintError, "cage 1 total 0 is not a positive"),
    ("1... variant=latin extra=R1C1,1-1", ConstraintError, "bad cell name '1-1'"),
    ("1... variant=latin extra=", ConstraintError, "extra= names no cells"),
    ("1" + "." * 48, SizeError, "a Latin square of any side says variant=latin"),
    ("12345\n.....\n.....\n.....\n.....", SizeError, "a Latin square of any side has 'variant=latin'"),
    ("variant=latin\n1 2\n. . 3", PuzzleError, ""),
    ("variant=x\n", PuzzleError, "a line of fields with no puzzle after it"),
    ("variant=latin\n1.3. variant=x", PuzzleError, "variant= or regions= given both before"),
])
def test_bad_fields_are_located_errors(text: str, error: type, words: str) -> None:
    batch = read_text(text, name="f.txt")
    assert not batch.puzzles and len(batch.errors) == 1
    assert isinstance(batch.errors[0], error) and words in str(batch.errors[0])
    assert str(batch.errors[0]).startswith("f.txt, line ")
