"""Summary rows from judged runs, disagreements and errors as text, the saved JSON document,
and the change between two runs (the summary table itself: summary_table.py)."""
from __future__ import annotations

import json
import re
import statistics
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabulate import tabulate

from ... import registry
from ..engine.terminal import printable
from ..tasks import Category
from . import saved, tables
from .aggregate import interquartile_range, mean_interval, median, reduce_puzzle
from .judge import Disagreement, Run
from .records import bad_field, record, run_entry
from .scores import document_limit
from .tables import seconds

DOCUMENT_KIND = "sudoku-methods-run"
DOCUMENT_VERSION = 2
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
        if isinstance(run, Run):
            if exclude_warmup and run.warmup:
                continue
            flat = summary_fields(run)
        else:
            if exclude_warmup and run.get("warmup"):
                continue
            flat = {**run, **record(run)}
        key = (flat["file"], flat["n"], flat["configuration"])
        groups.setdefault(key, {}).setdefault(flat["index"], []).append(flat)
    rows = []
    for puzzles in groups.values():
        summary = GroupSummary(unique=unique, limit=limit, par=par)
        for records in puzzles.values():
            summary.add_puzzle(records)
        rows.append(summary.row())
    return rows


def summary_fields(run: Run) -> dict[str, Any]:
    """What a summary row reads of a judged run, as its record (records.record) has it: a few
    fields instead of the whole record (a run of ``fast`` on a 9x9 costs a fraction of a
    millisecond, and the whole record as much again)."""
    configuration, stats = run.solver, run.stats
    return {"file": run.file, "size": run.size, "index": run.index, "configuration": configuration,
            "n": run.n or int(run.size.split("x")[0] or 0),
            "backend": run.backend or configuration.split(":")[0],
            "category": str(getattr(run.category, "value", run.category)),
            "status": str(getattr(run.status, "value", run.status)), "time_s": run.time_s,
            "cpu_s": run.cpu_s, "solutions": run.solutions,
            **{name: stats.get(name) for name in ("nodes", "conflicts")}}


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
        self.values: dict[str, array[float]] = {name: array("d") for name in ("cpu", "nodes", "conflicts")}

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

def render_disagreements(disagreements: Sequence[Disagreement | dict[str, Any]]) -> str:
    """Puzzle by puzzle: the puzzle, each backend's claim, its category and why (a long grid
    in a reason shortened: the JSON keeps it whole); then one line counting them all."""
    blocks = []
    for item in disagreements:
        d = item.as_dict() if isinstance(item, Disagreement) else item
        head = (f"Disagreement on {printable(d['file'])} puzzle {d['index'] + 1} (line {d['line']}):\n  "
                f"{printable(d['puzzle'])}")
        cells = [[printable(c["solver"]), printable(c["claim"]), printable(c["category"]),
                  printable(short_grids(c["reason"]))] for c in d["claims"]]
        table = tabulate(cells,
                         headers=["backend", "claims", "judged", "why"], tablefmt="simple",
                         disable_numparse=True)
        blocks.append(head + "\n" + _indent(table))
    if blocks:
        blocks.append(disagreement_summary(disagreements))
    return "\n\n".join(blocks)


def disagreement_summary(disagreements: Sequence[Disagreement | dict[str, Any]]) -> str:
    """One line: how many puzzles had a disagreement, and who was judged wrong on how many.

    >>> disagreement_summary([{"claims": [{"solver": "a", "category": "wrong"},
    ...                                   {"solver": "b", "category": "correct"}]}] * 2)
    'In all: 2 puzzles with a disagreement; judged wrong: a on 2.'
    """
    wrong: dict[str, int] = {}
    for item in disagreements:
        d = item.as_dict() if isinstance(item, Disagreement) else item
        for solver in dict.fromkeys(c["solver"] for c in d["claims"] if c["category"] == Category.WRONG):
            wrong[solver] = wrong.get(solver, 0) + 1
    count = len(disagreements)
    who = ", ".join(f"{printable(s)} on {n}" for s, n in sorted(wrong.items(), key=lambda x: -x[1]))
    return (f"In all: {count} puzzle{'s' if count != 1 else ''} with a disagreement"
            + (f"; judged wrong: {who}." if who else "."))


LONG_GRID = re.compile(r"[0-9A-Za-z.?]{82,}")
"""A grid written out in a reason (a 9x9 has 81 symbols): shortened when printed."""


def short_grids(text: str) -> str:
    """A reason with each grid of more than 81 symbols shortened to its start and its length.

    >>> short_grids("claims unique, but found: " + "1" * 256)
    'claims unique, but found: 111111111111… (a grid of 256 symbols; the JSON has it whole)'
    """
    return LONG_GRID.sub(lambda m: f"{m.group()[:12]}… (a grid of {len(m.group())} symbols; "
                                   "the JSON has it whole)", str(text))


def render_failures(runs: Sequence[Run | dict[str, Any]], limit: int = 10) -> str:
    """The errors, one line each (the first ``limit``), so a crash is never silent."""
    errors = [r.as_dict() if isinstance(r, Run) else r for r in runs
              if (r.category if isinstance(r, Run) else r["category"]) == Category.ERROR]
    lines = [f"  {printable(r['solver'])} on {printable(r['file'])} puzzle {r['index'] + 1} (line {r['line']}): "
             f"{printable(short_grids(r['reason']))}"
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
    try:  # bounded in bytes, nesting and numbers, and every part a report reads checked (saved.py)
        document = saved.read_json(path)
    except OSError as error:
        raise ReportError(f"{path}: cannot read: {error.strerror or error}") from error
    except saved.SavedFileError as error:
        raise ReportError(f"{path}: {error}") from error
    if not isinstance(document, dict) or document.get("kind") != DOCUMENT_KIND:
        raise ReportError(f"{path}: not a saved compare.py run (no \"kind\": \"{DOCUMENT_KIND}\")")
    runs = document.get("runs")
    if not isinstance(runs, list):
        raise ReportError(f"{path}: \"runs\" is {'missing' if runs is None else 'not a list'}: "
                          "a saved run holds a list of runs")
    problem = saved.document_problem(document)
    if problem:
        raise ReportError(f"{path}: {problem}")
    for number, run in enumerate(runs):
        if not isinstance(run, dict):
            raise ReportError(f"{path}: run {number} is not an object")
        missing = [k for k in (*RUN_KEYS, "size") if k not in run]
        if missing:
            raise ReportError(f"{path}: run {number} lacks {', '.join(missing)}")
        problem = _bad_field(run)
        if problem:
            raise ReportError(f"{path}: run {number}: {problem}")
    problem = saved.unlike_runs(runs)
    if problem:
        raise ReportError(f"{path}: {problem}")
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
    keys = list(rows[0]) if rows else []
    if fmt == "csv":
        return tables.csv_text(keys, rows)
    body = [[seconds(v) if isinstance(v, float) and k != "new/old" else
             (f"{v:.2f}" if isinstance(v, float) else ("-" if v is None else v))
             for k, v in r.items()] for r in rows]
    text = tables.text_table(keys, body, [k in ("set", "configuration") for k in keys], fmt)
    if changes and fmt != "latex":
        text += "\n\nChanged:\n" + "\n".join(
            f"  {c.solver} on {c.file} puzzle {c.index + 1}: {c.old} -> {c.new}" for c in changes[:30])
        if len(changes) > 30:
            text += f"\n  ... and {len(changes) - 30} more"
    return text
