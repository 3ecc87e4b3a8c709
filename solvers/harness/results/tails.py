"""Heavy tails of run-time distributions (Gomes, Selman, Crato and Kautz): survival and Hill.

The survival function of a cost X (run time, CPU time or a counter such as nodes) over many
runs is P(X > x); on a log-log plot a heavy (Pareto-like) tail, P(X > x) ~ C x^-alpha, is a
straight line of slope -alpha. The Hill estimator reads alpha off the k largest of n runs:

    alpha = 1 / ( (1/k) * sum_{i=1..k} ln( X_(n-i+1) / X_(n-k) ) )

alpha < 1: infinite mean; alpha < 2: infinite variance (Gomes et al. report alpha < 1 for
randomised backtracking on quasigroup completion, and restarts removing the tail).

Each puzzle set (file and grid size) and configuration is its own distribution: runs of
different sizes or files are never pooled. The estimate comes with a percentile bootstrap
interval (the runs resampled HILL_RESAMPLES times, seed 0; HILL_LEVEL, 90%) and the number of
runs it rests on: from the 5 largest of 48 runs the interval is wide (0.5 to 3 is common),
and two indices whose intervals overlap are not told apart.

Censoring: a run cut by the limit (timeout, memory-out, gave up) is censored. With a time
it is counted at the limit; with a counter it is counted at the count it reached, when it
reported one. A run killed from outside reports no count at all: its cost is unknown, only
known to be more than it got to, so it counts in the runs (the survival curve stays above
its share at the right end) but not in the estimate, which then reads the tail lighter than
it is, and says so. Repetitions of a puzzle without solver seeds (``--repeat`` rather than
``--seeds``) repeat one cost with the machine's noise: pooling them is warned about.
"""
from __future__ import annotations

import math
import random
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .measures import flat_runs

TAIL_SHARE = 0.1
"""The share of the runs the Hill estimate rests on (the largest ones), at least MIN_TAIL."""
MIN_TAIL = 5
HILL_RESAMPLES = 1000
HILL_LEVEL = 0.90
CUT = ("timeout", "memory-out", "unknown")
"""The categories of a run the limit (or a budget) stopped: its cost is censored."""


@dataclass
class Costs:
    """One set's and configuration's runs: each cost and whether the limit cut it, the runs
    cut with no count, the puzzles, and whether a puzzle's unseeded repetitions are pooled."""

    values: list[tuple[float, bool]] = field(default_factory=list)
    unknown: int = 0
    puzzles: set[tuple[str, int]] = field(default_factory=set)
    unseeded_repeats: bool = False


@dataclass(frozen=True)
class Tail:
    """One set's and configuration's tail: the runs (with a cost or cut with none), the k
    largest the estimate rests on, how many of those were cut by the limit, the runs of
    unknown cost, alpha with its bootstrap interval (None when too few distinct values)."""

    set: str
    configuration: str
    runs: int
    k: int
    censored: int
    unknown: int
    alpha: float | None
    low: float | None
    high: float | None
    puzzles: int
    unseeded_repeats: bool


def hill(values: Sequence[float], k: int) -> float | None:
    """The Hill estimate of the tail index from the k largest values (all > 0).

    >>> round(hill([2.0 ** i for i in range(1, 12)], 4), 3)  # log-spaced: 1 / (2.5 ln 2)
    0.577
    >>> hill([1.0, 1.0, 1.0], 2) is None
    True
    """
    ordered = sorted(values)
    if k < 1 or k >= len(ordered) or ordered[-k - 1] <= 0:
        return None
    threshold = math.log(ordered[-k - 1])
    mean_excess = sum(math.log(v) - threshold for v in ordered[-k:]) / k
    return 1 / mean_excess if mean_excess > 0 else None


def hill_interval(values: Sequence[float], k: int, *, level: float = HILL_LEVEL,
                  resamples: int = HILL_RESAMPLES, seed: int = 0) -> tuple[float | None, float | None]:
    """A percentile bootstrap interval of the Hill estimate: the values resampled with
    replacement, the estimate taken from the k largest of each resample (a resample with too
    few distinct values gives none and is left out); (None, None) when fewer than half give one.

    >>> low, high = hill_interval([2.0 ** i for i in range(1, 41)], 8); low < 0.58 < high
    True
    """
    generator = random.Random(seed)
    estimates = sorted(a for a in (hill(generator.choices(values, k=len(values)), k)
                                   for _ in range(resamples)) if a is not None)
    if len(estimates) * 2 < resamples:
        return (None, None)
    tail = (1 - level) / 2
    return (estimates[int(tail * len(estimates))], estimates[int((1 - tail) * len(estimates)) - 1])


