"""Sweeps beyond one machine (issue 13): the Dask executor, the results database, resuming,
lazy reading and dispatch.

The planted plugins in tests/plugins/ stand in for backends (a trusted reference, one
that sleeps past its limit, one that ends its own process, one that lies), so these
tests need none of the built-in backends; no test asserts how long anything took.
"""
from __future__ import annotations

import itertools
import json
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from models import PuzzleError, iter_puzzles, read_puzzles
from solvers.harness.engine.executors import ExecutorError, make_executor
from solvers.harness.engine.runner import run_tasks
from solvers.harness.tasks import Configuration, Task

from .conftest import ROOT, cli, compare, compare_here, interruptible

PLUGINS = ROOT / "tests" / "plugins"
PLANTED = PLUGINS / "planted.py"
REFERENCE = f"ref={PLUGINS / 'reference.py'}:solve"
SLOW = f"slow={PLUGINS / 'timed.py'}:slow"
PUZZLES = (".1.2...3.....4..", "..42......3..4..", "....34......23.4", ".3.....4.1.....1",
           "1..4....3.......", "..3.4.....2..1..")
CRASH_AND_TIMEOUT = ("--plugin", REFERENCE, "--plugin", f"sleeper={PLANTED}:sleeper",
                     "--plugin", f"exits={PLANTED}:exits", "--plugin", f"false_unsat={PLANTED}:false_unsat",
                     "--solvers", "ref,sleeper,exits,false_unsat")
DASK_PUZZLES = 2



@pytest.fixture()
def puzzles(tmp_path: Path) -> str:
    path = tmp_path / "small.txt"
    path.write_text("# 4x4 puzzles\n" + "\n".join(PUZZLES) + "\n", encoding="utf-8")
    return str(path)


def outcomes_of(document: dict) -> dict[tuple, tuple]:
    """(puzzle, configuration, repeat) -> (status, category, solutions) of a saved run."""
    return {(r["file"], r["index"], r["configuration"], r["repeat"]):
            (r["status"], r["category"], tuple(r["solutions"])) for r in document["runs"]}


# ---------------------------------------------------------------- the Dask executor

@pytest.fixture(scope="module")
def local_and_dask(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict]:
    """One planted sweep run locally and through a Dask LocalCluster: two puzzles, so the eight
    tasks go to Dask in chunks of 3, 3 and 2 (a full chunk and a short one)."""
    pytest.importorskip("distributed", reason="the Dask executor needs the [dist] extra")
    tmp = tmp_path_factory.mktemp("dask")
    path = tmp / "small.txt"
    path.write_text("\n".join(PUZZLES[:DASK_PUZZLES]) + "\n", encoding="utf-8")
    documents = []
    for executor in ("local", "dask"):
        out = tmp / f"{executor}.json"
        done = compare("run", str(path), *CRASH_AND_TIMEOUT, "--timeout", "1", "--jobs", "2",
                       "--executor", executor, *(["--chunk-size", "3"] if executor == "dask" else []),
                       "--json", str(out))
        assert done.returncode == 1, done.stderr  # false_unsat is wrong: exit 1 either way
        documents.append(json.loads(out.read_text()))
    return documents[0], documents[1]


@pytest.mark.slow
def test_a_local_cluster_sweep_judges_every_run_as_the_local_executor(local_and_dask) -> None:
    local, dask = local_and_dask
    assert outcomes_of(dask) == outcomes_of(local)
    assert len(outcomes_of(local)) == DASK_PUZZLES * 4


@pytest.mark.slow
@pytest.mark.parametrize("configuration, category", [
    ("ref", "correct"), ("sleeper", "timeout"), ("exits", "error"), ("false_unsat", "wrong")])
def test_through_dask_each_planted_plugin_gets_its_category(local_and_dask, configuration: str,
                                                            category: str) -> None:
    _, dask = local_and_dask
    runs = [r for r in dask["runs"] if r["configuration"] == configuration]
    assert [r["category"] for r in runs] == [category] * DASK_PUZZLES, runs
    assert dask["options"]["executor"] == "dask"


