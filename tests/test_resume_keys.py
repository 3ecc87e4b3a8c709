"""--resume never mixes unlike runs (issue 39, item 4): a run is keyed by everything that
changes its meaning, a resume whose limits, --unique, configurations, plugin file or input
changed is refused with a clear message (exit 2) before anything runs, a changed puzzle on
standard input stops the sweep where it is met, and two writers at once report counts that
add up to the rows."""
from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from models import read_text
from solvers.harness import cli
from solvers.harness.results.database import task_key
from solvers.harness.tasks import Configuration, Task

from .conftest import PUZZLES, ROOT, compare

TWO = "".join((PUZZLES / "small_4x4.txt").read_text().splitlines(keepends=True)[-2:])
PLUGIN = (ROOT / "tests" / "plugins" / "reference.py").read_text()


def rows(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        return int(connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0])


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding two 4x4 puzzles, a plugin, and a database of one sweep of mrv and the plugin."""
    folder = tmp_path_factory.mktemp("resume")
    (folder / "two.txt").write_text(TWO)
    (folder / "ref.py").write_text(PLUGIN)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        assert cli.main(["run", "two.txt", "--solvers", "mrv,ref", "--plugin", "ref.py", "--db", "base.sqlite"]) == 0
    return folder


@pytest.fixture
def folder(recorded: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh copy of the recorded folder, as the working directory."""
    copy = tmp_path / "work"
    shutil.copytree(recorded, copy)
    monkeypatch.chdir(copy)
    return copy


BASE = ["run", "two.txt", "--solvers", "mrv,ref", "--plugin", "ref.py", "--db", "base.sqlite", "--resume"]


@pytest.mark.parametrize("change, says", [
    (["--unique"], "the solutions asked for (--unique, --max-solutions) is 2 now, 1 before"),
    (["--max-solutions", "3"], "the solutions asked for"),
    (["--memory-limit", "4000"], "the memory limit (--memory-limit) is 4000 now, none before"),
    (["--timeout", "5"], "the time limit (--timeout) is 5 now, 10 before"),
    (["--cpu-limit", "5"], "the CPU limit (--cpu-limit)"),
    (["--input-format", "line"], "the input layout (--input-format)"),
    (["--solvers", "mrv=mrv:inference=none,ref"], "configuration 'mrv' changed (its options)"),
    ("plugin", "configuration 'ref' changed (its plugin file's contents)"),
    ("puzzles", "two.txt has changed since (its contents differ)"),
], ids=["unique", "max-solutions", "memory-limit", "timeout", "cpu-limit", "input-format", "options",
        "plugin-file", "puzzle-file"])
