"""Views of saved runs beyond the summary: the per-puzzle pivot table, and any list of rows
rendered as a table, Markdown, LaTeX, CSV or JSON.

``report RUN.json --per-puzzle --pivot configuration --field nodes`` gives one row per
puzzle and one column per configuration, each cell the field's value (the upper median
over repetitions when it is a number, as in aggregate.py: the larger middle value of an
even count): the teaching table of how much search each method needs.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from ..tasks import RUN_FIELD
from . import tables
from .aggregate import upper_median
from .records import COLUMNS, record

PIVOTS = ("configuration", "backend", "repeat")
FIELDS = tuple(c for c in COLUMNS if not RUN_FIELD[c].identity)
"""What a pivot's cells may show: every field of the record that says what a run gave or how
it was measured (not which run it was)."""


def pivot(runs: Iterable[dict[str, Any]], *, column: str = "configuration",
          field: str = "time_s") -> list[dict[str, Any]]:
    """One row per puzzle (file, puzzle, line, n), one column per value of ``column``; ``puzzle``
    is its number as the command line counts (from 1: the record's index + 1).

    >>> runs = [{"file": "f", "index": 0, "line": 1, "size": "9x9", "solver": s, "status": "solved",
    ...          "category": "correct", "time_s": 0.1, "stats": {"nodes": v}} for s, v in (("a", 5), ("b", 2))]
    >>> pivot(runs, field="nodes")
    [{'file': 'f', 'puzzle': 1, 'line': 1, 'n': 9, 'a': 5, 'b': 2}]
    """
    cells: dict[tuple[str, int], dict[str, list[Any]]] = {}
    heads: dict[tuple[str, int], dict[str, Any]] = {}
    for run in runs:
        flat = record(run)
        key = (flat["file"], flat["index"])
        heads.setdefault(key, {"file": flat["file"], "puzzle": flat["index"] + 1, "line": flat["line"],
                               "n": flat["n"]})
        cells.setdefault(key, {}).setdefault(str(flat[column]), []).append(flat[field])
    labels = list(dict.fromkeys(label for values in cells.values() for label in values))
    return [{**heads[key], **{label: _reduce(values.get(label, [])) for label in labels}}
            for key, values in cells.items()]


def _reduce(values: list[Any]) -> Any:
    present = [v for v in values if v is not None and v != ""]
    if not present:
        return None
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        middle = upper_median(present)
        return int(middle) if float(middle).is_integer() and all(isinstance(v, int) for v in present) \
            else middle
    return present[0] if len(set(map(str, present))) == 1 else "/".join(map(str, present))


def render(rows: Sequence[dict[str, Any]], fmt: str, *, numbers: str = "{:.3g}") -> str:
    """Rows as an aligned table, a Markdown table, a LaTeX tabular, CSV (every column) or JSON."""
    if fmt == "json":
        return json.dumps(list(rows), indent=2)
    if not rows:
        return "(no runs)"
    keys = list(dict.fromkeys(k for row in rows for k in row))
    if fmt == "csv":
        return tables.csv_text(keys, rows)
    body = [[_cell(row.get(k), numbers) for k in keys] for row in rows]
    return tables.text_table(keys, body, [not _numeric(rows, k) for k in keys], fmt)


def _cell(value: Any, numbers: str) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return numbers.format(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def _numeric(rows: Sequence[dict[str, Any]], key: str) -> bool:
    return all(isinstance(r.get(key), (int, float)) or r.get(key) is None for r in rows)
