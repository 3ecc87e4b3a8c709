"""``compare.py run``: every configuration on every puzzle, verified, categorised, scored, tabulated."""
from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from models import Puzzle, PuzzleError

from .. import registry
from . import records, report
from .common import (DEFAULT_PUZZLES, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError, check_output_paths,
                     error_record, exit_status, find_inputs, input_options, iter_inputs,
                     load_plugins, picture_options, positive_float, positive_int, progress_bar,
                     resolve_solvers, shown, solving_options)
from .executors import Executor, executor_options, make_executor
from .experiment import MemoryStore, Results, say_partial, stream_experiment
from .judge import Disagreement, Run
from .outputs import write_atomic
from .provenance import provenance
from .stopping import quiet_stdout
from .runner import SolverRef, default_jobs, grace_for
from .sweep_db import database_options, sweep_to_database

NAME = "run"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    run = subparsers.add_parser("run", help="run configurations on puzzle files and tabulate (the default)",
                                description="Run every configuration on every puzzle (--repeat times), "
                                            "verify, categorise, score, tabulate.")
    run.add_argument("paths", nargs="*", metavar="PATH",
                     help=f"puzzle files, '-' for stdin (default: {shown(DEFAULT_PUZZLES)})")
    run.add_argument("--solvers", metavar="CONFIGS",
                     help="configurations [LABEL=]BACKEND[:OPTION=VALUE;...], comma-separated, e.g. "
                          "sat:encoding=extended,min=sat:encoding=minimal,mrv (default: every "
                          "available backend and every plugin)")
    solving_options(run)
    run.add_argument("--jobs", "-j", type=positive_int, default=None, metavar="N",
                     help="worker processes in parallel (default: the number of cores; with "
                          "Dask: per Dask worker, default that machine's cores)")
    executor_options(run)
    database_options(run)
    experiment_options(run)
    run.add_argument("--format", choices=report.TABLE_FORMATS, default="table",
                     help="how to print the summary (default: table)")
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
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="shuffle the order of the runs with this seed, within blocks of about "
                             "10,000 runs (default: fixed order)")
    parser.add_argument("--par", type=positive_float, default=2.0, metavar="K",
                        help="PAR-K score: unsolved runs count K x the limit (default: 2)")
    parser.add_argument("--exclude-warmup", action="store_true",
                        help="leave out of the tables each configuration's first run in a fresh "
                             "worker (still saved, marked warmup)")


def run(args: argparse.Namespace) -> int:
    plugins = load_plugins(args.plugin)
    solvers = resolve_solvers(args.solvers, plugins)
    if args.seeds:
        check_seedable(solvers, args.repeat)
        args.repeat = args.seeds
    paths = args.paths or [shown(DEFAULT_PUZZLES)]
    check_output_paths({"--json": args.json, "--csv": args.csv, "--plot": args.plot,
                        "--db": args.db}, paths)
    if args.resume and not args.db:
        raise UsageError("--resume continues a sweep from its database: give --db FILE.sqlite")
    bad: list[PuzzleError] = []
    puzzles = _first_checked(iter_inputs(find_inputs(paths), args.fmt, args.hex, bad), bad)
    executor = make_executor(args.executor, jobs=args.jobs, chunk=args.chunk_size)
    try:
        if args.db:
            return sweep_to_database(args, puzzles, solvers, executor, paths, bad)
        return _sweep_in_memory(args, puzzles, solvers, executor, paths, bad)
    finally:
        executor.close()


def check_seedable(solvers: Sequence[SolverRef], repeat: int) -> None:
    """UsageError unless every configuration's backend takes a solver seed that is not set yet."""
    if repeat != 1:
        raise UsageError("--seeds K already runs each (puzzle, configuration) K times: leave out --repeat")
    for solver in solvers:
        if solver.plugin is not None or "seed" not in registry.get(solver.backend or solver.name).options:
            takers = [name for name in registry.names() if "seed" in registry.get(name).options]
            raise UsageError(f"--seeds: configuration {solver.name!r} takes no solver seed; "
                             f"backends that do: {', '.join(takers)}")
        if any(name == "seed" for name, _ in solver.options):
            raise UsageError(f"--seeds sets the seed of each run: configuration {solver.name!r} "
                             f"sets one already")


def _first_checked(puzzles: Iterator[Puzzle], bad: list[PuzzleError]) -> Iterator[Puzzle]:
    """The puzzles, once it is sure there is at least one (UsageError otherwise)."""
    first = next(puzzles, None)
    if first is None:
        raise UsageError("no puzzles to run" + (f" ({len(bad)} bad ones skipped)" if bad else ""))
    return itertools.chain([first], puzzles)


