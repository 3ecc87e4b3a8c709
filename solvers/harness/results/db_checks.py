"""What each value read from a results database must be: a hand-edited or damaged value is
named (table, row id, column, value) where it is read, so it becomes exit 2, never an
exception deep in a report (exit 3).

The checks run on each row as it is read (the JSON columns already decoded), so a report
that reads a few runs of a large file checks only those, and every read pays about as much
as decoding the row.
"""
from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any

from ...result import COUNTERS, Status
from .judge import Category

MAX_NUMBER = 2.0 ** 63
"""The largest number a column may hold (SQLite's largest integer): finite, never Inf."""
Check = tuple[Callable[[Any], bool], str]
TIMES = ("wall_time", "encode_time", "solve_time")


def _is_number(value: Any, whole: bool, low: float) -> bool:
    if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)):
        return False
    return math.isfinite(value) and low <= value <= MAX_NUMBER


def number(*, null: bool = False, whole: bool = False, low: float = 0) -> Check:
    what = ("a whole number" if whole else "a number") + f" from {low:g} to {MAX_NUMBER:.3g}"
    return ((lambda v: (null and v is None) or _is_number(v, whole, low)),
            what + (" or null" if null else ""))


def text(*, null: bool = False, among: tuple[str, ...] = ()) -> Check:
    what = "one of " + ", ".join(among) if among else "text"
    return ((lambda v: (null and v is None) or (isinstance(v, str) and (not among or v in among))),
            what + (" or null" if null else ""))


def flag() -> Check:
    return (lambda v: v in (0, 1) and not isinstance(v, float)), "0 or 1"


def _stats(value: Any) -> bool:
    return value is None or (isinstance(value, dict) and all(
        value.get(name) is None or _is_number(value[name], False, -MAX_NUMBER) for name in (*TIMES, *COUNTERS)))


RUN_CHECKS: dict[str, Check] = {
    "sweep": number(whole=True), "limit_s": number(), "max_solutions": number(whole=True, low=1),
    "file": text(), "index": number(whole=True), "line": number(null=True, whole=True),
    "n": number(whole=True, low=1), "box": text(null=True), "variant": text(null=True),
    "configuration": text(), "backend": text(null=True),
    "options": ((lambda v: v is None or isinstance(v, dict)), "a JSON object or null"),
    "repeat": number(whole=True), "order": number(null=True, whole=True),
    "status": text(among=tuple(Status)), "category": text(among=tuple(Category)),
    "time_s": number(), "cpu_s": number(null=True), "warmup": flag(),
    "peak_memory_mb": number(null=True), "termination": text(null=True), "host": text(null=True),
    "worker": number(null=True, whole=True), "sequence": number(null=True, whole=True),
    "proof": text(null=True), "verified_solutions": number(null=True, whole=True),
    **{counter: number(null=True, low=-MAX_NUMBER) for counter in COUNTERS},
    "puzzle": text(), "size": text(), "solver": text(),
    "solutions": ((lambda v: isinstance(v, list) and all(isinstance(s, str) for s in v)),
                  "a JSON list of grids as text"),
    "complete": flag(),
    "stats": (_stats, "a JSON object (or null) whose times and counters are numbers"),
    "message": text(null=True), "claim": text(null=True), "reason": text(null=True),
}
"""Column -> (the test a good value passes, what it must be); JSON columns decoded first."""
RAW_SOLUTIONS: Check = ((lambda v: v is None or (isinstance(v, list) and all(isinstance(s, list) for s in v))),
                        "a JSON list of grids or null")
SWEEP_CHECKS: dict[str, Check] = {
    "started": text(), "finished": text(null=True),
    "partial": ((lambda v: v in (None, 0, 1) and not isinstance(v, float)), "0, 1 or null"),
    "options": ((lambda v: isinstance(v, dict)), "a JSON object"),
    "provenance": ((lambda v: isinstance(v, dict)), "a JSON object"),
}
OUTCOME_CHECKS: dict[str, Check] = {
    "status": text(among=tuple(Status)),
    "solutions": ((lambda v: isinstance(v, list) and all(isinstance(s, list) for s in v)), "a list of grids"),
    "complete": ((lambda v: isinstance(v, bool)), "true or false"),
    "stats": ((lambda v: isinstance(v, dict)), "an object"),
    "message": text(null=True), "time_s": number(), "cpu_s": number(null=True),
    "warmup": ((lambda v: isinstance(v, bool)), "true or false"),
}
"""The keys of a pending outcome (the JSON of the pending table's outcome column)."""


def bad_value(checks: Mapping[str, Check], row: Mapping[str, Any]) -> str | None:
    """'COLUMN is VALUE, not WHAT' for the first value of ``row`` that fails its check."""
    for column, (fits, what) in checks.items():
        if column in row and not fits(row[column]):
            return f"{column} is {shown(row[column])}, not {what}"
        if column not in row:
            return f"{column} is missing"
    return None


def decoded(text_value: Any, column: str) -> tuple[Any, str | None]:
    """A JSON column's value decoded, or (None, what is wrong with it)."""
    if text_value is None:
        return None, None
    if not isinstance(text_value, str):
        return None, f"{column} is {shown(text_value)}, not JSON text"
    try:
        return json.loads(text_value), None
    except (ValueError, RecursionError):
        return None, f"{column} is {shown(text_value)}, not JSON"


def shown(value: Any) -> str:
    """A value as the message shows it: its repr, cut to 60 characters."""
    text_value = repr(value)
    return text_value if len(text_value) <= 60 else text_value[:57] + "..."
