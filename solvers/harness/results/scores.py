"""Scores researchers use: PAR-K, solved within the limit, and the virtual best solver.

Everything is per puzzle first, on aggregate.py's basis: a puzzle is solved by a
configuration when a strict majority of its repetitions gave a correct answer and none
a wrong one; its PAR-K score is then its time (the upper median of the repetitions'
times, unsolved runs at the limit), and K x limit otherwise. A configuration's PAR-K is
the mean over puzzles, its solved count the number of puzzles solved (as in the SAT
competition). The virtual best solver (VBS) takes, for each puzzle, the best
configuration's score.
"""
from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from typing import Any

from .aggregate import PuzzleOutcome, reduce_puzzle
from .records import record

VBS = "virtual best"


def run_score(run: dict[str, Any], limit: float, k: float = 2.0) -> float:
    """One run's PAR-K score (before the repetitions are reduced).

    >>> run_score({"category": "correct", "time_s": 0.2}, 1.0)
    0.2
    >>> run_score({"category": "timeout", "time_s": 1.0}, 1.0, 10)
    10.0
    """
    if str(run["category"]) == "correct" and run["time_s"] <= limit:
        return float(run["time_s"])
    return k * limit


def puzzle_outcomes(runs: Iterable[dict[str, Any]],
                    limit: float | None) -> dict[tuple[str, int, str], PuzzleOutcome]:
    """(file, index, configuration) -> its repetitions reduced (aggregate.reduce_puzzle)."""
    groups: dict[tuple[str, int, str], list[dict[str, Any]]] = {}
    for run in runs:
        flat = {**run, **record(run)}
        groups.setdefault((flat["file"], flat["index"], flat["configuration"]), []).append(flat)
    return {key: reduce_puzzle(records, limit) for key, records in groups.items()}


def score_rows(runs: Sequence[dict[str, Any]], limit: float, k: float = 2.0) -> list[dict[str, Any]]:
    """Per (file, n, configuration): puzzles, solved puzzles, PAR-K; then a VBS row per (file, n)
    when the set was run by more than one configuration (a puzzle is solved by the VBS when
    some configuration solved it)."""
    records = [record(r) for r in runs]
    size = {(r["file"], r["index"]): r["n"] for r in records}
    groups: dict[tuple[str, int], dict[str, dict[int, tuple[bool, float]]]] = {}
    for (file, index, label), outcome in puzzle_outcomes(runs, limit).items():
        if outcome.verdict == "unsupported":  # it answered nothing to score
            continue
        groups.setdefault((file, size[file, index]), {}).setdefault(label, {})[index] = \
            (outcome.solved, outcome.score(limit, k))
    rows = []
    for (file, n), by_label in groups.items():
        for label, values in by_label.items():
            rows.append(_row(file, n, label, list(values.values()), limit, k))
        if len(by_label) > 1:
            best: dict[int, tuple[bool, float]] = {}
            for values in by_label.values():
                for index, (solved, score) in values.items():
                    was = best.get(index, (solved, score))
                    best[index] = (was[0] or solved, min(was[1], score))
            rows.append(_row(file, n, VBS, list(best.values()), limit, k))
    return rows


def _row(file: str, n: int, label: str, puzzles: list[tuple[bool, float]], limit: float,
         k: float) -> dict[str, Any]:
    return {"file": file, "n": n, "configuration": label, "puzzles": len(puzzles),
            "solved": sum(solved for solved, _ in puzzles),
            f"par{k:g}": statistics.fmean(score for _, score in puzzles), "limit_s": limit}


SCORES_FOOTNOTE = ("puzzles: puzzles run (those the backend could not express left out); solved: "
                   "puzzles a strict majority of whose repetitions "
                   "were correct, none wrong; par{k}: mean over puzzles of the puzzle's time (upper "
                   "median of its repetitions) when solved, {k} x limit_s otherwise; virtual best: "
                   "each puzzle's best score over the configurations.")


def document_limit(document: dict[str, Any]) -> float | None:
    """The per-run time limit a saved run used (None if it does not say)."""
    limit = document.get("limit_s", document.get("options", {}).get("timeout_s"))
    return float(limit) if limit is not None else None
