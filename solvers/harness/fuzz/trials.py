"""Puzzles run by configurations in a mode, as ``run`` runs them: killable workers, the limit
enforced from outside, every answer judged with all the answers on its puzzle.

A mode is what each run is asked for: ``plain`` one solution, ``unique`` two (to tell a
unique solution from several, as --unique does), ``count`` up to COUNT_SOLUTIONS (an
exact count when there are fewer, as --max-solutions does).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from models import Puzzle

from ..engine.runner import WorkerPool, default_jobs
from ..results.claims import ClaimChecker
from ..results.experiment import families_of
from ..results.judge import Run, judge
from ..tasks import Category, Configuration, Outcome, Task

COUNT_SOLUTIONS = 4
"""Solutions a run is asked for in ``count`` mode."""
MODES = {"plain": 1, "unique": 2, "count": COUNT_SOLUTIONS}
"""Each mode and the solutions its runs are asked for."""


@dataclass(frozen=True)
class Trial:
    """One puzzle to run by some configurations in a mode."""

    puzzle: Puzzle
    configurations: tuple[Configuration, ...]
    mode: str


@dataclass
class Judged:
    """A trial's runs, judged together: each configuration's judged run and raw outcome."""

    trial: Trial
    runs: dict[str, Run]
    outcomes: dict[str, Outcome]

    def answered(self, besides: str) -> bool:
        """Whether a configuration other than ``besides`` answered correctly, or none other ran."""
        others = [run for label, run in self.runs.items() if label != besides]
        return not others or any(run.category == Category.CORRECT for run in others)


class Trials:
    """The worker pool (kept between batches) and the judge's claim checker of a campaign."""

    def __init__(self, time_limit: float, jobs: int | None = None):
        self.time_limit = time_limit
        self.jobs = jobs or default_jobs()
        self.pool = WorkerPool(self.jobs, keep_idle=True)
        self.checker = ClaimChecker()
        self.runs = 0

    def judge(self, trials: Sequence[Trial]) -> list[Judged]:
        """Run every trial's configurations on its puzzle (all in one batch) and judge each
        puzzle's runs together."""
        tasks = [Task(configuration, trial.puzzle, MODES[trial.mode], self.time_limit)
                 for trial in trials for configuration in trial.configurations]
        outcomes = iter(self.pool.run(tasks))
        self.runs += len(tasks)
        judged = []
        for trial in trials:
            mine = [(configuration.name, next(outcomes)) for configuration in trial.configurations]
            runs, _ = judge(trial.puzzle, mine, max_solutions=MODES[trial.mode], checker=self.checker,
                            families=families_of([Task(c, trial.puzzle) for c in trial.configurations]))
            judged.append(Judged(trial, {run.solver: run for run in runs}, dict(mine)))
        return judged

    def close(self) -> None:
        """End the workers."""
        self.pool.close()
