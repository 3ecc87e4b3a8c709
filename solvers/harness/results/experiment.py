"""An experiment: puzzles x configurations x repetitions, run by an executor and judged.

Puzzles are read and tasks dispatched lazily. Every repetition is kept as its own
run. Each (puzzle, repetition) is judged with all configurations' answers together,
so a wrong answer is caught by the others, as soon as its last run is in, and handed
to a store (kept in memory, or written to the results database) and forgotten.
Interrupted (Ctrl-C), or stopped by an executor that cannot go on (a Dask chunk given up),
the runs that finished are still judged and stored, marked partial.

Within a (puzzle, repetition) the configurations are not always run in the same order,
so that none is always second (warm caches, a worker just freed): without a seed the
order is rotated, group g starting at configuration g mod k; with a seed the tasks of
each block of groups are shuffled with it, which also permutes each group at random.
Each run records its place in the order its group's tasks were dispatched (``order``,
from 0). The machine's speed is probed when the sweep starts and ends
(engine/calibration.py) and kept in the Tally.
"""
from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from models import Puzzle

from ... import registry
from ..engine.calibration import calibration, probe
from ..engine.executors import Executor, ExecutorError
from ..tasks import Configuration, Experiment, Outcome, Task
from .claims import Check, ClaimCheck, Proof
from .judge import Assessment, Disagreement, Run, assess
from .judge_process import JudgeProcess

SHUFFLE_BLOCK = 10_000
"""With a seed, tasks are shuffled within blocks of about this many (whole puzzles)."""


class SweepStopped(Exception):
    """A store that cannot go on (a resume that would mix unlike runs): the sweep stops, the
    runs that finished are judged and kept, and the message says why (exit 2)."""


@dataclass
class Results:
    """What an experiment kept in memory: judged runs, disagreements, whether it was cut short."""

    runs: list[Run] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    partial: bool = False


@dataclass
class Tally:
    """How far an experiment got: runs finished here, tasks skipped as recorded, partial."""

    finished: int = 0
    dispatched: int = 0
    skipped: int = 0
    partial: bool = False
    failed: str | None = None
    """Why the sweep stopped early (an ExecutorError's message; running out of memory), None if
    it did not."""
    crashed: str | None = None
    """A bug of ours that stopped the sweep (its type and message), None if none did: the runs
    that finished are kept all the same."""
    calibration: dict[str, Any] = field(default_factory=dict)
    """The probe at the start and end of the sweep (engine/calibration.py)."""


class Store(Protocol):
    """Where judged runs go (and, for --resume, what is already there)."""

    def recorded(self, tasks: Sequence[Task]) -> dict[int, tuple[bool, Outcome]]:
        """Of these tasks (one puzzle and repetition), those recorded: position -> (judged, outcome)."""

    def arrived(self, task: Task, outcome: Outcome) -> None:
        """One outcome, before its (puzzle, repetition) is judged."""

    def judged(self, serial: int, tasks: Sequence[Task], outcomes: Sequence[Outcome],
               runs: Sequence[Run], disagreement: Disagreement | None) -> None:  # Recorder's signature
        """One (puzzle, repetition) judged: its tasks, outcomes and runs, in configuration
        order; serial numbers the (puzzle, repetition) pairs in reading order."""


class MemoryStore:
    """Keeps every judged run; ``results()`` gives them in (puzzle, repetition, configuration) order."""

    def __init__(self) -> None:
        self._runs: list[tuple[int, Run]] = []
        self._disagreements: list[tuple[int, Disagreement]] = []

    def recorded(self, tasks: Sequence[Task]) -> dict[int, tuple[bool, Outcome]]:  # noqa: ARG002 - a Recorder's
        return {}  # kept in memory only: nothing recorded before

    def arrived(self, task: Task, outcome: Outcome) -> None:
        pass

    def judged(self, serial: int, tasks: Sequence[Task], outcomes: Sequence[Outcome],  # noqa: ARG002 - a
               runs: Sequence[Run], disagreement: Disagreement | None) -> None:  # Recorder's signature
        self._runs += [(serial, run) for run in runs]
        if disagreement is not None:
            self._disagreements.append((serial, disagreement))

    def results(self, partial: bool) -> Results:
        ordered = sorted(range(len(self._runs)), key=lambda i: (self._runs[i][0], i))
        return Results([self._runs[i][1] for i in ordered],
                       [d for _, d in sorted(self._disagreements, key=lambda item: item[0])], partial)


