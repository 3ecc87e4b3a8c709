"""``export --format minizinc`` and ``--format asp`` write models their users run themselves:
the real ``minizinc`` program prints a solution line that the toolkit reads and the
independent checker accepts, and clingo's answer sets name each cell's value and count the
solutions. Skipped, saying which, where the program or package is missing."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from models import Geometry, Model, Puzzle, Source, parse_puzzle, verify
from solvers.encodings.asp import program_text
from solvers.encodings.minizinc import model_text

from .conftest import compare, compare_here, load
from .grids import pattern
from .killers import UNIQUE

pytestmark = pytest.mark.backends("minizinc", "asp")  # pytest --backend NAME leaves the module out for others


def minizinc_program() -> str:
    path = shutil.which("minizinc")
    if path is None:
        pytest.skip("the minizinc program is not on PATH (apt-get install minizinc)")
    return path


def clingo_module() -> None:
    pytest.importorskip("clingo", reason="clingo is not installed (pip install clingo, or the cp extra)")


def run_minizinc(path: Path) -> str:
    """What ``minizinc --solver gecode FILE`` prints on stdout, as a user runs it."""
    done = subprocess.run([minizinc_program(), "--solver", "gecode", str(path)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def printed_grid(puzzle: Puzzle, output: str) -> tuple[int, ...]:
    """The solution MiniZinc printed (before its '----------' line), read as the toolkit reads a puzzle."""
    solution = output.split("----------")[0].strip()
    return parse_puzzle(solution).givens


def run_clingo(path: Path, *args: str) -> str:
    """clingo on a program, as its pip package runs it (python -m clingo)."""
    done = subprocess.run([sys.executable, "-m", "clingo", str(path), *args], capture_output=True,
                          text=True, timeout=120)
    assert re.search(r"^(UN)?SATISFIABLE$", done.stdout, re.MULTILINE), done.stdout + done.stderr
    return done.stdout


def answer_sets(puzzle: Puzzle, output: str) -> list[tuple[int, ...]]:
    """Each answer set's value(R,C,V) atoms as a grid."""
    grids = []
    for line in output.split("Answer:")[1:]:
        grid = [0] * puzzle.geometry.cells
        for row, column, value in re.findall(r"value\((\d+),(\d+),(\d+)\)", line.splitlines()[1]):
            grid[(int(row) - 1) * puzzle.n + int(column) - 1] = int(value)
        grids.append(tuple(grid))
    return grids


def test_the_exported_minizinc_model_prints_a_line_the_checker_accepts(tmp_path: Path) -> None:
    minizinc_program()
    path = tmp_path / "p.mzn"
    done = compare("export", "puzzles/hardest.txt", "--puzzle", "2", "--format", "minizinc", "-o", str(path))
    assert done.returncode == 0, done.stderr
    puzzle = load("hardest.txt")[1]
    assert verify(puzzle, printed_grid(puzzle, run_minizinc(path))).ok


def _near_full(n: int) -> Puzzle:
    """A grid of any size with its first row left empty: the line format ends at 35x35."""
    full = pattern(Geometry.for_size(n))
    return Puzzle(Geometry.for_size(n), (0,) * n + full[n:])


@pytest.mark.parametrize("puzzle, propagation", [
    pytest.param(load("16x16_forum_samples.txt")[1], "domain", id="16x16"),
    pytest.param(UNIQUE["9x9-a"][0], "domain", id="killer"),
    pytest.param(UNIQUE["9x9-a"][0], "pairwise", id="killer-pairwise"),
    pytest.param(load("jigsaw.txt")[0], "domain", id="jigsaw"),
    pytest.param(load("x_sudoku.txt")[0], "pairwise", id="x-sudoku-pairwise"),
    pytest.param(_near_full(36), "domain", id="36x36-grid-format"),
])
def test_every_kind_of_puzzle_exported_to_minizinc_solves_to_a_checked_grid(
        tmp_path: Path, puzzle: Puzzle, propagation: str) -> None:
    minizinc_program()
    path = tmp_path / "p.mzn"
    path.write_text(model_text(Model.from_puzzle(puzzle), propagation, title=str(puzzle.source)))
    assert verify(puzzle, printed_grid(puzzle, run_minizinc(path))).ok


