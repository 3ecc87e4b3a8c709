"""``compare.py run``: every configuration on every puzzle, verified, categorised, tabulated."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from models import Puzzle

from . import report
from .common import (DEFAULT_PUZZLES, UsageError, environment, error_record, exit_status,
                     input_options, load_plugins, positive_int, read_inputs, resolve_solvers,
                     run_with_progress, shown, solving_options, write_json)
from .judge import Disagreement, Run, judge
from .runner import SolverRef, Task, default_jobs, grace_for

NAME = "run"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    run = subparsers.add_parser("run", help="run backends on puzzle files and tabulate (the default)",
                                description="Run backends on every puzzle, verify, categorise, tabulate.")
    run.add_argument("paths", nargs="*", metavar="PATH",
                     help=f"puzzle files, '-' for stdin (default: {shown(DEFAULT_PUZZLES)})")
    run.add_argument("--solvers", metavar="A,B,...",
                     help="backends to run, by name (default: every available one and every plugin)")
    solving_options(run)
    run.add_argument("--jobs", "-j", type=positive_int, default=None, metavar="N",
                     help="worker processes in parallel (default: the number of cores)")
    run.add_argument("--format", choices=report.TABLE_FORMATS, default="table",
                     help="how to print the summary (default: table)")
    run.add_argument("--json", metavar="OUT.json", help="save the whole run as JSON")
    run.add_argument("--plot", metavar="FILE.png", help="draw a cactus plot (needs matplotlib)")
    input_options(run)
    return run


def run(args: argparse.Namespace) -> int:
    plugins = load_plugins(args.plugin)
    solvers = resolve_solvers(args.solvers, plugins)
    if args.plot:
        from .plot import PlotUnavailableError, require_matplotlib  # noqa: PLC0415
        try:
            require_matplotlib()
        except PlotUnavailableError as error:
            raise UsageError(str(error)) from None
    paths = args.paths or [shown(DEFAULT_PUZZLES)]
    puzzles, bad = read_inputs(paths, args.fmt, args.hex)
    if not puzzles:
        raise UsageError("no puzzles to run" + (f" ({len(bad)} bad ones skipped)" if bad else ""))
    jobs = args.jobs or default_jobs()
    max_solutions = 2 if args.unique else 1
    runs, disagreements = run_and_judge(puzzles, solvers, max_solutions, args.timeout, jobs)

    rows = report.summarize(runs, unique=args.unique)
    if args.format == "json":
        print(json.dumps({"summary": rows, "disagreements": [d.as_dict() for d in disagreements]},
                         indent=2))
    else:
        print(report.render_table(rows, args.format))
        if args.format != "csv":
            print(_legend(len(puzzles), solvers, args.timeout, jobs))
        extra = "\n\n".join(t for t in (report.render_failures(runs),
                                        report.render_disagreements(disagreements)) if t)
        if extra:
            print("\n" + extra, file=sys.stdout if args.format != "csv" else sys.stderr)
    if bad:
        print(f"compare.py: {len(bad)} bad puzzle(s) skipped (see above)", file=sys.stderr)

    if args.json:
        options = {"command": "run", "paths": paths, "solvers": [s.name for s in solvers],
                   "plugins": list(args.plugin), "timeout_s": args.timeout,
                   "kill_after_s": args.timeout + grace_for(args.timeout), "jobs": jobs,
                   "unique": args.unique, "max_solutions": max_solutions, "fmt": args.fmt,
                   "hex": args.hex}
        document = report.build_document(
            runs, disagreements, environment=environment(solvers), options=options,
            input_errors=[error_record(e) for e in bad])
        write_json(args.json, document)
    if args.plot:
        from .plot import cactus_plot  # noqa: PLC0415
        cactus_plot([r.as_dict() for r in runs], args.plot)
        print(f"compare.py: cactus plot written to {args.plot}", file=sys.stderr)
    return exit_status(runs, bad)


def run_and_judge(puzzles: Sequence[Puzzle], solvers: Sequence[SolverRef], max_solutions: int,
                  timeout: float, jobs: int) -> tuple[list[Run], list[Disagreement]]:
    """Every solver on every puzzle in worker processes, then each puzzle's runs judged together."""
    tasks = [Task(solver, puzzle, max_solutions, timeout) for puzzle in puzzles for solver in solvers]
    outcomes = run_with_progress(tasks, jobs)
    runs: list[Run] = []
    disagreements: list[Disagreement] = []
    width = len(solvers)
    for number, puzzle in enumerate(puzzles):
        mine = outcomes[number * width:(number + 1) * width]
        judged, disagreement = judge(puzzle, [(s.name, o) for s, o in zip(solvers, mine)])
        runs += judged
        if disagreement:
            disagreements.append(disagreement)
    return runs, disagreements


def _legend(count: int, solvers: Sequence[SolverRef], timeout: float, jobs: int) -> str:
    return (f"\n{count} puzzles x {len(solvers)} backends; every answer checked by models.verify. "
            f"Times in seconds per run,\ntimeouts included at the time they were stopped; "
            f"limit {timeout:g} s per run; {jobs} worker process{'es' if jobs > 1 else ''}.")
