"""``compare.py run``: every configuration on every puzzle, verified, categorised, scored, tabulated."""
from __future__ import annotations

import argparse
import itertools
import os
import random
import stat
import sys
from collections.abc import Iterator, Sequence

from models import Puzzle, PuzzleError, count_puzzles

from ... import registry
from ..engine.configs import left_out, load_plugins
from ..engine.configs import resolve as resolve_solvers
from ..engine.executors import Executor, executor_options, make_executor
from ..engine.runner import default_jobs
from ..results import report
from ..results.experiment import MemoryStore, say_partial, stream_experiment
from ..results.provenance import load_average
from ..tasks import Configuration, Experiment, Outputs
from .common import (
    DEFAULT_PUZZLES,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    FAILING,
    Subcommands,
    UsageError,
    check_output_paths,
    exit_status,
    fail_categories,
    find_inputs,
    input_options,
    iter_inputs,
    par_factor,
    picture_options,
    positive_int,
    shown,
    solutions_wanted,
    solving_options,
    table_options,
    whole_number,
    worker_count,
)
from .progress import Progress, count_runs
from .summary import environment, legend, print_summary, saves, show_and_save
from .sweep_db import database_options, sweep_to_database


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    run = subparsers.add_parser("run", help="run configurations on puzzle files and tabulate (the default)",
                                description="Run every configuration on every puzzle (--repeat times), "
                                            "verify, categorise, score, tabulate.")
    run.add_argument("paths", nargs="*", metavar="PATH",
                     help=f"puzzle files, '-' for stdin (default: {shown(DEFAULT_PUZZLES)})")
    run.add_argument("--solvers", metavar="CONFIGS",
                     help="configurations [LABEL=]BACKEND[:OPTION=VALUE...], comma-separated, e.g. "
                          "sat:encoding=extended,min=sat:encoding=minimal,mrv:inference=none:"
                          "branching=first (options: 'compare.py list BACKEND'; default: every "
                          "available backend and every plugin)")
    solving_options(run)
    run.add_argument("--batch", action="store_true",
                     help="solve each file with the configurations' batch entries (fast), in "
                          "compiled calls in this process: throughput; every solution still "
                          "checked, claims of uniqueness unchecked (docs/experiments.md)")
    run.add_argument("--jobs", "-j", type=worker_count, default=None, metavar="N",
                     help="worker processes in parallel (default: the number of cores; with "
                          "Dask: per Dask worker, default that machine's cores)")
    executor_options(run)
    database_options(run)
    experiment_options(run)
    run.add_argument("--fail-on", type=fail_categories, default=(), metavar="CATEGORIES",
                     help="exit 1 also when a run ends in one of these categories, comma-separated "
                          f"from {', '.join(FAILING)} (a wrong run always does), e.g. error,timeout: "
                          "a backend that crashes or hangs then fails the command")
    run.add_argument("--first", type=positive_int, default=None, metavar="N",
                     help="only the first N puzzles of each file (bad ones counted, as --puzzle counts)")
    run.add_argument("--sample", type=positive_int, default=None, metavar="K",
                     help="K puzzles of each file drawn at random with --sample-seed, run in file order")
    run.add_argument("--sample-seed", type=whole_number, default=None, metavar="S",
                     help="the random seed of --sample (default: 0; recorded with the run)")
    table_options(run)
    run.add_argument("--json", metavar="OUT.json", help="save the whole run as JSON")
    picture_options(run, "save one line per run as CSV (records.py's columns)",
                    "draw a cactus plot (needs matplotlib)")
    input_options(run)
    return run


def experiment_options(parser: argparse.ArgumentParser) -> None:
    """--repeat, --seed, --par and --exclude-warmup."""
    parser.add_argument("--repeat", type=positive_int, default=1, metavar="K",
                        help="run each (puzzle, configuration) K times; every run is recorded, "
                             "tables show the median and the spread (default: 1)")
    parser.add_argument("--seeds", type=positive_int, default=None, metavar="K",
                        help="run each (puzzle, configuration) K times with solver seeds 0..K-1 "
                             "(each backend's seed option; recorded per run): run-time "
                             "distributions over seeds (Gomes et al.)")
    parser.add_argument("--seed", type=whole_number, default=None, metavar="N",
                        help="shuffle the order of the runs with this seed, within blocks of about "
                             "10,000 runs (default: fixed order)")
    parser.add_argument("--par", type=par_factor, default=2.0, metavar="K",
                        help="PAR-K score: unsolved runs count K x the limit (default: 2)")
    parser.add_argument("--exclude-warmup", action="store_true",
                        help="leave out of the tables each configuration's first run in a fresh "
                             "worker (still saved, marked warmup)")