def test_a_file_name_cannot_put_code_into_the_model(tmp_path: Path) -> None:
    minizinc_program()
    puzzle = replace(load("hardest.txt")[1], source=Source("evil\nconstraint false;\n% ", 1))
    path = tmp_path / "p.mzn"
    path.write_text(model_text(Model.from_puzzle(puzzle), title=str(puzzle.source)))
    assert verify(puzzle, printed_grid(puzzle, run_minizinc(path))).ok


def test_the_exported_asp_program_names_each_cells_value_and_the_checker_accepts_it(tmp_path: Path) -> None:
    clingo_module()
    path = tmp_path / "p.lp"
    done = compare("export", "puzzles/hardest.txt", "--puzzle", "2", "--format", "asp", "--encoding",
                   "extended", "-o", str(path))
    assert done.returncode == 0, done.stderr
    puzzle = load("hardest.txt")[1]
    (grid,) = answer_sets(puzzle, run_clingo(path))
    assert verify(puzzle, grid).ok


@pytest.mark.parametrize("puzzle, count", [
    pytest.param(load("special_9x9_multiple_solutions.txt")[3], 2, id="two-solutions"),
    pytest.param(UNIQUE["9x9-b"][0], 1, id="killer"),
    pytest.param(load("small_unsat.txt")[0], 0, id="unsat"),
])
@pytest.mark.parametrize("encoding", ["basic", "extended"])
def test_clingo_lists_every_answer_set_of_an_exported_program(tmp_path: Path, puzzle: Puzzle, count: int,
                                                                encoding: str) -> None:
    clingo_module()
    path = tmp_path / "p.lp"
    path.write_text(program_text(Model.from_puzzle(puzzle), encoding))
    grids = answer_sets(puzzle, run_clingo(path, "0"))
    assert len(set(grids)) == len(grids) == count
    assert all(verify(puzzle, grid).ok for grid in grids)


@pytest.mark.parametrize("argv, words", [
    (["--format", "minizinc", "--encoding", "extended"], "the minizinc backend has no encoding option"),
    (["--format", "minizinc", "--solver", "minizinc:propagation=strong"], "option 'propagation' cannot be 'strong'"),
    (["--format", "asp", "--solver", "sat:encoding=minimal"], "--format asp writes the asp backend's model"),
    (["--format", "asp", "--encoding", "shortest"], "option 'encoding' cannot be 'shortest'"),
])
def test_export_refuses_options_that_do_not_shape_that_model(argv: list[str], words: str) -> None:
    done = compare_here("export", "puzzles/hardest.txt", *argv)
    assert done.returncode == 2 and words in done.stderr, done.stderr


@pytest.mark.parametrize("backend_name, out_format, options", [
    ("minizinc", "minizinc", {"propagation": "bounds", "search": "first_fail"}),
    ("asp", "asp", {"encoding": "extended"}),
])
def test_export_writes_the_very_model_the_backend_solves(monkeypatch: pytest.MonkeyPatch, backend_name: str,
                                                         out_format: str, options: dict[str, str]) -> None:
    from solvers import registry
    from solvers.backends import asp, minizinc
    from solvers.harness.commands.export import export_model
    backend = registry.get(backend_name)
    if backend.unavailable():
        pytest.skip(f"{backend_name}: {backend.unavailable()}")
    module, name = (minizinc, "model_text") if backend_name == "minizinc" else (asp, "program_text")
    solved: list[str] = []
    writer = getattr(module, name)
    monkeypatch.setattr(module, name, lambda *args, **kwargs: solved.append(writer(*args, **kwargs)) or solved[-1])
    puzzle = load("hardest.txt")[1]
    assert backend.solve(puzzle, time_limit=30, **options).solution is not None
    exported = export_model(puzzle, out_format, backend.check_options(options))
    title = f"% {puzzle.source}\n"
    assert title in exported and exported.replace(title, "", 1) == solved[0]
