"""A run's record is defined once (tasks.RUN_FIELDS) and everything is made from it: the
database's typed columns, the CSV and JSON columns, the checks of saved values, ``--where``
typing and the docs' field table. ``--where`` compares every numeric field as a number;
older databases and saved JSON files stay readable."""
from __future__ import annotations

import json
import operator
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from solvers.harness import cli
from solvers.harness.results import db_views
from solvers.harness.results.database import RUN_COLUMNS, VERSION, open_database
from solvers.harness.results.judge import Run
from solvers.harness.results.records import CSV_COLUMNS, EXTRA, bad_field, record
from solvers.harness.results.report import ReportError, load_document
from solvers.harness.tasks import (
    DATABASE,
    JSON,
    RUN_FIELD,
    RUN_FIELDS,
    Category,
    Configuration,
    Kind,
    Outcome,
    Task,
)
from solvers.result import COUNTERS, Status

from .conftest import PUZZLES, compare, compare_here, copied_checkout, load

NUMERIC = sorted(db_views.NUMERIC)
VALUES: dict[Kind, tuple[Any, Any, Any]] = {Kind.WHOLE: (9, 100, 1000), Kind.NUMBER: (0.5, 9.5, 100.25),
                                            Kind.FLAG: (False, True, True)}
"""Three runs' values of a numeric field, chosen so that text order differs from number order."""
FILES = ("a.txt", "b.txt", "c.txt")
FROM_THE_SWEEP = ("sweep", "limit_s", "max_solutions")
"""Fields a run gets from the sweep that wrote it and its task, not from the judge's Run."""
FROM_THE_STATS = ("backend_s", *COUNTERS)
"""Fields a run's record takes from its stats (the backend's own time: its solve_time here)."""


def synthetic_runs(path: Path) -> None:
    """A results database of three runs, each with a value in every numeric field."""
    puzzle = load("small_4x4.txt")[0]
    database = open_database(str(path), create=True)
    for number, file in enumerate(FILES):
        value = {name: VALUES[RUN_FIELD[name].kind][number] for name in NUMERIC if name != db_views.PUZZLE}
        run = Run(file=file, index=0, line=1, puzzle="x", size="4x4", solver="cfg", status=Status.SOLVED,
                  solutions=[], complete=False, time_s=0.0, category=Category.CORRECT,
                  stats={**{name: value[name] for name in COUNTERS}, "solve_time": value["backend_s"]})
        for name in value:
            if name not in FROM_THE_STATS and name not in FROM_THE_SWEEP:
                setattr(run, name, value[name])
        task = Task(Configuration("cfg"), puzzle, max_solutions=value["max_solutions"],
                    time_limit=value["limit_s"], repeat=number)
        database.save_judged(value["sweep"], [(bytes([number]) * 16, task, Outcome(Status.SOLVED), run)])
    database.close()


@pytest.fixture(scope="module")
def three_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("record") / "runs.sqlite"
    synthetic_runs(path)
    return path


def stored(path: Path) -> dict[str, dict[str, Any]]:
    """Each run's stored values by its file, ``puzzle`` as --where counts it."""
    database = open_database(str(path), create=False)
    try:
        return {run["file"]: {**run, "puzzle": run["index"] + 1} for run in database.runs()}
    finally:
        database.close()


def selected(path: Path, condition: str) -> set[str]:
    database = open_database(str(path), create=False)
    try:
        selection = db_views.parse_filters([condition])
        return {run["file"] for run in database.runs(selection.sql, selection.params)}
    finally:
        database.close()


OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    ">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le, "=": operator.eq,
    "!=": operator.ne}


def assert_where_compares_as_numbers(path: Path, column: str) -> None:
    runs = stored(path)
    middle = runs[FILES[1]][column]
    assert middle is not None, f"{column} was not stored"
    for symbol, compared in OPERATORS.items():
        expected = {file for file, run in runs.items() if run[column] is not None and compared(run[column], middle)}
        shown = str(middle).lower() if isinstance(middle, bool) else str(middle)
        assert selected(path, f"{column}{symbol}{shown}") == expected, f"{column}{symbol}{shown}"


# ---------------------------------------------------------------- --where on every numeric field

def test_the_numeric_filter_columns_are_every_numeric_field_and_the_puzzle_number() -> None:
    assert set(NUMERIC) == {f.name for f in RUN_FIELDS if DATABASE in f.places and f.numeric} | {"puzzle"}
    assert {"clauses", "variables", "constraints", "verified_solutions"} <= set(NUMERIC)


@pytest.mark.parametrize("column", NUMERIC)
def test_where_compares_the_field_as_a_number(column: str, three_runs: Path) -> None:
    assert_where_compares_as_numbers(three_runs, column)


@pytest.mark.parametrize("column", [f.name for f in RUN_FIELDS if DATABASE in f.places])
def test_the_database_column_has_the_fields_type(column: str, three_runs: Path) -> None:
    with closing(sqlite3.connect(three_runs)) as connection:
        types = {row[1]: row[2] for row in connection.execute("PRAGMA table_info(runs)")}
    assert types[column] == RUN_FIELD[column].sql_type


