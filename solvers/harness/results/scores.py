"""Scores researchers use: PAR-K, solved within the limit, and the virtual best solver.

A run's PAR-K score is its time when its answer is correct (within the limit, as
timing.py records it) and K x limit otherwise (timeout, unknown, error, wrong).
Repetitions of one (puzzle, configuration) are reduced to their median score first,
so every puzzle counts once; a puzzle is solved when that median is within the limit.
The virtual best solver (VBS) takes, for each puzzle, the best configuration's score.
"""
from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from typing import Any

from .records import record

VBS = "virtual best"


def run_score(run: dict[str, Any], limit: float, k: float = 2.0) -> float:
    """One run's PAR-K score.

    >>> run_score({"category": "correct", "time_s": 0.2}, 1.0)
    0.2
    >>> run_score({"category": "timeout", "time_s": 1.0}, 1.0, 10)
    10.0
    """
    if str(run["category"]) == "correct" and run["time_s"] <= limit:
        return float(run["time_s"])
    return k * limit


def puzzle_scores(runs: Iterable[dict[str, Any]], limit: float,
                  k: float = 2.0) -> dict[tuple[str, int, str], float]:
    """(file, index, configuration) -> the median PAR-K score over its repetitions."""
    scores: dict[tuple[str, int, str], list[float]] = {}
    for run in runs:
        flat = record(run)
        key = (flat["file"], flat["index"], flat["configuration"])
        scores.setdefault(key, []).append(run_score(flat, limit, k))
    return {key: statistics.median(values) for key, values in scores.items()}


def score_rows(runs: Sequence[dict[str, Any]], limit: float, k: float = 2.0) -> list[dict[str, Any]]:
    """Per (file, n, configuration): puzzles, solved, PAR-K; then a VBS row per (file, n)
    when the set was run by more than one configuration."""
    records = [record(r) for r in runs]
    size = {(r["file"], r["index"]): r["n"] for r in records}
    scores = puzzle_scores(records, limit, k)
    groups: dict[tuple[str, int], dict[str, dict[int, float]]] = {}
    for (file, index, label), score in scores.items():
        groups.setdefault((file, size[file, index]), {}).setdefault(label, {})[index] = score
    rows = []
    for (file, n), by_label in groups.items():
        for label, values in by_label.items():
            rows.append(_row(file, n, label, list(values.values()), limit, k))
        if len(by_label) > 1:
            best: dict[Any, Any] = {}
            for values in by_label.values():
                for index, score in values.items():
                    best[index] = min(best.get(index, score), score)
            rows.append(_row(file, n, VBS, list(best.values()), limit, k))
    return rows


def _row(file: str, n: int, label: str, scores: list[float], limit: float, k: float) -> dict[str, Any]:
    return {"file": file, "n": n, "configuration": label, "puzzles": len(scores),
            "solved": sum(score <= limit for score in scores), f"par{k:g}": statistics.fmean(scores),
            "limit_s": limit}


def document_limit(document: dict[str, Any]) -> float | None:
    """The per-run time limit a saved run used (None if it does not say)."""
    limit = document.get("limit_s", document.get("options", {}).get("timeout_s"))
    return float(limit) if limit is not None else None
