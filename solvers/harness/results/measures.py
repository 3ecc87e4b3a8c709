"""A measure of each puzzle (or run) that a picture plots: wall time, CPU time or a counter,
per puzzle set (file and grid size), on aggregate.py's basis.

Per puzzle and configuration (its repetitions reduced): the wall time is the puzzle's time
(the limit when unsolved); the CPU time its upper median CPU when solved, the limit
otherwise; a counter the upper median over the correct repetitions of a solved puzzle, and
None (not solved: its cost is unknown, beyond anything drawn) otherwise.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ...result import COUNTERS
from ..tasks import Category
from .aggregate import reduce_puzzle, upper_median
from .records import record
from .report import puzzle_set

FIELDS = ("time_s", "cpu_s", *COUNTERS)
TIMES = ("time_s", "cpu_s")
UNITS = {"time_s": "wall time over the call (s)", "cpu_s": "CPU time (s)",
         "backend_s": "the backend's own time (s)"}


def label(field: str) -> str:
    """The axis label of a measure: 'wall time over the call (s)', 'nodes'."""
    return UNITS.get(field, field)


@dataclass(frozen=True)
class PuzzleValue:
    """One configuration on one puzzle: its set, whether it was solved, and the measure
    (None: unsolved and the measure is a counter, or the backend has no such counter)."""

    set: str
    puzzle: str
    solved: bool
    value: float | None


def flat_runs(runs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each run as its record, with the raw fields (puzzle, size) kept and its set named."""
    flat = []
    for run in runs:
        data = {**run, **record(run)}
        data["set"] = puzzle_set(data)
        flat.append(data)
    return flat


def puzzle_values(runs: Iterable[dict[str, Any]], field: str,
                  limit: float | None) -> dict[tuple[str, int, str], PuzzleValue]:
    """(file, index, configuration) -> its PuzzleValue for ``field`` (unsupported puzzles left out)."""
    groups: dict[tuple[str, int, str], list[dict[str, Any]]] = {}
    for flat in flat_runs(runs):
        groups.setdefault((flat["file"], flat["index"], flat["configuration"]), []).append(flat)
    values = {}
    for key, records in groups.items():
        outcome = reduce_puzzle(records, limit)
        if outcome.verdict == "unsupported":
            continue
        if field == "time_s":
            value = outcome.time_s
        elif field == "cpu_s":
            value = outcome.cpu_s if outcome.solved else limit
        else:
            counts = [r[field] for r in records if r["category"] == Category.CORRECT and r.get(field) is not None]
            value = float(upper_median(counts)) if outcome.solved and counts else None
        first = records[0]
        values[key] = PuzzleValue(first["set"], f"{first['file']} puzzle {first['index'] + 1}: "
                                  f"{first.get('puzzle') or ''}", outcome.solved, value)
    return values


def by_set(values: dict[tuple[str, int, str], PuzzleValue]) -> dict[str, dict[str, list[tuple[int, str, PuzzleValue]]]]:
    """The values grouped: set -> configuration -> [(index, file, value)], in order of appearance."""
    grouped: dict[str, dict[str, list[tuple[int, str, PuzzleValue]]]] = {}
    for (file, index, configuration), value in values.items():
        grouped.setdefault(value.set, {}).setdefault(configuration, []).append((index, file, value))
    return grouped
