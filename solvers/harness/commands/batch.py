"""``run --batch`` and ``solve --batch``: whole files solved by a backend's batch entry.

Each input is read into arrays of one layout (models.puzzle_arrays: fast for a plain line
file; a file that mixes sizes or layouts gives one array each), every configuration's batch
entry solves each array in compiled calls in this process (engine/batch.py: each answer
checked, every solution verified), the runs are judged as columns (results/batch_runs.py)
and the summary is computed from the columns; a per-run record is built only for what
needs one (--json, --csv, --plot, the lines of ``solve``, the errors and disagreements).

What a batch cannot do is a usage error (exit 2) before anything runs: a backend without a
batch entry or a plugin, a memory or CPU limit (the batch runs in this process), solver
seeds, another executor, --jobs (one core), a results database. stderr says how long each
stage took and the runs a second.
"""
from __future__ import annotations

import contextlib
import os
import stat
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from models import Puzzle, PuzzleError
from models.puzzle_arrays import PuzzleArray, gather, read_arrays

from ... import registry
from ..engine.batch import BatchAnswer, load_batch, run_batch, verify
from ..engine.terminal import printable
from ..results import records, report
from ..results.batch_runs import CATEGORIES, JudgedBatch, judge_batch, outcome_of, runs_of, summary_rows
from ..results.judge import FAILING, Disagreement, Run
from ..results.outputs import write_atomic
from ..results.provenance import load_average
from ..tasks import Category, Configuration, Experiment, Outcome, Outputs
from .common import EXIT_OK, EXIT_USAGE, EXIT_WRONG, UsageError, error_record, find_inputs, iter_inputs
from .summary import bound_writes, draw_cactus, environment, print_summary, run_options, show_and_save

BATCH_NOTE = ("--batch: each file solved by the batch entry in compiled calls in this process; "
              "each run's time measured inside the call, the limit kept by the kernel per puzzle; "
              "every solution checked by models.verify_many; claims of no, one or exactly k "
              "solutions are not re-derived: unchecked (never solved, exit status 1) where "
              "asked, 'not asked' otherwise")


def check_batch(configurations: Sequence[Configuration], *, seeds: int | None = None,
                memory_limit: float | None = None, cpu_limit: float | None = None,
                executor: str = "local", jobs: int | None = None, db: str | None = None,
                seed: int | None = None, sample: int | None = None) -> None:
    """UsageError (exit 2) for what a batch cannot do, before anything runs."""
    takers = [name for name in registry.names() if registry.get(name).batch]
    for configuration in configurations:
        if configuration.plugin is not None or not registry.get(configuration.backend_name).batch:
            raise UsageError(f"--batch: {configuration.name!r} has no batch entry; backends "
                             f"that have one: {', '.join(takers)} (or run without --batch)")
    refused = {"--seeds": seeds is not None, "--memory-limit": memory_limit is not None,
               "--cpu-limit": cpu_limit is not None, "--executor": executor != "local",
               "--jobs": jobs is not None, "--db": db is not None, "--seed": seed is not None,
               "--sample": sample is not None}
    for option, given in refused.items():
        if given:
            raise UsageError(f"--batch runs every file in this process, on one core, in order, "
                             f"into memory: leave out {option}")


def read_batch_inputs(paths: Sequence[str], fmt: str, hex16: bool, first: int | None = None
                      ) -> tuple[list[PuzzleArray], list[PuzzleError]]:
    """Every path's puzzles (with ``first``, those before it in each file, bad ones counted)
    as arrays of one layout each; each bad puzzle said on stderr."""
    arrays: list[PuzzleArray] = []
    bad: list[PuzzleError] = []
    for path in find_inputs(paths):
        if path == "-" or not stat.S_ISREG(os.stat(path).st_mode):  # stdin, a FIFO: read as run reads
            arrays += gather(iter_inputs([path], fmt, hex16, bad, first=first))[0]
            continue
        found, errors = read_arrays(path, fmt=fmt, hex16=hex16)
        if first is not None:
            found = [kept for array in found if len(kept := array.head(first))]
            errors = [error for error in errors if error.index is None or error.index < first]
        arrays += found
        for error in errors:
            print(f"compare.py: skipped bad puzzle: {printable(error)}", file=sys.stderr)
        bad += errors
    return arrays, bad


