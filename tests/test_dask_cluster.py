"""A Dask cluster as a user meets it (issue 28): a `dask worker` started from the environment's
bin/ the way docs/experiments.md shows (python-sat's models.py beside it), a LocalCluster whose
Dask worker is killed mid-sweep, and a sweep the executor stops half-way (every finished run
kept, judged once)."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from solvers.harness.commands import run as run_command
from solvers.harness.engine import calibration
from solvers.harness.engine.configs import resolve
from solvers.harness.engine.executors import ExecutorError
from solvers.harness.tasks import Experiment, Outcome, Outputs, Task
from solvers.result import Status

from .conftest import ROOT, puzzle_file

PLUGINS = ROOT / "tests" / "plugins"
PUZZLES = (".1.2...3.....4..", "..42......3..4..", "....34......23.4", ".3.....4.1.....1",
           "1..4....3.......", "..3.4.....2..1..")
BIN = Path(sys.executable).parent


@pytest.fixture()
def puzzles(tmp_path: Path) -> Path:
    return Path(puzzle_file(tmp_path, *PUZZLES, name="small.txt"))


def keys(runs: Iterable[dict]) -> list[tuple]:
    """(puzzle, configuration, repetition) of each run."""
    return [(r["index"], r["configuration"], r["repeat"]) for r in runs]


def db_runs(path: Path) -> list[dict]:
    with closing(sqlite3.connect(path)) as connection:
        connection.row_factory = sqlite3.Row
        return [dict(row) for row in connection.execute('SELECT "index", configuration, repeat, category FROM runs')]


# ---------------------------------------------------------------- a dask worker started from bin/

@contextmanager
def started(command: list[str], cwd: Path, log: Path, **env: str) -> Iterator[subprocess.Popen]:
    """A process in a session of its own, ended with its whole group (it and its nanny's worker)."""
    with open(log, "w") as out:
        process = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT,
                                   env={**os.environ, **env}, start_new_session=True)
    try:
        yield process
    finally:
        for stop, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
            try:
                os.killpg(process.pid, stop)
                process.wait(wait)
                break
            except (ProcessLookupError, subprocess.TimeoutExpired):
                continue


def scheduler_address(scheduler_file: Path, process: subprocess.Popen, log: Path) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        try:
            return json.loads(scheduler_file.read_text())["address"]
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)
    raise AssertionError(f"the scheduler did not start: {log.read_text()}")


