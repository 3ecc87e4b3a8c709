"""DIMACS export and read-back: a file any SAT solver can take, and its answers turned into grids."""
from __future__ import annotations

import pycosat
import pytest

from models import Cage, Model, Puzzle, parse_puzzle, verify
from solvers.encodings.cnf import ENCODINGS, Numbering, encode
from solvers.encodings.dimacs import (
    SATISFIABLE,
    UNKNOWN,
    UNSATISFIABLE,
    Dimacs,
    DimacsError,
    _puzzle_lines,
    cnf_puzzle,
    decode_model,
    decode_with_cnf,
    export_dimacs,
    header_puzzle,
    read_answer,
    read_dimacs,
)

from .conftest import load
from .killers import UNIQUE

PUZZLES = [pytest.param(load(name)[i], id=f"{name.removesuffix('.txt')}-{i}") for name, i in
           [("seeds.txt", 1), ("top95.txt", 0), ("x_sudoku.txt", 1), ("jigsaw.txt", 0),
            ("small_4x4.txt", 0), ("small_6x6.txt", 1), ("16x16_forum_samples.txt", 1)]]


def competition_output(model: list[int] | str) -> str:
    """What a SAT-competition solver prints for pycosat's answer."""
    if model == "UNSAT":
        return "c solved by pycosat\ns UNSATISFIABLE\n"
    body = "\n".join("v " + " ".join(map(str, model[i:i + 10])) for i in range(0, len(model), 10))
    return f"c solved by pycosat\ns SATISFIABLE\n{body}\nv 0\n"


@pytest.mark.parametrize("puzzle", PUZZLES)
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_export_solve_decode_round_trip(encoding: str, puzzle: Puzzle) -> None:
    text = export_dimacs(puzzle, encoding)
    dimacs = read_dimacs(text)
    cnf = encode(Model.from_puzzle(puzzle), encoding)
    assert dimacs.header == (cnf.num_vars, len(cnf.clauses))
    assert f"p cnf {cnf.num_vars} {len(cnf.clauses)}" in text.splitlines()
    answer = competition_output(pycosat.solve(dimacs.clauses, vars=dimacs.num_vars))
    grid = decode_model(answer, puzzle, encoding)
    assert grid is not None and verify(puzzle, grid).ok
    assert decode_with_cnf(answer, text) == grid


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_header_names_the_puzzle_encoding_and_numbering(encoding: str) -> None:
    puzzle = load("jigsaw.txt")[0]
    dimacs = read_dimacs(export_dimacs(puzzle, encoding))
    again = parse_puzzle(dimacs.field("puzzle"))
    assert (again.givens, again.regions, again.variant) == (puzzle.givens, puzzle.regions, "jigsaw")
    assert dimacs.field("encoding").split()[0] == encoding
    assert dimacs.field("source").startswith(puzzle.source.file)
    assert "((R-1)*9 + (C-1))*9 + V" in dimacs.field("numbering")


def test_simplified_export_maps_every_variable_to_its_cell_and_value() -> None:
    puzzle = load("top95.txt")[0]
    dimacs = read_dimacs(export_dimacs(puzzle, "simplified"))
    cnf = encode(Model.from_puzzle(puzzle), "simplified")
    maps = [tuple(map(int, c.split()[1:])) for c in dimacs.comments if c.startswith("map ")]
    assert len(maps) == dimacs.num_vars == cnf.num_vars
    for var, row, column, value in maps:
        assert cnf.numbering.cell_value(var) == ((row - 1) * 9 + column - 1, value)
        assert puzzle.givens[(row - 1) * 9 + column - 1] == 0


@pytest.mark.parametrize("puzzle", [pytest.param(p, id=f"small_unsat-{i}")
                                    for i, p in enumerate(load("small_unsat.txt"))])
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_unsat_answer_gives_no_grid(encoding: str, puzzle: Puzzle) -> None:
    text = export_dimacs(puzzle, encoding)
    dimacs = read_dimacs(text)
    answer = pycosat.solve(dimacs.clauses, vars=dimacs.num_vars)
    assert answer == "UNSAT"
    assert decode_model(competition_output(answer), puzzle, encoding) is None
    assert decode_with_cnf(competition_output(answer), text) is None


def test_equal_givens_export_an_empty_clause_that_reads_back_unsat() -> None:
    small = parse_puzzle("1...............")
    puzzle = small.with_givens((1, 1, *small.givens[2:]))  # two 1s in row 1 (the reader refuses it)
    dimacs = read_dimacs(export_dimacs(puzzle, "simplified"))
    assert [] in dimacs.clauses
    assert pycosat.solve(dimacs.clauses, vars=dimacs.num_vars) == "UNSAT"


def test_minisat_result_file_is_read_too() -> None:
    puzzle = load("small_4x4.txt")[0]
    dimacs = read_dimacs(export_dimacs(puzzle, "efficient"))
    model = pycosat.solve(dimacs.clauses, vars=dimacs.num_vars)
    grid = decode_model("SAT\n" + " ".join(map(str, model)) + " 0\n", puzzle, "efficient")
    assert grid is not None and verify(puzzle, grid).ok
    assert decode_model("UNSAT\n", puzzle, "efficient") is None


@pytest.mark.parametrize("text, status", [("s SATISFIABLE\nv 1 -2 0", SATISFIABLE),
                                          ("s UNSATISFIABLE", UNSATISFIABLE),
                                          ("s UNKNOWN", UNKNOWN), ("INDET", UNKNOWN),
                                          ("1 -2 3 0", SATISFIABLE)])
def test_answer_status_is_read(text: str, status: str) -> None:
    assert read_answer(text).status == status