def run(args: argparse.Namespace) -> int:
    if args.title and not args.plot:
        raise UsageError("--title names a picture: give --plot FILE.png too")
    if args.sample_seed is not None and args.sample is None:
        raise UsageError("--sample-seed draws the puzzles of --sample K: give --sample too")
    if args.chunk_size is not None and args.executor == "local":
        raise UsageError("--chunk-size sizes the chunks sent to a Dask cluster: give --executor dask too")
    if args.first is not None and args.sample is not None:
        raise UsageError("--first N and --sample K both choose puzzles: give one of them")
    # the output paths first: nothing (not a plugin's worker) starts for a run that cannot be saved
    check_output_paths({"--json": args.json, "--csv": args.csv, "--plot": args.plot,
                        "--db": args.db}, args.paths or [shown(DEFAULT_PUZZLES)])
    solutions_wanted(args)
    plugins = load_plugins(args.plugin)
    configurations = tuple(resolve_solvers(args.solvers, plugins))
    if args.solvers is None:
        say_left_out()
    if args.seeds:
        check_seedable(configurations, args.repeat)
    experiment = Experiment(
        paths=tuple(args.paths or [shown(DEFAULT_PUZZLES)]),
        configurations=configurations,
        time_limit=args.timeout, unique=args.unique, memory_limit=args.memory_limit,
        cpu_limit=args.cpu_limit,
        repeat=args.seeds or args.repeat, seeds=args.seeds, seed=args.seed, par=args.par,
        exclude_warmup=args.exclude_warmup,
        plugins=tuple(args.plugin), input_format=args.fmt, hex16=args.hex,
        executor=args.executor, jobs=args.jobs, chunk_size=args.chunk_size,
        count=args.max_solutions, counting=args.count, judge_budget=args.judge_budget,
        judge_memory=args.judge_memory, first=args.first, sample=args.sample,
        sample_seed=args.sample_seed or 0, batch=args.batch)
    outputs = Outputs(format=args.format, json=args.json, csv=args.csv, plot=args.plot,
                      title=args.title, db=args.db, resume=args.resume, fail_on=args.fail_on,
                      columns=args.columns, explain_columns=args.explain_columns)
    return run_experiment(experiment, outputs)


def say_left_out() -> None:
    """On stderr, the backends a run of every available backend leaves out here and why
    (before the runs: a newcomer sees at once what more to install)."""
    missing = left_out()
    if missing:
        print(f"compare.py: {len(missing)} of {len(registry.BACKENDS)} backends left out, unavailable here:",
              file=sys.stderr)
        for name, reason in missing.items():
            print(f"  {name}: {reason}", file=sys.stderr)


def run_experiment(experiment: Experiment, outputs: Outputs) -> int:
    """Check the outputs, read the puzzles lazily, run the sweep (in memory or into a
    database), print the summary and write the files; the exit status."""
    check_output_paths({"--json": outputs.json, "--csv": outputs.csv, "--plot": outputs.plot,
                        "--db": outputs.db}, experiment.paths)
    if experiment.batch:
        from .batch import run_batch_experiment  # noqa: PLC0415 - numpy and the batch path, only for --batch

        return run_batch_experiment(experiment, outputs)
    if outputs.resume and not outputs.db:
        raise UsageError("--resume continues a sweep from its database: give --db FILE.sqlite")
    bad: list[PuzzleError] = []
    paths = find_inputs(experiment.paths)
    per_puzzle = len(experiment.configurations) * experiment.repeat
    samples = sampled_indices(paths, experiment)
    if experiment.first is not None or experiment.sample is not None:
        total = _chosen_total(paths, experiment, samples, per_puzzle)
    else:
        total = count_runs(paths, experiment.input_format, experiment.hex16, per_puzzle)
    progress = Progress(total)
    progress.parallel = experiment.jobs or (default_jobs() if experiment.executor == "local" else 1)
    chosen = iter_inputs(paths, experiment.input_format, experiment.hex16, bad, first=experiment.first,
                         chosen=samples.get if experiment.sample is not None else None)
    puzzles = _first_checked(_less_bad(chosen, bad, progress, per_puzzle), bad)
    executor = make_executor(experiment.executor, jobs=experiment.jobs, chunk=experiment.chunk_size)
    try:
        if outputs.db:
            return sweep_to_database(experiment, outputs, puzzles, executor, bad, progress)
        return _sweep_in_memory(experiment, outputs, puzzles, executor, bad, progress)
    finally:
        progress.close(finished=False)
        executor.close()