class Referee(Protocol):
    """What settles the checks the answers cannot (judge_process.JudgeProcess; a
    claims.ClaimChecker in this process would do, blocking the sweep meanwhile)."""

    @property
    def busy(self) -> bool:
        """Whether a check asked for is still unanswered."""

    def submit(self, check: Check) -> ClaimCheck | None:
        """Ask for a check: its verdict at once when known, else None (it comes from ready)."""

    def ready(self, timeout: float = 0.0) -> list[tuple[Check, ClaimCheck]]:
        """The verdicts that came since the last call (waiting up to timeout for one)."""

    def close(self) -> None:
        """Stop settling."""


@dataclass
class _Awaiting:
    """A group weighed, waiting for the referee's verdicts on its checks."""

    group: _Group
    assessment: Assessment
    settled: dict[Check, ClaimCheck]


@dataclass
class _Group:
    """One (puzzle, repetition): its tasks in configuration order, the positions in the order
    they were dispatched, and the outcomes so far."""

    serial: int
    tasks: list[Task]
    outcomes: dict[int, Outcome]
    waiting: int
    order: list[int] = field(default_factory=list)


def build_tasks(puzzle: Puzzle, solvers: Sequence[Configuration], *, max_solutions: int,
                time_limit: float, repeat: int, memory_limit: float | None = None,
                cpu_limit: float | None = None, seeded: bool = False, count: bool = False) -> list[Task]:
    """The tasks of one (puzzle, repetition), one per configuration; ``seeded``: each backend
    gets the repetition's number as its solver seed (``--seeds``); ``count``: count mode."""
    return [Task(with_seed(solver, repeat) if seeded else solver, puzzle, max_solutions,
                 time_limit, repeat, memory_limit, cpu_limit, count) for solver in solvers]


def with_seed(solver: Configuration, seed: int) -> Configuration:
    """The configuration with the solver seed ``seed`` among its options."""
    return replace(solver, options=(*solver.options, ("seed", seed)))


