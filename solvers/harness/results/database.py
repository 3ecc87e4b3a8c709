"""The results database (``--db FILE.sqlite``): every run a row, written as it finishes.

One SQLite file, no server. ``format`` marks the file as ours (kind and version), so a
foreign or damaged file is refused by name; ``sweeps`` holds each invocation's options
and provenance; ``runs`` one judged run per row with records.py's fields, the grids
and the judge's words, the limit and the number of solutions asked for; ``pending``
the outcomes that arrived but whose (puzzle, repetition) is not judged yet (its other
configurations still running). Each outcome is committed as it arrives (WAL), so a
killed sweep loses only the runs in flight. A task is identified by its puzzle (file,
index, the puzzle's text with its variant), configuration (label, backend, plugin,
options), repetition, limit (and CPU limit, when set) and solutions asked for: ``--resume``
skips the recorded ones.

Columns: the runs table's are made from the one definition of a run's fields
(tasks.RUN_FIELDS), each with its type (INTEGER, REAL or TEXT), so SQL compares a number as a
number. Versions: version 5 gave the columns their types; a file of an older version is brought
up to it when opened (the runs table rebuilt with typed columns, in one transaction: all of it
or none), and a field the definition has gained since a file was written is added to it, empty
in the rows written before. A file this process may not write is read as it is, a column it
lacks read as empty. A newer version is refused by name.
"""
from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from models.symbols import SYMBOLS

from ...result import COUNTERS, Status
from ..engine.answers import MAX_INTEGER, AnswerError, check_answer
from ..engine.plugins import plugin_digest
from ..tasks import DATABASE, Kind, Outcome, Task, fields_in
from .db_checks import RAW_SOLUTIONS, RUN_CHECKS, SWEEP_CHECKS, bad_value, decoded
from .experiment import SweepStopped
from .judge import Run, _puzzle_text
from .records import record

KIND = "sudoku-methods-results"
VERSION = 5
OLDEST = 1
"""The oldest version this module reads (and brings up to VERSION)."""
RUN_COLUMNS = tuple(f.name for f in fields_in(DATABASE))
JSON_COLUMNS = tuple(f.name for f in fields_in(DATABASE) if f.kind in (Kind.OBJECT, Kind.GRIDS, Kind.STATS))
_ANSWER = ("status", "solutions", "complete", "stats", "message", "time_s", "cpu_s", "warmup")
MEASURED = tuple(name for name in Outcome.__dataclass_fields__ if name not in _ANSWER)
"""The Outcome's measuring fields (each a field of the run record), kept with a pending
outcome and a judged run."""
RUNS_TABLE = ("CREATE TABLE {name} (id INTEGER PRIMARY KEY, task BLOB NOT NULL UNIQUE, raw_solutions TEXT, "
              + ", ".join(f'"{f.name}" {f.sql_type}' for f in fields_in(DATABASE)) + ")")
"""The runs table, one typed column per field of the definition ({name}: the table's name)."""
RUNS_INDEXES = ('CREATE INDEX runs_by_set ON runs (file, n, configuration, "index", repeat)',
                'CREATE INDEX runs_by_puzzle ON runs (file, "index", repeat)')
SCHEMA = (
    "CREATE TABLE format (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE sweeps (id INTEGER PRIMARY KEY, started TEXT NOT NULL, finished TEXT, "
    "partial INTEGER, options TEXT NOT NULL, provenance TEXT NOT NULL)",
    RUNS_TABLE.format(name="runs"), *RUNS_INDEXES,
    "CREATE TABLE pending (task BLOB PRIMARY KEY, outcome TEXT NOT NULL)",
)


class DatabaseError(ValueError):
    """A results database that cannot be used: not SQLite, not ours, damaged or of a
    newer version; the message names the file."""


class ResumeRefused(DatabaseError, SweepStopped):
    """A resumed sweep meeting a recorded run of the same puzzle, configuration, repetition
    and limits whose key differs (its puzzle read from standard input changed): the sweep
    stops there rather than mix the two."""