def test_report_where_clauses_above_zero_selects_through_the_command_line(three_runs: Path, tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "selected.json"
    assert cli.main(["report", "--db", str(three_runs), "--where", "clauses>99", "--json", str(out)]) == 2
    assert "not alike, so no table sums them" in capsys.readouterr().err  # b and c: limits 9.5 and 100.25 s
    assert cli.main(["report", "--db", str(three_runs), "--where", "clauses>99", "--where", "limit_s<50",
                     "--json", str(out)]) == 0
    assert {run["file"] for run in json.loads(out.read_text())["runs"]} == {"b.txt"}
    assert cli.main(["report", "--db", str(three_runs), "--where", "clauses>many"]) == 2
    assert "--where: clauses is a number, not 'many'" in capsys.readouterr().err


@pytest.mark.slow
def test_report_where_clauses_matches_the_runs_that_have_clauses(tmp_path: Path) -> None:
    db = tmp_path / "runs.sqlite"
    done = compare("run", str(PUZZLES / "small_4x4.txt"), "--solvers", "mrv,sat", "--db", str(db))
    assert done.returncode == 0, done.stderr
    for condition, backends in (("clauses>0", {"sat"}), ("clauses<0", set()), ("nodes>=0", {"mrv"})):
        shown = compare_here("report", "--db", str(db), "--where", condition, "--format", "csv", "--per-puzzle",
                             "--pivot", "backend")
        assert shown.returncode == 0, shown.stderr
        header = [] if shown.stdout.startswith("(no runs)") else shown.stdout.splitlines()[0].split(",")
        assert set(header) - {"file", "puzzle", "line", "n"} == backends, condition


# ---------------------------------------------------------------- older databases

V4_COLUMNS = (
    "sweep", "limit_s", "max_solutions", "file", "index", "line", "n", "box", "variant", "configuration",
    "backend", "options", "repeat", "order", "status", "category", "time_s", "cpu_s", "warmup",
    "peak_memory_mb", "termination", "host", "worker", "sequence", "proof", "verified_solutions",
    *COUNTERS, "puzzle", "size", "solver", "solutions", "complete", "stats", "message", "claim", "reason")
"""The runs table's columns as version 4 made them: all declared without a type."""


def as_version_4(typed: Path, old: Path) -> None:
    """A copy of a database as version 4 wrote it: the same rows, in untyped columns."""
    shutil.copy(typed, old)
    names = ", ".join(f'"{c}"' for c in ("id", "task", "raw_solutions", *V4_COLUMNS))
    with closing(sqlite3.connect(old)) as connection, connection:
        connection.execute("ALTER TABLE runs RENAME TO typed")
        connection.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, task BLOB NOT NULL UNIQUE, raw_solutions "
                           "TEXT, " + ", ".join(f'"{c}"' for c in V4_COLUMNS) + ")")
        connection.execute(f"INSERT INTO runs ({names}) SELECT {names} FROM typed")
        connection.execute("DROP TABLE typed")
        connection.execute("UPDATE format SET value = '4' WHERE key = 'version'")


def test_a_version_4_database_is_rebuilt_with_typed_columns_and_keeps_its_runs(three_runs: Path,
                                                                               tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite"
    as_version_4(three_runs, old)
    before = stored(three_runs)
    open_database(str(old), create=False).close()
    with closing(sqlite3.connect(old)) as connection:
        types = {row[1]: row[2] for row in connection.execute("PRAGMA table_info(runs)")}
        version = connection.execute("SELECT value FROM format WHERE key = 'version'").fetchone()[0]
        indexes = {row[1] for row in connection.execute("PRAGMA index_list(runs)")}
    assert version == str(VERSION) and {"runs_by_set", "runs_by_puzzle"} <= indexes
    assert {c: types[c] for c in RUN_COLUMNS} == {c: RUN_FIELD[c].sql_type for c in RUN_COLUMNS}
    newer = [c for c in RUN_COLUMNS if c not in V4_COLUMNS]  # fields added since version 4 read empty
    assert stored(old) == {key: {**run, **dict.fromkeys(newer)} for key, run in before.items()}
    assert_where_compares_as_numbers(old, "clauses")


def test_a_database_written_before_a_field_existed_gains_its_column_empty(three_runs: Path,
                                                                         tmp_path: Path) -> None:
    older = tmp_path / "older.sqlite"
    shutil.copy(three_runs, older)
    with closing(sqlite3.connect(older)) as connection, connection:
        connection.execute('ALTER TABLE runs DROP COLUMN "verified_solutions"')
    runs = stored(older)
    with closing(sqlite3.connect(older)) as connection:
        types = {row[1]: row[2] for row in connection.execute("PRAGMA table_info(runs)")}
    assert types["verified_solutions"] == "INTEGER"
    assert {run["verified_solutions"] for run in runs.values()} == {None}


# ---------------------------------------------------------------- saved JSON

OLD_RUN = {"file": "a.txt", "index": 0, "puzzle": ".3.....4.1.....1", "solver": "mrv", "status": "solved",
           "solutions": ["2341412334121234"], "complete": False, "time_s": 0.01, "stats": {"nodes": 2},
           "category": "correct", "size": "4x4"}
"""A run as the first saved documents held it: none of the later fields."""


def test_a_saved_run_without_the_later_fields_reads_with_them_empty(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"kind": "sudoku-methods-run", "runs": [OLD_RUN]}))
    (run,) = load_document(str(path))["runs"]
    flat = record(run)
    assert list(flat) == list(CSV_COLUMNS)
    assert (flat["n"], flat["configuration"], flat["nodes"], flat["peak_memory_mb"], flat["order"]) == \
        (4, "mrv", 2, None, None)


