"""The search: cases drawn one after another until the budget is spent, run in small batches
by the configurations under test and the references (every puzzle of a case by every
one of them), every puzzle's answers judged together, every failure kept; then each
finding shrunk (minimise.py).

Without ``keep_going`` the search stops after the batch of its first finding, and that
finding alone is shrunk. With it, the search goes on to the end of the budget, and each
new signature of failure (configuration and kind; for an exception, its type) is a finding of its own:
later failures of a known signature are only counted. The budget is the searching time;
shrinking has a budget of its own per finding, and loading the backends (imports, a
compile) comes before the clock starts.
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from models import Geometry, Puzzle

from ..tasks import Configuration, Task
from .cases import Case, Spotted, draw_case, examine
from .findings import Finding
from .minimise import Target, failure, minimise
from .trials import Trials

BATCH = 3
"""Cases run together (the budget is looked at between batches)."""


@dataclass(frozen=True)
class Plan:
    """A fuzz campaign as the command line described it."""

    subjects: tuple[Configuration, ...]
    references: tuple[Configuration, ...]
    seed: int
    budget_s: float
    sizes: tuple[int, ...]
    families: tuple[str, ...]
    modes: tuple[str, ...]
    time_limit: float
    jobs: int | None = None
    keep_going: bool = False
    shrink_budget_s: float = 120.0


@dataclass
class Tally:
    """What the search tried: cases by side, family, verdict and mode; runs; findings."""

    started: float = field(default_factory=time.monotonic)
    searched_s: float = 0.0
    cases: int = 0
    runs: int = 0
    sizes: Counter[int] = field(default_factory=Counter)
    families: Counter[str] = field(default_factory=Counter)
    verdicts: Counter[str] = field(default_factory=Counter)
    modes: Counter[str] = field(default_factory=Counter)
    pairs: Counter[tuple[int, str]] = field(default_factory=Counter)
    """Cases by (side, family)."""
    unsupported: int = 0
    gave_up: int = 0
    unchecked: int = 0
    """Runs whose claim the judge could neither see confirmed nor check in its budget (no
    finding: the relations still compare them)."""
    slow_references: int = 0
    """Reference runs past the limit (no finding: the solver under test is not to blame)."""
    passing_hangs: int = 0
    """Runs past the limit whose puzzle was answered in time when run again (no finding)."""
    failures: int = 0
    interrupted: bool = False

    def rate(self) -> float:
        """Cases a second of searching."""
        return self.cases / self.searched_s if self.searched_s > 0 else 0.0


def fuzz(plan: Plan, progress: Callable[[Tally], None] | None = None) -> tuple[Tally, list[Finding]]:
    """Search within the budget, then shrink what was found; the tally and the findings (as
    found, not shrunk, if interrupted)."""
    tally, found = Tally(), dict[tuple[str, str], Finding]()
    trials = Trials(plan.time_limit, plan.jobs)
    try:
        _warm_up(plan, trials)
        tally.started = time.monotonic()
        _search(plan, trials, tally, progress, found)
        for finding in found.values():
            minimise(finding, trials, plan.sizes, plan.shrink_budget_s)
    except KeyboardInterrupt:
        tally.interrupted = True
    finally:
        trials.close()
    return tally, list(found.values())


def _warm_up(plan: Plan, trials: Trials) -> None:
    """Every configuration loaded in the workers (imports, a compile) before the budget's clock
    starts: an empty 4x4, once per worker and configuration."""
    empty = Puzzle(Geometry.for_size(4), (0,) * 16)
    configurations = (*plan.subjects, *plan.references)
    trials.pool.run([Task(c, empty, 1, plan.time_limit) for _ in range(trials.jobs)
                     for c in configurations])


def _search(plan: Plan, trials: Trials, tally: Tally, progress: Callable[[Tally], None] | None,
            findings: dict[tuple[str, str], Finding]) -> None:
    """Batches of cases until the budget is spent (or a finding, without keep_going), each new
    finding kept in ``findings``; the next batch is drawn in a thread while the workers run
    this one."""
    configurations = (*plan.subjects, *plan.references)
    references = frozenset(c.name for c in plan.references)
    ahead = ThreadPoolExecutor(max_workers=1)
    try:
        upcoming = ahead.submit(_draw, plan, 0)
        number = BATCH
        while time.monotonic() - tally.started < plan.budget_s:
            cases = upcoming.result()
            upcoming = ahead.submit(_draw, plan, number)
            number += BATCH
            judged = trials.judge([trial for case in cases for trial in case.trials(configurations)])
            for case in cases:
                mine, judged = judged[:len(case.puzzles)], judged[len(case.puzzles):]
                _count(tally, case, [(label in references, run.category) for one in mine
                                     for label, run in one.runs.items()])
                for spotted in examine(case, mine, references):
                    if spotted.failure.kind != "hang" or _hangs_again(spotted, case.mode, plan, trials, tally):
                        _keep(findings, spotted, case, plan, tally)
            tally.runs = trials.runs
            tally.searched_s = time.monotonic() - tally.started
            if progress is not None:
                progress(tally)
            if findings and not plan.keep_going:
                break
    finally:
        ahead.shutdown(wait=False, cancel_futures=True)
    tally.searched_s = time.monotonic() - tally.started


def _hangs_again(spotted: Spotted, mode: str, plan: Plan, trials: Trials, tally: Tally) -> bool:
    """Whether a hang happens again when its puzzle is run once more (with the references): on
    a loaded machine a run can pass the wall-clock limit with a fraction of it in CPU; one that
    does not hang again is counted, not kept."""
    solver = next(c for c in plan.subjects if c.name == spotted.solver)
    target = Target(solver, tuple(c for c in plan.references if c.name != spotted.solver),
                    mode, "hang")
    if failure(target, trials, spotted.puzzle) is not None:
        return True
    tally.passing_hangs += 1
    return False


def _draw(plan: Plan, first: int) -> list[Case]:
    """The cases of one batch, numbered from ``first``."""
    return [draw_case(plan.seed, first + k, plan.sizes, plan.families, plan.modes) for k in range(BATCH)]


def _count(tally: Tally, case: Case, categories: list[tuple[bool, str]]) -> None:
    """One case more in the tally; ``categories``: (a reference's?, category) of each run."""
    size, family = case.instance.puzzle.n, case.instance.family
    tally.cases += 1
    tally.sizes[size] += 1
    tally.families[family] += 1
    tally.verdicts[case.instance.verdict] += 1
    tally.modes[case.mode] += 1
    tally.pairs[size, family] += 1
    tally.unsupported += sum(category == "unsupported" for _, category in categories)
    tally.gave_up += sum(category == "unknown" for _, category in categories)
    tally.unchecked += sum(category == "unchecked" for _, category in categories)
    tally.slow_references += sum(reference and category == "timeout" for reference, category in categories)


def _keep(findings: dict[tuple[str, str], Finding], spotted: Spotted, case: Case, plan: Plan,
          tally: Tally) -> None:
    """A new finding for a new signature, else one more duplicate of the known one."""
    tally.failures += 1
    key = (spotted.solver, spotted.failure.signature)
    if key in findings:
        findings[key].duplicates += 1
        return
    solver = next(c for c in (*plan.subjects, *plan.references) if c.name == spotted.solver)
    findings[key] = Finding(
        spotted.failure.kind, spotted.failure.signature, solver, case.mode, case.seed,
        spotted.failure.detail, spotted.puzzle, case.instance.family, case.instance.verdict,
        mutant=spotted.mutant,
        references=tuple(c for c in plan.references if c.name != spotted.solver),
        time_limit=plan.time_limit, found_s=time.monotonic() - tally.started)
