"""Paired comparison of two runs: the same puzzles, the same configuration, OLD against NEW.

Each (file, puzzle, configuration) in both runs is one pair; each side's repetitions
are reduced on aggregate.py's basis (the upper median of the times, a run without a
correct answer at the limit; solved when a strict majority was correct and none wrong).
The basis is wall time, or CPU time (``basis="cpu"``: the upper median of the repetitions'
CPU seconds, an unsolved puzzle at the limit; a pair whose side has no CPU time is left
out). Each puzzle set (file and grid size) and configuration is its own row: puzzles of
different sizes or files are never pooled into one statistic.
NEW wins a pair when it is more than TIE (5%) faster, loses when more than 5% slower,
and ties otherwise (both unsolved included). The speed ratio is the geometric mean of
NEW/OLD over the pairs at least one of them solved, with a 95% percentile bootstrap
interval on the mean log ratio (RESAMPLES resamples, seed 0); the sign test asks
whether wins and losses are as likely (two-sided, exact binomial). When several rows
are compared at once their p-values are Holm-corrected (family-wise 5%). A row is
called different only when its Holm p is below ALPHA *and* its whole interval lies
beyond the tie band (below 0.95 or above 1.05).

Drift: each sweep saves a calibration probe (engine/calibration.py) from its start and
end, its wall and its CPU time. Two runs whose probes differ by more than DRIFT (5%), or
a run whose probe moved by more than 5% from its start to its end, get no significance
claim ("refused"); the probe's figure compared is the basis's (wall or CPU time), so a
CPU-time comparison is not refused for a load that slowed the wall clock alone:
the machine, not the method, may have changed. Within one run (--pair) the
configurations are interleaved, so a probe that moved is only a warning.
Runs with different limits or different puzzles are refused, with the reason.
"""
from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.calibration import DRIFT, speed_figure
from .aggregate import PuzzleOutcome, reduce_puzzle
from .records import record
from .report import puzzle_set
from .scores import document_limit

TIE = 0.05
RESAMPLES = 2000
FLOOR_S = 1e-6
ALPHA = 0.05
BASES = ("wall", "cpu")
SMALLEST_P = 1e-300
"""p-values below this are printed as '< 1e-300', never as 0."""


class PairingError(ValueError):
    """Two runs that cannot be compared pair by pair; the message says why."""


@dataclass(frozen=True)
class Pair:
    configuration: str
    file: str
    index: int
    set: str
    old_s: float
    new_s: float
    old_solved: bool
    new_solved: bool


def pairs_between(old: dict[str, Any], new: dict[str, Any], *,
                  labels: tuple[str, str] | None = None, basis: str = "wall") -> list[Pair]:
    """The pairs of two saved runs (or, with labels=(A, B), of configurations A and B of
    one run) on the basis's times; PairingError if the limits or the puzzles differ, or
    nothing pairs."""
    limit = _same_limit(old, new)
    sets = {(r["file"], r["index"]): puzzle_set({**r, **record(r)}) for r in old["runs"]}
    before, after = _times(old, limit, basis), _times(new, limit, basis)
    if labels is not None:
        before = {(*k[:2], f"{labels[1]} vs {labels[0]}"): v for k, v in before.items() if k[2] == labels[0]}
        after = {(*k[:2], f"{labels[1]} vs {labels[0]}"): v for k, v in after.items() if k[2] == labels[1]}
        for label, side in zip(labels, (before, after)):
            if not side:
                raise PairingError(f"no runs of configuration {label!r}")
    _same_puzzles(old, new)
    keys = [key for key in before if key in after]
    if not keys:
        raise PairingError("no configuration ran in both: name them alike with LABEL= "
                           "(e.g. --solvers mrv=mrv:inference=singles), or use --pair A,B")
    return [Pair(key[2], key[0], key[1], sets[key[:2]], before[key][0], after[key][0], before[key][1],
                 after[key][1]) for key in keys]


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
                           f"{len(only_b)} only in the second (e.g. {first[0]} puzzle {first[1] + 1})")
    changed = [key for key in a if a[key] != b[key]]
    if changed:
        raise PairingError(f"the puzzles differ: {changed[0][0]} puzzle {changed[0][1] + 1} is not "
                           f"the same puzzle in both ({len(changed)} such)")


def _times(document: dict[str, Any], limit: float,
           basis: str = "wall") -> dict[tuple[str, int, str], tuple[float, bool]]:
    """(file, index, configuration) -> (the puzzle's time, solved?) on aggregate.py's basis."""
    groups: dict[tuple[str, int, str], list[dict[str, Any]]] = {}
    for run in document["runs"]:
        flat = {**run, **record(run)}
        groups.setdefault((flat["file"], flat["index"], flat["configuration"]), []).append(flat)
    outcomes = {key: reduce_puzzle(records, limit) for key, records in groups.items()}
    times = {key: (_basis_time(outcome, limit, basis), outcome.solved) for key, outcome in outcomes.items()}
    return {key: (time, solved) for key, (time, solved) in times.items()
            if time is not None}  # an unsupported puzzle (or one of unknown CPU) makes no pair


def _basis_time(outcome: PuzzleOutcome, limit: float, basis: str) -> float | None:
    """The puzzle's time on the basis: its wall time, or its CPU time (the limit when unsolved)."""
    if basis == "wall" or outcome.time_s is None:
        return outcome.time_s
    return outcome.cpu_s if outcome.solved else limit