WRONG: dict[Kind, Any] = {Kind.TEXT: 5, Kind.WHOLE: "x", Kind.NUMBER: "x", Kind.FLAG: "x", Kind.OBJECT: [1],
                          Kind.GRIDS: 5, Kind.STATS: [1]}


@pytest.mark.parametrize("name", [f.name for f in RUN_FIELDS if {JSON, DATABASE} <= f.places])
def test_a_saved_run_whose_field_has_the_wrong_type_is_refused_naming_it(name: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"kind": "sudoku-methods-run",
                                "runs": [{**OLD_RUN, name: WRONG[RUN_FIELD[name].kind]}]}))
    with pytest.raises(ReportError, match=f"run 0: {name} is "):
        load_document(str(path))


def test_the_check_of_a_saved_run_passes_what_the_harness_writes() -> None:
    flat = {**record(OLD_RUN), **{key: OLD_RUN.get(key) for key in EXTRA}}
    assert bad_field({**flat, "message": "", "claim": "", "reason": ""}) == ""


# ---------------------------------------------------------------- one definition

@pytest.mark.parametrize("kind", [Run, Outcome], ids=["Run", "Outcome"])
def test_every_field_a_run_carries_is_defined(kind: type) -> None:
    assert [f.name for f in fields(kind) if f.name not in RUN_FIELD] == []


ADDED = '''    RunField("gremlins", Kind.WHOLE, "gremlins met on the way", "count", null=True),\n'''
PROBE = '''
import json, sqlite3, sys
from pathlib import Path
from models import read_puzzles
from solvers.harness import cli
from solvers.harness.results import records
from solvers.harness.results.database import open_database
from solvers.harness.results.judge import judge
from solvers.harness.tasks import Configuration, Outcome, Task
from solvers.result import Status
from tests import docs_tables

puzzle = read_puzzles("puzzles/small_4x4.txt").puzzles[0]
(run,), _ = judge(puzzle, [("mrv", Outcome(Status.UNKNOWN, message="gave up"))])
run.gremlins = 7
database = open_database("runs.sqlite", create=True)
database.save_judged(1, [(b"k" * 16, Task(Configuration("mrv"), puzzle), Outcome(Status.UNKNOWN), run)])
database.close()
with sqlite3.connect("runs.sqlite") as connection:
    types = {row[1]: row[2] for row in connection.execute("PRAGMA table_info(runs)")}
Path("runs.csv").write_text(records.csv_text([run]))
code = cli.main(["report", "--db", "runs.sqlite", "--where", "gremlins>6", "--json", "selected.json"])
refused = cli.main(["report", "--db", "runs.sqlite", "--where", "gremlins>many"])
print(json.dumps({"type": types.get("gremlins"), "csv": Path("runs.csv").read_text().splitlines(),
                  "json": records.run_entry(run).get("gremlins"), "where": code, "refused": refused,
                  "selected": [r["gremlins"] for r in json.load(open("selected.json"))["runs"]],
                  "table": "| `gremlins` | whole number, or empty | count |" in records.field_table(),
                  "stale": docs_tables.stale(Path("."))}))
'''


def added(path: Path, anchor: str, line: str) -> None:
    """A line put into a copied module just before ``anchor``."""
    text = path.read_text()
    assert anchor in text
    path.write_text(text.replace(anchor, line + anchor, 1))


@pytest.mark.slow  # a copy of the checkout, compiled afresh in one interpreter: about 2 s
def test_a_field_added_to_the_definition_appears_everywhere(tmp_path: Path) -> None:
    """The field's one line in the definition, and the judge's Run carrying its value (what
    makes it): nothing else is edited, and it is in every place a run is written or read."""
    tree = copied_checkout(tmp_path / "tree")
    added(tree / "solvers" / "harness" / "tasks.py", '    RunField("verified_solutions"', ADDED)
    added(tree / "solvers" / "harness" / "results" / "judge.py", "    verified_solutions: int = 0\n",
          "    gremlins: int | None = None\n")
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=tree, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(tree)})
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    header, row = (line.split(",") for line in found["csv"])
    assert found["type"] == "INTEGER"
    assert row[header.index("gremlins")] == "7" and found["json"] == 7
    assert (found["where"], found["refused"], found["selected"]) == (0, 2, [7])
    assert found["table"] and found["stale"] == ["run-fields"]  # the docs check asks for the new row
