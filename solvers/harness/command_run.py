"""``compare.py run``: every configuration on every puzzle, verified, categorised, scored, tabulated."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from models import PuzzleError

from . import records, report
from .common import (DEFAULT_PUZZLES, EXIT_INTERRUPTED, UsageError, check_output_paths,
                     error_record, exit_status, input_options, load_plugins, picture_options,
                     positive_float, positive_int, progress_bar, read_inputs, resolve_solvers,
                     shown, solving_options)
from .experiment import Results, run_experiment, say_partial
from .outputs import write_atomic
from .provenance import provenance
from .stopping import quiet_stdout
from .runner import SolverRef, default_jobs, grace_for

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
                     help="worker processes in parallel (default: the number of cores)")
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
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="shuffle the order of the runs with this seed (default: fixed order)")
    parser.add_argument("--par", type=positive_float, default=2.0, metavar="K",
                        help="PAR-K score: unsolved runs count K x the limit (default: 2)")
    parser.add_argument("--exclude-warmup", action="store_true",
                        help="leave out of the tables each configuration's first run in a fresh "
                             "worker (still saved, marked warmup)")


def run(args: argparse.Namespace) -> int:
    plugins = load_plugins(args.plugin)
    solvers = resolve_solvers(args.solvers, plugins)
    paths = args.paths or [shown(DEFAULT_PUZZLES)]
    check_output_paths({"--json": args.json, "--csv": args.csv, "--plot": args.plot}, paths)
    puzzles, bad = read_inputs(paths, args.fmt, args.hex)
    if not puzzles:
        raise UsageError("no puzzles to run" + (f" ({len(bad)} bad ones skipped)" if bad else ""))
    jobs = args.jobs or default_jobs()
    total = len(puzzles) * len(solvers) * args.repeat
    with progress_bar(total) as progress:
        results = run_experiment(puzzles, solvers, max_solutions=2 if args.unique else 1,
                                 time_limit=args.timeout, repeat=args.repeat, jobs=jobs,
                                 seed=args.seed, memory_limit=args.memory_limit,
                                 progress=progress)
    say_partial(results, total)
    status = EXIT_INTERRUPTED if results.partial else exit_status(results.runs, bad)
    try:
        _print_summary(args, results, len(puzzles), solvers, jobs)
    except BrokenPipeError:  # e.g. piped into head: the files are still saved, the status kept
        quiet_stdout()
    if bad:
        print(f"compare.py: {len(bad)} bad puzzle(s) skipped (see above)", file=sys.stderr)
    try:
        _save(args, results, paths, solvers, jobs, bad)
    except OSError as error:  # a wrong run's status (1) outranks a failed write's (2)
        print(f"compare.py: error: cannot save: {error}", file=sys.stderr)
        return status if status != EXIT_OK else EXIT_USAGE
    return status


def _print_summary(args: argparse.Namespace, results: Results, count: int,
                   solvers: Sequence[SolverRef], jobs: int) -> None:
    rows = report.summarize(results.runs, unique=args.unique, limit=args.timeout, par=args.par,
                            exclude_warmup=args.exclude_warmup)
    if args.format == "json":
        print(json.dumps({"summary": rows, "partial": results.partial,
                          "disagreements": [d.as_dict() for d in results.disagreements]}, indent=2))
        return
    print(report.render_table(rows, args.format, par=args.par))
    if args.format != "csv":
        print(_legend(count, solvers, args, jobs))
    extra = "\n\n".join(t for t in (report.render_failures(results.runs),
                                    report.render_disagreements(results.disagreements)) if t)
    if extra:
        print("\n" + extra, file=sys.stdout if args.format != "csv" else sys.stderr)


def _save(args: argparse.Namespace, results: Results, paths: Sequence[str],
          solvers: Sequence[SolverRef], jobs: int, bad: Sequence[PuzzleError]) -> None:
    if args.json:
        options = {"command": "run", "paths": list(paths), "solvers": [s.name for s in solvers],
                   "plugins": list(args.plugin), "timeout_s": args.timeout,
                   "kill_after_s": args.timeout + grace_for(args.timeout), "jobs": jobs,
                   "memory_limit_mb": args.memory_limit,
                   "unique": args.unique, "max_solutions": 2 if args.unique else 1,
                   "repeat": args.repeat, "seed": args.seed, "par": args.par,
                   "exclude_warmup": args.exclude_warmup, "fmt": args.fmt, "hex": args.hex}
        document = report.build_document(
            results.runs, results.disagreements, options=options, partial=results.partial,
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


def _legend(count: int, solvers: Sequence[SolverRef], args: argparse.Namespace, jobs: int) -> str:
    repeats = f" x {args.repeat} repetitions" if args.repeat > 1 else ""
    warm = "; warm-up runs left out" if args.exclude_warmup else ""
    return (f"\n{count} puzzles x {len(solvers)} configurations{repeats}; every answer checked by "
            f"models.verify. Times in seconds per run\n(median of the repetitions per puzzle); "
            f"a run past the limit is a timeout counted at the limit; PAR-{args.par:g} counts "
            f"unsolved runs at {args.par:g} x limit;\nlimit {args.timeout:g} s per run; {jobs} worker "
            f"process{'es' if jobs > 1 else ''}{warm}.")