def task_key(task: Task) -> bytes:
    """The identity of a task: everything that changes what its run means. The puzzle (file,
    index, its text with its variant), the configuration (label, backend, options, plugin and
    the plugin file's SHA-256), repetition, limit, solutions asked for (2 under --unique), and
    the CPU and memory limits when set (only then, so the keys of runs without them never
    change)."""
    ref, source = task.solver, task.puzzle.source
    identity = [source.file, source.index, _puzzle_text(task.puzzle),
                [ref.name, ref.backend, ref.plugin, list(ref.options)], task.repeat,
                float(task.time_limit), task.max_solutions]
    if task.cpu_limit is not None:
        identity.append(["cpu_limit", float(task.cpu_limit)])
    if task.count:  # a count is another question than a solve
        identity.append(["count", True])
    if task.memory_limit is not None:
        identity.append(["memory_limit", float(task.memory_limit)])
    if ref.plugin is not None:
        identity.append(["plugin_sha256", plugin_digest(ref.plugin)])
    text = json.dumps(identity, default=repr, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def outcome_text(outcome: Outcome) -> str:
    """An outcome as JSON (a value JSON cannot hold is kept as its repr)."""
    return json.dumps({"status": outcome.status.value, "solutions": [list(s) for s in outcome.solutions],
                       "complete": outcome.complete, "stats": outcome.stats, "message": outcome.message,
                       "time_s": outcome.time_s, "cpu_s": outcome.cpu_s, "warmup": outcome.warmup,
                       **{name: getattr(outcome, name) for name in MEASURED}},
                      default=repr, separators=(",", ":"))


def grid_values(text: str) -> tuple[int, ...]:
    """A solution as judge.grid_text wrote it, back to values ('.' is 0; '?' is not a value).

    >>> grid_values("12.4"), grid_values("10 25 3")
    ((1, 2, 0, 4), (10, 25, 3))
    """
    if " " in text:
        return tuple(int(token) for token in text.split())
    return tuple(0 if ch == "." else SYMBOLS.index(ch) + 1 for ch in text)


def raw_solutions(outcome: Outcome, run: Run) -> str | None:
    """The backend's solutions as JSON when the run's grid texts do not give them back exactly."""
    n, cells = run.n, run.n * run.n
    if all(len(s) == cells and all(type(v) is int and 0 <= v <= n for v in s)
           for s in outcome.solutions):
        return None  # judge.grid_text wrote these values exactly
    return json.dumps([list(s) for s in outcome.solutions], default=repr, separators=(",", ":"))


def outcome_from_text(text: str, where: str = "an outcome") -> Outcome:
    """A pending outcome back from its JSON: DatabaseError naming ``where`` if it is no JSON
    object (changed by hand, or damaged); otherwise checked as a worker's answer is (a value
    out of range, say a count an older compare.py stored beyond what SQLite's INTEGER holds,
    makes that run an error naming it: the rest of the sweep goes on)."""
    data, problem = decoded(text, "outcome")
    if problem is None and not isinstance(data, dict):
        problem = "outcome is not a JSON object"
    if problem is not None:
        raise DatabaseError(f"{where}: {problem} (changed by hand, or damaged)")
    try:
        return check_answer(data, MAX_INTEGER, MAX_INTEGER, stored=True)
    except AnswerError as error:
        return Outcome(Status.ERROR, message=f"malformed outcome in the results database ({where}): {error}")


_OUTCOME_COLUMNS = ("status", "solutions", "raw_solutions", "complete", "stats", "message", "time_s",
                    "cpu_s", "warmup", *MEASURED)
"""The columns of runs that give back a judged run's outcome (for --resume)."""
_OUTCOME_RUN_CHECKS = {k: v for k, v in RUN_CHECKS.items() if k in _OUTCOME_COLUMNS}


class ResultsDatabase:
    """An open results database; ``open_database`` makes one."""

    def __init__(self, path: str, connection: sqlite3.Connection):
        self.path, self.connection = path, connection
        self.columns = _columns(connection)
        """The runs table's columns: all of RUN_COLUMNS but in an older file read as it is."""

    def _selected(self, columns: Iterable[str]) -> str:
        """A SELECT list of these columns, one the file lacks read as empty."""
        return ", ".join(f'"{c}"' if c in self.columns else f'NULL AS "{c}"' for c in columns)

    # ------------------------------------------------------------ writing

    def start_sweep(self, options: dict[str, Any], provenance: dict[str, Any]) -> int:
        with self.connection:
            cursor = self.connection.execute(
                "INSERT INTO sweeps (started, options, provenance) VALUES (?, ?, ?)",
                (_now(), json.dumps(options, default=repr), json.dumps(provenance, default=repr)))
        return int(cursor.lastrowid or 0)

    def finish_sweep(self, sweep: int, *, partial: bool, provenance: dict[str, Any] | None = None) -> None:
        """Mark a sweep finished; ``provenance``, if given, replaces what it started with (the
        load as it ended is known only now)."""
        with self.connection:
            self.connection.execute("UPDATE sweeps SET finished = ?, partial = ? WHERE id = ?",
                                    (_now(), int(partial), sweep))
            if provenance is not None:
                self.connection.execute("UPDATE sweeps SET provenance = ? WHERE id = ?",
                                        (json.dumps(provenance, default=repr), sweep))

    def add_pending(self, items: Iterable[tuple[bytes, Outcome]]) -> None:
        """Outcomes that arrived, before their (puzzle, repetition) is judged; committed."""
        with self.guarded(), self.connection:
            self.connection.executemany("INSERT OR REPLACE INTO pending VALUES (?, ?)",
                                        [(key, outcome_text(o)) for key, o in items])

    def save_judged(self, sweep: int, entries: Sequence[tuple[bytes, Task, Outcome, Run]],
                    pending: Sequence[bytes] = (), ran: Iterable[bytes] = ()) -> int:
        """A judged (puzzle, repetition): its runs written (replacing earlier judgements of
        the same tasks) and its ``pending`` outcomes removed, in one transaction under the
        write lock. A task this sweep ran (``ran``) that another sweep has written meanwhile
        with a run of its own keeps that sweep's run (this sweep's run, left pending and
        judged by the other, is this sweep's still); returns how many were kept so (none
        without a second writer)."""
        names = ("task", "raw_solutions", *RUN_COLUMNS)
        sql = (f"INSERT INTO runs ({', '.join(f'{chr(34)}{c}{chr(34)}' for c in names)}) "
               f"VALUES ({', '.join('?' * len(names))}) ON CONFLICT(task) DO UPDATE SET "
               + ", ".join(f'"{c}" = excluded."{c}"' for c in names[1:] if c != "sweep"))
        ran = set(ran)
        with self.guarded(), _write_locked(self.connection):
            mine = {key: (outcome.worker, outcome.sequence, outcome.time_s)
                    for key, _, outcome, _ in entries if key in ran}
            taken = {key for key, *measured in self.connection.execute(
                f"SELECT task, worker, sequence, time_s FROM runs WHERE task IN ({', '.join('?' * len(mine))})",
                list(mine)) if tuple(measured) != mine[key]} if mine else set()  # the same run: ours,
            rows = [(key, raw_solutions(outcome, run), *_row_values(sweep, task, run))  # judged by another
                    for key, task, outcome, run in entries if key not in taken]
            self.connection.executemany(sql, rows)
            if pending:
                self.connection.executemany("DELETE FROM pending WHERE task = ?",
                                            [(key,) for key in pending])
        return len(taken)

    def slot_keys(self, task: Task, labels: Sequence[str]) -> dict[str, bytes]:
        """The keys of judged runs recorded for this task's puzzle (file and index),
        repetition, limit and solutions asked for, by configuration label (of ``labels``)."""
        source = task.puzzle.source
        marks = ", ".join("?" * len(labels))
        with self.guarded():
            rows = self.connection.execute(
                f'SELECT configuration, task FROM runs WHERE file = ? AND "index" = ? AND repeat = ? '
                f"AND limit_s = ? AND max_solutions = ? AND configuration IN ({marks})",
                [source.file, source.index, task.repeat, float(task.time_limit), task.max_solutions,
                 *labels]).fetchall()
        return {label: key for label, key in rows}

    # ------------------------------------------------------------ reading

    def recorded(self, keys: Sequence[bytes]) -> dict[bytes, tuple[bool, Outcome]]:
        """Of these tasks, those recorded: key -> (judged?, outcome)."""
        with self.guarded():
            return self._recorded(keys)

    def _recorded(self, keys: Sequence[bytes]) -> dict[bytes, tuple[bool, Outcome]]:
        marks = ", ".join("?" * len(keys))
        found: dict[bytes, tuple[bool, Outcome]] = {}
        for key, row_id, text in self.connection.execute(
                f"SELECT task, rowid, outcome FROM pending WHERE task IN ({marks})", list(keys)):
            found[key] = (False, outcome_from_text(text, f"{self.path}: table pending, row id {row_id}"))
        names = _OUTCOME_COLUMNS
        for key, row_id, *values in self.connection.execute(
                f"SELECT task, id, {self._selected(names)} FROM runs WHERE task IN ({marks})", list(keys)):
            row = self._checked_run(row_id, dict(zip(names, values)))
            found[key] = (True, _recorded_outcome(*(row[name] for name in names)))
        return found

    def count_runs(self) -> int:
        return int(self.connection.execute("SELECT COUNT(*) FROM runs").fetchone()[0])

    def count_pending(self) -> int:
        return int(self.connection.execute("SELECT COUNT(*) FROM pending").fetchone()[0])

    def sweeps(self) -> list[dict[str, Any]]:
        """Every sweep written to this file, oldest first, options and provenance decoded."""
        found = []
        with self.guarded():
            for i, s, f, p, o, v in self.connection.execute(
                    "SELECT id, started, finished, partial, options, provenance FROM sweeps ORDER BY id"):
                row = {"started": s, "finished": f, "partial": p}
                problem = None
                for column, text in (("options", o), ("provenance", v)):
                    row[column], problem = decoded(text, column)
                    if problem:
                        break
                problem = problem or bad_value(SWEEP_CHECKS, row)
                if problem:
                    raise DatabaseError(f"{self.path}: table sweeps, row id {i}: {problem} "
                                        "(changed by hand, or damaged)")
                found.append({**row, "id": i, "partial": bool(p) if p is not None else True})
        return found

    def runs(self, where: str = "", params: Sequence[Any] = (), order: str = "id") -> Iterator[dict[str, Any]]:
        """Runs as the JSON document holds them (records.py's fields, then the grids and the
        judge's words), read one at a time."""
        sql = f"SELECT id, {self._selected(RUN_COLUMNS)} FROM runs" + (f" WHERE {where}" if where else "")
        with self.guarded():
            for row_id, *values in self.connection.execute(sql + f" ORDER BY {order}", list(params)):
                yield _run_dict(self._checked_run(row_id, dict(zip(RUN_COLUMNS, values))))

    def _checked_run(self, row_id: int, row: dict[str, Any]) -> dict[str, Any]:
        """A row of runs with its JSON columns decoded and every value checked (RUN_CHECKS);
        DatabaseError naming the table, the row id and the column otherwise."""
        problem = None
        for column in (*JSON_COLUMNS, "raw_solutions"):
            if column in row and problem is None:
                row[column], problem = decoded(row[column], column)
        if problem is None:
            problem = bad_value(RUN_CHECKS if len(row) > len(_OUTCOME_COLUMNS) else _OUTCOME_RUN_CHECKS, row)
        if problem is None and "raw_solutions" in row and not RAW_SOLUTIONS[0](row["raw_solutions"]):
            problem = f"raw_solutions is not {RAW_SOLUTIONS[1]}"
        if problem is not None:
            raise DatabaseError(f"{self.path}: table runs, row id {row_id}: {problem} (changed by hand, or damaged)")
        return row

    def groups(self, where: str = "", params: Sequence[Any] = ()) -> list[tuple[str, int, str]]:
        """The (file, n, configuration) sets in the order they were first written."""
        sql = ("SELECT file, n, configuration, MIN(id) FROM runs" + (f" WHERE {where}" if where else "")
               + " GROUP BY file, n, configuration ORDER BY MIN(id)")
        with self.guarded():
            found = [tuple(row) for row in self.connection.execute(sql, list(params))]
        for *row, row_id in found:
            problem = bad_value({k: RUN_CHECKS[k] for k in ("file", "n", "configuration")},
                                dict(zip(("file", "n", "configuration"), row)))
            if problem:
                raise DatabaseError(f"{self.path}: table runs, row id {row_id}: {problem} "
                                    "(changed by hand, or damaged)")
        return [(file, n, configuration) for file, n, configuration, _ in found]

    @contextlib.contextmanager
    def guarded(self) -> Iterator[None]:
        """SQLite's errors (a page damaged, the file locked by another writer) as DatabaseError."""
        try:
            yield
        except sqlite3.DatabaseError as error:
            raise DatabaseError(f"{self.path}: {error}") from None

    def close(self) -> None:
        self.connection.close()


def open_database(path: str, *, create: bool) -> ResultsDatabase:
    """Open a results database; a missing or empty file is created when ``create``.
    DatabaseError (naming the file) for anything that is not one; each row is checked as it
    is read (db_checks), a damaged one a DatabaseError naming its table, row id and column.

    Without ``create`` (reading), a file or folder this process may not write is opened
    read-only (SQLite's ``mode=ro``; ``immutable`` when its folder cannot hold the WAL's
    shared-memory file). Two sweeps creating the same new file at once: the schema is made
    in one transaction under SQLite's write lock (each waits for the other, up to 30 s),
    so the second finds the first's complete file."""
    file = Path(path)
    fresh = not file.exists() or (file.is_file() and file.stat().st_size == 0)
    if fresh and not create:
        raise DatabaseError(f"{path}: no such results database")
    if file.exists() and not file.is_file():
        raise DatabaseError(f"{path}: not a file")
    read_only = not create and not (os.access(file, os.W_OK) and os.access(file.resolve().parent, os.W_OK))
    try:
        connection = _connect(file, read_only)
    except sqlite3.DatabaseError as error:
        raise DatabaseError(f"{path}: cannot open ({error})") from None
    try:
        if create:
            _create_schema(connection)
        _check_format(path, connection, read_only=read_only)
        if not read_only:
            _use_wal(connection)
            connection.execute("PRAGMA synchronous=NORMAL")
    except (sqlite3.DatabaseError, DatabaseError) as error:
        connection.close()
        if isinstance(error, DatabaseError):
            raise
        raise DatabaseError(f"{path}: not a usable results database ({error})") from None
    return ResultsDatabase(path, connection)


def _connect(file: Path, read_only: bool) -> sqlite3.Connection:
    """A connection (autocommit off, as the writers expect); read-only ones through a URI."""
    if not read_only:
        return sqlite3.connect(file, timeout=30)
    uri = f"file:{urllib.parse.quote(str(file.resolve()))}?mode=ro"
    connection = sqlite3.connect(uri, uri=True, timeout=30)
    try:
        connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return connection
    except sqlite3.OperationalError:  # a WAL file whose folder cannot hold its -shm: read as is
        connection.close()
        return sqlite3.connect(uri + "&immutable=1", uri=True, timeout=30)


def _use_wal(connection: sqlite3.Connection, patience: float = 30.0) -> None:
    """Switch the file to write-ahead logging. Two connections switching at once can both
    hold a shared lock and want the exclusive one; SQLite then answers "locked" at once,
    without waiting, to the one it refuses. So the switch is tried again for up to
    ``patience`` seconds (the other connection's switch is done in milliseconds)."""
    deadline = time.monotonic() + patience
    pause = 0.001
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.1)


