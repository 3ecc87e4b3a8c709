"""Every value bounded where it enters (issue 39, items 3 and 6): the command line, a
configuration's options, a saved JSON document read by report and plot (nesting, number
size, shape: the same definition the database's rows are checked against), saved text shown
on a terminal (escaped), CSV cells (never a formula), and the grids kept of one answer."""
from __future__ import annotations

import copy
import json
import sqlite3
import warnings
from pathlib import Path
from typing import Any

import pytest

from solvers import jsonbounds
from solvers.harness import cli
from solvers.harness.engine.answers import MAX_KEPT_CELLS, check_answer
from solvers.harness.engine.terminal import escaped_warnings
from solvers.harness.results import csv_cells, records, saved

from .conftest import PUZZLES, compare, compare_here

HUGE = "99999999999999999999999"
SMALL = str(PUZZLES / "small_4x4.txt")


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real saved run of two configurations on small_4x4.txt."""
    path = tmp_path_factory.mktemp("saved") / "run.json"
    assert cli.main(["run", SMALL, "--solvers", "mrv,dlx", "--json", str(path)]) == 0
    return json.loads(path.read_text())


# ---------------------------------------------------------------- the command line

@pytest.mark.parametrize("args, option", [
    (["run", SMALL, "--max-solutions", HUGE], "--max-solutions"),
    (["run", SMALL, "--jobs", HUGE], "--jobs"),
    (["run", SMALL, "--jobs", "5000"], "--jobs"),
    (["run", SMALL, "--seed", HUGE], "--seed"),
    (["run", SMALL, "--repeat", HUGE], "--repeat"),
    (["run", SMALL, "--par", "1e7"], "--par"),
    (["run", SMALL, "--chunk-size", HUGE], "--chunk-size"),
    (["report", "x.json", "--par", "1e300"], "--par"),
    (["rate", SMALL, "--seed", "-" + HUGE], "--seed"),
    (["generate", "--count", HUGE], "--count"),
    (["explain", SMALL, "--max-steps", HUGE], "--max-steps"),
], ids=lambda v: v if isinstance(v, str) else "-".join(v[:1] + v[2:3]))
def test_a_number_past_its_bound_is_a_usage_error_naming_the_option(
        args: list[str], option: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(args)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}" in err and "at most" in err


@pytest.mark.parametrize("configuration, says", [
    ("mrv:seed=" + HUGE, "option 'seed'"),
    ("cpsat:parameters={\"a\":" + "[" * 40 + "]" * 40 + "}", "option 'parameters'"),
    ("cpsat:parameters={\"a\":" + "[" * 5000 + "]" * 5000 + "}", "option 'parameters'"),
    ("cpsat:parameters={\"max_time_in_seconds\":1e400}", "option 'parameters'"),
    ("cpsat:parameters={\"a\":" + "9" * 5000 + "}", "option 'parameters'"),
], ids=["seed", "nested-40", "nested-5000", "infinite", "5000-digits"])
def test_an_option_value_past_its_bound_is_exit_2(configuration: str, says: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run", SMALL, "--solvers", configuration]) == 2
    assert says in capsys.readouterr().err


@pytest.mark.slow
def test_the_largest_max_solutions_is_stored_in_the_database_and_one_more_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "sweep.sqlite"
    refused = compare_here("run", SMALL, "--solvers", "mrv", "--max-solutions", HUGE, "--db", str(db))
    assert refused.returncode == 2 and "argument --max-solutions" in refused.stderr
    assert not db.exists()
    done = compare("run", SMALL, "--solvers", "mrv", "--max-solutions", str(2 ** 63 - 1), "--db", str(db))
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT DISTINCT max_solutions FROM runs").fetchall() == [(2 ** 63 - 1,)]


# ---------------------------------------------------------------- saved JSON documents

def _hostile(document: dict[str, Any], change: str) -> str:
    """The text of a damaged copy of a saved document."""
    doc = copy.deepcopy(document)
    text = None
    if change == "deep":
        text = '{"kind": "sudoku-methods-run", "runs": ' + "[" * 100_000 + "]" * 100_000 + "}"
    elif change == "5000-digits":
        text = json.dumps(doc).replace('"repeat": 0', '"repeat": ' + "9" * 5000, 1)
    elif change == "stat-1e400":
        text = json.dumps(doc).replace('"wall_time": ', '"wall_time": 1e400, "x": ', 1)
    elif change == "nan":
        text = json.dumps(doc).replace('"time_s": ', '"time_s": NaN, "y": ', 1)
    elif change == "no-runs":
        del doc["runs"]
    elif change == "options-not-object":
        doc["options"] = 5
    elif change == "limit-text":
        doc["limit_s"] = "abc"
    elif change == "calibration-list":
        doc["calibration"] = [1]
    elif change == "disagreement-without-file":
        doc["disagreements"] = [{"index": 0}]
    elif change == "size-without-n":
        del doc["runs"][0]["n"]
        doc["runs"][0]["size"] = "axb"
    elif change == "size-not-a-size":
        doc["runs"][0]["size"] = "axb"
    elif change == "huge-count":
        doc["runs"][0]["stats"]["nodes"] = 10 ** 30
    elif change == "a-run-twice":  # it would be counted twice
        doc["runs"].append(doc["runs"][0])
    elif change == "one-name-two-backends":  # dlx's runs would be summed as mrv's
        for run in doc["runs"]:
            run["configuration"] = run["solver"] = "mrv"
            run["repeat"] = int(run["backend"] == "dlx")
    return text if text is not None else json.dumps(doc)


HOSTILE = ["deep", "5000-digits", "stat-1e400", "nan", "no-runs", "options-not-object", "limit-text",
           "calibration-list", "disagreement-without-file", "size-without-n", "size-not-a-size", "huge-count",
           "a-run-twice", "one-name-two-backends"]


@pytest.mark.parametrize("command", [["report"], ["report", "--scores"], ["report", "--pair", "mrv,dlx"],
                                     ["plot", "cactus"]], ids=lambda c: "-".join(c))
@pytest.mark.parametrize("change", HOSTILE)
def test_a_damaged_or_hostile_saved_run_is_exit_2_naming_the_file(
        document: dict[str, Any], tmp_path: Path, change: str, command: list[str],
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(_hostile(document, change))
    out = ["-o", str(tmp_path / "p.png")] if command[0] == "plot" else []
    assert cli.main([*command, str(path), *out]) == 2
    assert f"{path}:" in capsys.readouterr().err


def test_what_the_toolkit_saves_reads_back_even_with_a_nan(document: dict[str, Any], tmp_path: Path) -> None:
    doc = copy.deepcopy(document)
    doc["summary"][0]["mean_s"] = float("nan")
    path = tmp_path / "nan.json"
    path.write_text(saved.document_text(doc))
    assert saved.read_json(path)["summary"][0]["mean_s"] is None
    assert cli.main(["report", str(path)]) == 0


def test_bounded_json_refuses_each_kind_of_excess() -> None:
    for text in ("[" * 65 + "]" * 65, "[" + "9" * 21 + "]", "[1e400]", "[NaN]", "[-Infinity]", "9" * 5000):
        with pytest.raises(jsonbounds.JsonBoundsError):
            jsonbounds.loads(text)
    assert jsonbounds.loads("[" * 64 + "]" * 64) is not None and jsonbounds.loads('["NaN"]') == ["NaN"]


# ---------------------------------------------------------------- text shown, CSV written

ESCAPES = "evil\x1b]0;owned\x07\x1b[2J\u202etxt"


def test_runs_of_one_configuration_under_several_seeds_are_one_configuration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "seeds.json"
    assert cli.main(["run", SMALL, "--solvers", "mrv", "--seeds", "2", "--json", str(path)]) == 0
    capsys.readouterr()
    assert cli.main(["report", str(path), "--format", "json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["summary"]
    assert row["runs"] == 8


def test_report_escapes_terminal_controls_in_saved_text(document: dict[str, Any], tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    doc = copy.deepcopy(document)
    for run in doc["runs"]:
        run["file"] = ESCAPES
        run["configuration"] = run["solver"] = run["solver"] + "\x1b[31m"
    path = tmp_path / "escapes.json"
    path.write_text(json.dumps(doc))
    for args in (["report", str(path)], ["report", str(path), "--per-puzzle"],
                 ["report", str(path), "--scores"], ["report", str(path), "--format", "csv"]):
        assert cli.main(args) == 0
        out = capsys.readouterr().out
        assert not any(c in out for c in "\x1b\x07\u202e"), args
        assert "\\x1b" in out


def test_a_warning_quoting_a_label_is_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    with escaped_warnings():
        warnings.warn("Glyph \x1b missing", UserWarning, stacklevel=1)
    err = capsys.readouterr().err
    assert "\\x1b" in err and "\x1b" not in err


@pytest.mark.parametrize("value, cell", [("=1+1", "'=1+1"), ("+cmd", "'+cmd"), ("-2+3", "'-2+3"),
                                         ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "'\rx"),
                                         ("-3", "-3"), ("+1.5e3", "+1.5e3"), ("mrv", "mrv"), (-4.5, -4.5),
                                         (7, 7)])
def test_a_csv_cell_that_a_spreadsheet_would_run_is_neutralised(value: Any, cell: Any) -> None:
    assert csv_cells.cell(value) == cell


def test_the_per_run_csv_neutralises_file_and_configuration_and_keeps_numbers(document: dict[str, Any]) -> None:
    runs = copy.deepcopy(document["runs"])
    runs[0]["file"], runs[0]["configuration"] = "=HYPERLINK(\"x\")", "@evil"
    runs[0]["time_s"] = 0.25
    header, first, *_ = records.csv_text(runs).splitlines()
    cells = dict(zip(header.split(","), first.split(",")))
    assert cells["file"].startswith("\"'=HYPERLINK") and cells["configuration"] == "'@evil"
    assert cells["time_s"] == "0.25"


@pytest.mark.slow
def test_run_csv_of_a_file_named_like_a_formula_is_neutralised(tmp_path: Path) -> None:
    (tmp_path / "=1+1.txt").write_text((PUZZLES / "small_4x4.txt").read_text())
    done = compare("run", "=1+1.txt", "--solvers", "mrv", "--csv", "runs.csv", "--format", "csv",
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert all(line.startswith("'=1+1.txt,") for line in (tmp_path / "runs.csv").read_text().splitlines()[1:])
    assert "'=1+1.txt" in done.stdout


# ---------------------------------------------------------------- the grids kept of one answer

def test_an_answer_of_more_grids_than_kept_keeps_the_first_and_drops_its_claim() -> None:
    grid = list(range(1, 10)) * 9
    room = MAX_KEPT_CELLS // 81
    answer = {"status": "solved", "solutions": [grid] * (room + 5), "complete": True, "message": "hi"}
    outcome = check_answer(answer, max_solutions=room + 5, cells=81)
    assert len(outcome.solutions) == room and not outcome.complete
    assert f"returned {room + 5:,} grids: the first {room:,} are kept" in outcome.message
    assert "claim that they are all is not judged" in outcome.message and outcome.message.endswith("hi")
    fits = check_answer({**answer, "solutions": [grid] * room}, max_solutions=room, cells=81)
    assert len(fits.solutions) == room and fits.complete and fits.message == "hi"