@pytest.mark.slow
def test_a_dask_worker_started_from_bin_as_the_docs_show_runs_a_sweep(puzzles: Path, tmp_path: Path) -> None:
    """docs/experiments.md's recipe, with a free port instead of 8786 (tests share the machine)."""
    pytest.importorskip("distributed", reason="the Dask executor needs the [dist] extra")
    assert (BIN / "models.py").is_file(), "python-sat's models.py is what this test is about"
    recipe = (ROOT / "docs" / "experiments.md").read_text()
    assert "DASK_DISTRIBUTED__WORKER__DAEMON=False dask worker tcp://HOST:8786 --nworkers 1 --nthreads 1" in recipe
    scheduler_file, out = tmp_path / "scheduler.json", tmp_path / "runs.json"
    with started([str(BIN / "dask"), "scheduler", "--port", "0", "--no-dashboard", "--scheduler-file",
                  str(scheduler_file)], tmp_path, tmp_path / "scheduler.log") as scheduler:
        address = scheduler_address(scheduler_file, scheduler, tmp_path / "scheduler.log")
        with started([str(BIN / "dask"), "worker", address, "--nworkers", "1", "--nthreads", "1"],
                     tmp_path, tmp_path / "worker.log", DASK_DISTRIBUTED__WORKER__DAEMON="False"):
            done = subprocess.run([sys.executable, str(ROOT / "compare.py"), "run", str(puzzles),
                                   "--solvers", "mrv,backtrack", "--jobs", "1", "--executor", f"dask={address}",
                                   "--json", str(out)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    log = (tmp_path / "worker.log").read_text()
    assert done.returncode == 0, done.stderr + log
    assert "ImportError" not in log, log
    document = json.loads(out.read_text())
    assert sorted(keys(document["runs"])) == sorted((i, c, 0) for i in range(len(PUZZLES))
                                                    for c in ("mrv", "backtrack"))
    assert {r["category"] for r in document["runs"]} == {"correct"}
    assert document["options"]["executor"] == f"dask={address}"


# ---------------------------------------------------------------- a LocalCluster whose worker is killed

def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(name))
    return found


def dask_worker(compare_pid: int) -> int | None:
    """The LocalCluster's Dask worker: the child compare.py spawned that has started its own
    pool of runner workers (the other spawned child, the resource tracker, has none)."""
    for child in children(compare_pid):
        try:
            spawned = b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if spawned and children(child):
            return child
    return None


def runs_in(path: Path) -> int:
    try:
        with closing(sqlite3.connect(path, timeout=5)) as connection:
            return sum(connection.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("runs", "pending"))
    except sqlite3.DatabaseError:
        return 0


@pytest.mark.slow
def test_a_local_cluster_whose_worker_is_killed_judges_every_run_exactly_once(puzzles: Path,
                                                                              tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the Dask executor needs the [dist] extra")
    db, out = tmp_path / "sweep.sqlite", tmp_path / "runs.json"
    puzzles.write_text("\n".join(PUZZLES[:3]) + "\n", encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "compare.py"), "run", str(puzzles), "--plugin",
         f"ref={PLUGINS / 'reference.py'}:solve", "--plugin", f"slow={PLUGINS / 'timed.py'}:slow",
         "--solvers", "ref,nap=slow:seconds=0.5", "--jobs", "1", "--timeout", "5",
         "--executor", "dask", "--chunk-size", "1", "--db", str(db), "--json", str(out)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    total = 3 * 2
    try:
        deadline, worker = time.monotonic() + 120, None
        while time.monotonic() < deadline and process.poll() is None:
            worker = dask_worker(process.pid)
            if worker is not None and runs_in(db) >= 1:
                break
            time.sleep(0.05)
        assert worker is not None and process.poll() is None, "the sweep ended before its worker was found"
        before = runs_in(db)
        os.kill(worker, signal.SIGKILL)
        _, stderr = process.communicate(timeout=300)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert before < total, "the kill came after the last run"
    assert process.returncode == 0, stderr
    saved = json.loads(out.read_text())
    assert sorted(keys(saved["runs"])) == sorted(set(keys(saved["runs"]))) == sorted(keys(db_runs(db)))
    assert len(saved["runs"]) == total and saved["partial"] is False
    assert {r["category"] for r in saved["runs"]} == {"correct"}
    assert runs_in(db) == total  # nothing left pending


# ---------------------------------------------------------------- an executor that stops half-way

class StopsAfter:
    """An executor whose cluster goes away after ``count`` runs (each run gives up at once)."""

    def __init__(self, count: int) -> None:
        self.count = count

    def run(self, tasks: Iterable[Task], on_outcome) -> None:
        for number, _ in enumerate(tasks):
            if number == self.count:
                raise ExecutorError("planted: the Dask scheduler went away")
            on_outcome(number, Outcome(Status.UNKNOWN, message="planted: gave up"))

    def describe(self) -> str:
        return "a planted executor"

    def close(self) -> None:
        pass


@pytest.mark.parametrize("store", ["memory", "db"])
def test_a_sweep_the_executor_stops_keeps_every_finished_run_once_and_exits_2(
        store: str, puzzles: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(run_command, "make_executor", lambda *args, **kwargs: StopsAfter(5))
    monkeypatch.setattr(calibration, "_work", lambda steps: 0)  # the speed probe is not what is tested
    experiment = Experiment(paths=(str(puzzles),), configurations=tuple(resolve("mrv,backtrack")),
                            time_limit=5.0, executor="dask")
    db = tmp_path / "sweep.sqlite"
    outputs = Outputs(format="csv", json=str(tmp_path / "runs.json"), db=str(db) if store == "db" else None)
    status = run_command.run_experiment(experiment, outputs)
    stderr = capsys.readouterr().err
    assert status == 2, stderr
    assert "planted: the Dask scheduler went away" in stderr and "5 of the" in stderr, stderr
    saved = json.loads((tmp_path / "runs.json").read_text())
    assert len(saved["runs"]) == len(set(keys(saved["runs"]))) == 5
    assert saved["partial"] is True
    if store == "db":
        assert sorted(keys(db_runs(db))) == sorted(keys(saved["runs"]))


def test_an_executor_that_fails_before_any_run_is_an_error_with_no_files(
        puzzles: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_command, "make_executor", lambda *args, **kwargs: StopsAfter(0))
    experiment = Experiment(paths=(str(puzzles),), configurations=tuple(resolve("mrv")), time_limit=5.0)
    with pytest.raises(ExecutorError, match="planted"):
        run_command.run_experiment(experiment, Outputs(json=str(tmp_path / "runs.json")))
    assert not (tmp_path / "runs.json").exists()


def test_a_dask_worker_that_cannot_import_the_toolkit_is_an_executor_error() -> None:
    pytest.importorskip("distributed", reason="the Dask executor needs the [dist] extra")
    from solvers.harness.engine.dask_executor import DaskExecutor

    class Client:  # what client.run raises when a worker cannot unpickle the function
        @staticmethod
        def run(function):
            raise ImportError("cannot import name 'Model' from 'models' (/venv/bin/models.py)")

    executor = DaskExecutor.__new__(DaskExecutor)  # no cluster: only the client's answer matters
    executor.client = Client()
    with pytest.raises(ExecutorError, match=r"cannot run the toolkit \(ImportError: cannot import name 'Model'"):
        executor._on_every_worker(len)