class _Experiment:
    """The bookkeeping of one run of stream_experiment."""

    def __init__(self, store: Store, progress: Callable[[int, Outcome], None] | None,
                 on_skip: Callable[[int], None] | None = None, referee: Referee | None = None):
        self.store, self.progress, self.on_skip = store, progress, on_skip
        self.groups: dict[int, _Group] = {}
        self.where: dict[int, tuple[int, int]] = {}  # dispatched number -> (group, position)
        self.tally = Tally()
        self.serials = itertools.count()
        self.referee = referee or JudgeProcess()  # one per sweep: each claim re-derived once
        self.awaiting: dict[int, _Awaiting] = {}  # groups whose checks the referee has not settled
        self.by_check: dict[Check, list[int]] = {}  # an unsettled check -> the groups awaiting it
        self.families: dict[str, str] = {}  # configuration label -> its method family

    def tasks(self, groups: Iterable[list[Task]], seed: int | None) -> Iterator[Task]:
        """The tasks to run, group after group, each group in its run order (shuffled within
        blocks with a seed)."""
        rng = random.Random(seed) if seed is not None else None
        for block in _blocks(groups, SHUFFLE_BLOCK if rng else 1):
            chosen = [item for tasks in block for item in self._open(tasks)]
            if rng is not None:
                rng.shuffle(chosen)
            for number, (serial, position) in zip(itertools.count(self.tally.dispatched), chosen):
                self.where[number] = (serial, position)
                self.tally.dispatched += 1
                self.groups[serial].order.append(position)
                yield self.groups[serial].tasks[position]

    def _open(self, tasks: list[Task]) -> list[tuple[int, int]]:
        """Register a group; (group, position) of each task still to run, in its run order."""
        known = self.store.recorded(tasks)
        serial = next(self.serials)
        todo = [p for p in rotated(len(tasks), serial) if p not in known]
        self.tally.skipped += len(known)
        if known and self.on_skip is not None:
            self.on_skip(len(known))
        group = _Group(serial, tasks, {p: outcome for p, (_, outcome) in known.items()}, len(todo))
        if not todo:
            if not all(judged for judged, _ in known.values()):
                self._judge(group)  # its last outcomes arrived before an interruption
            return []
        self.groups[serial] = group
        return [(serial, p) for p in todo]

    def arrived(self, number: int, outcome: Outcome) -> None:
        serial, position = self.where.pop(number)
        group = self.groups[serial]
        group.outcomes[position] = outcome
        group.waiting -= 1
        self.tally.finished += 1
        if group.waiting:
            self.store.arrived(group.tasks[position], outcome)
        else:  # the last of its group: judged (or sent to the referee) at once
            del self.groups[serial]
            if not self._judge_or_keep(group):
                self.store.arrived(group.tasks[position], outcome)  # kept while the referee works
        self._collect(0.0)
        if self.progress is not None:
            self.progress(number, outcome)

    def finish(self, wait: bool = True) -> None:
        """Judge the groups cut short with what they have; then wait for the referee's
        verdicts (``wait``), or leave the checks still unsettled unchecked (a sweep cut short)."""
        for group in self.groups.values():
            if group.outcomes:
                self._judge_or_keep(group)
        self.groups.clear()
        while wait and self.awaiting and self.referee.busy:
            self._collect(1.0)
        for check in list(self.by_check):
            self._settled(check, ClaimCheck(Proof.UNCHECKED, "the sweep stopped before the judge settled it"))

    def _judge_or_keep(self, group: _Group) -> bool:
        """Judge a group (_judge: False while the referee settles its checks); if judging fails
        (out of memory, a bug of ours), its outcomes go to the store unjudged (a database keeps
        them for --resume to judge) and the sweep is told why, so one group never costs the
        others their runs."""
        try:
            return self._judge(group)
        except Exception as error:  # noqa: BLE001 - whatever it is, the other groups' runs are kept
            for position, outcome in group.outcomes.items():
                self.store.arrived(group.tasks[position], outcome)
            self.tally.partial = True
            self.note_crash(error)
            return True

    def note_crash(self, error: Exception) -> None:
        """Record what stopped the sweep (the first cause only): running out of memory is the
        machine's limit (``failed``), anything else a bug of ours (``crashed``)."""
        if self.tally.failed or self.tally.crashed:
            return
        if isinstance(error, MemoryError):
            self.tally.failed = "out of memory: the sweep needs more than this process may use"
        else:
            self.tally.crashed = f"{type(error).__name__}: {error}"

    def _collect(self, timeout: float) -> None:
        """Store every group whose last check the referee has settled (waiting up to ``timeout``
        seconds for a verdict)."""
        if self.awaiting:
            for check, verdict in self.referee.ready(timeout):
                self._settled(check, verdict)

    def _settled(self, check: Check, verdict: ClaimCheck) -> None:
        for serial in self.by_check.pop(check, ()):
            awaiting = self.awaiting[serial]
            awaiting.settled[check] = verdict
            if len(awaiting.settled) == len(awaiting.assessment.checks):
                del self.awaiting[serial]
                self._store(awaiting.group, awaiting.assessment, awaiting.settled)

    def _family(self, configuration: Configuration) -> str:
        """A configuration's method family, worked out once per label (a seed changes none)."""
        family = self.families.get(configuration.name)
        if family is None:
            family = self.families[configuration.name] = family_of(configuration)
        return family

    def _judge(self, group: _Group) -> bool:
        """Weigh a group's answers; store its runs if the referee has nothing to settle (True),
        else ask it and store them when its verdicts are in (False)."""
        tasks = [group.tasks[p] for p in sorted(group.outcomes)]
        outcomes = [group.outcomes[p] for p in sorted(group.outcomes)]
        families = {t.solver.name: self._family(t.solver) for t in tasks}
        assessment = assess(tasks[0].puzzle, [(t.solver.name, o) for t, o in zip(tasks, outcomes)],
                            max_solutions=tasks[0].max_solutions, families=families)
        settled = {}
        for check in assessment.checks:
            verdict = self.referee.submit(check)
            if verdict is not None:
                settled[check] = verdict
            else:
                self.by_check.setdefault(check, []).append(group.serial)
        if len(settled) == len(assessment.checks):
            self._store(group, assessment, settled)
            return True
        self.awaiting[group.serial] = _Awaiting(group, assessment, settled)
        return False

    def _store(self, group: _Group, assessment: Assessment, settled: dict[Check, ClaimCheck]) -> None:
        """A group's runs judged with the referee's verdicts, handed to the store."""
        positions = sorted(group.outcomes)
        tasks = [group.tasks[p] for p in positions]
        outcomes = [group.outcomes[p] for p in positions]
        runs, disagreement = assessment.verdicts(settled)
        for run, task, position in zip(runs, tasks, positions):
            run.repeat, run.backend, run.options = task.repeat, task.solver.backend or task.solver.name, \
                dict(task.solver.options)
            run.order = group.order.index(position) if position in group.order else None
        self.store.judged(group.serial, tasks, outcomes, runs, disagreement)


