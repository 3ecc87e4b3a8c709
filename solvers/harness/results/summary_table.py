"""The summary table of ``run`` and ``report``: which columns, their headers, what each means,
and the table in every format.

By default the text table shows the columns that have something to say (a column of zeros
such as memory-outs is left out) and, on a terminal, only as many as fit its width: REQUIRED
always, then PRIORITY in turn. ``--columns all`` shows every column, ``--columns a,b,c``
those named (COLUMNS are the names). What each column means is the key, printed on request
(``--explain-columns``), never into the table's output.
"""
from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from . import tables
from .aggregate import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED
from .tables import seconds

HEADERS = {"set": "puzzle set", "file": "file", "n": "n", "configuration": "configuration",
           "backend": "backend", "puzzles": "puzzles", "runs": "runs", "solved": "solved",
           "unsat": "of which unsat", "multiple": "multiple", "timeouts": "timeouts",
           "memory_outs": "memory-outs", "unknown": "unknown", "unsupported": "unsupported",
           "errors": "errors", "wrong": "wrong", "unchecked": "unchecked claims", "par": "PAR",
           "mean_s": "mean s", "mean_s_low": "mean s 95% CI", "median_s": "median s",
           "iqr_s": "IQR s", "max_s": "max s", "mean_cpu_s": "mean cpu s", "mean_nodes": "mean nodes",
           "nodes_are": "nodes are", "mean_conflicts": "mean conflicts"}
COLUMNS = tuple(HEADERS)
"""The names --columns takes (mean_s_low: the interval of the mean, both ends)."""
ALL = tuple(k for k in COLUMNS if k not in ("file", "n"))
"""--columns all: every column (the set names the file and the size)."""
REQUIRED = ("set", "configuration", "solved", "wrong", "timeouts", "par", "median_s", "mean_s")
"""Shown whatever the width."""
PRIORITY = ("puzzles", "errors", "unknown", "unchecked", "memory_outs", "unsupported", "mean_cpu_s",
            "mean_nodes", "max_s", "mean_s_low", "iqr_s", "unsat", "runs", "multiple",
            "mean_conflicts", "nodes_are", "backend")
"""The other columns, the first kept first when the width is short."""
TEXT = ("set", "file", "configuration", "backend", "nodes_are")
MIN_TEXT = 12
"""A set or configuration name is shortened (middle ellipsis) to no less than this."""


