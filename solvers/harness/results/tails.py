"""Heavy tails of run-time distributions (Gomes, Selman, Crato and Kautz): survival and Hill.

The survival function of a cost X (run time or nodes) over many runs is P(X > x); on a
log-log plot a heavy (Pareto-like) tail, P(X > x) ~ C x^-alpha, is a straight line of slope
-alpha. The Hill estimator reads alpha off the k largest of n runs:

    alpha = 1 / ( (1/k) * sum_{i=1..k} ln( X_(n-i+1) / X_(n-k) ) )

alpha < 1: infinite mean; alpha < 2: infinite variance (Gomes et al. report alpha < 1 for
randomised backtracking on quasigroup completion, and restarts removing the tail). A run
cut by the time limit is censored: it is counted at the limit, which can only make the
tail look lighter (alpha larger), and how many of the k there were is reported.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

TAIL_SHARE = 0.1
"""The share of the runs the Hill estimate rests on (the largest ones), at least MIN_TAIL."""
MIN_TAIL = 5
FIELDS = ("time_s", "nodes")


@dataclass(frozen=True)
class Tail:
    """One configuration's tail: the runs, the k largest the estimate rests on, how many of
    those were cut by the limit, and alpha (None when there are too few distinct values)."""

    configuration: str
    runs: int
    k: int
    censored: int
    alpha: float | None


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


def costs(runs: Iterable[dict[str, Any]], field: str, limit: float | None
          ) -> dict[str, list[tuple[float, bool]]]:
    """Per configuration, each run's cost and whether the limit cut it (counted at the limit)."""
    found: dict[str, list[tuple[float, bool]]] = {}
    for run in runs:
        cut = run["category"] in ("timeout", "memory-out", "unknown")
        value = run.get(field)
        if field == "time_s" and cut and limit is not None:
            value = limit
        if value is None:
            continue
        floor = 1.0 if field == "nodes" else 1e-4  # log axes: 0 decisions drawn at 1, 0 s at 0.1 ms
        found.setdefault(run["configuration"], []).append((max(float(value), floor), cut))
    return found


def tails(runs: Iterable[dict[str, Any]], field: str, limit: float | None) -> list[Tail]:
    """The Hill estimate per configuration, on the largest TAIL_SHARE of its runs."""
    result = []
    for label, pairs in costs(runs, field, limit).items():
        k = max(MIN_TAIL, round(TAIL_SHARE * len(pairs)))
        largest = sorted(pairs)[-k:] if k < len(pairs) else []
        result.append(Tail(label, len(pairs), k if largest else 0, sum(cut for _, cut in largest),
                           hill([v for v, _ in pairs], k) if largest else None))
    return result


def survival(values: Sequence[float]) -> tuple[list[float], list[float]]:
    """The empirical survival function: sorted values and P(X > value) just before each.

    >>> survival([3.0, 1.0, 2.0])
    ([1.0, 2.0, 3.0], [1.0, 0.6666666666666666, 0.3333333333333333])
    """
    ordered = sorted(values)
    n = len(ordered)
    return ordered, [(n - i) / n for i in range(n)]
