"""What the interactive HTML report holds, as plain data: every run of every input in columns,
one row per (file, puzzle, repetition), a column group per configuration, the summary per set
and configuration, and each configuration's runs counted by category.

The per-run columns come from the run record's definition (tasks.RUN_FIELDS): every field a
saved run holds that says what the run gave or how it was measured (not which run it was: the
row and the column group say that), of a kind a cell can show (a number, a flag, a text),
kept when some run has a value for it; each column's heading carries the field's meaning and
unit from the definition. Numbers stay numbers;
text is stored once in a table of strings and referred to by its place, so a page of
100,000 runs stays a few megabytes before compression.
"""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..tasks import JSON, RUN_FIELDS, Category, Kind, RunField
from .records import record
from .report import puzzle_set, summarize
from .summary_table import ALL, cell, header

SHOWN_KINDS = (Kind.WHOLE, Kind.NUMBER, Kind.FLAG, Kind.TEXT)
"""The kinds of field a cell shows (not the options object, the grids, the raw stats)."""
RESTATED = ("solver", "size", "puzzle")
"""Fields that say again what the row (size, puzzle) or the column group (solver) says."""
FIRST = ("category", "time_s", "cpu_s", "peak_memory_mb")
"""The per-run columns shown first (and by default); the others can be switched on."""
LABELS = {"time_s": "time s", "cpu_s": "cpu s", "peak_memory_mb": "memory MB", "termination": "ended by",
          "verified_solutions": "solutions verified", "reason": "why"}
CATEGORIES = tuple(c.value for c in Category)
COUNTED = ("correct", "wrong", "unchecked", "timeout", "memory-out", "error", "unknown", "unsupported")
"""The categories counted per configuration (unchecked: correct, but a claim the judge could not check)."""


def table_fields() -> list[RunField]:
    """The fields a run's cells may show, from the record's definition: in the saved JSON, not
    the run's identity, of a kind a cell shows; FIRST first, the judge's reason last."""
    fields = [f for f in RUN_FIELDS if JSON in f.places and not f.identity and f.kind in SHOWN_KINDS
              and f.name not in RESTATED]
    ordered = [f for name in FIRST for f in fields if f.name == name]
    ordered += [f for f in fields if f.name not in FIRST and f.name != "reason"]
    return ordered + [f for f in fields if f.name == "reason"]


def run_columns(flat: Sequence[dict[str, Any]]) -> list[RunField]:
    """The fields the table shows: table_fields, those no run has a value for left out."""
    return [f for f in table_fields()
            if f.name in FIRST or any(r.get(f.name) not in (None, "") for r in flat)]


def label(field: str) -> str:
    return LABELS.get(field, field.replace("_", " "))


def kind_of(field: RunField) -> str:
    """How the page shows a field: 'category', 'number' or 'text' (a flag as true or false)."""
    if field.name == "category":
        return "category"
    return "number" if field.kind in (Kind.WHOLE, Kind.NUMBER) else "text"


class Strings:
    """A table of distinct strings; each value is stored as its place in it."""

    def __init__(self) -> None:
        self.places: dict[str, int] = {}

    def __call__(self, text: Any) -> int:
        key = "" if text is None else str(text)
        return self.places.setdefault(key, len(self.places))

    def table(self) -> list[str]:
        return list(self.places)