def sampled_indices(paths: Sequence[str], experiment: Experiment) -> dict[str, frozenset[int]]:
    """--sample K: per file, the indices of the K puzzles drawn (all of them when the file has
    K or fewer); UsageError for standard input or a FIFO, which cannot be counted first."""
    if experiment.sample is None:
        return {}
    drawn = {}
    for path in paths:
        if path == "-" or stat.S_ISFIFO(os.stat(path).st_mode):
            raise UsageError(f"--sample draws from a file it counts first; {path} is a stream "
                             "(use --first N, or save it to a file)")
        count = count_puzzles(path, fmt=experiment.input_format, hex16=experiment.hex16)
        rng = random.Random(f"{experiment.sample_seed}/{path}")
        drawn[path] = frozenset(rng.sample(range(count), min(experiment.sample, count)))
    return drawn


def _chosen_total(paths: Sequence[str], experiment: Experiment, samples: dict[str, frozenset[int]],
                  per_puzzle: int) -> int | None:
    """The runs of the puzzles --first or --sample chose (None when a file cannot be counted)."""
    if experiment.sample is not None:
        return sum(len(chosen) for chosen in samples.values()) * per_puzzle
    counts = [count_runs([path], experiment.input_format, experiment.hex16, 1) for path in paths]
    if any(count is None for count in counts):
        return None
    return sum(min(count or 0, experiment.first or 0) for count in counts) * per_puzzle


def _less_bad(puzzles: Iterator[Puzzle], bad: list[PuzzleError], progress: Progress,
              per_puzzle: int) -> Iterator[Puzzle]:
    """The puzzles; the runs of each bad one found on the way taken off the progress's total."""
    counted = 0
    for puzzle in puzzles:
        progress.shrink((len(bad) - counted) * per_puzzle)
        counted = len(bad)
        yield puzzle
    progress.shrink((len(bad) - counted) * per_puzzle)


def check_seedable(configurations: Sequence[Configuration], repeat: int) -> None:
    """UsageError unless every configuration's backend takes a solver seed that is not set yet."""
    if repeat != 1:
        raise UsageError("--seeds K already runs each (puzzle, configuration) K times: leave out --repeat")
    for configuration in configurations:
        backend = configuration.backend or configuration.name
        if configuration.plugin is not None or "seed" not in registry.get(backend).options:
            takers = [name for name in registry.names() if "seed" in registry.get(name).options]
            raise UsageError(f"--seeds: configuration {configuration.name!r} takes no solver seed; "
                             f"backends that do: {', '.join(takers)}")
        if any(name == "seed" for name, _ in configuration.options):
            raise UsageError(f"--seeds sets the seed of each run: configuration "
                             f"{configuration.name!r} sets one already")


def _first_checked(puzzles: Iterator[Puzzle], bad: list[PuzzleError]) -> Iterator[Puzzle]:
    """The puzzles, once it is sure there is at least one (UsageError otherwise)."""
    first = next(puzzles, None)
    if first is None:
        raise UsageError("no puzzles to run" + (f" ({len(bad)} bad ones skipped)" if bad else ""))
    return itertools.chain([first], puzzles)


def _sweep_in_memory(experiment: Experiment, outputs: Outputs, puzzles: Iterator[Puzzle],
                     executor: Executor, bad: list[PuzzleError], progress: Progress) -> int:
    store = MemoryStore()
    load_started = load_average()
    with progress:
        tally = stream_experiment(puzzles, experiment, executor=executor, store=store,
                                  progress=progress)
    provenance = environment(experiment, load_started, calibration=tally.calibration)
    results = store.results(tally.partial)
    say_partial(tally)
    count = len({(r.file, r.index) for r in results.runs})
    rows = report.summarize(results.runs, unique=experiment.max_solutions >= 2, limit=experiment.time_limit,
                            par=experiment.par, exclude_warmup=experiment.exclude_warmup)
    status = (EXIT_INTERNAL if tally.crashed else EXIT_USAGE if tally.failed
              else EXIT_INTERRUPTED if results.partial
              else exit_status(results.runs, bad, outputs.fail_on))
    where = executor.describe()
    return show_and_save(
        status, bad,
        lambda: print_summary(outputs, experiment.par, rows, results.partial,
                              results.disagreements, results.runs, legend(count, experiment, where)),
        saves(experiment, outputs, results, where, bad, provenance))
