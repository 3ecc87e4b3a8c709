"""Tables from judged runs (tabulate), CSV, the saved JSON document, and the change between two runs."""
from __future__ import annotations

import csv
import io
import json
import statistics
import textwrap
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabulate import tabulate

from ... import registry
from ..engine.terminal import printable
from .aggregate import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    interquartile_range,
    mean_interval,
    median,
    reduce_puzzle,
)
from .judge import Category, Disagreement, Run
from .records import bad_field, record, run_entry
from .scores import document_limit

DOCUMENT_KIND = "sudoku-methods-run"
DOCUMENT_VERSION = 2
TABLE_FORMATS = ("table", "markdown", "csv", "json")
RUN_KEYS = ("file", "index", "puzzle", "solver", "status", "solutions", "complete", "time_s",
            "stats", "category")


class ReportError(ValueError):
    """A saved results file that cannot be read as a run document."""


# ---------------------------------------------------------------- summary rows

def puzzle_set(record: dict[str, Any]) -> str:
    """The set a run record belongs to: its file name and grid size.

    >>> puzzle_set({"file": "puzzles/default.txt", "size": "16x16"})
    'default.txt 16x16'
    """
    return f"{Path(record['file']).name} {record['size']}"


def summarize(runs: Iterable[Run | dict[str, Any]], *, unique: bool = False, limit: float | None = None,
              par: float = 2.0, exclude_warmup: bool = False) -> list[dict[str, Any]]:
    """One row per (file, grid size, configuration), in the order they first appear; the
    columns are always SUMMARY_KEYS (None where a value does not apply)."""
    groups: dict[tuple[str, int, str], dict[int, list[dict[str, Any]]]] = {}
    for run in runs:
        data = run.as_dict() if isinstance(run, Run) else run
        if exclude_warmup and data.get("warmup"):
            continue
        flat = {**data, **record(data)}
        key = (flat["file"], flat["n"], flat["configuration"])
        groups.setdefault(key, {}).setdefault(flat["index"], []).append(flat)
    rows = []
    for puzzles in groups.values():
        summary = GroupSummary(unique=unique, limit=limit, par=par)
        for records in puzzles.values():
            summary.add_puzzle(records)
        rows.append(summary.row())
    return rows


SUMMARY_KEYS = ("set", "file", "n", "configuration", "backend", "puzzles", "runs", "solved", "unsat",
                "multiple", "timeouts", "memory_outs", "unknown", "unsupported", "errors", "wrong",
                "unchecked", "par", "mean_s",
                "mean_s_low", "mean_s_high", "median_s", "iqr_s", "max_s", "mean_cpu_s", "mean_nodes",
                "nodes_are", "mean_conflicts")
_VERDICT_COLUMNS = {"solved": "solved", "timeout": "timeouts", "memory-out": "memory_outs",
                    "unknown": "unknown", "unsupported": "unsupported", "error": "errors",
                    "wrong": "wrong", "unchecked": "unchecked"}


