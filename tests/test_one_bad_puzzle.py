"""One bad puzzle never costs the rest (issue 39, item 2): whatever reading one puzzle raises
(a 65x65 Latin square's geometry, a reader's own failure) is that puzzle's located error;
every command that reads puzzles goes on with the others, exits 2 at the end, and saves the
records of everything that ran."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from models import PuzzleError, UnreadablePuzzleError, read_text
from models import formats as formats_module
from solvers.harness import cli

from .conftest import PUZZLES, compare

GOOD_4X4 = (PUZZLES / "small_4x4.txt").read_text().splitlines()[-1]
TOO_LARGE = "variant=latin\n" + "\n".join(" ".join(["0"] * 65) for _ in range(65)) + "\n"
"""A 65x65 Latin square: one side past the largest grid the model holds (64)."""


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """A file whose first puzzle is too large for the model and whose second is a good 4x4."""
    path = tmp_path / "mixed.txt"
    path.write_text(TOO_LARGE + "\n" + GOOD_4X4 + "\n")
    return path


def test_a_65x65_latin_square_is_a_located_size_error_and_the_next_puzzle_is_read() -> None:
    batch = read_text(TOO_LARGE + "\n" + GOOD_4X4 + "\n", name="mixed.txt")
    (error,) = batch.errors
    assert error.kind == "invalid size" and error.line == 2 and error.index == 0
    assert "65x65" in str(error) and "64" in str(error)
    assert [p.source.index for p in batch.puzzles] == [1]


@pytest.mark.parametrize("raised", [RuntimeError("boom"), MemoryError(), RecursionError("deep"),
                                    IndexError("a bug of the reader")],
                         ids=["runtime", "memory", "recursion", "index"])
def test_any_exception_reading_one_puzzle_is_its_located_error(monkeypatch: pytest.MonkeyPatch,
                                                               raised: Exception) -> None:
    real = formats_module._parse_line

    def failing(text: str, *args: Any) -> Any:
        if text.startswith("1"):
            raise raised
        return real(text, *args)
    monkeypatch.setattr(formats_module, "_parse_line", failing)
    batch = read_text("1" + "." * 15 + "\n" + GOOD_4X4 + "\n", name="f.txt")
    (error,) = batch.errors
    assert isinstance(error, UnreadablePuzzleError) and isinstance(error, PuzzleError)
    assert error.line == 1 and type(raised).__name__ in str(error) and str(error).startswith("f.txt, line 1:")
    assert len(batch.puzzles) == 1


@pytest.mark.parametrize("args, shows", [
    (["solve", "{mixed}"], "solved by mrv"),
    (["export", "{mixed}", "--format", "line"], GOOD_4X4[:8]),
    (["rate", "{mixed}"], "1 puzzles rated"),
    (["study", "consistency", "{mixed}"], "settled"),
], ids=["solve", "export", "rate", "study"])
def test_a_batch_command_goes_on_past_a_65x65_puzzle_and_exits_2(
        mixed: Path, args: list[str], shows: str, capsys: pytest.CaptureFixture[str]) -> None:
    status = cli.main([a.format(mixed=mixed) for a in args])
    out, err = capsys.readouterr()
    assert status == 2
    assert shows in out
    assert "line 2: a 65x65 grid is larger than the model holds" in err


@pytest.mark.parametrize("command", ["explain", pytest.param("render", marks=pytest.mark.slow), "tree"])
def test_a_one_puzzle_command_reads_the_good_puzzle_after_a_65x65_one(
        mixed: Path, tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = ["-o", str(tmp_path / "picture.svg")] if command != "explain" else []
    assert cli.main([command, str(mixed), "--puzzle", "2", *out]) == 0
    assert cli.main([command, str(mixed), "--puzzle", "1", *out]) == 2
    assert "--puzzle 1: that puzzle" in capsys.readouterr().err


@pytest.mark.slow
def test_ladder_goes_on_past_a_65x65_puzzle(mixed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ladder", str(mixed), "--timeout", "5"]) == 2
    assert "65x65" in capsys.readouterr().err


@pytest.mark.slow
def test_run_saves_the_runs_of_the_good_puzzles_in_json_csv_and_the_database(mixed: Path,
                                                                                tmp_path: Path) -> None:
    saved, table, db = tmp_path / "r.json", tmp_path / "r.csv", tmp_path / "r.sqlite"
    done = compare("run", str(mixed), str(PUZZLES / "small_4x4.txt"), "--solvers", "mrv",
                   "--json", str(saved), "--csv", str(table))
    assert done.returncode == 2, done.stderr
    assert "skipped bad puzzle" in done.stderr and "65x65" in done.stderr
    runs = json.loads(saved.read_text())["runs"]
    assert len(runs) == 5  # the good one of the mixed file and the four of small_4x4.txt
    assert len(table.read_text().splitlines()) == 1 + 5
    done = compare("run", str(mixed), "--solvers", "mrv", "--db", str(db))
    assert done.returncode == 2, done.stderr
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM runs").fetchone() == (1,)


@pytest.mark.parametrize("raised, status, says", [(RuntimeError("a bug"), 3, "internal error: RuntimeError: a bug"),
                                                  (MemoryError(), 2, "error: out of memory")],
                         ids=["bug", "memory"])
def test_a_judging_failure_keeps_every_other_finished_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                          raised: Exception, status: int, says: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from solvers.harness.results import experiment
    real, calls = experiment.assess, []

    def failing_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:  # the second puzzle's judging fails
            raise raised
        return real(*args, **kwargs)
    monkeypatch.setattr(experiment, "assess", failing_once)
    saved = tmp_path / "r.json"
    assert cli.main(["run", str(PUZZLES / "small_4x4.txt"), "--solvers", "mrv", "--jobs", "1",
                     "--json", str(saved)]) == status
    assert says in capsys.readouterr().err
    document = json.loads(saved.read_text())
    assert document["partial"] is True
    assert len(document["runs"]) == 3  # the four puzzles' runs but the one whose judging failed
