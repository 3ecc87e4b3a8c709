"""One numbering on the command line: every option that picks a puzzle (--puzzle K of
explain, render and export) counts from 1, bad puzzles included, so puzzle K is the one
saved with index K-1; 0, a negative number or one past the file's count is exit 2 naming
the option, the value and the count; export's old 0-based --index is refused, saying so."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import cli, compare, compare_here

LINES = ["1234" + "." * 12,            # puzzle 1
         "12",                         # puzzle 2: bad (two cells), still counted
         "." * 12 + "4321"]            # puzzle 3


@pytest.fixture
def small(tmp_path: Path) -> Path:
    """A file of three puzzles, the second one bad, with a comment line before them."""
    path = tmp_path / "small.txt"
    path.write_text("# three puzzles, the second bad\n" + "\n".join(LINES) + "\n")
    return path


def picked(command: str, path: Path, tmp_path: Path, *args: str) -> list[str]:
    """The command line that picks a puzzle of ``path`` with ``args``."""
    tail = {"explain": ["--max-steps", "1"], "render": ["-o", str(tmp_path / "p.svg")],
            "export": ["--format", "line"]}[command]
    return [command, str(path), *args, *tail]


@pytest.mark.parametrize("command", ["explain", "render", "export"])
def test_puzzle_counts_from_one_with_bad_puzzles_counted(command: str, small: Path, tmp_path: Path) -> None:
    done = compare_here(*picked(command, small, tmp_path, "--puzzle", "3"))
    assert done.returncode == 0, done.stderr
    if command == "export":
        assert done.stdout == LINES[2] + "\n"
    elif command == "explain":
        assert "line 4:" in done.stdout.splitlines()[0]  # puzzle 3 is on line 4, after the comment
    else:
        assert "line 4" in (tmp_path / "p.svg").read_text()


SLOW = pytest.mark.slow


@pytest.mark.parametrize("command, value, why", [
    ("explain", "0", "puzzles are counted from 1"),
    pytest.param("explain", "4", "there is no puzzle 4", marks=SLOW),
    pytest.param("render", "0", "puzzles are counted from 1", marks=SLOW),
    ("render", "4", "there is no puzzle 4"),
    ("export", "0", "puzzles are counted from 1"),
    ("export", "4", "there is no puzzle 4"),
    pytest.param("export", "-2", "puzzles are counted from 1", marks=SLOW)])
def test_puzzle_out_of_range_is_exit_2_naming_option_value_and_count(
        command: str, value: str, why: str, small: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an argument check: the real parser in this process (a compare.py launch adds nothing here)
    status, out, err = cli(capsys, *picked(command, small, tmp_path, "--puzzle", value))
    assert status == 2, err
    assert f"--puzzle {value}: {why}; {small} has 3 puzzles, numbered 1 to 3" in err
    assert out == ""


@pytest.mark.parametrize("value, now", [("0", "--puzzle 1"), ("2", "--puzzle 3")])
def test_export_old_zero_based_index_is_refused_saying_what_to_write(
        value: str, now: str, small: Path, tmp_path: Path) -> None:
    done = compare_here(*picked("export", small, tmp_path, "--index", value))
    assert done.returncode == 2 and done.stdout == ""
    assert f"--index {value}: this option counted puzzles from 0 and is gone" in done.stderr
    assert done.stderr.rstrip().endswith(f"write {now}")


def test_picking_a_bad_puzzle_is_exit_2_with_its_error(small: Path, tmp_path: Path) -> None:
    done = compare_here(*picked("export", small, tmp_path, "--puzzle", "2"))
    assert done.returncode == 2
    assert f"--puzzle 2: that puzzle of {small} is bad" in done.stderr and "line 3" in done.stderr


@SLOW
def test_puzzle_that_is_not_a_number_is_refused(small: Path, tmp_path: Path) -> None:
    done = compare_here(*picked("explain", small, tmp_path, "--puzzle", "two"))
    assert done.returncode == 2 and "argument --puzzle: must be a whole number" in done.stderr


def test_solve_names_each_puzzle_by_the_same_number(small: Path) -> None:
    done = compare("solve", str(small), "--solver", "mrv", "--format", "line")
    assert done.returncode == 2  # the bad puzzle is reported and skipped
    heads = [line for line in done.stdout.splitlines() if " puzzle " in line]
    assert heads[0].startswith(f"# {small} puzzle 1 (line 2): 4x4")
    assert heads[1].startswith(f"# {small} puzzle 3 (line 4): 4x4")
    assert "line 3" in done.stderr  # the bad one, puzzle 2
