"""Batch answers judged: every run's category kept as columns (one array a field, so a file
of 20,000 puzzles costs no Python object a run), the summary rows computed from the columns,
and each run's record (judge.Run) built only where one is needed (--json, --csv, --plot,
``solve --batch``, the errors listed under the table).

The rules are judge.py's, over arrays, for one repetition of each configuration:

- a solution the checker rejects, or the same solution twice: wrong;
- a claim that the solutions given are all there are ("unique", "exactly k", "no
  solution") refuted by another configuration's verified solution of the same puzzle: wrong;
- any other such claim the run was asked for (judge.py: "no solution", or fewer solutions
  than asked) is **unchecked**, its own category, never solved: a batch re-derives no claim
  (the judge's reference method costs tens of milliseconds a puzzle, the batch
  microseconds), and no backend of another method family confirms it (only fast has a batch
  entry). The summary's "unchecked" column counts them, and the lines under every table say
  so. A claim nobody asked for (one solution asked, one given, the search complete) is
  recorded as ``not asked``, the run correct;
- fewer solutions than asked for without exhausting the search: timeout at the time
  limit, unknown at the node limit; the entry failing or answering malformed data: error.

Times are each puzzle's own, measured inside the compiled call (engine/batch.py); a run
without a correct answer counts at the limit, as aggregate.py counts it. CPU time is not
measured per puzzle (the column stays empty).
"""
from __future__ import annotations

import os
import socket
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from models import to_line

from ...result import Status
from ..engine.batch import BatchAnswer
from ..tasks import Category, Outcome
from .aggregate import interquartile_range, mean_interval, median
from .claims import Proof
from .judge import Run, grid_text
from .report import node_meaning, puzzle_set

CATEGORIES = (Category.CORRECT, Category.WRONG, Category.TIMEOUT, Category.UNKNOWN, Category.ERROR,
              Category.UNCHECKED)
_CORRECT, _WRONG, _TIMEOUT, _UNKNOWN, _ERROR, _UNCHECKED = range(6)
STATUSES = (Status.SOLVED, Status.UNSAT, Status.TIMEOUT, Status.UNKNOWN, Status.ERROR)
_SOLVED, _UNSAT, _TIMED_OUT, _GAVE_UP, _FAILED = range(5)
UNCHECKED_REASON = ("--batch re-derives no claim and no backend of another method family "
                    "confirms it")


@dataclass
class JudgedBatch:
    """One configuration's batch answer with each run's status and category (indexes into
    STATUSES and CATEGORIES) and whether it claims completeness."""

    answer: BatchAnswer
    status: np.ndarray     # int8[puzzles]
    category: np.ndarray   # int8[puzzles]
    unchecked: np.ndarray  # bool[puzzles]: a claim of no, one or exactly k solutions it was asked
    #                        for, unrefuted and unchecked (category unchecked)
    unasked: np.ndarray    # bool[puzzles]: such a claim nobody asked for (recorded, not checked)
    refuted: np.ndarray    # bool[puzzles]: such a claim refuted by another configuration
    max_solutions: int
    repeat: int = 0

    def __len__(self) -> int:
        return len(self.status)


def judge_batch(answers: Sequence[BatchAnswer], max_solutions: int, repeat: int = 0) -> list[JudgedBatch]:
    """The runs of every configuration on one array of puzzles, judged together (so one's
    verified solution refutes another's claim)."""
    judged = []
    for answer in answers:
        counts, failed = answer.counts, bool(answer.error)
        complete, timed_out = answer.complete.astype(bool), answer.timed_out.astype(bool)
        claims = complete & answer.verified & ~timed_out & (not failed)
        status = np.select([np.full(len(counts), failed), counts > 0, complete, timed_out],
                           [_FAILED, _SOLVED, _UNSAT, _TIMED_OUT], _GAVE_UP)
        refuted = np.zeros(len(counts), bool)
        for other in answers:
            if other is not answer:
                refuted |= claims & _finds_another(other, answer)
        asked = claims & (counts < max_solutions)  # "no solution", or fewer than asked for: all there are
        category = np.select(
            [np.full(len(counts), failed), (counts > 0) & ~answer.verified, refuted, asked,
             claims | (counts >= max_solutions), timed_out],
            [_ERROR, _WRONG, _WRONG, _UNCHECKED, _CORRECT, _TIMEOUT], _UNKNOWN)
        judged.append(JudgedBatch(answer, status.astype(np.int8), category.astype(np.int8),
                                  category == _UNCHECKED, claims & ~asked & (category == _CORRECT),
                                  refuted, max_solutions, repeat))
    return judged


