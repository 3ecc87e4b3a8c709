"""``compare.py export --format``: puzzles converted to f-puzzles JSON or links, line or grid,
read back unchanged; options that only a CNF takes are refused."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from models import Cage, Geometry, Puzzle, read_puzzles, to_line

from .conftest import cli, compare_here, puzzle_file

PUZZLES = [
    Puzzle(Geometry.for_size(4), (0,) * 15 + (2,), cages=(Cage((0, 1), 3), Cage((2, 3, 7), 9))),
    Puzzle(Geometry.latin_square(5), (1,) + (0,) * 24, rules=("antiknight",)),
]


def export(*argv: str) -> subprocess.CompletedProcess:
    return compare_here("export", *argv)


@pytest.fixture
def source(tmp_path: Path) -> Path:
    return Path(puzzle_file(tmp_path, *map(to_line, PUZZLES)))


@pytest.mark.parametrize("out_format, suffix", [("fpuzzles", "json"), ("fpuzzles-link", "txt"),
                                                ("line", "txt"), ("grid", "txt")])
def test_export_converts_every_puzzle_and_they_read_back(source: Path, tmp_path: Path,
                                                         out_format: str, suffix: str) -> None:
    out = tmp_path / f"out.{suffix}"
    done = export(str(source), "--format", out_format, "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert read_puzzles(out).puzzles == PUZZLES


def test_export_of_one_puzzle_by_its_number(source: Path) -> None:
    done = export(str(source), "--format", "fpuzzles", "--puzzle", "2")
    assert done.returncode == 0 and done.stdout.count("\n") == 1 and '"antiknight":true' in done.stdout


@pytest.mark.parametrize("argv, words", [
    (["--format", "fpuzzles", "--encoding", "minimal"], "--format fpuzzles writes puzzles, not a model"),
    (["--format", "json"], "invalid choice: 'json'"),
    (["--format", "line", "--puzzle", "3"], "--puzzle 3: there is no puzzle 3"),
])
def test_export_refuses_what_does_not_fit(source: Path, argv: list[str], words: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    # an argument check: the real parser in this process (a compare.py launch adds nothing here)
    status, _, err = cli(capsys, "export", str(source), *argv)
    assert status == 2 and words in err, err