def test_an_unknown_answer_is_an_error_not_a_grid() -> None:
    with pytest.raises(DimacsError, match="UNKNOWN"):
        decode_model("s UNKNOWN\n", load("small_4x4.txt")[0], "efficient")


def test_a_model_that_leaves_a_cell_empty_is_an_error() -> None:
    puzzle = load("small_4x4.txt")[0]
    with pytest.raises(DimacsError, match="0 values"):
        decode_model("s SATISFIABLE\nv -1 0\n", puzzle, "efficient")


@pytest.mark.parametrize("text, message", [
    ("1 2 0\n", "line 1: clause before the 'p cnf' header"),
    ("p cnf 2\n1 0\n", "line 1: expected 'p cnf VARIABLES CLAUSES'"),
    ("p cnf 2 1\n1 x 0\n", "line 2: expected an integer, found 'x'"),
    ("p cnf 2 1\n1 3 0\n", "line 2: literal 3 outside 1..2"),
    ("p cnf 2 2\n1 -2 0\n", "promises 2 clauses, the file has 1"),
    ("p cnf 2 1\n1 -2\n", "not ended by 0"),
    ("c only a comment\n", "no 'p cnf VARIABLES CLAUSES' header"),
    ("p cnf 2 1\np cnf 2 1\n1 0\n", "line 2: a second 'p' header"),
])
def test_malformed_dimacs_is_refused_with_the_line(text: str, message: str) -> None:
    with pytest.raises(DimacsError, match=message.replace("(", r"\(").replace(".", r"\.")):
        read_dimacs(text)


def test_standard_dimacs_from_elsewhere_is_read() -> None:
    text = "c a comment\np cnf 3 2\n1 -3\n 0 2 3 -1 0\n%\n0\n"
    dimacs = read_dimacs(text)
    assert dimacs.clauses == [[1, -3], [2, 3, -1]] and dimacs.num_vars == 3


# ---------------------------------------------------------------- beyond the symbol alphabet

def pattern_solution(box_rows: int, box_cols: int) -> tuple[int, ...]:
    """A valid solved grid of any box shape (the classic shifted pattern)."""
    n = box_rows * box_cols
    return tuple((box_cols * (r % box_rows) + r // box_rows + c) % n + 1 for r in range(n) for c in range(n))


@pytest.mark.parametrize("box_rows, box_cols", [(6, 6), (5, 8), (7, 7)])
def test_export_and_decode_round_trip_beyond_35x35(box_rows: int, box_cols: int) -> None:
    # simplified keeps the files small; the full encodings of a 49x49 hold millions of clauses
    encoding = "simplified"
    from models import Geometry
    solution = pattern_solution(box_rows, box_cols)
    n = box_rows * box_cols
    open_cells = {c for c in range(n * n) if c % 7 == 3}
    puzzle = Puzzle(Geometry.of(box_rows, box_cols),
                    tuple(0 if c in open_cells else v for c, v in enumerate(solution)))
    assert verify(puzzle, solution).ok
    text = export_dimacs(puzzle, encoding)
    dimacs = read_dimacs(text)
    assert cnf_puzzle(dimacs) == (puzzle, encoding)
    cnf = encode(Model.from_puzzle(puzzle), encoding)
    assert dimacs.header == (cnf.num_vars, len(cnf.clauses))
    # the numbering is the alphabet-free c*n+v: the top variable names the last cell's value n
    assert Numbering(n).var(n * n - 1, n) == n ** 3 and Numbering(n).cell_value(n ** 3) == (n * n - 1, n)
    literals = [cnf.numbering.var(c, solution[c]) for c in sorted(open_cells)]
    answer = "s SATISFIABLE\nv " + " ".join(map(str, literals)) + " 0\n"
    assert decode_with_cnf(answer, text) == solution


def test_the_header_of_a_large_variant_keeps_its_diagonals_and_regions() -> None:
    from models import Geometry
    geometry = Geometry.of(6, 6)
    regions = tuple(b + 1 for c in range(36 * 36) for b, box in enumerate(geometry.boxes) if c in box)
    puzzle = Puzzle(geometry, (0,) * (36 * 36), diagonals=True, regions=regions)
    comments = tuple(line[2:].strip() for line in _puzzle_lines(puzzle))
    assert header_puzzle(Dimacs(0, [], comments)) == puzzle


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("name", ["4x4-a", "4x4-given"])
def test_a_killer_export_carries_its_cages_and_decodes_past_the_selectors(encoding: str, name: str) -> None:
    puzzle, solution = UNIQUE[name]
    text = export_dimacs(puzzle, encoding)
    dimacs = read_dimacs(text)
    named, _ = cnf_puzzle(dimacs)
    assert named.cages == puzzle.cages and named.givens == puzzle.givens
    model = pycosat.solve(dimacs.clauses, vars=dimacs.num_vars)
    assert decode_with_cnf(competition_output(model), text) == tuple(map(int, solution))


def test_a_large_grids_header_names_its_cages_one_comment_each() -> None:
    # beyond 35x35 the header holds integers, and one 'c cage:' line per cage
    dimacs = Dimacs(0, [], ("boxes: 2x2", "givens: " + " ".join("0" * 16), "cage: 7 r1c2 r1c3",
                            "cage: - r2c1 r3c3"))
    assert header_puzzle(dimacs).cages == (Cage((1, 2), 7), Cage((4, 10)))


@pytest.mark.parametrize("comment", ["cage: 7 r1c1 r9c1", "cage: seven r1c1", "cage: 7 x1", "cage:"])
def test_a_malformed_cage_comment_is_an_error_naming_it(comment: str) -> None:
    dimacs = Dimacs(0, [], ("boxes: 2x2", "givens: " + " ".join("0" * 16), comment))
    with pytest.raises(DimacsError, match="'c cage:"):
        header_puzzle(dimacs)
