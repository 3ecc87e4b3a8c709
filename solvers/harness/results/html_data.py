"""What the interactive HTML report holds, as plain data: every run of every input in columns,
one row per (file, puzzle, repetition), a column group per configuration, the summary per set
and configuration, and each configuration's runs counted by category.

The per-run columns come from the run record's definition (records.COLUMNS): every field of
a run that is not the puzzle's identity (which the row holds) nor bookkeeping of where it
ran, kept when some run has a value for it, then the judge's reason. Numbers stay numbers;
text is stored once in a table of strings and referred to by its place, so a page of
100,000 runs stays a few megabytes before compression.
"""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .judge import Category
from .records import COLUMNS, record
from .report import puzzle_set, summarize
from .summary_table import ALL, cell, header

IDENTITY = ("file", "index", "line", "n", "box", "variant", "configuration", "backend", "options",
            "repeat")
"""Fields the row or the column group already says."""
BOOKKEEPING = ("order", "host", "worker", "sequence", "seed", "warmup")
"""Fields of where and when a run ran: in the JSON, not in the table."""
FIRST = ("category", "time_s", "cpu_s", "peak_memory_mb")
"""The per-run columns shown first (and by default); the others can be switched on."""
LABELS = {"category": "category", "time_s": "time s", "cpu_s": "cpu s", "peak_memory_mb": "memory MB",
          "status": "status", "termination": "ended by", "proof": "proof",
          "verified_solutions": "solutions verified", "reason": "why"}
CATEGORIES = tuple(c.value for c in Category)
COUNTED = ("correct", "wrong", "unchecked", "timeout", "memory-out", "error", "unknown", "unsupported")
"""The categories counted per configuration (unchecked: correct, but a claim the judge could not check)."""


def run_columns(flat: Sequence[dict[str, Any]]) -> list[str]:
    """The per-run fields the table shows, in the record's order (FIRST first), those that no
    run has a value for left out; then the reason."""
    fields = [c for c in COLUMNS if c not in IDENTITY and c not in BOOKKEEPING]
    fields = [*FIRST, *(c for c in fields if c not in FIRST)]
    present = [c for c in fields if c in FIRST or any(r.get(c) not in (None, "") for r in flat)]
    return [*present, "reason"]


def label(field: str) -> str:
    return LABELS.get(field, field.replace("_", " "))


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
    fields = run_columns(flat)
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
            if isinstance(value, float):
                data[field].append(float(f"{value:.5g}") if value == value else None)  # 5 figures: a smaller page
            elif isinstance(value, int) and not isinstance(value, bool):
                data[field].append(value)
            else:
                data[field].append(None if value is None else strings(value))
    summary = summarize(runs, limit=limit, par=par)
    return {
        "strings": strings.table(), "configs": configs, "rows": heads, "runs": data,
        "fields": [{"key": f, "label": label(f),
                    "kind": "category" if f == "category" else "number" if f not in _TEXT else "text"}
                   for f in fields],
        "shown": list(FIRST), "limit": limit, "par": par, "sources": list(sources),
        "categories": list(COUNTED),
        "counts": _counts(flat, configs),
        "summary": {"headers": [header(k, par) for k in _SUMMARY],
                    "rows": [[cell(k, row) for k in _SUMMARY] for row in summary]},
    }


_TEXT = ("category", "status", "termination", "proof", "reason")
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