def test_a_resume_that_changes_what_runs_mean_is_refused_before_running(
        folder: Path, change: list[str] | str, says: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = list(BASE)
    if change == "plugin":
        (folder / "ref.py").write_text(PLUGIN + "\n# edited\n")
    elif change == "puzzles":
        (folder / "two.txt").write_text(TWO.splitlines()[0] + "\n" + "." * 16 + "\n")  # puzzle 2 emptied
    else:
        assert isinstance(change, list)
        if change[0] == "--solvers":
            args[args.index("--solvers") + 1] = change[1]
        else:
            args += change
    before = rows(folder / "base.sqlite")
    assert cli.main(args) == 2
    err = capsys.readouterr().err
    assert "--resume would mix unlike runs" in err and says in err and "give a new --db file" in err
    assert rows(folder / "base.sqlite") == before  # nothing ran


@pytest.mark.parametrize("change", [[], pytest.param(["--solvers", "mrv,ref,dlx"], marks=pytest.mark.slow),
                                    pytest.param(["--repeat", "2"], marks=pytest.mark.slow),
                                    pytest.param(["--jobs", "1"], marks=pytest.mark.slow), ["--seed", "3"]],
                         ids=["same", "configuration-added", "more-repetitions", "jobs", "order-seed"])
def test_a_resume_that_adds_work_or_changes_nothing_runs(folder: Path, change: list[str],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    args = list(BASE)
    if change and change[0] == "--solvers":
        args[args.index("--solvers") + 1] = change[1]
    else:
        args += change
    assert cli.main(args) == 0, capsys.readouterr().err
    added = {"--solvers": 2, "--repeat": 4}.get(change[0] if change else "", 0)  # dlx's 2; a second repetition's 4
    assert rows(folder / "base.sqlite") == 4 + added


@pytest.mark.slow
def test_a_changed_puzzle_on_standard_input_stops_the_resume_naming_it(tmp_path: Path) -> None:
    db = tmp_path / "stdin.sqlite"
    first = compare("run", "-", "--solvers", "mrv", "--db", str(db), stdin=TWO)
    assert first.returncode == 0, first.stderr
    edited = TWO.splitlines()[0] + "\n" + "." * 16 + "\n"  # puzzle 2 emptied
    again = compare("run", "-", "--solvers", "mrv", "--db", str(db), "--resume", stdin=edited)
    assert again.returncode == 2
    assert "<stdin> puzzle 2, configuration 'mrv', repetition 0 is recorded for another puzzle" in again.stderr
    assert rows(db) == 2


def test_a_run_key_holds_the_memory_limit_and_the_plugin_files_contents(tmp_path: Path) -> None:
    puzzle = read_text(TWO).puzzles[0]
    plugin = tmp_path / "p.py"
    plugin.write_text(PLUGIN)
    task = Task(Configuration("p", plugin=f"{plugin}:solve"), puzzle)
    assert task_key(task) != task_key(replace(task, memory_limit=100.0))
    assert task_key(replace(task, memory_limit=100.0)) != task_key(replace(task, memory_limit=200.0))
    other = tmp_path / "q.py"
    other.write_text(PLUGIN + "\n# another\n")
    assert task_key(task) != task_key(replace(task, solver=Configuration("p", plugin=f"{other}:solve")))


@pytest.mark.slow
def test_two_resumes_at_once_report_counts_that_add_up_to_the_rows(tmp_path: Path) -> None:
    top = [line for line in (PUZZLES / "top95.txt").read_text().splitlines() if line and line[0] != "#"]
    (tmp_path / "one.txt").write_text(top[0] + "\n")
    (tmp_path / "many.txt").write_text("\n".join(top[:20]) + "\n")
    # two configurations of two method families (a worker each per writer); mrv,dlx,sat before
    sweep = ["run", "--solvers", "mrv,dlx", "--db", "x.sqlite"]
    first = compare(*sweep, "one.txt", cwd=tmp_path)  # the database the two resume: served
    assert first.returncode == 0, first.stderr
    command = [sys.executable, str(ROOT / "compare.py"), *sweep]
    writers = [subprocess.Popen([*command, "many.txt", "--resume", "--jobs", "1"], cwd=tmp_path,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    said = [writer.communicate(timeout=600)[1] for writer in writers]
    assert all(writer.returncode == 0 for writer in writers), said
    written = [int(line.split("compare.py: ")[1].split()[0]) for text in said for line in text.splitlines()
               if "runs written to" in line]
    with sqlite3.connect(tmp_path / "x.sqlite") as connection:
        many = connection.execute("SELECT COUNT(*) FROM runs WHERE file = 'many.txt'").fetchone()[0]
    assert many == 40 and sum(written) == many, said


@pytest.mark.parametrize("column, value, says", [("limit_s", 5.0, "made under 2 time limits (5 s, 10 s)"),
                                                 ("max_solutions", 2, "asked for 2 numbers of solutions (1, 2")],
                         ids=["limits", "solutions-asked"])
def test_a_report_of_unlike_runs_in_one_database_is_refused(folder: Path, column: str, value: float,
                                                            says: str, capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(folder / "base.sqlite") as connection:  # as an older compare.py could leave it
        connection.execute(f"UPDATE runs SET {column} = ? WHERE id = 1", (value,))
    assert cli.main(["report", "--db", "base.sqlite"]) == 2
    err = capsys.readouterr().err
    assert says in err and "pick one with --where" in err
    assert cli.main(["report", "--db", "base.sqlite", "--where", f"{column}={value:g}"]) == 0