def families_of(tasks: Sequence[Task]) -> dict[str, str]:
    """Each task's configuration label -> its method family (registry.Backend.family; "" for a
    plugin, which confirms nothing)."""
    return {t.solver.name: family_of(t.solver) for t in tasks}


def family_of(configuration: Configuration) -> str:
    """A configuration's method family ("" for a plugin)."""
    if configuration.plugin is not None:
        return ""
    return registry.get(configuration.backend_name).family(configuration.options_dict)


def rotated(count: int, serial: int) -> list[int]:
    """Positions 0..count-1 rotated to start at serial mod count (the run order of group
    number ``serial`` without a seed).

    >>> [rotated(3, serial) for serial in range(4)]
    [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2]]
    """
    start = serial % count if count else 0
    return [*range(start, count), *range(start)]


def _blocks(groups: Iterable[list[Task]], size: int) -> Iterator[list[list[Task]]]:
    """Whole groups in blocks of at least ``size`` tasks (the last may be smaller)."""
    block: list[list[Task]] = []
    count = 0
    for tasks in groups:
        block.append(tasks)
        count += len(tasks)
        if count >= size:
            yield block
            block, count = [], 0
    if block:
        yield block


def stream_experiment(puzzles: Iterable[Puzzle], experiment: Experiment, *, executor: Executor,
                      store: Store, progress: Callable[[int, Outcome], None] | None = None,
                      on_skip: Callable[[int], None] | None = None, referee: Referee | None = None) -> Tally:
    """Run every (puzzle, repetition, configuration) of the experiment not yet in the store
    (in an order shuffled by its seed, if given, so that drifts in the machine's load spread
    over all configurations); on KeyboardInterrupt, or an ExecutorError after some runs finished,
    judge what finished and say so (Tally.partial, Tally.failed); an ExecutorError before any
    run finished is raised as it is. ``progress`` hears of each finished run, ``on_skip`` of
    the runs the store already holds."""
    referee = referee or JudgeProcess(experiment.judge_budget, experiment.judge_memory)
    bookkeeping = _Experiment(store, progress, on_skip, referee)
    start: dict[str, Any] | None = None
    groups = (build_tasks(puzzle, experiment.configurations, max_solutions=experiment.max_solutions,
                          time_limit=experiment.time_limit, repeat=number,
                          memory_limit=experiment.memory_limit, cpu_limit=experiment.cpu_limit,
                          seeded=bool(experiment.seeds), count=experiment.counting)
              for puzzle in puzzles for number in range(experiment.repeat))
    try:
        start = probe()  # inside: a Ctrl-C during the probe is an interrupted sweep like any other
        executor.run(bookkeeping.tasks(groups, experiment.seed), bookkeeping.arrived)
    except KeyboardInterrupt:
        bookkeeping.tally.partial = True
    except (ExecutorError, SweepStopped) as error:
        if not bookkeeping.tally.finished:
            raise
        bookkeeping.tally.partial, bookkeeping.tally.failed = True, str(error)
    except Exception as error:
        if not bookkeeping.tally.finished:
            raise
        bookkeeping.tally.partial = True
        bookkeeping.note_crash(error)
    try:
        bookkeeping.finish(wait=not bookkeeping.tally.partial)
    except KeyboardInterrupt:  # while waiting for the judge: what it has not settled is unchecked
        bookkeeping.tally.partial = True
        bookkeeping.finish(wait=False)
    finally:
        bookkeeping.referee.close()
    if start is not None:
        bookkeeping.tally.calibration = calibration(start, None if bookkeeping.tally.partial else probe())
    return bookkeeping.tally


def say_partial(tally: Tally) -> None:
    """Tell the user an interrupted (or stopped) run kept only what finished."""
    if tally.crashed or tally.failed:
        what = f"internal error: {tally.crashed}" if tally.crashed else f"error: {tally.failed}"
        print(f"compare.py: {what}\ncompare.py: stopped: {tally.finished} of the "
              f"{tally.dispatched} runs started finished; keeping those (marked \"partial\": true; "
              "with --db, --resume runs the rest)", file=sys.stderr)
    elif tally.partial:
        print(f"compare.py: interrupted: {tally.finished} of the {tally.dispatched} runs started "
              "finished; keeping those (marked \"partial\": true)", file=sys.stderr)