def default_keys(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The columns shown when none are asked for: those with something to say."""
    hidden = {"file", "n", "backend"}
    if all(r["runs"] == r["puzzles"] for r in rows):
        hidden.add("runs")
    for key in ("memory_outs", "unsupported", "unchecked"):  # shown only when one is not 0
        if not any(r.get(key) for r in rows):
            hidden.add(key)
    keys = [k for k in ALL if k not in hidden and any(r.get(k) is not None for r in rows)]
    if "mean_nodes" not in keys:
        keys = [k for k in keys if k != "nodes_are"]
    return keys


def choose_keys(rows: Sequence[dict[str, Any]], wanted: Sequence[str] | None,
                fmt: str, width: int | None) -> tuple[list[str], list[str]]:
    """The columns to show and those left out to fit: ``wanted`` (a list of COLUMNS, or
    ['all']) as given; otherwise default_keys, fitted to ``width`` in the text format."""
    if wanted is not None:
        return (list(ALL) if list(wanted) == ["all"] else list(wanted)), []
    if fmt == "csv":  # every column, each value raw
        return ([k for k in rows[0] if k != "set"] if rows else []), []
    keys = default_keys(rows)
    if fmt != "table" or width is None or not rows:
        return keys, []
    body = {k: [cell(k, r) for r in rows] for k in keys}

    def measure(chosen: list[str]) -> int:
        return tables.width(text_table_of(chosen, [list(row) for row in zip(*(body[k] for k in chosen))]))

    kept = tables.fit(keys, REQUIRED, PRIORITY, measure, width)
    return kept, [k for k in keys if k not in kept]


def parse_columns(text: str) -> list[str]:
    """The value of --columns: 'all' or names of COLUMNS separated by commas; ValueError
    naming the unknown ones."""
    names = [word.strip() for word in text.split(",") if word.strip()]
    if names == ["all"]:
        return names
    unknown = [n for n in names if n not in COLUMNS]
    if unknown or not names:
        raise ValueError(f"unknown column {', '.join(map(repr, unknown)) or 'none given'}; "
                         f"give 'all' or some of: {', '.join(COLUMNS)}")
    return names


def text_table_of(keys: Sequence[str], body: list[list[str]], par: float = 2.0, fmt: str = "table") -> str:
    """Formatted cells as the summary table of these keys."""
    return tables.text_table([header(k, par) for k in keys], body, [k in TEXT for k in keys], fmt)


def header(key: str, par: float = 2.0) -> str:
    return f"PAR-{par:g}" if key == "par" else HEADERS[key]


def cell(key: str, row: dict[str, Any]) -> str:
    """One summary cell as printed."""
    value = row.get(key)
    if key == "mean_s_low":
        return "-" if value is None else f"{seconds(value)} - {seconds(row['mean_s_high'])}"
    if value is None or value == "":
        return "-"
    if key.endswith("_s") or key == "par":
        return seconds(value)
    if key.startswith("mean_"):
        return f"{value:,.1f}"
    return str(value)


def render(rows: Sequence[dict[str, Any]], fmt: str, keys: Sequence[str], *, par: float = 2.0,
           width: int | None = None) -> str:
    """The summary in one format: an aligned table (its set and configuration names shortened
    when even the required columns are wider than ``width``), Markdown, LaTeX, CSV or JSON
    (CSV and JSON: the raw values of the keys, the interval as mean_s_low and mean_s_high)."""
    if not rows:
        return "[]" if fmt == "json" else "(no runs)"
    if fmt in ("csv", "json"):
        raw = raw_keys(keys)
        if fmt == "json":
            return tables.json_text(raw, rows)
        return tables.csv_text(raw, rows, [f"par{par:g}" if k == "par" else k for k in raw])
    body = [[cell(k, r) for k in keys] for r in rows]
    if fmt == "table" and width is not None:
        body = _narrowed(body, keys, par, width)
    return text_table_of(keys, body, par, fmt)


def raw_keys(keys: Sequence[str]) -> list[str]:
    """The keys of the raw values: the interval's two ends for mean_s_low."""
    if "mean_s_high" in keys:
        return list(keys)
    return [k for key in keys for k in ((key, "mean_s_high") if key == "mean_s_low" else (key,))]


def json_rows(rows: Sequence[dict[str, Any]], wanted: Sequence[str] | None) -> list[dict[str, Any]]:
    """The rows as saved in JSON: whole, or only the columns asked for."""
    if wanted is None:
        return list(rows)
    keys = raw_keys(ALL if list(wanted) == ["all"] else wanted)
    return [{k: row.get(k) for k in keys} for row in rows]


def _narrowed(body: list[list[str]], keys: Sequence[str], par: float, width: int) -> list[list[str]]:
    """The cells with the longest set and configuration names shortened until the table fits
    (or they are MIN_TEXT long)."""
    headers = [header(k, par) for k in keys]
    texts = [i for i, k in enumerate(keys) if k in ("set", "configuration")]
    while tables.width(text_table_of(keys, body, par)) > width:
        sizes = {i: max(len(row[i]) for row in body) for i in texts}
        widest = max(texts, key=lambda i: sizes[i], default=None)
        if widest is None or sizes[widest] <= max(MIN_TEXT, len(headers[widest])):
            break
        cut = tables.shorten_set if keys[widest] == "set" else tables.shorten
        body = [[cut(c, sizes[widest] - 1) if i == widest else c for i, c in enumerate(row)]
                for row in body]
    return body


MEANINGS = {
    "set": "the puzzle file's name and the grid size",
    "file": "the puzzle file as given",
    "n": "the grid size",
    "configuration": "the configuration's label",
    "backend": "the backend the configuration runs",
    "puzzles": "puzzles in the set run by the configuration",
    "runs": "runs (puzzles x repetitions)",
    "solved": "puzzles solved: a strict majority of their repetitions correct (a verified "
              "solution or a correct unsat claim) and none wrong",
    "unsat": "solved puzzles whose correct answers were unsat claims",
    "multiple": "solved puzzles on which two or more solutions were found (--unique)",
    "timeouts": "unsolved puzzles whose repetitions mostly timed out",
    "memory_outs": "unsolved puzzles whose repetitions mostly went over the memory limit",
    "unknown": "unsolved puzzles whose repetitions mostly gave up (a budget, an incomplete mode)",
    "unsupported": "puzzles with a constraint kind the backend cannot express (left out of "
                   "every time and score)",
    "errors": "unsolved puzzles whose repetitions mostly failed",
    "wrong": "puzzles with a wrong answer in any repetition (never counted solved)",
    "unchecked": "unsolved puzzles whose repetitions mostly claimed no, one, k or a count of "
                 "solutions that no other method family confirmed and the judge could not check "
                 "(never counted solved)",
    "par": "mean over puzzles of PAR-{k}: the puzzle's time when solved, {k} x limit otherwise",
    "mean_s": "mean over puzzles of the puzzle's time: the upper median of its repetitions' "
              "wall times over the backend's call, measured by the harness (the larger middle "
              "value of an even count), a run without a correct "
              "answer counted at the limit, so an unsolved puzzle counts at the limit",
    "mean_s_low": "percentile bootstrap 95% interval of that mean ({resamples} resamples of "
                  "the puzzles, seed {seed})",
    "median_s": "median over puzzles of the puzzle's time",
    "iqr_s": "interquartile range over puzzles of the puzzle's time (75th - 25th percentile)",
    "max_s": "largest puzzle time",
    "mean_cpu_s": "mean over puzzles of the upper median CPU seconds of the repetitions, each "
                  "capped at the limit; runs of unknown CPU left out, never counted as 0",
    "mean_nodes": "mean over solved puzzles (as in 'solved') of the upper median nodes of their "
                  "correct repetitions; unsolved puzzles left out",
    "nodes_are": "what the backend counts as a node",
    "mean_conflicts": "mean over solved puzzles (as in 'solved') of the upper median conflicts of "
                      "their correct repetitions; unsolved puzzles left out",
}


def footnote(keys: Sequence[str], *, par: float = 2.0, width: int = 100) -> str:
    """What each shown column is, one entry each (every count is of puzzles): the key."""
    lines = ["Columns (every count is of puzzles, not runs; each puzzle's repetitions are "
             "reduced first, then the puzzles):"]
    for key in keys:
        text = MEANINGS[key].format(k=f"{par:g}", resamples=BOOTSTRAP_RESAMPLES, seed=BOOTSTRAP_SEED)
        lines.append(textwrap.fill(f"{header(key, par)}: {text}", width, initial_indent="  ",
                                   subsequent_indent="    "))
    return "\n".join(lines)


def left_out_note(dropped: Sequence[str], width: int | None, *, par: float = 2.0) -> str:
    """The line that says which columns were left out to fit the terminal ('' when none)."""
    if not dropped:
        return ""
    return (f"{len(dropped)} column{'s' if len(dropped) > 1 else ''} left out to fit {width} "
            f"columns ({', '.join(header(k, par) for k in dropped)}); --columns all shows every "
            "column, --columns a,b,c those named")