def report_data(runs: Sequence[dict[str, Any]], *, limit: float | None, par: float = 2.0,
                sources: Sequence[str] = (), replays: str | None = None,
                page_dir: str = ".") -> dict[str, Any]:
    """The page's data: rows, configurations, per-run columns, summary and category counts."""
    flat = [{**run, **record(run), "reason": run.get("reason", "")} for run in runs]
    strings = Strings()
    configs = list(dict.fromkeys(r["configuration"] for r in flat))
    config_of = {c: i for i, c in enumerate(configs)}
    rows: dict[tuple[str, int, int], int] = {}
    heads: dict[str, list[Any]] = {k: [] for k in ("file", "set", "size", "index", "line", "repeat", "puzzle")}
    shown = run_columns(flat)
    fields = [f.name for f in shown]
    data: dict[str, list[Any]] = {"row": [], "config": [], "replay": [], **{f: [] for f in fields}}
    pages = _replay_pages(replays, page_dir)
    for run in flat:
        key = (run["file"], run["index"], run.get("repeat") or 0)
        if key not in rows:
            rows[key] = len(rows)
            for name, value in (("file", strings(run["file"])), ("set", strings(puzzle_set(run))),
                                ("size", run["n"]), ("index", run["index"]), ("line", run.get("line")),
                                ("repeat", key[2]), ("puzzle", strings(run.get("puzzle") or ""))):
                heads[name].append(value)
        data["row"].append(rows[key])
        data["config"].append(config_of[run["configuration"]])
        data["replay"].append(strings(_replay_link(pages, run)) if pages else 0)
        for field in fields:
            value = run.get(field)
            if field == "category" and value == Category.CORRECT and run.get("proof") == "unchecked":
                value = "unchecked"
            if isinstance(value, bool):
                data[field].append(strings("true" if value else "false"))
            elif isinstance(value, float):
                data[field].append(float(f"{value:.5g}") if value == value else None)  # 5 figures: a smaller page
            elif isinstance(value, int) and not isinstance(value, bool):
                data[field].append(value)
            else:
                data[field].append(None if value is None else strings(value))
    summary = summarize(runs, limit=limit, par=par)
    return {
        "strings": strings.table(), "configs": configs, "rows": heads, "runs": data,
        "fields": [{"key": f.name, "label": label(f.name), "kind": kind_of(f),
                    "title": f.meaning + (f" ({f.unit})" if f.unit else "")} for f in shown],
        "shown": list(FIRST), "limit": limit, "par": par, "sources": list(sources),
        "categories": list(COUNTED),
        "counts": _counts(flat, configs),
        "summary": {"headers": [header(k, par) for k in _SUMMARY],
                    "rows": [[cell(k, row) for k in _SUMMARY] for row in summary]},
    }


_SUMMARY = [k for k in ALL if k not in ("backend", "nodes_are", "multiple")]


def _counts(flat: Sequence[dict[str, Any]], configs: Sequence[str]) -> list[list[int]]:
    """Per configuration, its runs counted by category (COUNTED's order)."""
    counted: dict[str, Counter[str]] = {c: Counter() for c in configs}
    for run in flat:
        category = run["category"]
        if category == Category.CORRECT and run.get("proof") == "unchecked":
            category = "unchecked"
        counted[run["configuration"]][category] += 1
    return [[counted[c][k] for k in COUNTED] for c in configs]


def _replay_pages(folder: str | None, page_dir: str) -> dict[str, str]:
    """The replay pages in ``folder``: file name -> its link from the page's folder."""
    if not folder or not os.path.isdir(folder):
        return {}
    return {name: os.path.relpath(os.path.join(folder, name), page_dir)
            for name in os.listdir(folder) if name.endswith(".html")}


def replay_name(file: str, index: int, configuration: str | None = None) -> str:
    """The name a replay page of a run is looked for under: FILESTEM-PUZZLE[-CONFIGURATION].html,
    the puzzle counted from 1 and the configuration's characters beyond [A-Za-z0-9._-] as '_'.

    >>> replay_name("puzzles/hardest.txt", 2, "mrv:inference=singles")
    'hardest-3-mrv_inference_singles.html'
    """
    stem = f"{Path(file).stem}-{index + 1}"
    if configuration is None:
        return f"{stem}.html"
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in configuration)
    return f"{stem}-{safe}.html"


def _replay_link(pages: dict[str, str], run: dict[str, Any]) -> str:
    """The link to a run's replay page: its configuration's, else the puzzle's; '' if none."""
    backend = str(run.get("configuration", ""))
    for name in (replay_name(run["file"], run["index"], backend), replay_name(run["file"], run["index"])):
        if name in pages:
            return pages[name]
    return ""