class Stages:
    """The wall and CPU seconds each stage of a batch took."""

    def __init__(self) -> None:
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}

    @contextlib.contextmanager
    def timed(self, name: str) -> Iterator[None]:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self.wall[name] = self.wall.get(name, 0.0) + time.perf_counter() - wall
            self.cpu[name] = self.cpu.get(name, 0.0) + time.process_time() - cpu

    def say(self, runs: int) -> None:
        """stderr: the runs, each stage's wall and CPU seconds, and the runs a second from
        reading to the records (loading the backend before and the summary after them are
        timed apart)."""
        work = [name for name in self.wall if name not in ("loading", "summary")]
        wall, cpu = (sum(times[name] for name in work) for times in (self.wall, self.cpu))
        parts = ", ".join(f"{name} {self.wall[name]:.3f} s ({self.cpu[name]:.3f} s CPU)"
                          for name in self.wall)
        rates = (f"{runs / wall:,.0f} runs/s by the wall clock, {runs / cpu:,.0f} by CPU time"
                 if wall > 0 and cpu > 0 else "too fast to time")
        print(f"compare.py: --batch: {runs:,} runs read, solved, checked and judged in {wall:.3f} s "
              f"({cpu:.3f} s CPU): {rates}; {parts}", file=sys.stderr)


def check_options(arrays: Sequence[PuzzleArray], configurations: Sequence[Configuration], *,
                  max_solutions: int, time_limit: float) -> None:
    """UsageError (exit 2) for a configuration whose options its batch entry cannot take on
    these puzzles (fast: learning, a seed, restarts), found by calling it on no puzzle of
    each layout, before anything runs."""
    for configuration in configurations:
        for array in arrays:
            try:
                run_batch(configuration, PuzzleArray(array.template, array.givens[:0], array.lines[:0],
                                                     array.indexes[:0]),
                          max_solutions=max_solutions, time_limit=time_limit, strict=True)
            except ValueError as error:
                raise UsageError(f"--batch: {configuration.name!r} on {array.file} "
                                 f"({array.template.geometry.label()}): {error}") from None


@dataclass
class BatchSweep:
    """Every configuration's judged answers on every array, and how long each stage took."""

    judged: list[JudgedBatch] = field(default_factory=list)
    stages: Stages = field(default_factory=Stages)

    @property
    def runs(self) -> int:
        return sum(len(j) for j in self.judged)

    def wrong(self) -> bool:
        """Whether any run fails the exit status (judge.FAILING: wrong, or an asked claim unchecked)."""
        return any((j.category == _index(category)).any() for j in self.judged for category in FAILING)

    def rows(self, category: Category) -> list[Run]:
        """The runs of one category, as records (few: errors, wrong answers)."""
        wanted = [j for j in self.judged if (j.category == _index(category)).any()]
        return [run for j in wanted for run in runs_of(j, (j.category == _index(category)).nonzero()[0].tolist())]

    def all_runs(self) -> list[Run]:
        """Every run's record, in (file, puzzle, repetition, configuration) order (the slow
        part of --json and --csv)."""
        runs = [run for j in self.judged for run in runs_of(j)]
        files = {f: i for i, f in enumerate(dict.fromkeys(j.answer.array.file for j in self.judged))}
        order = {c: i for i, c in enumerate(dict.fromkeys(j.answer.configuration.name for j in self.judged))}
        return sorted(runs, key=lambda r: (files[r.file], r.index, r.repeat, order[r.solver]))

    def sweep(self, arrays: Sequence[PuzzleArray], configurations: Sequence[Configuration], *,
              max_solutions: int, time_limit: float, repeat: int = 0) -> None:
        """Every configuration's batch entry on every array, judged array by array."""
        for array in arrays:
            answers: list[BatchAnswer] = []
            for configuration in configurations:
                with self.stages.timed("solving"):
                    answer = run_batch(configuration, array, max_solutions=max_solutions,
                                       time_limit=time_limit)
                with self.stages.timed("checking"):
                    verify(answer)
                if answer.error:
                    print(f"compare.py: {printable(configuration.name)} on {printable(array.file)}: "
                          f"the batch entry failed: {printable(answer.error)}", file=sys.stderr)
                answers.append(answer)
            with self.stages.timed("judging"):
                self.judged += judge_batch(answers, max_solutions, repeat)


def _index(category: Category) -> int:
    return CATEGORIES.index(category)


def disagreements(done: BatchSweep) -> list[Disagreement]:
    """A Disagreement for each puzzle where some configuration was wrong."""
    by_puzzle: dict[tuple[str, int], list[Run]] = {}
    for run in done.rows(Category.WRONG):
        by_puzzle.setdefault((run.file, run.index), [])
    if not by_puzzle:
        return []
    every = [r for r in done.all_runs() if (r.file, r.index) in by_puzzle]
    for run in every:
        by_puzzle[(run.file, run.index)].append(run)
    return [Disagreement(runs[0].file, runs[0].index, runs[0].line, runs[0].puzzle,
                         [{"solver": r.solver, "claim": r.claim, "category": r.category,
                           "reason": r.reason} for r in runs]) for runs in by_puzzle.values()]


