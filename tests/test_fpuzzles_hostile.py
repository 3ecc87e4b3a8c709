"""The f-puzzles and variant-field readers, and the limit options, against hostile values:
numbers too long for Python to convert, digits that are not 0-9, empty inputs, limits too
large for the kernel. Each is a located error (exit 2) with the rest of the batch read,
never an internal error (exit 3) nor a run that fails for it."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from models import DocumentError, PuzzleError, read_puzzles
from models.fpuzzles import iter_documents
from solvers.harness.commands.common import megabytes, seconds

from .conftest import ROOT, compare, compare_here

PUZZLES = ROOT / "puzzles"

EMPTY_ROWS = [[{} for _ in range(4)] for _ in range(4)]
GOOD = json.dumps({"size": 4, "grid": EMPTY_ROWS, "cage": [{"cells": ["R1C1", "R1C2"], "value": 3}]})


def cage_doc(value: object, cells: tuple[str, ...] = ("R1C1", "R1C2")) -> str:
    return json.dumps({"size": 4, "grid": EMPTY_ROWS, "cage": [{"cells": list(cells), "value": value}]})


@pytest.mark.parametrize("value", ["²", "١٢", "1" * 5000, "3.0", "+3"])
def test_fpuzzles_cage_total_text_that_is_no_ascii_number_is_a_located_error(value: str) -> None:
    first, second = iter_documents(cage_doc(value) + "\n" + GOOD + "\n", "t.json")
    assert isinstance(first, DocumentError) and "cage[0].value" in str(first) and first.line == 1
    assert not isinstance(second, PuzzleError) and second.cages[0].total == 3


def test_fpuzzles_huge_cage_total_as_text_is_read_whole_and_kept() -> None:
    (puzzle,) = iter_documents(cage_doc(str(10 ** 100)), "t.json")
    assert not isinstance(puzzle, PuzzleError) and puzzle.cages[0].total == 10 ** 100


def test_fpuzzles_number_too_long_to_convert_is_a_located_error_and_reading_goes_on() -> None:
    text = '{"size": ' + "9" * 5000 + "}\n" + GOOD + "\n"
    first, second = iter_documents(text, "t.json")
    assert isinstance(first, DocumentError) and first.line == 1 and "digits" in str(first)
    assert not isinstance(second, PuzzleError) and second.n == 4


@pytest.mark.parametrize("key", ["killercage", "cage", "extraregion"])
def test_an_empty_cell_list_says_it_is_empty_not_that_a_list_is_no_list(key: str) -> None:
    doc = json.dumps({"size": 4, "grid": EMPTY_ROWS, key: [{"cells": []}]})
    (error,) = iter_documents(doc, "t.json")
    assert isinstance(error, DocumentError)
    assert f"{key}[0].cells: expected a list of cell names such as 'R1C1', found an empty list" in str(error)


@pytest.mark.parametrize("name", ["R١C1", "R1C²", "r١c١"])
def test_cell_name_with_digits_other_than_0_to_9_is_a_located_error(name: str) -> None:
    (error,) = iter_documents(cage_doc(3, (name, "R1C2")), "t.json")
    assert isinstance(error, DocumentError) and "cage[0].cells[0]" in str(error)


@pytest.mark.parametrize("total", ["²", "1" * 5000, "٣"])
def test_line_format_cage_total_that_is_no_ascii_number_is_a_located_error(tmp_path: Path, total: str) -> None:
    path = tmp_path / "cages.txt"
    path.write_text(f"{'.' * 16} cage={total}:R1C1,R1C2\n{'.' * 16} cage=3:R1C1,R1C2\n", encoding="utf-8")
    batch = read_puzzles(path)
    assert [e.line for e in batch.errors] == [1] and "cage=" in str(batch.errors[0])
    assert [p.cages[0].total for p in batch.puzzles] == [3]


@pytest.mark.slow  # refused as the file is read: the real parser in this process, no compare.py started
@pytest.mark.parametrize("text", ['{"size": ' + "9" * 5000 + "}\n", cage_doc("²") + "\n",
                                  f"{'.' * 16} cage={'7' * 5000}:R1C1,R1C2\n"])
def test_cli_solve_on_unconvertible_numbers_exits_2_with_the_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / ("bad.json" if text.startswith("{") else "bad.txt")
    path.write_text(text, encoding="utf-8")
    result = compare_here("solve", str(path), "--solver", "backtrack")
    assert result.returncode == 2, result.stderr
    assert f"{path}, line 1:" in result.stderr and "internal error" not in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("text", ["", "[]\n"])
def test_cli_solve_on_an_input_with_no_puzzles_says_so_and_exits_2(tmp_path: Path, text: str) -> None:
    path = tmp_path / "nothing.json"
    path.write_text(text, encoding="utf-8")
    result = compare_here("solve", str(path), "--solver", "backtrack")
    assert result.returncode == 2
    assert f"no puzzles in {path}" in result.stderr


@pytest.mark.parametrize(("option", "value"), [("--cpu-limit", "1e308"), ("--memory-limit", "1e308"),
                                               ("--timeout", "1e308")])
def test_a_limit_too_large_for_the_kernel_is_a_usage_error(option: str, value: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="at most"):
        (megabytes if option == "--memory-limit" else seconds)(value)


@pytest.mark.slow  # starts compare.py
@pytest.mark.parametrize(("option", "value", "status"), [("--cpu-limit", "1e308", 2), ("--memory-limit", "1e308", 2),
                                                         ("--cpu-limit", "5", 0)])
def test_cli_solve_with_a_huge_limit_exits_2_before_any_run(option: str, value: str, status: int) -> None:
    result = compare("solve", str(PUZZLES / "small_4x4.txt"), "--solver", "mrv", option, value, timeout=60)
    assert result.returncode == status, result.stderr
    assert ("at most" in result.stderr) == (status == 2) and "error: OverflowError" not in result.stdout
