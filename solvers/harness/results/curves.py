"""Cost against a puzzle's attribute: the median and interquartile band per configuration.

x is an attribute of the puzzle (``givens``, ``holes``: the share of empty cells, ``n``);
y any numeric measure of a run (``time_s``, ``cpu_s``, ``nodes``, ``backtracks``, ...).
Runs are grouped by puzzle set (file and grid size; the file alone when x is the size n),
configuration and x value, so puzzles of different sizes or files are never pooled into one
point; each group gives (x, median, first quartile, third quartile, runs). A timeout's time
counts at the limit (so the median stays honest where most runs are cut, as on a
phase-transition peak); a counter a run lacks is skipped.
"""
from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...result import COUNTERS

ATTRIBUTES = ("holes", "givens", "n")
MEASURES = ("time_s", "cpu_s", *COUNTERS)


@dataclass(frozen=True)
class Point:
    """One configuration at one x value."""

    x: float
    median: float
    low: float   # first quartile
    high: float  # third quartile
    runs: int


def attribute(run: dict[str, Any], name: str) -> float:
    """A puzzle attribute of a run's record (its ``puzzle`` line: one symbol per cell).

    >>> run = {"n": 2, "puzzle": "1..2"}
    >>> attribute(run, "givens"), attribute(run, "holes"), attribute(run, "n")
    (2, 0.5, 2)
    """
    n = int(run["n"])
    if name == "n":
        return n
    cells = str(run.get("puzzle") or "").split()[0][:n * n] if run.get("puzzle") else ""
    givens = sum(1 for symbol in cells if symbol not in ".0-")
    return givens if name == "givens" else round(1 - givens / (n * n), 3)


def group_of(run: dict[str, Any], x: str) -> str:
    """The set a run's point belongs to: its file's name and grid size (the file's alone when
    x is the size).

    >>> group_of({"file": "a/q.txt", "n": 25}, "holes"), group_of({"file": "a/q.txt", "n": 25}, "n")
    ('q.txt 25x25', 'q.txt')
    """
    name = Path(str(run.get("file", ""))).name
    return name if x == "n" else f"{name} {run['n']}x{run['n']}".strip()


def curve(runs: Iterable[dict[str, Any]], x: str, y: str, limit: float | None
          ) -> dict[tuple[str, str], list[Point]]:
    """Per (set, configuration), the points of y against x, in increasing x."""
    groups: dict[tuple[str, str], dict[float, list[float]]] = {}
    for run in runs:
        value = run.get(y)
        if y == "time_s" and run.get("category") in ("timeout", "memory-out") and limit:
            value = limit
        if value is None:
            continue
        key = (group_of(run, x), run["configuration"])
        groups.setdefault(key, {}).setdefault(attribute(run, x), []).append(float(value))
    result = {}
    for label, by_x in groups.items():
        points = []
        for at in sorted(by_x):
            values = sorted(by_x[at])
            if len(values) > 1:
                low, _, high = statistics.quantiles(values, n=4, method="inclusive")
            else:
                low = high = values[0]
            points.append(Point(at, statistics.median(values), low, high, len(values)))
        result[label] = points
    return result


def peak(points: Iterable[Point]) -> Point | None:
    """The point with the highest median (the first of equal ones, in increasing x), or
    None for no points: where an easy-hard-easy curve is hardest.

    >>> peak([Point(0.3, 2, 1, 3, 5), Point(0.42, 9, 4, 12, 5), Point(0.5, 9, 8, 9, 5)]).x
    0.42
    """
    best = None
    for point in points:
        if best is None or point.median > best.median:
            best = point
    return best