class GroupSummary:
    """One summary row built puzzle by puzzle (each puzzle's runs of one configuration at
    once, reduced by aggregate.reduce_puzzle), keeping per puzzle only a few numbers, so a
    database of millions of runs is summarised in little memory. Every count is of puzzles."""

    def __init__(self, *, unique: bool = False, limit: float | None = None, par: float = 2.0):
        self.unique, self.limit, self.par = unique, limit, par
        self.first: dict[str, Any] | None = None
        self.counts = dict.fromkeys([*_VERDICT_COLUMNS.values(), "unsat", "multiple", "runs", "puzzles"], 0)
        self.times, self.scores = array("d"), array("d")
        self.values: dict[str, array] = {name: array("d") for name in ("cpu", "nodes", "conflicts")}

    def add_puzzle(self, records: Sequence[dict[str, Any]]) -> None:
        """Every run (repetition) of one configuration on one puzzle, as flat records."""
        self.first = self.first or records[0]
        outcome = reduce_puzzle(records, self.limit)
        self.counts["puzzles"] += 1
        self.counts["runs"] += len(records)
        self.counts[_VERDICT_COLUMNS[outcome.verdict]] += 1
        self.counts["unsat"] += outcome.unsat
        self.counts["multiple"] += outcome.multiple
        if outcome.time_s is None:  # unsupported: it answered nothing to time or score
            return
        self.times.append(outcome.time_s)
        if self.limit is not None:
            self.scores.append(outcome.score(self.limit, self.par))
        for name, value in (("cpu", outcome.cpu_s), ("nodes", outcome.nodes),
                            ("conflicts", outcome.conflicts)):
            if value is not None:
                self.values[name].append(value)

    def _mean(self, name: str) -> float | None:
        values = self.values[name]
        return statistics.fmean(values) if values else None

    def row(self) -> dict[str, Any]:
        """The summary row, SUMMARY_KEYS in order."""
        first, counts, times = self.first or {}, self.counts, self.times
        low, high = mean_interval(times)
        return {
            "set": puzzle_set(first), "file": first["file"], "n": first["n"],
            "configuration": first["configuration"], "backend": first["backend"],
            "puzzles": counts["puzzles"], "runs": counts["runs"], "solved": counts["solved"],
            "unsat": counts["unsat"], "multiple": counts["multiple"] if self.unique else None,
            "timeouts": counts["timeouts"], "memory_outs": counts["memory_outs"],
            "unknown": counts["unknown"], "unsupported": counts["unsupported"],
            "errors": counts["errors"], "wrong": counts["wrong"], "unchecked": counts["unchecked"],
            "par": statistics.fmean(self.scores) if self.scores else None,
            "mean_s": statistics.fmean(times) if times else None,
            "mean_s_low": low, "mean_s_high": high,
            "median_s": median(times), "iqr_s": interquartile_range(times),
            "max_s": max(times) if times else None, "mean_cpu_s": self._mean("cpu"),
            "mean_nodes": self._mean("nodes"), "nodes_are": node_meaning(first["backend"]),
            "mean_conflicts": self._mean("conflicts"),
        }


def node_meaning(solver: str) -> str:
    """What a registered backend counts as a node, in a few words ('' for plugins and others).

    >>> node_meaning("mrv"), node_meaning("cpsat"), node_meaning("my-plugin")
    ('decisions', 'CP-SAT branches', '')
    """
    backend = registry.BACKENDS.get(solver.split(":")[0])
    if backend is None or not backend.available:
        return ""
    return backend.counters.get("nodes", "").split(" (")[0]


# ---------------------------------------------------------------- rendering

_HEADERS = {"set": "puzzle set", "configuration": "configuration", "runs": "runs", "par": "PAR",
            "mean_s_low": "mean s 95% CI", "iqr_s": "IQR s", "mean_cpu_s": "mean cpu s",
            "backend": "backend", "puzzles": "puzzles", "solved": "solved", "unsat": "of which unsat",
            "multiple": "multiple", "timeouts": "timeouts", "memory_outs": "memory-outs",
            "errors": "errors", "unknown": "unknown", "unsupported": "unsupported", "wrong": "wrong",
            "unchecked": "unchecked", "mean_s": "mean s",
            "median_s": "median s", "max_s": "max s", "mean_nodes": "mean nodes",
            "nodes_are": "nodes are", "mean_conflicts": "mean conflicts"}