def _finds_another(other: BatchAnswer, claimant: BatchAnswer) -> np.ndarray:
    """Rows where other has a verified solution that is none of the claimant's."""
    found = np.zeros(len(other.counts), bool)
    for k in range(other.grids.shape[1]):
        mine = (other.counts > k) & other.verified
        if not mine.any():
            continue
        known = np.zeros(len(other.counts), bool)
        for j in range(claimant.grids.shape[1]):
            known |= (claimant.counts > j) & (other.grids[:, k] == claimant.grids[:, j]).all(axis=1)
        found |= mine & ~known
    return found


# ---------------------------------------------------------------- the summary from the columns

def summary_rows(judged: Sequence[JudgedBatch], *, unique: bool, limit: float, par: float
                 ) -> list[dict[str, Any]]:
    """One row per (file, grid size, configuration), report.SUMMARY_KEYS in order, as
    report.summarize gives for the same runs (each puzzle run once)."""
    groups: dict[tuple[str, int, str], list[JudgedBatch]] = {}
    for one in judged:
        answer = one.answer
        key = (answer.array.file, answer.array.template.n, answer.configuration.name)
        groups.setdefault(key, []).append(one)
    return [_row(parts, unique=unique, limit=limit, par=par) for parts in groups.values()]


def _row(parts: Sequence[JudgedBatch], *, unique: bool, limit: float, par: float) -> dict[str, Any]:
    category = np.concatenate([p.category for p in parts])
    status = np.concatenate([p.status for p in parts])
    counts = np.concatenate([p.answer.counts for p in parts])
    seconds = np.concatenate([p.answer.seconds for p in parts])
    nodes = np.concatenate([p.answer.nodes for p in parts])
    correct = category == _CORRECT
    times = np.where(correct, np.minimum(seconds, limit), limit).tolist()
    scores = [t if ok else par * limit for t, ok in zip(times, correct.tolist(), strict=True)]
    low, high = mean_interval(times)
    first = parts[0].answer
    template = first.array.template
    return {
        "set": puzzle_set({"file": first.array.file, "size": template.geometry.label().split()[0]}),
        "file": first.array.file, "n": template.n, "configuration": first.configuration.name,
        "backend": first.configuration.backend_name, "puzzles": len(category), "runs": len(category),
        "solved": int(correct.sum()), "unsat": int((correct & (status == _UNSAT)).sum()),
        "multiple": int((correct & (counts >= 2)).sum()) if unique else None,
        "timeouts": int((category == _TIMEOUT).sum()), "memory_outs": 0,
        "unknown": int((category == _UNKNOWN).sum()), "unsupported": 0,
        "errors": int((category == _ERROR).sum()), "wrong": int((category == _WRONG).sum()),
        "unchecked": int((category == _UNCHECKED).sum()),
        "par": statistics.fmean(scores) if scores else None,
        "mean_s": statistics.fmean(times) if times else None, "mean_s_low": low, "mean_s_high": high,
        "median_s": median(times), "iqr_s": interquartile_range(times),
        "max_s": max(times) if times else None, "mean_cpu_s": None,
        "mean_nodes": float(nodes[correct].mean()) if correct.any() else None,
        "nodes_are": node_meaning(first.configuration.backend_name), "mean_conflicts": None,
    }