def run_batch_experiment(experiment: Experiment, outputs: Outputs) -> int:
    """``run --batch``: read, solve, check and judge every file, print the summary, write the
    files asked for; the exit status."""
    check_batch(experiment.configurations, seeds=experiment.seeds,
                memory_limit=experiment.memory_limit, cpu_limit=experiment.cpu_limit,
                executor=experiment.executor, jobs=experiment.jobs, db=outputs.db,
                seed=experiment.seed, sample=experiment.sample)
    load_started = load_average()
    done = BatchSweep()
    with done.stages.timed("loading"):
        for configuration in experiment.configurations:
            load_batch(configuration)
    with done.stages.timed("reading"):
        arrays, bad = read_batch_inputs(experiment.paths, experiment.input_format, experiment.hex16,
                                        experiment.first)
    if not arrays:
        raise UsageError("no puzzles to run" + (f" ({len(bad)} bad ones skipped)" if bad else ""))
    check_options(arrays, experiment.configurations, max_solutions=experiment.max_solutions,
                  time_limit=experiment.time_limit)
    for repeat in range(experiment.repeat):
        done.sweep(arrays, experiment.configurations, max_solutions=experiment.max_solutions,
                   time_limit=experiment.time_limit, repeat=repeat)
    with done.stages.timed("summary"):
        rows = _summary(done, experiment)
    done.stages.say(done.runs)
    found = disagreements(done)
    status = EXIT_WRONG if done.wrong() else EXIT_USAGE if bad else EXIT_OK
    count = sum(len(a) for a in arrays)
    where = "1 process (--batch), one core"
    legend = (f"\n{count} puzzles x {len(experiment.configurations)} configurations"
              + (f" x {experiment.repeat} repetitions" if experiment.repeat > 1 else "")
              + f"; limit {experiment.time_limit:g} s per puzzle; {where}.\n{BATCH_NOTE}.")
    provenance = environment(experiment, load_started)
    return show_and_save(
        status, bad,
        lambda: print_summary(outputs, experiment.par, rows, False, found,
                              done.rows(Category.ERROR), legend),
        _saves(experiment, outputs, done, found, bad, provenance, where))


def _summary(done: BatchSweep, experiment: Experiment) -> list[dict[str, Any]]:
    """The summary rows: from the columns (one repetition), else through report.summarize."""
    unique = experiment.max_solutions >= 2
    if experiment.repeat == 1:
        return summary_rows(done.judged, unique=unique, limit=experiment.time_limit, par=experiment.par)
    return report.summarize(done.all_runs(), unique=unique, limit=experiment.time_limit,
                            par=experiment.par, exclude_warmup=experiment.exclude_warmup)


def _saves(experiment: Experiment, outputs: Outputs, done: BatchSweep, found: list[Disagreement],
           bad: Sequence[PuzzleError], provenance: dict[str, Any], where: str) -> list[Any]:
    """The --json, --csv and --plot writes (each builds every run's record once)."""
    cache: list[list[Run]] = []

    def runs() -> list[Run]:
        if not cache:
            cache.append(done.all_runs())
        return cache[0]

    def save_json(path: str) -> None:
        import json  # noqa: PLC0415 - only when a file is asked for

        options = {**run_options(experiment, where), "batch": True, "note": BATCH_NOTE}
        document = report.build_document(runs(), found, options=options, environment=provenance,
                                         input_errors=[error_record(e) for e in bad])
        write_atomic(path, json.dumps(document, indent=1) + "\n")
        print(f"compare.py: runs saved to {path}", file=sys.stderr)

    def save_csv(path: str) -> None:
        write_atomic(path, records.csv_text(runs()))
        print(f"compare.py: one line per run written to {path}", file=sys.stderr)

    def save_plot(path: str) -> None:
        draw_cactus([r.as_dict() for r in runs()], path, experiment.time_limit, outputs.title)

    return bound_writes({outputs.json: save_json, outputs.csv: save_csv, outputs.plot: save_plot})


def solved_in_batch(solver: Configuration, paths: Sequence[str], fmt: str, hex16: bool, *,
                    max_solutions: int, time_limit: float, memory_limit: float | None = None,
                    cpu_limit: float | None = None
                    ) -> tuple[list[tuple[Puzzle, Run, Outcome]], list[PuzzleError]]:
    """``solve --batch``: every puzzle of the paths solved by the configuration's batch entry,
    in file order, each with its judged run and its outcome (as ``solve`` prints them); and
    the bad puzzles."""
    check_batch([solver], memory_limit=memory_limit, cpu_limit=cpu_limit)
    done = BatchSweep()
    with done.stages.timed("loading"):
        load_batch(solver)
    with done.stages.timed("reading"):
        arrays, bad = read_batch_inputs(paths, fmt, hex16)
    check_options(arrays, [solver], max_solutions=max_solutions, time_limit=time_limit)
    done.sweep(arrays, [solver], max_solutions=max_solutions, time_limit=time_limit)
    done.stages.say(done.runs)
    files = {f: i for i, f in enumerate(dict.fromkeys(a.file for a in arrays))}
    solved = [(j.answer.array.puzzle(row), run, outcome_of(j, row))
              for j in done.judged for row, run in enumerate(runs_of(j))]
    solved.sort(key=lambda item: (files[item[0].source.file], item[0].source.index))
    return solved, bad
