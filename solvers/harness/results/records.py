"""One stable per-run record, the same in the JSON document and the per-run CSV.

``order`` is the run's place (from 0) in the order its (puzzle, repetition)'s
configurations were dispatched (results/experiment.py), None in runs saved before it.
The columns never depend on the flags given: FIELDS, then every counter of
result.COUNTERS (empty when the backend has none). ``file`` is the path as given,
so two files of the same name in different folders stay apart. ``time_s`` and ``cpu_s``
follow engine/timing.py's rules (a timeout at the wall limit, its CPU capped; ``cpu_s``
empty when not measured, never 0); ``peak_memory_mb`` is the run's own peak resident
memory (empty when not measured); ``termination`` which limit ended the run (walltime,
cputime, memory; empty when none did); ``host``, ``worker`` (process id) and ``sequence``
(the order the runs were started in) say where and when it ran. ``proof`` is the judge's
check of a claim of completeness (proved, confirmed, unchecked; empty when the run claims
none, see judge.py), ``verified_solutions`` the distinct solutions it verified.
"""
from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from ...result import COUNTERS
from .judge import Run

FIELDS = ("file", "index", "line", "n", "box", "variant", "configuration", "backend", "options",
          "repeat", "order", "status", "category", "time_s", "cpu_s", "warmup", "peak_memory_mb",
          "termination", "host", "worker", "sequence", "proof", "verified_solutions")
COLUMNS = FIELDS + tuple(COUNTERS)
CSV_COLUMNS = COLUMNS + ("seed",)
"""The CSV's header: the record's columns, then the solver seed (from the options; --seeds)."""
EXTRA = ("puzzle", "size", "solver", "solutions", "complete", "stats", "message", "claim", "reason")
"""Kept in the JSON after the record's fields: the grids, the raw stats and the judge's words."""


def record(run: Run | dict[str, Any]) -> dict[str, Any]:
    """The flat record of one run (also of runs saved before these fields existed).

    >>> r = record({"file": "a.txt", "index": 0, "line": 1, "size": "9x9", "solver": "mrv",
    ...             "status": "solved", "category": "correct", "time_s": 0.1, "stats": {"nodes": 3}})
    >>> r["n"], r["box"], r["configuration"], r["backend"], r["nodes"], r["conflicts"]
    (9, '3x3', 'mrv', 'mrv', 3, None)
    """
    data = run.as_dict() if isinstance(run, Run) else run
    stats = data.get("stats") or {}
    n = data.get("n") or int(str(data.get("size", "0x0")).split("x")[0] or 0)
    label = data.get("configuration") or data["solver"]
    flat = {
        "file": data["file"], "index": data["index"], "line": data.get("line"), "n": n,
        "box": data.get("box") or _square_box(n), "variant": data.get("variant") or "standard",
        "configuration": label, "backend": data.get("backend") or label.split(":")[0],
        "options": dict(data.get("options") or {}), "repeat": data.get("repeat", 0),
        "order": data.get("order"),
        "status": str(getattr(data["status"], "value", data["status"])),
        "category": str(getattr(data["category"], "value", data["category"])),
        "time_s": data["time_s"], "cpu_s": data.get("cpu_s"), "warmup": bool(data.get("warmup")),
        "peak_memory_mb": data.get("peak_memory_mb"), "termination": data.get("termination"),
        "host": data.get("host") or None, "worker": data.get("worker"), "sequence": data.get("sequence"),
        "proof": data.get("proof") or "", "verified_solutions": data.get("verified_solutions"),
    }
    flat.update({name: stats.get(name) for name in COUNTERS})
    flat["seed"] = flat["options"].get("seed")  # the solver's seed, if the run had one (--seeds)
    return flat


def run_entry(run: Run) -> dict[str, Any]:
    """A run as saved in the JSON: the record's fields first, then EXTRA."""
    data = run.as_dict()
    return {**record(data), **{key: data[key] for key in EXTRA}}


def csv_text(runs: Iterable[Run | dict[str, Any]]) -> str:
    """The per-run CSV: a header of CSV_COLUMNS and one line per run."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for run in runs:
        flat = record(run)
        writer.writerow([_cell(flat[column]) for column in CSV_COLUMNS])
    return out.getvalue()


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
