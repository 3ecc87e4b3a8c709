"""The rows of a results database checked as it is opened: a hand-edited or damaged value
is a DatabaseError naming the table, the row and the column (exit 2), never an exception
deep in a report (exit 3).

Every check is one SQL scan per table (``CASE`` over the columns, SQLite's JSON functions
for the JSON ones), so a file of 100,000 runs is checked in well under a second (bench/README.md), before any
row is used. What a column must hold is RUN_CHECKS: the harness writes nothing else.
"""
from __future__ import annotations

import sqlite3

from ...result import COUNTERS, Status
from .judge import Category

MAX_NUMBER = 2.0 ** 63
"""The largest number a column may hold (SQLite's largest integer): finite, never Inf."""


def _number(column: str, *, null: bool = False, whole: bool = False, low: float = 0) -> tuple[str, str]:
    kinds = "('integer')" if whole else "('integer', 'real')"
    test = f'typeof("{column}") IN {kinds} AND "{column}" BETWEEN {low} AND {MAX_NUMBER!r}'
    what = ("a whole number" if whole else "a number") + f" from {low:g} to {MAX_NUMBER:.3g}"
    if null:
        return f'("{column}" IS NULL OR ({test}))', what + " or null"
    return f"({test})", what


def _text(column: str, *, null: bool = False, among: tuple[str, ...] = ()) -> tuple[str, str]:
    test = f"typeof(\"{column}\") = 'text'"
    what = "text"
    if among:
        test += f' AND "{column}" IN ({", ".join(repr(str(a)) for a in among)})'
        what = "one of " + ", ".join(str(a) for a in among)
    if null:
        return f'("{column}" IS NULL OR ({test}))', what + " or null"
    return f"({test})", what


def _valid(column: str) -> str:
    """The column's JSON when it is valid JSON text, else 'null': json_type never sees bad JSON
    (it raises 'malformed JSON' rather than answering, whatever AND is around it)."""
    return (f"(CASE WHEN typeof(\"{column}\") = 'text' AND json_valid(\"{column}\") "
            f"THEN \"{column}\" ELSE 'null' END)")


def _json(column: str, kind: str, *, null: bool = False) -> tuple[str, str]:
    test = f"(typeof(\"{column}\") = 'text' AND json_type({_valid(column)}) = '{kind}')"
    what = f"a JSON {kind}"
    if null:
        return f'("{column}" IS NULL OR {test})', what + " or null"
    return test, what


def _flag(column: str) -> tuple[str, str]:
    return f'("{column}" IN (0, 1))', "0 or 1"


def _stats(column: str) -> tuple[str, str]:
    test, what = _json(column, "object", null=True)
    numeric = " AND ".join(f"coalesce(json_type({_valid(column)}, '$.{name}'), 'null') IN ('integer', 'real', 'null')"
                           for name in ("wall_time", "encode_time", "solve_time", *COUNTERS))
    return f"({test} AND ({column} IS NULL OR ({numeric})))", what + " whose times and counters are numbers"


RUN_CHECKS: dict[str, tuple[str, str]] = {
    "sweep": _number("sweep", whole=True), "limit_s": _number("limit_s"),
    "max_solutions": _number("max_solutions", whole=True, low=1),
    "file": _text("file"), "index": _number("index", whole=True), "line": _number("line", null=True, whole=True),
    "n": _number("n", whole=True, low=1), "box": _text("box", null=True), "variant": _text("variant", null=True),
    "configuration": _text("configuration"), "backend": _text("backend", null=True),
    "options": _json("options", "object", null=True), "repeat": _number("repeat", whole=True),
    "order": _number("order", null=True, whole=True),
    "status": _text("status", among=tuple(Status)), "category": _text("category", among=tuple(Category)),
    "time_s": _number("time_s"), "cpu_s": _number("cpu_s", null=True), "warmup": _flag("warmup"),
    "peak_memory_mb": _number("peak_memory_mb", null=True), "termination": _text("termination", null=True),
    "host": _text("host", null=True), "worker": _number("worker", null=True, whole=True),
    "sequence": _number("sequence", null=True, whole=True), "proof": _text("proof", null=True),
    "verified_solutions": _number("verified_solutions", null=True, whole=True),
    **{counter: _number(counter, null=True) for counter in COUNTERS},
    "puzzle": _text("puzzle"), "size": _text("size"), "solver": _text("solver"),
    "solutions": _json("solutions", "array"), "complete": _flag("complete"), "stats": _stats("stats"),
    "message": _text("message", null=True), "claim": _text("claim", null=True),
    "reason": _text("reason", null=True), "raw_solutions": _json("raw_solutions", "array", null=True),
}
"""Column -> (the SQL test a good value passes, what it must be, for the message)."""
SWEEP_CHECKS: dict[str, tuple[str, str]] = {
    "started": _text("started"), "finished": _text("finished", null=True),
    "partial": ('("partial" IS NULL OR "partial" IN (0, 1))', "0, 1 or null"),
    "options": _json("options", "object"), "provenance": _json("provenance", "object"),
}
PENDING_CHECKS: dict[str, tuple[str, str]] = {
    "outcome": (
        f"(json_type({_valid('outcome')}) = 'object'"
        f" AND json_extract({_valid('outcome')}, '$.status') IN ({', '.join(repr(str(s)) for s in Status)})"
        f" AND json_type({_valid('outcome')}, '$.solutions') = 'array'"
        f" AND json_type({_valid('outcome')}, '$.stats') = 'object'"
        f" AND json_type({_valid('outcome')}, '$.time_s') IN ('integer', 'real')"
        f" AND coalesce(json_type({_valid('outcome')}, '$.cpu_s'), 'null') IN ('integer', 'real', 'null'))",
        "an outcome as JSON (status, solutions, stats, time_s)"),
}
TABLES = {"runs": (RUN_CHECKS, "id"), "sweeps": (SWEEP_CHECKS, "id"), "pending": (PENDING_CHECKS, "rowid")}


def first_bad_row(connection: sqlite3.Connection) -> str | None:
    """'table T, row id K: COLUMN is VALUE, not WHAT' for the first bad value, or None."""
    for table, (checks, key) in TABLES.items():
        cases = " ".join(f"WHEN NOT coalesce({test}, 0) THEN '{column}'" for column, (test, _) in checks.items())
        row = connection.execute(f"SELECT {key}, CASE {cases} END AS bad FROM {table} "
                                 f"WHERE bad IS NOT NULL ORDER BY {key} LIMIT 1").fetchone()
        if row is not None:
            row_id, column = row
            (value,) = connection.execute(f'SELECT quote("{column}") FROM {table} WHERE {key} = ?',
                                          (row_id,)).fetchone()
            shown = value if len(value) <= 60 else value[:57] + "..."
            return f"table {table}, row id {row_id}: {column} is {shown}, not {checks[column][1]}"
    return None