def _sweep_in_memory(args: argparse.Namespace, puzzles: Iterator[Puzzle], solvers: Sequence[SolverRef],
                     executor: Executor, paths: Sequence[str], bad: list[PuzzleError]) -> int:
    store = MemoryStore()
    with progress_bar(None) as progress:
        tally = stream_experiment(puzzles, solvers, max_solutions=2 if args.unique else 1,
                                  time_limit=args.timeout, executor=executor, store=store,
                                  repeat=args.repeat, seed=args.seed,
                                  memory_limit=args.memory_limit, progress=progress,
                                  seeded=bool(args.seeds))
    results = store.results(tally.partial)
    say_partial(tally)
    count = len({(r.file, r.index) for r in results.runs})
    rows = report.summarize(results.runs, unique=args.unique, limit=args.timeout, par=args.par,
                            exclude_warmup=args.exclude_warmup)
    status = EXIT_INTERRUPTED if results.partial else exit_status(results.runs, bad)
    return show_and_save(
        status, bad,
        lambda: print_summary(args, rows, results.partial, results.disagreements, results.runs,
                              _legend(count, solvers, args, executor.describe())),
        lambda: _save(args, results, paths, solvers, executor.describe(), bad))


def show_and_save(status: int, bad: Sequence[PuzzleError], show: Callable[[], None],
                  save: Callable[[], None]) -> int:
    """Print the summary, then write the files. A closed stdout (``| head``) keeps the files
    and the status; a failed write is said, and a wrong run's status (1) outranks its (2)."""
    try:
        show()
    except BrokenPipeError:
        quiet_stdout()
    if bad:
        print(f"compare.py: {len(bad)} bad puzzle(s) skipped (see above)", file=sys.stderr)
    try:
        save()
    except OSError as error:
        print(f"compare.py: error: cannot save: {error}", file=sys.stderr)
        return status if status != EXIT_OK else EXIT_USAGE
    return status


def print_summary(args: argparse.Namespace, rows: list[dict[str, Any]], partial: bool,
                  disagreements: Sequence[Disagreement | dict[str, Any]],
                  failures: Sequence[Run | dict[str, Any]], legend: str) -> None:
    """The summary table (or JSON), the legend, the errors and the disagreements."""
    if args.format == "json":
        print(json.dumps({"summary": rows, "partial": partial,
                          "disagreements": [d.as_dict() if isinstance(d, Disagreement) else d
                                            for d in disagreements]}, indent=2))
        return
    print(report.render_table(rows, args.format, par=args.par))
    if args.format != "csv":
        print(legend)
    extra = "\n\n".join(t for t in (report.render_failures(failures),
                                    report.render_disagreements(disagreements)) if t)
    if extra:
        print("\n" + extra, file=sys.stdout if args.format != "csv" else sys.stderr)


def run_options(args: argparse.Namespace, paths: Sequence[str], solvers: Sequence[SolverRef],
                where: str) -> dict[str, Any]:
    """The options a run saves with its results (JSON document, database sweep)."""
    return {"command": "run", "paths": list(paths), "solvers": [s.name for s in solvers],
            "plugins": list(args.plugin), "timeout_s": args.timeout,
            "kill_after_s": args.timeout + grace_for(args.timeout),
            "jobs": args.jobs or (default_jobs() if args.executor == "local" else None),
            "memory_limit_mb": args.memory_limit,
            "executor": args.executor, "ran_on": where,
            "unique": args.unique, "max_solutions": 2 if args.unique else 1,
            "repeat": args.repeat, "seeds": args.seeds, "seed": args.seed, "par": args.par,
            "exclude_warmup": args.exclude_warmup, "fmt": args.fmt, "hex": args.hex}


def _save(args: argparse.Namespace, results: Results, paths: Sequence[str],
          solvers: Sequence[SolverRef], where: str, bad: Sequence[PuzzleError]) -> None:
    if args.json:
        document = report.build_document(
            results.runs, results.disagreements, options=run_options(args, paths, solvers, where),
            partial=results.partial,
            environment=provenance(solvers, limit=args.timeout, repeat=args.repeat, seed=args.seed),
            input_errors=[error_record(e) for e in bad])
        write_atomic(args.json, json.dumps(document, indent=1) + "\n")
        print(f"compare.py: runs saved to {args.json}", file=sys.stderr)
    if args.csv:
        write_atomic(args.csv, records.csv_text(results.runs))
        print(f"compare.py: one line per run written to {args.csv}", file=sys.stderr)
    if args.plot:
        from .plot import cactus_plot  # noqa: PLC0415
        cactus_plot([r.as_dict() for r in results.runs], args.plot, limit=args.timeout,
                    title=args.title)
        print(f"compare.py: cactus plot written to {args.plot}", file=sys.stderr)


def _legend(count: int, solvers: Sequence[SolverRef], args: argparse.Namespace, where: str) -> str:
    repeats = (f" x {args.seeds} solver seeds" if args.seeds else
               f" x {args.repeat} repetitions" if args.repeat > 1 else "")
    warm = "; warm-up runs left out" if args.exclude_warmup else ""
    return (f"\n{count} puzzles x {len(solvers)} configurations{repeats}; every answer checked by "
            f"models.verify. Times in seconds per run\n(median of the repetitions per puzzle); "
            f"a run past the limit is a timeout counted at the limit; PAR-{args.par:g} counts "
            f"unsolved runs at {args.par:g} x limit;\nlimit {args.timeout:g} s per run; {where}{warm}.")
