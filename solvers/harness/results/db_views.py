"""Tables and documents from a results database, through the same code as from a saved JSON.

A selection is a list of filters ``COLUMN OP VALUE`` (OP one of = != < <= > >=, and ~
for a pattern with * as wildcard; ``=`` and ``!=`` take comma-separated values), all
of which a run must meet, e.g. ``configuration=mrv,sat``, ``time_s>0.5``,
``file~*17_clue*``; besides the stored columns, ``puzzle`` is the puzzle's number as the
command line counts (from 1: the stored ``index`` + 1). A value is typed by its column's
field in the run record's definition (tasks.RUN_FIELDS): a number for every numeric field
(true and false for a flag), text for the rest. Summaries are built puzzle by puzzle from the database, so a
table of millions of runs needs little memory.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any

from ..tasks import DATABASE, Kind, fields_in
from .database import RUN_COLUMNS, DatabaseError, ResultsDatabase
from .db_checks import RUN_CHECKS
from .records import EXTRA, record
from .report import DOCUMENT_KIND, DOCUMENT_VERSION, GroupSummary

PUZZLE = "puzzle"
"""The filter column that is no stored column: the puzzle's number counted from 1 (index + 1)."""
KINDS = {**{f.name: f.kind for f in fields_in(DATABASE)}, PUZZLE: Kind.WHOLE}
"""Each filter column's kind, from the definition of a run's fields."""
NUMERIC = frozenset(name for name, kind in KINDS.items() if kind in (Kind.WHOLE, Kind.NUMBER, Kind.FLAG))
"""The columns a filter compares as numbers."""
_FILTER = re.compile(r"^\s*([A-Za-z_]+)\s*(!=|<=|>=|=|<|>|~)\s*(.*?)\s*$")


class SelectionError(DatabaseError):
    """A --where filter that names no column or cannot be read."""


@dataclass
class Selection:
    """A SQL condition on the runs table with its parameters ('' selects every run)."""

    sql: str = ""
    params: list[Any] = field(default_factory=list)

    def and_(self, sql: str, params: Sequence[Any] = ()) -> Selection:
        joined = f"({self.sql}) AND ({sql})" if self.sql else sql
        return Selection(joined, [*self.params, *params])


def parse_filters(filters: Sequence[str]) -> Selection:
    """The selection a list of filters make (see the module's text).

    >>> parse_filters(["configuration=mrv,sat", "time_s>0.5"]).sql
    '("configuration" IN (?, ?)) AND ("time_s" > ?)'
    """
    selection = Selection()
    for text in filters:
        match = _FILTER.match(text)
        if not match:
            raise SelectionError(f"--where {text!r}: expected COLUMN OP VALUE, e.g. "
                                 "configuration=mrv or time_s>0.5")
        column, op, value = match.groups()
        if column not in RUN_COLUMNS and column != PUZZLE:
            raise SelectionError(f"--where {text!r}: no column {column!r}; columns: "
                                 + ", ".join(RUN_COLUMNS) + f", and {PUZZLE} (index + 1)")
        selection = selection.and_(*_condition(column, op, value))
    return selection


def _condition(column: str, op: str, value: str) -> tuple[str, list[Any]]:
    target = '("index" + 1)' if column == PUZZLE else f'"{column}"'
    if op == "~":
        return f'{target} LIKE ?', [value.replace("*", "%")]
    values = [_typed(column, v.strip()) for v in value.split(",")] if op in ("=", "!=") else \
        [_typed(column, value)]
    if len(values) > 1:
        marks = ", ".join("?" * len(values))
        return f'{target} {"NOT IN" if op == "!=" else "IN"} ({marks})', values
    return f'{target} {op} ?', values


def _typed(column: str, value: str) -> Any:
    """A filter's value as its column holds it: a number for a numeric column (true and false
    are 1 and 0), else the text.

    >>> _typed("clauses", "137"), _typed("warmup", "true"), _typed("proof", "137")
    (137, 1, '137')
    """
    if column not in NUMERIC:
        return value
    if value.lower() in ("true", "false"):
        return int(value.lower() == "true")
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise SelectionError(f"--where: {column} is a number, not {value!r}")
    return int(number) if number.is_integer() and abs(number) < 2 ** 63 else number


def summary_rows(database: ResultsDatabase, selection: Selection, *, unique: bool,
                 limit: float | None, par: float, exclude_warmup: bool = False) -> list[dict[str, Any]]:
    """report.summarize's rows, read set by set and puzzle by puzzle from the database."""
    if exclude_warmup:
        selection = selection.and_("warmup = 0")
    rows = []
    for file, n, configuration in database.groups(selection.sql, selection.params):
        chosen = selection.and_("file = ? AND n = ? AND configuration = ?", [file, n, configuration])
        summary = GroupSummary(unique=unique, limit=limit, par=par)
        runs = database.runs(chosen.sql, chosen.params, order='"index", repeat, id')
        for _, records in groupby(runs, key=lambda run: run["index"]):
            summary.add_puzzle(list(records))
        rows.append(summary.row())
    return rows


def errors(database: ResultsDatabase, selection: Selection, most: int = 11) -> list[dict[str, Any]]:
    """The first runs judged an error (for report.render_failures)."""
    chosen = selection.and_("category = 'error'")
    return [run for _, run in zip(range(most), database.runs(chosen.sql, chosen.params))]