def summary_rows(pairs: Sequence[Pair], refused: str = "") -> list[dict[str, Any]]:
    """Per puzzle set and configuration: pairs, wins, losses, ties, geometric-mean ratio NEW/OLD with its
    95% interval, the sign test's p-value, its Holm correction over the rows, and the
    verdict (with ``refused``, the reason machine_speed gave, no significance is claimed)."""
    by_label: dict[tuple[str, str], list[Pair]] = {}
    for pair in pairs:
        by_label.setdefault((pair.set, pair.configuration), []).append(pair)
    rows = [_row(label, group) for label, group in by_label.items()]
    for row, adjusted in zip(rows, holm([row["sign_p"] for row in rows])):
        row["holm_p"] = adjusted
        row["verdict"] = "not claimed: machine drift" if refused else verdict(row)
    return rows


def verdict(row: dict[str, Any]) -> str:
    """'NEW faster' or 'NEW slower' when the Holm p is below ALPHA and the whole interval is
    beyond the tie band; 'no difference shown' otherwise."""
    if row["holm_p"] is None or row["holm_p"] >= ALPHA or row["ratio_low"] is None:
        return "no difference shown"
    if row["ratio_high"] < 1 - TIE:
        return "NEW faster"
    if row["ratio_low"] > 1 + TIE:
        return "NEW slower"
    return "no difference shown"


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down correction of several p-values (None stays None, and is not counted).

    >>> [round(p, 12) for p in holm([0.01, 0.04, 0.03])], holm([None]), holm([2e-20])
    ([0.03, 0.06, 0.06], [None], [2e-20])
    """
    present = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(present):
        running = max(running, min(1.0, (len(present) - rank) * p))
        adjusted[i] = running
    return adjusted


def p_text(p: float | None) -> str:
    """A p-value as printed: three significant figures, never 0.

    >>> [p_text(x) for x in (None, 0.0857, 0.000012, 0.0)]
    ['-', '0.0857', '1.2e-05', '< 1e-300']
    """
    if p is None:
        return "-"
    if p < SMALLEST_P:
        return f"< {SMALLEST_P:g}"
    return f"{p:.3g}"


# ---------------------------------------------------------------- machine speed

def machine_speed(old: dict[str, Any], new: dict[str, Any] | None = None,
                  basis: str = "wall") -> dict[str, Any]:
    """The runs' calibration probes on the basis's clock (wall or CPU time): each run's figure
    and how much it moved within the run, NEW's speed relative to OLD (probe time NEW / OLD:
    above 1, NEW's machine was slower), and ``refused``: why no significance may be claimed
    ('' when nothing is wrong). With one run (new None) a probe that moved is a ``warning`` only."""
    runs = [old] if new is None else [old, new]
    clock = "cpu_s" if basis == "cpu" else "wall_s"
    figures = [speed_figure(run.get("calibration"), clock) for run in runs]
    moved = [probe_moved(run.get("calibration"), clock) for run in runs]
    problems = []
    if any(f is None for f in figures):
        problems.append("a run has no calibration probe, so its machine speed is unknown")
    for name, change in zip(("OLD", "NEW") if new is not None else ("the run",), moved):
        if change is not None and abs(change) > DRIFT:
            problems.append(f"the probe of {name} moved {change:+.1%} from its start to its end")
    first, last = figures[0], figures[-1]
    relative = last / first if new is not None and first and last is not None else None
    if relative is not None and abs(relative - 1) > DRIFT:
        problems.append(f"the machine speeds differ by {relative - 1:+.1%} (probe NEW/OLD)")
    text = "; ".join(problems)
    one_run = new is None
    return {"basis": basis, "old_probe_s": figures[0], "new_probe_s": figures[-1] if not one_run else None,
            "relative": relative, "old_moved": moved[0], "new_moved": moved[-1] if not one_run else None,
            "refused": "" if one_run else text, "warning": text if one_run else "",
            "placement": unshared_cpu(old) if one_run and basis == "wall" else ""}


def unshared_cpu(run: dict[str, Any]) -> str:
    """Why one run's configurations may not have met the same CPU ('' if they did): its workers
    were not kept on one (more than one job, or saved before workers were placed), so where the
    system put a configuration's worker may read as that configuration's speed."""
    if isinstance(run.get("workers_cpu"), int):
        return ""
    return ("the configurations' workers were not kept on one CPU, so a worker's place on the "
            "machine may read as its configuration's speed (for a paired comparison within one "
            "run: --jobs 1, or --basis cpu)")


def probe_moved(calibration: dict[str, Any] | None, clock: str = "wall_s") -> float | None:
    """How much a run's probe moved from its start to its end on one clock (end / start - 1)."""
    if not isinstance(calibration, dict):
        return None
    start, end = calibration.get("start"), calibration.get("end")
    if not (isinstance(start, dict) and isinstance(end, dict)):
        return None
    first, last = start.get(clock), end.get(clock)
    if not isinstance(first, (int, float)) or not isinstance(last, (int, float)) or first <= 0:
        return None
    return float(last) / float(first) - 1


def _row(label: tuple[str, str], pairs: list[Pair]) -> dict[str, Any]:
    logs = [math.log(max(p.new_s, FLOOR_S) / max(p.old_s, FLOOR_S))
            for p in pairs if p.old_solved or p.new_solved]
    wins = sum(1 for p in pairs if _verdict(p) == "win")
    losses = sum(1 for p in pairs if _verdict(p) == "loss")
    low, high = bootstrap_interval(logs)
    return {"set": label[0], "configuration": label[1], "pairs": len(pairs), "wins": wins, "losses": losses,
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
    return float(min(1.0, 2 * tail))
