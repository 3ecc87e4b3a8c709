"""Reading a results database (issue 28): a hand-damaged row or a dropped table is exit 2
naming the table, the row and the column (never 3, and a --resume of such a file is refused
the same way); a database in a read-only folder is read; two sweeps creating the same new
file at once both get a usable database."""
from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from solvers.harness import cli
from solvers.harness.results.database import KIND, DatabaseError, open_database

from .conftest import PUZZLES, compare

SMALL = str(PUZZLES / "small_4x4.txt")


@pytest.fixture(scope="module")
def sweep_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real results database: mrv on the 4x4 puzzles (row ids 1-4)."""
    path = tmp_path_factory.mktemp("db") / "runs.sqlite"
    done = compare("run", SMALL, "--solvers", "mrv", "--timeout", "5", "--db", str(path))
    assert done.returncode == 0, done.stderr
    return path


def damaged(sweep_db: Path, folder: Path, statement: str) -> Path:
    """A copy of the database with one statement applied, as a hand edit would."""
    copy = folder / "damaged.sqlite"
    shutil.copy(sweep_db, copy)
    with closing(sqlite3.connect(copy)) as connection, connection:
        connection.executescript(statement)
    return copy


@pytest.mark.parametrize("statement, said", [
    ("UPDATE runs SET stats = '{bad' WHERE id = 2", "table runs, row id 2: stats is '{bad', not JSON"),
    ("UPDATE runs SET stats = '{\"nodes\": \"x\"}' WHERE id = 1", "table runs, row id 1: stats is {'nodes': 'x'}"),
    ("UPDATE runs SET stats = '[1]' WHERE id = 1", "table runs, row id 1: stats is [1], not a JSON object"),
    ("UPDATE runs SET time_s = 'abc' WHERE id = 3", "table runs, row id 3: time_s is 'abc', not a number"),
    ("UPDATE runs SET time_s = NULL WHERE id = 1", "table runs, row id 1: time_s is None, not a number"),
    ("UPDATE runs SET time_s = 1e400 WHERE id = 1", "table runs, row id 1: time_s is inf, not a number"),
    ("UPDATE runs SET status = 'bogus' WHERE id = 4", "table runs, row id 4: status is 'bogus', not one of solved"),
    # a text column stores a number as its text (SQLite's TEXT affinity): '7' is no category
    ("UPDATE runs SET category = 7 WHERE id = 1", "table runs, row id 1: category is '7', not one of correct"),
    ("UPDATE runs SET file = NULL WHERE id = 1", "table runs, row id 1: file is None, not text"),
    ("UPDATE runs SET n = 'nine' WHERE id = 1", "table runs, row id 1: n is 'nine', not a whole number"),
    ("UPDATE runs SET n = NULL WHERE id = 2", "table runs, row id 2: n is None, not a whole number"),
    ("UPDATE runs SET solutions = 'x' WHERE id = 1", "table runs, row id 1: solutions is 'x', not JSON"),
    ("UPDATE runs SET options = '5' WHERE id = 1", "table runs, row id 1: options is 5, not a JSON object"),
    ("UPDATE runs SET cpu_s = 'a' WHERE id = 1", "table runs, row id 1: cpu_s is 'a', not a number"),
    ("UPDATE runs SET limit_s = 'a' WHERE id = 1", "table runs: a limit_s is 'a', not a number"),
    ("UPDATE sweeps SET options = '[' WHERE id = 1", "table sweeps, row id 1: options is '[', not JSON"),
    ("UPDATE sweeps SET provenance = '[]' WHERE id = 1", "table sweeps, row id 1: provenance is [], not a JSON object"),
    ("DROP TABLE pending", "not a usable results database (no such table: pending)"),
    ("DROP TABLE sweeps", "no such table: sweeps"),
    ("DROP TABLE runs", "no such table: runs"),
    ("DROP TABLE format", "not a compare.py results database (it has no format table)"),
], ids=lambda text: text.split(" WHERE")[0].split(" = ")[0].replace(" ", "-")[:40])
def test_a_damaged_row_or_a_dropped_table_is_exit_2_naming_where(
        statement: str, said: str, sweep_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = damaged(sweep_db, tmp_path, statement)
    assert cli.main(["report", "--db", str(copy)]) == 2
    err = capsys.readouterr().err
    assert f"{copy}: " in err and said in err and "internal error" not in err, err


@pytest.mark.slow
@pytest.mark.parametrize("statement, said", [
    ("UPDATE runs SET stats = '[1]' WHERE id = 2", "table runs, row id 2: stats is [1], not a JSON object"),
    ("INSERT INTO pending SELECT task, '{bad' FROM runs WHERE id = 3; DELETE FROM runs WHERE id = 3",
     "table pending, row id 1: outcome is '{bad', not JSON"),
], ids=["damaged-run", "damaged-pending-outcome"])
def test_resuming_into_a_damaged_database_is_exit_2_and_leaves_it_alone(statement: str, said: str, sweep_db: Path,
                                                                      tmp_path: Path) -> None:
    copy = damaged(sweep_db, tmp_path, statement)
    before = _rows(copy)
    done = compare("run", SMALL, "--solvers", "mrv", "--timeout", "5", "--db", str(copy), "--resume")
    assert done.returncode == 2, done.stderr
    assert said in done.stderr and "internal error" not in done.stderr, done.stderr
    assert _rows(copy) == before  # no run and no pending outcome written over or beside them


def _rows(path: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    with closing(sqlite3.connect(path)) as connection:
        return (connection.execute("SELECT * FROM runs ORDER BY id").fetchall(),
                connection.execute("SELECT * FROM pending ORDER BY task").fetchall())


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder on a read-only filesystem (a tmpfs remounted read-only; root only)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(folder)],
                                           capture_output=True).returncode != 0:
        pytest.skip("needs root and mount to make a read-only folder (chmod does not stop root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


@pytest.mark.parametrize("with_wal", [False, True], ids=["checkpointed", "wal-and-shm-left"])
def test_report_reads_a_database_in_a_read_only_folder(with_wal: bool, sweep_db: Path, read_only_folder: Path,
                                                       tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = read_only_folder / "runs.sqlite"
    shutil.copy(sweep_db, copy)
    if with_wal:  # a writer's last commit still in the WAL, as a killed sweep leaves it
        code = ("import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA journal_mode=WAL');"
                " c.execute('PRAGMA wal_autocheckpoint=0'); c.execute(\"UPDATE runs SET host = 'from-the-wal'\");"
                " c.commit(); os._exit(0)")
        subprocess.run([shutil.which("python3") or "python3", "-c", code, str(copy)], check=True)
        assert Path(f"{copy}-wal").exists()
    subprocess.run(["mount", "-o", "remount,ro", str(read_only_folder)], check=True)
    saved = tmp_path / "runs.json"
    assert cli.main(["report", "--db", str(copy), "--json", str(saved)]) == 0, capsys.readouterr().err
    text = saved.read_text()
    assert '"category": "correct"' in text and ("from-the-wal" in text) == with_wal
    assert "small_4x4.txt 4x4" in capsys.readouterr().out


def _create(path: str, start: multiprocessing.synchronize.Barrier, answers: multiprocessing.Queue) -> None:
    start.wait()
    try:
        open_database(path, create=True).close()
        answers.put("ok")
    except DatabaseError as error:
        answers.put(str(error))


@pytest.mark.slow  # 20 three-way races: about 3 s
def test_sweeps_creating_the_same_new_database_at_once_all_get_it(tmp_path: Path) -> None:
    # three racers: two of them switching the file to WAL at the same moment is the case
    # SQLite refuses without waiting (it failed about one attempt in four before the retry)
    context = multiprocessing.get_context("fork")
    for attempt in range(20):
        path = str(tmp_path / f"new{attempt}.sqlite")
        start, answers = context.Barrier(3), context.Queue()
        racers = [context.Process(target=_create, args=(path, start, answers)) for _ in range(3)]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(timeout=60)
        assert [answers.get(timeout=5) for _ in racers] == ["ok", "ok", "ok"]
        with closing(sqlite3.connect(path)) as connection:
            assert dict(connection.execute("SELECT key, value FROM format"))["kind"] == KIND


def test_an_older_database_in_a_read_only_folder_is_read_with_its_old_columns(
        sweep_db: Path, read_only_folder: Path, tmp_path: Path) -> None:
    copy = read_only_folder / "runs.sqlite"
    shutil.copy(sweep_db, copy)
    with closing(sqlite3.connect(copy)) as connection, connection:  # as version 3 left it, untyped
        connection.execute('ALTER TABLE runs DROP COLUMN "order"')
        connection.execute("UPDATE format SET value = '3' WHERE key = 'version'")
    subprocess.run(["mount", "-o", "remount,ro", str(read_only_folder)], check=True)
    saved = tmp_path / "runs.json"
    assert cli.main(["report", "--db", str(copy), "--where", "nodes>=0", "--json", str(saved)]) == 0
    runs = json.loads(saved.read_text())["runs"]
    assert len(runs) == 4 and {run["order"] for run in runs} == {None}