def floor_of(field_name: str) -> float:
    """The smallest value drawn on log axes: 0 decisions at 1, 0 s at 0.1 ms."""
    return 1e-4 if field_name in ("time_s", "cpu_s") else 1.0


def costs(runs: Iterable[dict[str, Any]], field_name: str, limit: float | None) -> dict[tuple[str, str], Costs]:
    """Per (set, configuration), each run's cost and whether the limit cut it (a time counted
    at the limit), the runs cut with no count, and the puzzles."""
    found: dict[tuple[str, str], Costs] = {}
    seen: dict[tuple[str, str, str, int], int] = {}
    for run in flat_runs(runs):
        key = (run["set"], run["configuration"])
        group = found.setdefault(key, Costs())
        cut = run["category"] in CUT
        value = run.get(field_name)
        if field_name == "time_s" and cut and limit is not None:
            value = limit
        elif field_name == "cpu_s" and value is not None and limit is not None:
            value = min(value, limit)
        if value is None:
            group.unknown += cut
            if not cut:
                continue
        else:
            group.values.append((max(float(value), floor_of(field_name)), cut))
        group.puzzles.add((run["file"], run["index"]))
        place = (*key, run["file"], run["index"])
        seen[place] = seen.get(place, 0) + 1
        group.unseeded_repeats |= seen[place] > 1 and run.get("seed") is None
    return {key: group for key, group in found.items() if group.values or group.unknown}


def tails(runs: Iterable[dict[str, Any]], field_name: str, limit: float | None) -> list[Tail]:
    """The Hill estimate per set and configuration, on the largest TAIL_SHARE of its runs of
    known cost, with its bootstrap interval."""
    result = []
    for (name, label), group in costs(runs, field_name, limit).items():
        pairs = group.values
        k = max(MIN_TAIL, round(TAIL_SHARE * len(pairs)))
        largest = sorted(pairs)[-k:] if k < len(pairs) else []
        values = [v for v, _ in pairs]
        alpha = hill(values, k) if largest else None
        low, high = hill_interval(values, k) if alpha is not None else (None, None)
        result.append(Tail(name, label, len(pairs) + group.unknown, k if largest else 0,
                           sum(cut for _, cut in largest), group.unknown, alpha, low, high,
                           len(group.puzzles), group.unseeded_repeats))
    return result


def describe(tail: Tail) -> list[str]:
    """The lines that print one tail: the estimate, its interval, what it rests on, warnings."""
    if tail.alpha is None:
        line = (f"  {tail.configuration}: alpha = - (too few runs or distinct values: "
                f"{tail.runs} runs on {tail.puzzles} puzzle{'s' if tail.puzzles != 1 else ''})")
    else:
        interval = (f" ({HILL_LEVEL:.0%} bootstrap interval {tail.low:.2f}-{tail.high:.2f})"
                    if tail.low is not None and tail.high is not None else " (no interval)")
        line = (f"  {tail.configuration}: alpha = {tail.alpha:.2f}{interval} from the {tail.k} "
                f"largest of {tail.runs} runs on {tail.puzzles} puzzle{'s' if tail.puzzles != 1 else ''} "
                f"({tail.censored} of them cut by the limit)")
    notes = []
    if tail.unknown:
        notes.append(f"{tail.unknown} run{'s' if tail.unknown != 1 else ''} killed with no count "
                     "(censored, cost unknown): drawn as the curve's floor, left out of the estimate, "
                     "so the true tail is heavier than this alpha says")
    if tail.unseeded_repeats:
        notes.append("warning: repetitions of a puzzle without solver seeds are pooled: a "
                     "deterministic method repeats one cost, so they add the machine's noise, not "
                     "new draws; run with --seeds K for a distribution over seeds")
    return [line, *(textwrap.fill(note, 100, initial_indent="    ", subsequent_indent="    ")
                    for note in notes)]


def survival(values: Sequence[float], unknown: int = 0) -> tuple[list[float], list[float]]:
    """The empirical survival function: sorted values and P(X > value) just before each,
    counting ``unknown`` more runs whose cost is beyond every value (censored, unknown).

    >>> survival([3.0, 1.0, 2.0])
    ([1.0, 2.0, 3.0], [1.0, 0.6666666666666666, 0.3333333333333333])
    >>> survival([1.0], unknown=1)
    ([1.0], [1.0])
    """
    ordered = sorted(values)
    n = len(ordered) + unknown
    return ordered, [(n - i) / n for i in range(len(ordered))]
