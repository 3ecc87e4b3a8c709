"""One stable per-run record, the same in the JSON document, the per-run CSV and the results
database, made from the one definition of a run's fields (tasks.RUN_FIELDS: name, kind,
unit, meaning, and where each appears).

The columns never depend on the flags given: every field of the definition is in every
record, empty (None) where a run has no value for it, and a counter is empty when the
backend does not count it. ``file`` is the path as given, so two files of the same name in
different folders stay apart. Runs saved before a field existed read with it empty, or
with what their older fields say (``n`` and ``box`` from ``size``, ``configuration`` from
``solver``). ``field_table`` writes the definition as the docs' field table.
"""
from __future__ import annotations

import io
import json
from collections.abc import Iterable
from typing import Any

from ...result import COUNTERS
from ..tasks import CSV, DATABASE, JSON, RUN_FIELD, RUN_FIELDS, RunField, backend_seconds, fields_in
from . import csv_cells
from .judge import Run

CSV_COLUMNS = tuple(f.name for f in fields_in(CSV))
"""The CSV's header: the record's columns, then the solver seed (from the options; --seeds)."""
COLUMNS = tuple(f.name for f in fields_in(CSV) if DATABASE in f.places)
"""The record's columns: in the CSV, the JSON and the database alike."""
JSON_FIELDS = tuple(f.name for f in fields_in(JSON))
"""A run as the JSON document saves it: the record's fields first, then EXTRA."""
EXTRA = tuple(name for name in JSON_FIELDS if CSV not in RUN_FIELD[name].places)
"""Kept in the JSON (and the database) after the record's fields: the grids, the raw stats
and the judge's words."""
_READ = tuple(name for name in CSV_COLUMNS if name not in COUNTERS and name not in ("seed", "backend_s"))
"""The record's fields read from the run as they are (then read from older fields, or
defaulted, where a run saved before them lacks them); the counters and the backend's own
time come from its stats, the seed from its options."""


def record(run: Run | dict[str, Any]) -> dict[str, Any]:
    """The flat record of one run (also of runs saved before these fields existed): every
    column of CSV_COLUMNS, in order.

    >>> r = record({"file": "a.txt", "index": 0, "line": 1, "size": "9x9", "solver": "mrv",
    ...             "status": "solved", "category": "correct", "time_s": 0.1, "stats": {"nodes": 3}})
    >>> r["n"], r["box"], r["configuration"], r["backend"], r["nodes"], r["conflicts"], r["backend_s"]
    (9, '3x3', 'mrv', 'mrv', 3, None, None)
    """
    data = run.as_dict() if isinstance(run, Run) else run
    stats, get = data.get("stats") or {}, data.get
    flat = dict(zip(_READ, map(get, _READ)))
    flat.update(zip(COUNTERS, map(stats.get, COUNTERS)))
    n = flat["n"] or int(str(get("size", "0x0")).split("x")[0] or 0)
    label = flat["configuration"] or data["solver"]
    options: dict[str, Any] = dict(flat["options"] or {})
    seed = options.get("seed")  # the solver's seed, if the run had one (--seeds)
    status, category = data["status"], data["category"]
    flat.update(n=n, box=flat["box"] or _square_box(n), variant=flat["variant"] or "standard",
                configuration=label, backend=flat["backend"] or label.split(":")[0], options=options,
                repeat=flat["repeat"] or 0, status=str(getattr(status, "value", status)),
                category=str(getattr(category, "value", category)), warmup=bool(flat["warmup"]),
                host=flat["host"] or None, proof=flat["proof"] or "",
                seed=seed if RUN_FIELD["seed"].fits(seed) else None,
                backend_s=_own_time(stats, flat["time_s"], str(getattr(category, "value", category))))
    return {name: flat[name] for name in CSV_COLUMNS}


def _own_time(stats: dict[str, Any], time_s: Any, category: str) -> float | None:
    """The backend's own time (tasks.backend_seconds) beside the harness's time over the call;
    None where the run has no time the record could hold."""
    if not RUN_FIELD["time_s"].fits(time_s):
        return None
    own = backend_seconds(stats, time_s, capped=category == "timeout")
    return own if RUN_FIELD["backend_s"].fits(own) else None


def run_entry(run: Run) -> dict[str, Any]:
    """A run as saved in the JSON: the record's fields first, then EXTRA."""
    data = run.as_dict()
    return {**record(data), **{key: data.get(key) for key in EXTRA}}


def csv_text(runs: Iterable[Run | dict[str, Any]]) -> str:
    """The per-run CSV: a header of CSV_COLUMNS and one line per run."""
    out = io.StringIO()
    writer = csv_cells.writer(out)
    writer.writerow(CSV_COLUMNS)
    for run in runs:
        flat = record(run)
        writer.writerow([_cell(flat[column]) for column in CSV_COLUMNS])
    return out.getvalue()


def bad_field(run: dict[str, Any]) -> str:
    """What is wrong with a saved run's fields, as 'FIELD is VALUE, not WHAT' for the first
    stored field that is not what the definition says ('' when none is; ``seed`` is read from
    the options again); a field it lacks is left to the reader (older files lack the newer ones)."""
    for run_field in RUN_FIELDS:
        if JSON in run_field.places and run_field.name in run \
                and not run_field.fits(run[run_field.name]):
            return f"{run_field.name} is {json.dumps(run[run_field.name], default=repr)[:40]}, " \
                   f"not {run_field.expected()}"
    return ""


def field_table() -> str:
    """The definition as a Markdown table (the docs' field table): name, type, unit, where, meaning."""
    lines = ["| field | type | unit | in | meaning |", "| --- | --- | --- | --- | --- |"]
    for run_field in RUN_FIELDS:
        lines.append(f"| `{run_field.name}` | {_kind(run_field)} | {run_field.unit or '-'} | "
                     f"{', '.join(p for p in (CSV, JSON, DATABASE) if p in run_field.places)} | "
                     f"{run_field.meaning} |")
    return "\n".join(lines)


def _kind(run_field: RunField) -> str:
    text = run_field.kind.value + (f" ({', '.join(run_field.among)})" if run_field.among else "")
    return text + (", or empty" if run_field.null else "")


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True) if value else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _square_box(n: int) -> str:
    rows = max((r for r in range(1, int(n ** 0.5) + 1) if n % r == 0), default=1)
    return f"{rows}x{n // rows}"
