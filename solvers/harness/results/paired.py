"""Paired comparison of two runs: the same puzzles, the same configuration, OLD against NEW.

Each (file, puzzle, configuration) in both runs is one pair; repetitions are reduced
to their median time, and a run without a correct answer counts at the limit. NEW
wins a pair when it is more than TIE (5%) faster, loses when more than 5% slower,
and ties otherwise (both unsolved included). The speed ratio is the geometric mean of
NEW/OLD over the pairs at least one of them solved, with a 95% bootstrap confidence
interval on the mean log ratio; the sign test asks whether wins and losses are as
likely (two-sided, exact binomial). Runs with different limits or different puzzles
are refused, with the reason.
"""
from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .records import record
from .scores import document_limit

TIE = 0.05
RESAMPLES = 2000
FLOOR_S = 1e-6


class PairingError(ValueError):
    """Two runs that cannot be compared pair by pair; the message says why."""


@dataclass(frozen=True)
class Pair:
    configuration: str
    file: str
    index: int
    old_s: float
    new_s: float
    old_solved: bool
    new_solved: bool


def pairs_between(old: dict[str, Any], new: dict[str, Any], *,
                  labels: tuple[str, str] | None = None) -> list[Pair]:
    """The pairs of two saved runs (or, with labels=(A, B), of configurations A and B of
    one run); PairingError if the limits or the puzzles differ, or nothing pairs."""
    limit = _same_limit(old, new)
    before, after = _times(old, limit), _times(new, limit)
    if labels is not None:
        before = {k[:2] + (f"{labels[1]} vs {labels[0]}",): v for k, v in before.items() if k[2] == labels[0]}
        after = {k[:2] + (f"{labels[1]} vs {labels[0]}",): v for k, v in after.items() if k[2] == labels[1]}
        for label, side in zip(labels, (before, after)):
            if not side:
                raise PairingError(f"no runs of configuration {label!r}")
    _same_puzzles(old, new)
    keys = [key for key in before if key in after]
    if not keys:
        raise PairingError("no configuration ran in both: name them alike with LABEL= "
                           "(e.g. --solvers mrv=mrv:inference=singles), or use --pair A,B")
    return [Pair(key[2], key[0], key[1], before[key][0], after[key][0], before[key][1], after[key][1])
            for key in keys]


def _same_limit(old: dict[str, Any], new: dict[str, Any]) -> float:
    first, second = document_limit(old), document_limit(new)
    if first is None or second is None:
        raise PairingError("a run does not say its time limit")
    if not math.isclose(first, second):
        raise PairingError(f"the limits differ ({first:g} s and {second:g} s): times "
                           "and timeouts are not comparable")
    return first


def _same_puzzles(old: dict[str, Any], new: dict[str, Any]) -> None:
    a = {(r["file"], r["index"]): r.get("puzzle") for r in old["runs"]}
    b = {(r["file"], r["index"]): r.get("puzzle") for r in new["runs"]}
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    if only_a or only_b:
        first = (only_a or only_b)[0]
        raise PairingError(f"the puzzles differ: {len(only_a)} only in the first run, "
                           f"{len(only_b)} only in the second (e.g. {first[0]} puzzle {first[1]})")
    changed = [key for key in a if a[key] != b[key]]
    if changed:
        raise PairingError(f"the puzzles differ: {changed[0][0]} puzzle {changed[0][1]} is not "
                           f"the same puzzle in both ({len(changed)} such)")


def _times(document: dict[str, Any], limit: float) -> dict[tuple[str, int, str], tuple[float, bool]]:
    """(file, index, configuration) -> (median time, unsolved at the limit; solved?)."""
    groups: dict[tuple[str, int, str], list[tuple[float, bool]]] = {}
    for run in document["runs"]:
        flat = record(run)
        solved = flat["category"] == "correct" and flat["time_s"] <= limit
        groups.setdefault((flat["file"], flat["index"], flat["configuration"]), []).append(
            (flat["time_s"] if solved else limit, solved))
    return {key: (statistics.median(t for t, _ in values),
                  sum(s for _, s in values) * 2 > len(values)) for key, values in groups.items()}


def summary_rows(pairs: Sequence[Pair]) -> list[dict[str, Any]]:
    """Per configuration: pairs, wins, losses, ties, geometric-mean ratio NEW/OLD with its
    95% interval, and the sign test's p-value."""
    by_label: dict[str, list[Pair]] = {}
    for pair in pairs:
        by_label.setdefault(pair.configuration, []).append(pair)
    return [_row(label, group) for label, group in by_label.items()]


def _row(label: str, pairs: list[Pair]) -> dict[str, Any]:
    logs = [math.log(max(p.new_s, FLOOR_S) / max(p.old_s, FLOOR_S))
            for p in pairs if p.old_solved or p.new_solved]
    wins = sum(1 for p in pairs if _verdict(p) == "win")
    losses = sum(1 for p in pairs if _verdict(p) == "loss")
    low, high = bootstrap_interval(logs)
    return {"configuration": label, "pairs": len(pairs), "wins": wins, "losses": losses,
            "ties": len(pairs) - wins - losses,
            "ratio": math.exp(statistics.fmean(logs)) if logs else None,
            "ratio_low": math.exp(low) if low is not None else None,
            "ratio_high": math.exp(high) if high is not None else None,
            "sign_p": sign_test(wins, losses)}


def _verdict(pair: Pair) -> str:
    if not (pair.old_solved or pair.new_solved):
        return "tie"
    ratio = max(pair.new_s, FLOOR_S) / max(pair.old_s, FLOOR_S)
    return "win" if ratio < 1 - TIE else "loss" if ratio > 1 + TIE else "tie"


def bootstrap_interval(logs: Sequence[float], level: float = 0.95,
                       seed: int = 0) -> tuple[float | None, float | None]:
    """A percentile bootstrap interval for the mean of logs (fixed seed: reproducible).

    >>> bootstrap_interval([0.1] * 5)
    (0.1, 0.1)
    """
    if len(logs) < 2:
        return (None, None)
    generator = random.Random(seed)
    means = sorted(statistics.fmean(generator.choices(logs, k=len(logs))) for _ in range(RESAMPLES))
    tail = (1 - level) / 2
    return (round(means[int(tail * RESAMPLES)], 12), round(means[int((1 - tail) * RESAMPLES) - 1], 12))


def sign_test(wins: int, losses: int) -> float | None:
    """Two-sided exact binomial p-value of wins against losses (ties left out).

    >>> round(sign_test(9, 1), 4), sign_test(3, 3), sign_test(0, 0)
    (0.0215, 1.0, None)
    """
    total = wins + losses
    if total == 0:
        return None
    tail = sum(math.comb(total, i) for i in range(min(wins, losses) + 1)) / 2 ** total
    return min(1.0, 2 * tail)