@contextlib.contextmanager
def _write_locked(connection: sqlite3.Connection) -> Iterator[None]:
    """One transaction under SQLite's write lock (waiting, by the busy timeout, while another
    connection holds it): every statement inside happens, or none does."""
    previous, connection.isolation_level = connection.isolation_level, None
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    finally:
        connection.isolation_level = previous


def _create_schema(connection: sqlite3.Connection) -> None:
    """The tables and the format marks of a new file, all at once under the write lock; a
    file that has tables already (another sweep made them first) is left as it is."""
    with _write_locked(connection):
        if connection.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0:
            for statement in SCHEMA:
                connection.execute(statement)
            connection.executemany("INSERT INTO format VALUES (?, ?)",
                                   [("kind", KIND), ("version", str(VERSION))])


def _check_format(path: str, connection: sqlite3.Connection, *, read_only: bool = False) -> None:
    """Refuse a file that is not ours, is damaged or is of a newer version; bring an older one
    (or one without a column the definition has gained) up to this one, unless read-only."""
    try:
        marks = dict(connection.execute("SELECT key, value FROM format"))
    except sqlite3.DatabaseError as error:
        if "no such table" in str(error):
            raise DatabaseError(f"{path}: an SQLite file, but not a compare.py results database "
                                "(it has no format table)") from None
        raise
    if marks.get("kind") != KIND:
        raise DatabaseError(f"{path}: not a compare.py results database (kind {marks.get('kind')!r})")
    version = marks.get("version")
    if version not in {str(known) for known in range(OLDEST, VERSION + 1)}:
        raise DatabaseError(f"{path}: results database version {version}, but this "
                            f"compare.py reads version {VERSION}")
    connection.execute("SELECT COUNT(*) FROM runs JOIN sweeps ON sweeps.id = runs.sweep").fetchone()
    connection.execute("SELECT task, outcome FROM pending LIMIT 1").fetchone()  # every table is there
    result = connection.execute("PRAGMA quick_check").fetchone()
    if result is None or result[0] != "ok":
        raise DatabaseError(f"{path}: the database is damaged ({result[0] if result else 'no answer'})")
    if not read_only and (int(str(version)) < VERSION or set(RUN_COLUMNS) - _columns(connection)):
        _bring_up(connection)


