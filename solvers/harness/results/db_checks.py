"""What each value read from a results database must be: a hand-edited or damaged value is
named (table, row id, column, value) where it is read, so it becomes exit 2, never an
exception deep in a report (exit 3).

A run's columns are checked against the one definition of a run's fields (tasks.RUN_FIELDS).
The checks run on each row as it is read (the JSON columns already decoded), so a report
that reads a few runs of a large file checks only those, and every read pays about as much
as decoding the row.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ..tasks import DATABASE, fields_in

Check = tuple[Callable[[Any], bool], str]


def text(*, null: bool = False) -> Check:
    return (lambda v: (null and v is None) or isinstance(v, str)), "text" + (" or null" if null else "")


RUN_CHECKS: dict[str, Check] = {f.name: (f.fits, f.expected()) for f in fields_in(DATABASE)}
"""Column -> (the test a good value passes, what it must be); JSON columns decoded first."""
RAW_SOLUTIONS: Check = ((lambda v: v is None or (isinstance(v, list) and all(isinstance(s, list) for s in v))),
                        "a JSON list of grids or null")
SWEEP_CHECKS: dict[str, Check] = {
    "started": text(), "finished": text(null=True),
    "partial": ((lambda v: v in (None, 0, 1) and not isinstance(v, float)), "0, 1 or null"),
    "options": ((lambda v: isinstance(v, dict)), "a JSON object"),
    "provenance": ((lambda v: isinstance(v, dict)), "a JSON object"),
}


def bad_value(checks: Mapping[str, Check], row: Mapping[str, Any]) -> str | None:
    """'COLUMN is VALUE, not WHAT' for the first value of ``row`` that fails its check."""
    for column, (fits, what) in checks.items():
        if column in row and not fits(row[column]):
            return f"{column} is {shown(row[column])}, not {what}"
        if column not in row:
            return f"{column} is missing"
    return None


MAX_JSON_CHARS = 1 << 26
"""The longest JSON text of one column read (a run's grids are at most a few megabytes:
engine.answers.MAX_KEPT_CELLS)."""


def decoded(text_value: Any, column: str) -> tuple[Any, str | None]:
    """A JSON column's value decoded, or (None, what is wrong with it)."""
    if text_value is None:
        return None, None
    if not isinstance(text_value, str):
        return None, f"{column} is {shown(text_value)}, not JSON text"
    if len(text_value) > MAX_JSON_CHARS:
        return None, f"{column} is {len(text_value):,} characters of text, more than any run holds"
    try:
        return json.loads(text_value), None
    except (ValueError, RecursionError):
        return None, f"{column} is {shown(text_value)}, not JSON"


def shown(value: Any) -> str:
    """A value as the message shows it: its repr, cut to 60 characters."""
    text_value = repr(value)
    return text_value if len(text_value) <= 60 else text_value[:57] + "..."