def disagreements(database: ResultsDatabase, selection: Selection) -> list[dict[str, Any]]:
    """Every (puzzle, repetition, limit) on which some selected run was wrong, with the claims
    of every selected run on it (the JSON document's disagreements)."""
    wrong = selection.and_("category = 'wrong'")
    keys = sorted({(r["file"], r["index"], r["repeat"], r["limit_s"], r["max_solutions"])
                   for r in database.runs(wrong.sql, wrong.params)})
    found = []
    for key in keys:
        same = selection.and_('file = ? AND "index" = ? AND repeat = ? AND limit_s = ? AND '
                              "max_solutions = ?", key)
        claims = list(database.runs(same.sql, same.params))
        first = claims[0]
        found.append({"file": first["file"], "index": first["index"], "line": first["line"],
                      "puzzle": first["puzzle"],
                      "claims": [{"solver": c["solver"], "claim": c["claim"], "category": c["category"],
                                  "reason": c["reason"]} for c in claims]})
    return found


def run_entries(database: ResultsDatabase, selection: Selection) -> Iterator[dict[str, Any]]:
    """Selected runs as the JSON document saves them: records.py's fields, then EXTRA."""
    for run in database.runs(selection.sql, selection.params):
        yield {**record(run), **{key: run.get(key) for key in EXTRA}}


def limits(database: ResultsDatabase, selection: Selection) -> list[float]:
    """The distinct time limits of the selected runs."""
    sql = "SELECT DISTINCT limit_s FROM runs" + (f" WHERE {selection.sql}" if selection.sql else "")
    with database.guarded():
        found = [row[0] for row in database.connection.execute(sql, selection.params)]
    fits, what = RUN_CHECKS["limit_s"]
    for value in found:
        if not fits(value):
            raise DatabaseError(f"{database.path}: table runs: a limit_s is {value!r}, not {what} "
                                "(changed by hand, or damaged)")
    return found


def refuse_unlike(database: ResultsDatabase, selection: Selection, found: Sequence[float]) -> None:
    """DatabaseError when the selected runs were made under several time limits, or asked
    for several numbers of solutions (a database written before --resume refused such a
    change): unlike runs are never summed in one table; --where picks one kind."""
    sql = "SELECT DISTINCT max_solutions FROM runs" + (f" WHERE {selection.sql}" if selection.sql else "")
    with database.guarded():
        asked = sorted(row[0] for row in database.connection.execute(sql, selection.params)
                       if isinstance(row[0], int))
    if len(found) > 1:
        shown = ", ".join(f"{value:g} s" for value in sorted(found))
        raise DatabaseError(f"{database.path}: the selected runs were made under {len(found)} time "
                            f"limits ({shown}): they are not alike, so no table sums them; pick one "
                            f"with --where limit_s={sorted(found)[0]:g}")
    if len(asked) > 1:
        raise DatabaseError(f"{database.path}: the selected runs asked for {len(asked)} numbers of "
                            f"solutions ({', '.join(map(str, asked))}; 2 is --unique): they are not "
                            f"alike, so no table sums them; pick one with --where max_solutions={asked[0]}")


HOW_IT_RAN = ("jobs", "executor", "ran_on", "kill_after_s", "par", "exclude_warmup", "chunk_size")
"""Sweep options that say how a sweep ran, not which tasks it holds: a --resume may change them."""


def cut_short(sweeps: Sequence[dict[str, Any]]) -> bool:
    """Whether a sweep was cut short (interrupted, killed) and no later sweep of the same
    tasks (the same options but for HOW_IT_RAN: a --resume) finished whole.

    >>> first, other = {"paths": ["a.txt"], "jobs": 2}, {"paths": ["b.txt"], "jobs": 2}
    >>> cut_short([{"partial": True, "options": first}, {"partial": False, "options": {**first, "jobs": 1}}])
    False
    >>> cut_short([{"partial": True, "options": first}, {"partial": False, "options": other}])
    True
    """
    def tasks(sweep: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in sweep["options"].items() if k not in HOW_IT_RAN}
    return any(sweep["partial"] and not any(not later["partial"] and tasks(later) == tasks(sweep)
                                            for later in sweeps[number + 1:])
               for number, sweep in enumerate(sweeps))


def document(database: ResultsDatabase, selection: Selection, *, par: float = 2.0,
             runs: bool = True, exclude_warmup: bool = False) -> dict[str, Any]:
    """The selected runs as one saved-run document (report.py's shape): the latest sweep's
    provenance and options, the summary, the disagreements, every run (none unless
    ``runs``: the rest is made run by run); partial when a sweep was cut short and not
    completed since (``cut_short``)."""
    sweeps = database.sweeps()
    latest = sweeps[-1] if sweeps else {"provenance": {}, "options": {}}
    found = limits(database, selection)
    refuse_unlike(database, selection, found)
    limit = found[0] if len(found) == 1 else None
    options = {**latest["options"], "par": par}
    unique = bool(options.get("unique"))
    return {
        "kind": DOCUMENT_KIND, "version": DOCUMENT_VERSION,
        "partial": cut_short(sweeps), **latest["provenance"], "limit_s": limit,
        "options": options, "input_errors": [],
        "summary": summary_rows(database, selection, unique=unique, limit=limit, par=par,
                                exclude_warmup=exclude_warmup),
        "disagreements": disagreements(database, selection),
        "runs": list(run_entries(database, selection)) if runs else [],
        "sweeps": [{k: s[k] for k in ("id", "started", "finished", "partial")} for s in sweeps],
    }
