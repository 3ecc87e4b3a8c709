"""An experiment: puzzles x configurations x repetitions, run in workers and judged.

Every repetition is kept as its own run. Each (puzzle, repetition) is judged with
all configurations' answers together, so a wrong answer is caught by the others.
Interrupted (Ctrl-C), the runs that finished are still judged and returned, marked
partial.
"""
from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from models import Puzzle

from .judge import Disagreement, Run, judge
from .runner import Outcome, SolverRef, Task, run_tasks


@dataclass
class Results:
    """What an experiment gave: judged runs, disagreements, and whether it was cut short."""

    runs: list[Run] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    partial: bool = False


def build_tasks(puzzles: Sequence[Puzzle], solvers: Sequence[SolverRef], *, max_solutions: int,
                time_limit: float, repeat: int = 1, memory_limit: float | None = None) -> list[Task]:
    """One task per (puzzle, repetition, configuration), in that order."""
    return [Task(solver, puzzle, max_solutions, time_limit, number, memory_limit)
            for puzzle in puzzles for number in range(repeat) for solver in solvers]


def run_experiment(puzzles: Sequence[Puzzle], solvers: Sequence[SolverRef], *,
                   max_solutions: int, time_limit: float, repeat: int = 1, jobs: int | None = None,
                   seed: int | None = None, memory_limit: float | None = None,
                   progress: Callable[[int, Outcome], None] | None = None) -> Results:
    """Run every task (in an order shuffled by seed, if given, so that drifts in the
    machine's load spread over all configurations); on KeyboardInterrupt keep what
    finished (Results.partial). Runs come back in build_tasks order whatever the seed."""
    tasks = build_tasks(puzzles, solvers, max_solutions=max_solutions, time_limit=time_limit,
                        repeat=repeat, memory_limit=memory_limit)
    order = list(range(len(tasks)))
    if seed is not None:
        random.Random(seed).shuffle(order)
    finished: dict[int, Outcome] = {}

    def collect(number: int, outcome: Outcome) -> None:
        finished[order[number]] = outcome
        if progress is not None:
            progress(order[number], outcome)

    partial = False
    try:
        run_tasks([tasks[number] for number in order], jobs=jobs, on_outcome=collect)
    except KeyboardInterrupt:
        partial = True
    results = judge_tasks(tasks, finished)
    results.partial = partial
    return results


def judge_tasks(tasks: Sequence[Task], outcomes: dict[int, Outcome]) -> Results:
    """Judge each (puzzle, repetition) group's finished outcomes together, in task order."""
    groups: dict[tuple[int, int], list[int]] = {}
    for number, task in enumerate(tasks):
        if number in outcomes:
            groups.setdefault((id(task.puzzle), task.repeat), []).append(number)
    results = Results()
    for numbers in groups.values():
        first = tasks[numbers[0]]
        judged, disagreement = judge(first.puzzle, [(tasks[n].solver.name, outcomes[n]) for n in numbers])
        for run, number in zip(judged, numbers):
            solver = tasks[number].solver
            run.repeat, run.backend, run.options = first.repeat, solver.backend or solver.name, \
                dict(solver.options)
        results.runs += judged
        if disagreement is not None:
            results.disagreements.append(disagreement)
    return results


def say_partial(results: Results, total: int) -> None:
    """Tell the user an interrupted run kept only what finished."""
    if results.partial:
        print(f"compare.py: interrupted: {len(results.runs)} of {total} runs finished; "
              "keeping those (marked \"partial\": true)", file=sys.stderr)