def _columns(connection: sqlite3.Connection) -> set[str]:
    """The columns the file's runs table has."""
    return {row[1] for row in connection.execute("PRAGMA table_info(runs)")}


def _bring_up(connection: sqlite3.Connection) -> None:
    """The runs table brought up to the definition in one transaction: a file of a version
    before typed columns (5) has it rebuilt with them, its values kept; a column the
    definition has gained is added, empty in the rows there are."""
    with _write_locked(connection):
        version = int(connection.execute("SELECT value FROM format WHERE key = 'version'").fetchone()[0])
        present = _columns(connection)
        if version < 5:
            kept = ", ".join(_quoted(c for c in ("id", "task", "raw_solutions", *RUN_COLUMNS) if c in present))
            for statement in (RUNS_TABLE.format(name="runs_typed"),
                              f"INSERT INTO runs_typed ({kept}) SELECT {kept} FROM runs",
                              "DROP TABLE runs", "ALTER TABLE runs_typed RENAME TO runs", *RUNS_INDEXES):
                connection.execute(statement)
        else:
            for run_field in fields_in(DATABASE):
                if run_field.name not in present:
                    connection.execute(f'ALTER TABLE runs ADD COLUMN "{run_field.name}" {run_field.sql_type}')
        connection.execute("UPDATE format SET value = ? WHERE key = 'version'", (str(VERSION),))