def shown_keys(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The summary columns the text and Markdown tables show (the CSV has them all)."""
    hidden = {"file", "n", "backend", "mean_s_high"}
    if all(r["runs"] == r["puzzles"] for r in rows):
        hidden.add("runs")
    if not any(r.get("memory_outs") for r in rows):  # shown only when a run went over the limit
        hidden.add("memory_outs")
    if not any(r.get("unsupported") for r in rows):  # shown only when a backend declined a puzzle
        hidden.add("unsupported")
    if not any(r.get("unchecked") for r in rows):  # shown only when the judge left a claim unchecked
        hidden.add("unchecked")
    keys = [k for k in rows[0] if k not in hidden and any(r.get(k) is not None for r in rows)]
    if "mean_nodes" not in keys:
        keys = [k for k in keys if k != "nodes_are"]
    return keys


def render_table(rows: Sequence[dict[str, Any]], fmt: str, *, par: float = 2.0) -> str:
    """The summary as an aligned text table, a Markdown table, or CSV (CSV: every column)."""
    if not rows:
        return "(no runs)"
    if fmt == "csv":
        keys = [k for k in rows[0] if k != "set"]
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([f"par{par:g}" if k == "par" else k for k in keys])
        writer.writerows([["" if r[k] is None else r[k] for k in keys] for r in rows])
        return out.getvalue().rstrip("\n")
    keys = shown_keys(rows)
    body = [[_cell(k, r[k]) if k != "mean_s_low" else _interval(r) for k in keys] for r in rows]
    tablefmt = "github" if fmt == "markdown" else "simple"
    numeric = [k not in ("set", "configuration", "nodes_are") for k in keys]
    headers = [f"PAR-{par:g}" if k == "par" else _HEADERS[k] for k in keys]
    return tabulate(body, headers=headers, tablefmt=tablefmt,
                    colalign=["right" if n else "left" for n in numeric], disable_numparse=True)


_MEANINGS = {
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
    "unchecked": "unsolved puzzles whose repetitions mostly claimed no solution, uniqueness or a count "
                 "that no other method family confirmed and the judge could not check (never "
                 "counted solved)",
    "par": "mean over puzzles of PAR-{k}: the puzzle's time when solved, {k} x limit otherwise",
    "mean_s": "mean over puzzles of the puzzle's time: the upper median of its repetitions' "
              "wall times (the larger middle value of an even count), a run without a correct "
              "answer counted at the limit, so an unsolved puzzle counts at the limit",
    "mean_s_low": "percentile bootstrap 95% interval of that mean ({resamples} resamples of "
                  "the puzzles, seed {seed})",
    "median_s": "median over puzzles of the puzzle's time",
    "iqr_s": "interquartile range over puzzles of the puzzle's time (75th - 25th percentile)",
    "max_s": "largest puzzle time",
    "mean_cpu_s": "mean over puzzles of the upper median CPU seconds of the repetitions, each "
                  "capped at the limit; runs of unknown CPU left out, never counted as 0",
    "mean_nodes": "mean over solved puzzles of the upper median nodes of the correct repetitions",
    "nodes_are": "what the backend counts as a node",
    "mean_conflicts": "mean over solved puzzles of the upper median conflicts of the correct "
                      "repetitions",
}


def footnote(rows: Sequence[dict[str, Any]], *, par: float = 2.0) -> str:
    """What each shown column of the summary table is, one line each (every count is of puzzles)."""
    if not rows:
        return ""
    lines = ["Columns (every count is of puzzles, not runs; each puzzle's repetitions are "
             "reduced first, then the puzzles):"]
    for key in shown_keys(rows):
        if key in _MEANINGS:
            name = f"PAR-{par:g}" if key == "par" else _HEADERS[key]
            text = _MEANINGS[key].format(k=f"{par:g}", resamples=BOOTSTRAP_RESAMPLES,
                                         seed=BOOTSTRAP_SEED)
            lines.append(textwrap.fill(f"{name}: {text}", 100, initial_indent="  ",
                                       subsequent_indent="    "))
    return "\n".join(lines)


def _interval(row: dict[str, Any]) -> str:
    if row.get("mean_s_low") is None:
        return "-"
    return f"{seconds(row['mean_s_low'])} - {seconds(row['mean_s_high'])}"


def _cell(key: str, value: Any) -> str:
    if value is None or value == "":
        return "-"
    if key.endswith("_s") or key == "par":
        return seconds(value)
    if key.startswith("mean_"):
        return f"{value:,.1f}"
    return str(value)


def seconds(value: float) -> str:
    """A duration in seconds, three significant figures (at most six decimals), never exponents.

    >>> [seconds(x) for x in (0.0000147, 0.001234, 1.5, 12.34, 1234.5)]
    ['0.000015', '0.00123', '1.50', '12.3', '1234']
    """
    if value >= 100:
        return f"{value:.0f}"
    if value < 0.001:
        return f"{value:.6f}"
    return f"{value:#.3g}"


def render_disagreements(disagreements: Sequence[Disagreement | dict[str, Any]]) -> str:
    """Puzzle by puzzle: the puzzle, each backend's claim, its category and why."""
    blocks = []
    for item in disagreements:
        d = item.as_dict() if isinstance(item, Disagreement) else item
        head = (f"Disagreement on {printable(d['file'])} puzzle {d['index'] + 1} (line {d['line']}):\n  "
                f"{printable(d['puzzle'])}")
        cells = [[printable(c[key]) for key in ("solver", "claim", "category", "reason")] for c in d["claims"]]
        table = tabulate(cells,
                         headers=["backend", "claims", "judged", "why"], tablefmt="simple",
                         disable_numparse=True)
        blocks.append(head + "\n" + _indent(table))
    return "\n\n".join(blocks)


def render_failures(runs: Sequence[Run | dict[str, Any]], limit: int = 10) -> str:
    """The errors, one line each (the first ``limit``), so a crash is never silent."""
    records = [r.as_dict() if isinstance(r, Run) else r for r in runs]
    errors = [r for r in records if r["category"] == Category.ERROR]
    lines = [f"  {printable(r['solver'])} on {printable(r['file'])} puzzle {r['index'] + 1} (line {r['line']}): "
             f"{printable(r['reason'])}"
             for r in errors[:limit]]
    if len(errors) > limit:
        lines.append(f"  ... and {len(errors) - limit} more (see --json)")
    return "Errors:\n" + "\n".join(lines) if lines else ""


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


# ---------------------------------------------------------------- the saved document

def build_document(runs: Sequence[Run], disagreements: Sequence[Disagreement], *,
                   environment: dict[str, Any], options: dict[str, Any],
                   input_errors: Sequence[dict[str, Any]], partial: bool = False) -> dict[str, Any]:
    """Everything about a run, for --json and for ``report`` later: provenance (environment),
    options, the summary, and one record per run (records.py's fields first)."""
    limit, par = environment.get("limit_s", options.get("timeout_s")), options.get("par", 2.0)
    return {
        "kind": DOCUMENT_KIND, "version": DOCUMENT_VERSION, "partial": partial, **environment,
        "options": options, "input_errors": list(input_errors),
        "summary": summarize(runs, unique=bool(options.get("unique")) or options.get("max_solutions", 1) >= 2,
                             limit=limit, par=par,
                             exclude_warmup=options.get("exclude_warmup", False)),
        "disagreements": [d.as_dict() for d in disagreements],
        "runs": [run_entry(r) for r in runs],
    }


def load_document(path: str) -> dict[str, Any]:
    """A saved run document; ReportError says what is wrong with the file."""
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except OSError as error:
        raise ReportError(f"{path}: cannot read: {error.strerror or error}") from error
    except json.JSONDecodeError as error:
        raise ReportError(f"{path}, line {error.lineno}: not JSON: {error.msg}") from error
    if not isinstance(document, dict) or document.get("kind") != DOCUMENT_KIND:
        raise ReportError(f"{path}: not a saved compare.py run (no \"kind\": \"{DOCUMENT_KIND}\")")
    runs = document.get("runs", [])
    if not isinstance(runs, list):
        raise ReportError(f"{path}: \"runs\" is not a list")
    for number, run in enumerate(runs):
        if not isinstance(run, dict):
            raise ReportError(f"{path}: run {number} is not an object")
        missing = [k for k in RUN_KEYS + ("size",) if k not in run]
        if missing:
            raise ReportError(f"{path}: run {number} lacks {', '.join(missing)}")
        problem = _bad_field(run)
        if problem:
            raise ReportError(f"{path}: run {number}: {problem}")
    return document


def _bad_field(run: dict[str, Any]) -> str:
    """What is wrong with one saved run's fields ('' when nothing), checked against the
    definition of a run's fields; a null stats becomes {}."""
    problem = bad_field(run)
    if not problem and run["stats"] is None:
        run["stats"] = {}
    return problem


# ---------------------------------------------------------------- two runs side by side

@dataclass(frozen=True)
class Change:
    """A run whose category changed between two saved documents."""

    solver: str
    file: str
    index: int
    old: str
    new: str


def compare_rows(old: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """Per (puzzle set, configuration) in either document: counts of puzzles old -> new and
    the ratio of the mean times (summarize's basis, each document's own limit)."""
    unique = bool(old.get("options", {}).get("unique") or new.get("options", {}).get("unique"))
    before = {(r["set"], r["configuration"]): r
              for r in summarize(old["runs"], unique=unique, limit=document_limit(old))}
    after = {(r["set"], r["configuration"]): r
             for r in summarize(new["runs"], unique=unique, limit=document_limit(new))}
    rows = []
    for key in list(before) + [k for k in after if k not in before]:
        a, b = before.get(key), after.get(key)
        row: dict[str, Any] = {"set": key[0], "configuration": key[1]}
        for column in ("puzzles", "solved", "unsat", "timeouts", "memory_outs", "unknown",
                       "unsupported", "errors", "wrong", "unchecked"):
            row[column] = f"{_get(a, column)} -> {_get(b, column)}"
        row["mean s old"] = a["mean_s"] if a else None
        row["mean s new"] = b["mean_s"] if b else None
        row["new/old"] = (b["mean_s"] / a["mean_s"]
                          if a and b and a["mean_s"] and b["mean_s"] is not None else None)
        rows.append(row)
    return rows


def _get(row: dict[str, Any] | None, key: str) -> str:
    return "-" if row is None else str(row[key])


def category_changes(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """Runs (same file, puzzle number and backend) judged differently in the two documents."""
    before = {(r["file"], r["index"], r["solver"], r.get("repeat", 0)): r["category"] for r in old["runs"]}
    changes = []
    for run in new["runs"]:
        key = (run["file"], run["index"], run["solver"], run.get("repeat", 0))
        if key in before and before[key] != run["category"]:
            changes.append(Change(run["solver"], run["file"], run["index"], before[key], run["category"]))
    return changes


def render_comparison(rows: Sequence[dict[str, Any]], changes: Sequence[Change], fmt: str) -> str:
    """The old -> new table and the list of runs whose category changed."""
    if fmt == "json":
        return json.dumps({"rows": list(rows), "changes": [c.__dict__ for c in changes]}, indent=2)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        if rows:
            writer.writerow(list(rows[0]))
            writer.writerows([["" if v is None else v for v in r.values()] for r in rows])
        return out.getvalue().rstrip("\n")
    body = [[seconds(v) if isinstance(v, float) and k != "new/old" else
             (f"{v:.2f}" if isinstance(v, float) else ("-" if v is None else v))
             for k, v in r.items()] for r in rows]
    text = tabulate(body, headers=list(rows[0]) if rows else [], disable_numparse=True,
                    tablefmt="github" if fmt == "markdown" else "simple")
    if changes:
        text += "\n\nChanged:\n" + "\n".join(
            f"  {c.solver} on {c.file} puzzle {c.index + 1}: {c.old} -> {c.new}" for c in changes[:30])
        if len(changes) > 30:
            text += f"\n  ... and {len(changes) - 30} more"
    return text
