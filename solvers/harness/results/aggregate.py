"""The one aggregation basis of every table: first each puzzle's repetitions, then the puzzles.

Per puzzle (one configuration's R repetitions on it; repetitions judged unsupported, a
constraint kind the backend cannot express, answered nothing and are left out; a puzzle
with only those is ``unsupported``, with no time or score):

- verdict: ``wrong`` if any repetition was wrong; else ``solved`` when a strict majority
  (more than R/2) gave a correct answer (a verified solution, or a correct unsat claim);
  else the most frequent other category (ties in the order unchecked, timeout, memory-out,
  unknown, error). An unchecked answer (a claim the judge could not settle) is never solved.
- time: the *upper median* of the repetitions' times, a run without a correct answer
  counted at the limit; the upper median of R values is the (R//2 + 1)-th smallest, the
  median for odd R and the larger middle value for even R. So a puzzle's time is within
  the limit exactly when it is solved: one solved and one timed-out repetition give the
  limit, and the puzzle is not solved. An unsolved puzzle's time is the limit.
- PAR-K: the puzzle's time when solved, K x limit otherwise.
- CPU: the upper median of the repetitions' CPU seconds, each capped at the limit; a
  run whose CPU is unknown (None) is left out, never counted as 0.
- nodes, conflicts: the upper median over the repetitions with a correct answer, for a
  solved puzzle only: a puzzle solved in 2 of 4 repetitions is not solved, and its counters
  stay out of every "mean over solved puzzles".

Over puzzles: the mean (with a percentile bootstrap 95% interval, BOOTSTRAP_RESAMPLES
resamples of the puzzles, seed BOOTSTRAP_SEED, so the same runs give the same interval),
the median, the interquartile range (75th minus 25th percentile, linear interpolation)
and the maximum. Puzzles without a value (no known CPU, no correct run for nodes) are
left out of that column's mean.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..tasks import Category

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 0
LEVEL = 0.95
_OTHER = (Category.UNCHECKED, Category.TIMEOUT, Category.MEMORY_OUT, Category.UNKNOWN, Category.ERROR)


@dataclass(frozen=True)
class PuzzleOutcome:
    """One configuration on one puzzle, its repetitions reduced (see the module's text)."""

    verdict: str
    """'solved', 'wrong', or the category most of the unsolved repetitions had."""
    unsat: bool
    """Solved, and the correct answers were unsat claims."""
    multiple: bool
    """Solved, and a correct repetition found two or more solutions."""
    time_s: float | None
    """None only when unsupported."""
    cpu_s: float | None
    nodes: float | None
    """Solved puzzles only (the upper median over the correct repetitions)."""
    conflicts: float | None

    @property
    def solved(self) -> bool:
        return self.verdict == "solved"

    def score(self, limit: float, k: float) -> float:
        """The puzzle's PAR-K score: its time when solved, K x limit otherwise."""
        return self.time_s if self.solved and self.time_s is not None else k * limit


def upper_median(values: Sequence[float]) -> float:
    """The (len//2 + 1)-th smallest value: the median of an odd count, the larger of the two
    middle values of an even one.

    >>> upper_median([3.0, 1.0, 2.0]), upper_median([0.2, 1.0]), upper_median([5.0])
    (2.0, 1.0, 5.0)
    """
    if not values:
        raise ValueError("upper_median of no values")
    return sorted(values)[len(values) // 2]


def reduce_puzzle(records: Sequence[dict[str, Any]], limit: float | None) -> PuzzleOutcome:
    """The PuzzleOutcome of one configuration's repetitions on one puzzle (flat records:
    category, status, time_s, cpu_s, solutions, and the counters nodes/conflicts or stats)."""
    records = [r for r in records if str(r["category"]) != Category.UNSUPPORTED]
    if not records:
        return PuzzleOutcome("unsupported", False, False, None, None, None, None)
    categories = [str(r["category"]) for r in records]
    correct = [r for r in records if str(r["category"]) == Category.CORRECT]
    if Category.WRONG in categories:
        verdict = "wrong"
    elif len(correct) * 2 > len(records):
        verdict = "solved"
    else:
        counts = Counter(categories)
        verdict = max(_OTHER, key=lambda c: (counts[c], -_OTHER.index(c))).value
    solved = verdict == "solved"
    times = [_time(r, limit) for r in records]
    time = upper_median(times) if solved or limit is None else limit
    cpu = [min(c, limit) if limit is not None else c
           for c in (r.get("cpu_s") for r in records) if c is not None]
    return PuzzleOutcome(
        verdict=verdict,
        unsat=solved and sum(str(r["status"]) == "unsat" for r in correct) * 2 > len(correct),
        multiple=solved and any(len(r.get("solutions") or ()) >= 2 for r in correct),
        time_s=time, cpu_s=upper_median(cpu) if cpu else None,
        nodes=_counter(correct, "nodes") if solved else None,
        conflicts=_counter(correct, "conflicts") if solved else None)


def _time(run: dict[str, Any], limit: float | None) -> float:
    if limit is None:
        return float(run["time_s"])
    if str(run["category"]) != Category.CORRECT:
        return limit
    return min(float(run["time_s"]), limit)


def _counter(runs: Sequence[dict[str, Any]], name: str) -> float | None:
    values = [v for v in (r.get(name, (r.get("stats") or {}).get(name)) for r in runs) if v is not None]
    return upper_median(values) if values else None


# ---------------------------------------------------------------- over puzzles

def mean_interval(values: Sequence[float], level: float = LEVEL, *,
                  resamples: int = BOOTSTRAP_RESAMPLES,
                  seed: int = BOOTSTRAP_SEED) -> tuple[float | None, float | None]:
    """A percentile bootstrap interval of the mean of ``values`` (resampled with replacement,
    ``resamples`` times, from a generator seeded with ``seed``); (None, None) under two values.

    >>> mean_interval([0.5] * 4)
    (0.5, 0.5)
    >>> low, high = mean_interval([1.0, 2.0, 3.0, 4.0]); 1.0 <= low < 2.5 < high <= 4.0
    True
    """
    if len(values) < 2:
        return (None, None)
    import numpy  # noqa: PLC0415 - only for summaries, not for every import of the harness

    data = numpy.asarray(values, dtype=numpy.float64)
    generator = numpy.random.default_rng(seed)
    chunk = max(1, min(resamples, 2_000_000 // len(data)))  # bounded memory for big sets
    means = []
    for start in range(0, resamples, chunk):
        picks = generator.integers(0, len(data), size=(min(chunk, resamples - start), len(data)))
        means.append(data[picks].mean(axis=1))
    tail = (1 - level) / 2 * 100
    low, high = numpy.percentile(numpy.concatenate(means), [tail, 100 - tail])
    return (round(float(low), 12), round(float(high), 12))


def interquartile_range(values: Sequence[float]) -> float | None:
    """The 75th minus the 25th percentile (linear interpolation); None without values.

    >>> interquartile_range([1.0, 2.0, 3.0, 4.0, 5.0])
    2.0
    """
    if not values:
        return None
    import numpy  # noqa: PLC0415 - only for summaries

    low, high = numpy.percentile(numpy.asarray(values, dtype=numpy.float64), [25, 75])
    return float(high - low)


def median(values: Sequence[float]) -> float | None:
    """The ordinary median over puzzles (the mean of the two middle values of an even count)."""
    if not values:
        return None
    import numpy  # noqa: PLC0415 - only for summaries

    return float(numpy.median(numpy.asarray(values, dtype=numpy.float64)))