def _recorded_outcome(status: str, solutions: list[str], raw: list[list[Any]] | None, complete: int,
                      stats: dict[str, Any] | None, message: str, time_s: float, cpu_s: float | None,
                      warmup: int, *measured: Any) -> Outcome:
    """A judged run's outcome as the backend gave it (its row checked and decoded), for judging
    it again with new runs."""
    grids = raw if raw is not None else [grid_values(t) for t in solutions]
    found = {name: value for name, value in zip(MEASURED, measured) if value is not None}
    return Outcome(Status(status), [tuple(g) for g in grids], bool(complete), stats or {},
                   message, time_s, cpu_s, bool(warmup), **found)


def _row_values(sweep: int, task: Task, run: Run) -> list[Any]:
    data = dict(vars(run))  # a shallow copy: Run.as_dict's deep copy costs more than the write
    flat = {**data, **record(data), "sweep": sweep, "limit_s": float(task.time_limit),
            "max_solutions": task.max_solutions}
    return [json.dumps(flat.get(c), default=repr, separators=(",", ":")) if c in JSON_COLUMNS else
            flat.get(c) for c in RUN_COLUMNS]


def _run_dict(data: dict[str, Any]) -> dict[str, Any]:
    """A checked row of runs (JSON columns decoded) as the JSON document holds a run."""
    data["warmup"], data["complete"] = bool(data["warmup"]), bool(data["complete"])
    data["options"] = data["options"] or {}
    data["stats"] = data["stats"] or {}
    for counter in COUNTERS:
        data.pop(counter, None)  # the stats hold them; record() takes them from there
    return {**record(data), **data}