def test_a_bad_executor_is_exit_2(puzzles: str) -> None:
    done = compare_here("run", puzzles, "--plugin", REFERENCE, "--solvers", "ref", "--executor", "slurm")
    assert done.returncode == 2 and "--executor 'slurm'" in done.stderr, done.stderr


def test_without_dask_the_executor_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    with pytest.raises(ExecutorError, match=r"pip install -e '\.\[dist\]'"):
        make_executor("dask")


# ---------------------------------------------------------------- the results database

def db_rows(path: Path) -> list[tuple]:
    with closing(sqlite3.connect(path)) as connection, connection:
        return connection.execute('SELECT file, "index", configuration, repeat, category FROM runs').fetchall()


@pytest.mark.slow
def test_a_database_sweep_is_judged_and_summarised_as_one_kept_in_memory(puzzles: str,
                                                                         tmp_path: Path) -> None:
    db, out = tmp_path / "runs.sqlite", tmp_path / "memory.json"
    sweep = ["run", puzzles, "--plugin", REFERENCE, "--plugin", SLOW, "--plugin", f"gives_up="
             f"{PLUGINS / 'timed.py'}:gives_up", "--solvers", "ref,quick=slow:seconds=0,gives_up",
             "--repeat", "2"]
    kept = compare(*sweep, "--json", str(out))
    written = compare(*sweep, "--db", str(db))
    assert kept.returncode == written.returncode == 0, kept.stderr + written.stderr
    assert len(db_rows(db)) == len(PUZZLES) * 3 * 2
    memory = json.loads(out.read_text())
    reported = compare_here("report", "--db", str(db), "--format", "json")
    assert reported.returncode == 0, reported.stderr
    counts = ("set", "configuration", "puzzles", "runs", "solved", "unsat", "timeouts", "unknown",
              "errors", "wrong")
    assert [[row[c] for c in counts] for row in json.loads(reported.stdout)["summary"]] == \
        [[row[c] for c in counts] for row in memory["summary"]]
    assert {row[:4]: row[4] for row in db_rows(db)} == \
        {(r["file"], r["index"], r["configuration"], r["repeat"]): r["category"] for r in memory["runs"]}


@pytest.fixture(scope="module")
def two_configurations_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One run of two configurations over PUZZLES into a database, for the tests that only read it."""
    tmp = tmp_path_factory.mktemp("where")
    path = tmp / "small.txt"
    path.write_text("# 4x4 puzzles\n" + "\n".join(PUZZLES) + "\n", encoding="utf-8")
    db = tmp / "runs.sqlite"
    done = compare("run", str(path), "--plugin", REFERENCE, "--plugin", SLOW, "--solvers",
                   "ref,quick=slow:seconds=0", "--db", str(db))
    assert done.returncode == 0, done.stderr
    return db


@pytest.mark.slow
@pytest.mark.parametrize("where, configurations, runs", [
    (("configuration=quick",), {"quick"}, len(PUZZLES)),
    (("configuration=ref,quick", "index<2"), {"ref", "quick"}, 4),
    (("category!=correct",), set(), 0),
    (("configuration=ref", "puzzle>5"), {"ref"}, 1),  # puzzle counts from 1: index 5, the sixth
])
def test_report_where_selects_runs(where: tuple[str, ...], configurations: set[str], runs: int,
                                   two_configurations_db: Path, tmp_path: Path) -> None:
    # the database is made once by the module's fixture: every case reads the same runs
    db, out = two_configurations_db, tmp_path / "selected.json"
    args = [arg for condition in where for arg in ("--where", condition)]
    done = compare_here("report", "--db", str(db), *args, "--json", str(out))
    assert done.returncode == 0, done.stderr
    document = json.loads(out.read_text())
    assert {r["configuration"] for r in document["runs"]} == configurations
    assert len(document["runs"]) == runs


@pytest.mark.slow
def test_a_database_is_not_overwritten_without_resume(made_database: Path, tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"  # a copy of what a sweep wrote: its own launch would add nothing
    shutil.copyfile(made_database, db)
    again = compare_here("run", PUZZLE_FILE, "--plugin", REFERENCE, "--solvers", "ref", "--db", str(db))
    assert again.returncode == 2 and "--resume" in again.stderr, again.stderr
    assert len(db_rows(db)) == len(read_puzzles(PUZZLE_FILE).puzzles)


@pytest.fixture(scope="module")
def made_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results database a sweep wrote (one run of the small file), for the damaged ones to
    be made from by copying it: one sweep for them all."""
    path = tmp_path_factory.mktemp("made") / "results.sqlite"
    assert compare("run", PUZZLE_FILE, "--plugin", REFERENCE, "--solvers", "ref", "--db", str(path)).returncode == 0
    return path


