"""Exit statuses: 0 nothing wrong, 1 a run wrong, 2 bad usage or input, 3 an internal error
(one line; the traceback with --debug). A wrong run is never hidden by a later I/O problem."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from solvers.harness import cli
from solvers.harness.commands import list as command_list

from .conftest import ROOT, compare, compare_here
from .conftest import cli as in_process

PLANTED = ROOT / "tests" / "plugins" / "planted.py"
SMALL = str(ROOT / "puzzles" / "small_4x4.txt")



@pytest.mark.parametrize("value", ["inf", "nan", "-inf", "0", "ten"])
def test_a_timeout_that_is_no_finite_positive_number_is_bad_usage(value: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # an argument check: the real parser in this process (a compare.py launch adds nothing here)
    status, _, err = in_process(capsys, "run", SMALL, "--solvers", "mrv", "--timeout", value)
    assert status == 2
    assert "--timeout" in err and "Traceback" not in err


def test_generate_refuses_a_size_its_line_format_cannot_write() -> None:
    done = compare_here("generate", "--size", "36")
    assert done.returncode == 2
    assert "up to 35x35" in done.stderr


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict:
    path = tmp_path_factory.mktemp("saved") / "run.json"
    done = compare("run", SMALL, "--solvers", "mrv", "--json", str(path))
    assert done.returncode == 0, done.stderr
    return json.loads(path.read_text())


def test_report_reads_null_stats_as_none(saved: dict, tmp_path: Path) -> None:
    saved = copy.deepcopy(saved)
    for run in saved["runs"]:
        run["stats"] = None
    path = tmp_path / "null-stats.json"
    path.write_text(json.dumps(saved))
    done = compare_here("report", str(path))
    assert done.returncode == 0, done.stderr
    assert "small_4x4.txt" in done.stdout


@pytest.mark.parametrize("field", ["time_s", "category", "solutions", "index"])
def test_report_refuses_a_run_with_a_field_of_the_wrong_type(saved: dict, tmp_path: Path,
                                                             field: str) -> None:
    saved = copy.deepcopy(saved)
    saved["runs"][1][field] = None
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(saved))
    done = compare_here("report", str(path))
    assert done.returncode == 2
    assert f"run 1: {field} is null" in done.stderr


def test_an_internal_error_is_one_line_and_exit_3(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    def broken(_args: object) -> int:
        raise KeyError("planted bug")

    monkeypatch.setattr(command_list, "run", broken)
    assert cli.main(["list"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: KeyError" in err and "--debug" in err
    assert cli.main(["list", "--debug"]) == 3
    assert "Traceback" in capsys.readouterr().err


@pytest.mark.slow
def test_a_wrong_run_is_not_hidden_by_a_closed_stdout() -> None:
    process = subprocess.Popen([sys.executable, str(ROOT / "compare.py"), "run", SMALL,
                                "--solvers", "mrv,false_unsat", "--plugin", f"{PLANTED}:false_unsat"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    process.stdout.close()  # the reader went away before the table was printed
    assert process.wait(timeout=120) == 1


def test_an_output_onto_an_input_is_refused_before_the_run(tmp_path: Path) -> None:
    puzzles = tmp_path / "p.txt"
    text = Path(SMALL).read_text()
    puzzles.write_text(text)
    done = compare_here("run", str(puzzles), "--solvers", "mrv", "--json", str(puzzles))
    assert done.returncode == 2 and "one of the inputs" in done.stderr
    assert puzzles.read_text() == text