def _quoted(columns: Iterable[str]) -> list[str]:
    return [f'"{c}"' for c in columns]


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


class DatabaseStore:
    """experiment.Store writing to a results database: each outcome as it arrives (pending),
    each judged (puzzle, repetition) at once; with ``resume``, recorded tasks are skipped."""

    def __init__(self, database: ResultsDatabase, sweep: int, *, resume: bool):
        self.database, self.sweep, self.resume = database, sweep, resume
        self.pending: set[bytes] = set()  # keys in the pending table, of groups still open
        self.known: set[bytes] = set()  # keys recorded before this sweep ran them (--resume)
        self.taken = 0
        """Runs of this sweep not written because another sweep wrote the same task first."""

    def recorded(self, tasks: Sequence[Task]) -> dict[int, tuple[bool, Outcome]]:
        if not self.resume:
            return {}
        keys = [task_key(task) for task in tasks]
        found = self.database.recorded(keys)
        self.pending.update(key for key in keys if key in found and not found[key][0])
        self.known.update(found)
        self._refuse_unlike(tasks, keys, found)
        return {position: found[key] for position, key in enumerate(keys) if key in found}

    def _refuse_unlike(self, tasks: Sequence[Task], keys: Sequence[bytes], found: dict[bytes, Any]) -> None:
        """ResumeRefused when a task not recorded has a recorded run in its place (same puzzle
        file and index, configuration, repetition, limit, solutions) under another key."""
        missing = [(task, key) for task, key in zip(tasks, keys) if key not in found]
        if not missing:
            return
        recorded = self.database.slot_keys(missing[0][0], [task.solver.name for task, _ in missing])
        for task, key in missing:
            if recorded.get(task.solver.name, key) != key:
                source = task.puzzle.source
                raise ResumeRefused(
                    f"{self.database.path}: --resume would mix unlike runs: {source.file} puzzle "
                    f"{source.index + 1}, configuration {task.solver.name!r}, repetition {task.repeat} "
                    "is recorded for another puzzle text, plugin file or limit than this sweep's "
                    "(did the input change?); give a new --db file")

    def arrived(self, task: Task, outcome: Outcome) -> None:
        key = task_key(task)
        self.database.add_pending([(key, outcome)])
        self.pending.add(key)

    def judged(self, serial: int, tasks: Sequence[Task], outcomes: Sequence[Outcome],  # noqa: ARG002 - the Recorder's
               runs: Sequence[Run], disagreement: object) -> None:  # noqa: ARG002 - signature; the database keeps runs
        entries = [(task_key(t), t, o, r) for t, o, r in zip(tasks, outcomes, runs)]
        written = [key for key, *_ in entries if key in self.pending]
        ran = [key for key, *_ in entries if key not in self.known]
        self.taken += self.database.save_judged(self.sweep, entries, written, ran)
        self.pending.difference_update(written)