# ---------------------------------------------------------------- one record a run, on demand

def runs_of(judged: JudgedBatch, rows: Sequence[int] | None = None) -> list[Run]:
    """The judge.Run record of each run (of the rows given, else all), as the in-memory
    sweep keeps them."""
    answer = judged.answer
    array, configuration = answer.array, answer.configuration
    template = array.template
    size, box = template.geometry.label().split()[0], f"{template.geometry.box_rows}x{template.geometry.box_cols}"
    host, worker = socket.gethostname(), os.getpid()
    chosen = range(len(judged)) if rows is None else rows
    out = []
    for row in chosen:
        puzzle = array.puzzle(row)
        count = int(answer.counts[row])
        status = STATUSES[judged.status[row]]
        category = CATEGORIES[judged.category[row]]
        solutions = [grid_text(puzzle, answer.grids[row, k].tolist()) for k in range(count)]
        timed_out = bool(answer.timed_out[row])
        out.append(Run(
            file=array.file, index=int(array.indexes[row]), line=int(array.lines[row]),
            puzzle=to_line(puzzle), size=size, solver=configuration.name, status=status,
            solutions=solutions, complete=bool(answer.complete[row]),
            time_s=float(answer.seconds[row]), stats={"nodes": int(answer.nodes[row])},
            message=answer.error or ("time limit reached" if timed_out else ""),
            claim=_claim(status, count, bool(answer.complete[row])), category=category,
            reason=_reason(judged, row, category, count), cpu_s=None, n=template.n, box=box,
            variant=template.variant, backend=configuration.backend_name,
            options=dict(configuration.options), repeat=judged.repeat, order=0,
            termination="walltime" if timed_out else None,
            host=host, worker=worker, sequence=row,
            proof=Proof.UNCHECKED.value if judged.unchecked[row] else
            Proof.NOT_ASKED.value if judged.unasked[row] else "",
            verified_solutions=count if answer.verified[row] and not answer.error else 0))
    return out


def outcome_of(judged: JudgedBatch, row: int) -> Outcome:
    """A run's answer as a worker's Outcome would give it (for ``solve``'s lines)."""
    answer = judged.answer
    count = int(answer.counts[row])
    return Outcome(STATUSES[judged.status[row]],
                   [tuple(answer.grids[row, k].tolist()) for k in range(count)],
                   bool(answer.complete[row]), {"nodes": int(answer.nodes[row])},
                   answer.error or ("time limit reached" if answer.timed_out[row] else ""),
                   float(answer.seconds[row]))


def _claim(status: Status, count: int, complete: bool) -> str:
    if status == Status.SOLVED:
        if count >= 2:
            return f"exactly {count} solutions" if complete else f"{count} solutions"
        return "unique solution" if complete else "a solution"
    return "no solution" if status == Status.UNSAT else str(status)


def _reason(judged: JudgedBatch, row: int, category: Category, count: int) -> str:
    answer = judged.answer
    if answer.error:
        return f"the batch entry failed: {answer.error}"
    if category == Category.WRONG:
        if judged.refuted[row]:
            return "claims all its solutions are there, but another configuration found a different verified solution"
        return "invalid solution: " + answer.problems.get(row, "")
    said = {0: "no solution", 1: "a unique solution"}.get(count, f"exactly {count} solutions")
    if category == Category.UNCHECKED:
        return ("verified; " if count else "") + f"{said} claimed (unchecked: {UNCHECKED_REASON})"
    if category == Category.CORRECT:
        if judged.unasked[row]:
            return f"verified; its claim of {said} was not asked for (not checked)"
        return f"{count} distinct verified solutions" if count >= 2 else "verified"
    if category == Category.TIMEOUT and count == 0:
        return "no answer within the limit"
    return (f"found {count} solution{'' if count == 1 else 's'} (verified) of the "
            f"{judged.max_solutions} asked for, then stopped before exhausting the search: "
            + ("time limit reached" if answer.timed_out[row] else "node limit reached"))