def _foreign_sqlite(path: Path, _made: Path) -> None:
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("CREATE TABLE photos (name TEXT)")


def _newer_version(path: Path, made: Path) -> None:
    shutil.copyfile(made, path)
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.execute("UPDATE format SET value = '99' WHERE key = 'version'")


def _damaged(path: Path, made: Path) -> None:
    shutil.copyfile(made, path)
    data = bytearray(path.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)  # the first page's b-tree header and cells
    path.write_bytes(bytes(data))


PUZZLE_FILE = str(ROOT / "puzzles" / "small_4x4.txt")
BAD_FILES = {
    "text": (lambda p, _: p.write_text("file,index\nsmall.txt,0\n"), "not a usable results database"),
    "foreign sqlite": (_foreign_sqlite, "not a compare.py results database"),
    "newer version": (_newer_version, "version 99"),
    "damaged": (_damaged, "results database"),
}


@pytest.mark.slow
@pytest.mark.parametrize("command", ["run", "report"])
@pytest.mark.parametrize("kind", BAD_FILES)
def test_a_foreign_or_damaged_database_is_a_clear_error(kind: str, command: str, tmp_path: Path, made_database: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "results.sqlite"
    make, words = BAD_FILES[kind]
    make(path, made_database)
    before = path.read_bytes()
    # the real parser in this process: the database is refused before any worker starts, so a
    # launch of its own adds nothing (tests/test_measurement.py and others launch --db sweeps)
    if command == "run":
        status, _, stderr = cli(capsys, "run", PUZZLE_FILE, "--plugin", REFERENCE, "--solvers", "ref",
                                "--resume", "--db", str(path))
    else:
        status, _, stderr = cli(capsys, "report", "--db", str(path))
    assert status == 2, stderr
    assert str(path) in stderr and words in stderr, stderr
    assert path.read_bytes() == before


# ---------------------------------------------------------------- interrupted and resumed

def _runs_in(path: Path) -> int:
    try:
        with closing(sqlite3.connect(path, timeout=5)) as connection:
            return sum(connection.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                       for t in ("runs", "pending"))
    except sqlite3.DatabaseError:
        return 0


@pytest.mark.slow
@pytest.mark.parametrize("stop, executor", [("SIGINT", "local"), ("SIGKILL", "local"),
                                             ("SIGINT", "dask")])
def test_an_interrupted_sweep_resumed_records_every_task_exactly_once(stop: str, executor: str,
                                                                      puzzles: str, tmp_path: Path) -> None:
    if executor == "dask":
        pytest.importorskip("distributed", reason="the Dask executor needs the [dist] extra")
    db = tmp_path / "sweep.sqlite"
    sweep = [sys.executable, str(ROOT / "compare.py"), "run", puzzles, "--plugin", REFERENCE,
             "--plugin", SLOW, "--solvers", "ref,nap=slow:seconds=0.2", "--repeat", "2",
             "--jobs", "1", "--timeout", "5", "--db", str(db), "--executor", executor,
             *(["--chunk-size", "2"] if executor == "dask" else [])]  # local refuses a chunk size
    process = subprocess.Popen(sweep, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=interruptible)
    deadline = time.monotonic() + 120
    while _runs_in(db) < 3 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.1)
    process.send_signal(getattr(signal, stop))
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == (130 if stop == "SIGINT" else -signal.SIGKILL), stderr
    total = len(PUZZLES) * 2 * 2
    assert 0 < _runs_in(db) < total
    saved = tmp_path / "resumed.json"  # the resume is an ordinary launch (no signal to send it)
    resumed = compare(*sweep[2:], "--resume", "--json", str(saved), timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert "recorded before, skipped" in resumed.stderr
    document = json.loads(saved.read_text())
    assert document["partial"] is False  # the resume completed what the stop cut short
    assert [s["partial"] for s in document["sweeps"]] == [True, False]
    rows = db_rows(db)
    tasks = [row[:4] for row in rows]
    assert len(tasks) == len(set(tasks)) == total
    assert {row[4] for row in rows} == {"correct"}
    assert _runs_in(db) == total  # nothing left pending


@pytest.mark.slow
def test_resume_with_a_new_configuration_runs_only_it(made_database: Path, tmp_path: Path) -> None:
    db = tmp_path / "sweep.sqlite"  # a copy of the module's sweep of ref alone
    shutil.copyfile(made_database, db)
    count = len(read_puzzles(PUZZLE_FILE).puzzles)
    done = compare("run", PUZZLE_FILE, "--plugin", REFERENCE, "--db", str(db), "--plugin", SLOW,
                   "--solvers", "ref,quick=slow:seconds=0", "--resume")
    assert done.returncode == 0, done.stderr
    assert f"{count} runs written" in done.stderr
    assert f"{count} recorded before, skipped" in done.stderr
    assert len(db_rows(db)) == 2 * count
    # the progress counted 2 runs a puzzle and took the recorded ones off its total
    assert f"solving: {count}/{count} runs, 100%" in done.stderr


# ---------------------------------------------------------------- lazy reading and dispatch

class _Endless:
    """A binary stream that never ends: the same lines again and again."""

    def __init__(self, text: str) -> None:
        self.chunk = text.encode()

    def read1(self, size: int) -> bytes:
        return self.chunk


def test_puzzles_are_read_lazily_from_an_endless_stream() -> None:
    endless = _Endless(".1.2...3.....4..\n# a comment\n1234\n\n")
    first = list(itertools.islice(iter_puzzles(endless), 4))
    assert [isinstance(item, PuzzleError) for item in first] == [False, True] * 2
    assert [getattr(item, "line", None) or item.source.line for item in first] == [1, 3, 5, 7]


@pytest.mark.parametrize("name", [  # 17_clue.txt, the largest file, is 4 s of CPU
    pytest.param(name, marks=[pytest.mark.slow] if name == "17_clue.txt" else [])
    for name in sorted(p.name for p in (ROOT / "puzzles").glob("*.txt"))])
def test_lazy_reading_gives_what_reading_at_once_gives(name: str) -> None:
    path = ROOT / "puzzles" / name
    batch = read_puzzles(path)
    items = list(iter_puzzles(path))
    assert [p for p in items if not isinstance(p, PuzzleError)] == batch.puzzles
    assert [str(e) for e in items if isinstance(e, PuzzleError)] == [str(e) for e in batch.errors]


def test_the_runner_pulls_tasks_only_as_workers_fall_free() -> None:
    puzzle = read_puzzles(ROOT / "puzzles" / "small_4x4.txt").puzzles[0]
    reference = Configuration("ref", plugin=f"{PLUGINS / 'reference.py'}:solve")
    pulled: list[int] = []
    seen_at_first_outcome: list[int] = []

    def tasks():
        for number in range(20):
            pulled.append(number)
            yield Task(reference, puzzle, time_limit=10)

    def on_outcome(number: int, outcome: object) -> None:
        if not seen_at_first_outcome:
            seen_at_first_outcome.append(len(pulled))

    kept = run_tasks(tasks(), jobs=1, on_outcome=on_outcome, keep=False)
    assert kept == [] and len(pulled) == 20
    assert seen_at_first_outcome[0] <= 2
