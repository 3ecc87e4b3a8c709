"""``compare.py solve``: solve puzzles with one configuration and print them for people."""
from __future__ import annotations

import argparse
import sys

from models import Puzzle, to_grid, to_line, to_pretty

from ...result import Status
from ..engine.configs import choose_one as one_solver
from ..engine.configs import load_plugins
from ..engine.runner import default_jobs
from ..results import report
from ..results.judge import Category, Run, judge
from ..tasks import Outcome, Task
from .common import (
    EXIT_OK,
    EXIT_USAGE,
    EXIT_WRONG,
    input_options,
    read_inputs,
    run_with_progress,
    solving_options,
)


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    solve = subparsers.add_parser("solve", help="solve puzzles with one backend and print them",
                                  description="Solve each puzzle with one backend and print it for people.")
    solve.add_argument("paths", nargs="*", metavar="PATH", help="puzzle files or '-' (default: stdin)")
    solve.add_argument("--solver", "--solvers", dest="solver", metavar="CONFIG",
                       help="the configuration, [LABEL=]BACKEND[:OPTION=VALUE;...] "
                            "(default: mrv, or the plugin)")
    solving_options(solve)
    solve.add_argument("--format", choices=("pretty", "line", "grid"), default="pretty",
                       help="pretty: boxed grid and verdict; line/grid: the solution, verdict as '#' comment")
    input_options(solve)
    solve.set_defaults(jobs=None)
    return solve


def run(args: argparse.Namespace) -> int:
    plugins = load_plugins(args.plugin)
    solver = one_solver(args.solver, plugins)
    paths = args.paths or ["-"]
    if "-" in paths and sys.stdin.isatty():
        print("compare.py solve: reading puzzles from standard input (type or paste them, end with "
              "Ctrl-D; or give a file)", file=sys.stderr)
    puzzles, bad = read_inputs(paths, args.fmt, args.hex)
    max_solutions = 2 if args.unique else 1
    tasks = [Task(solver, puzzle, max_solutions, args.timeout, memory_limit=args.memory_limit,
                  cpu_limit=args.cpu_limit)
             for puzzle in puzzles]
    outcomes = run_with_progress(tasks, default_jobs()) if tasks else []
    wrong = False
    for number, (puzzle, outcome) in enumerate(zip(puzzles, outcomes)):
        (run,), _ = judge(puzzle, [(solver.name, outcome)])
        wrong |= run.category == Category.WRONG
        if number:
            print()
        print(_solve_text(puzzle, run, outcome, args.format, args.unique))
    if bad:
        print(f"compare.py: {len(bad)} bad puzzle(s) skipped (see above)", file=sys.stderr)
    elif not puzzles:
        print(f"compare.py solve: no puzzles in {', '.join(paths)}", file=sys.stderr)
    if wrong:
        return EXIT_WRONG
    return EXIT_USAGE if bad or not puzzles else EXIT_OK


def _solve_text(puzzle: Puzzle, run: Run, outcome: Outcome, fmt: str, unique: bool) -> str:
    where = f"{run.file} puzzle {run.index}" + (f" (line {run.line})" if run.line else "")
    variant = ("" if puzzle.variant == "standard" else f" {puzzle.variant}"
               if puzzle.geometry.latin and puzzle.regions is None else f" {puzzle.variant}-sudoku")
    head = f"{where}: {puzzle.geometry.label()}{variant}, {puzzle.num_givens} givens"
    verdict = _verdict(run, outcome, unique)
    grid = None
    if run.category == Category.CORRECT and outcome.solutions:
        solved = puzzle.with_givens(tuple(outcome.solutions[0]))
        grid = {"pretty": to_pretty, "line": to_line, "grid": to_grid}[fmt](solved)
    if fmt == "pretty":
        return "\n".join(x for x in (head, grid, verdict) if x)
    return "\n".join(x for x in (f"# {head}", f"# {verdict}", grid) if x)


def _verdict(run: Run, outcome: Outcome, unique: bool) -> str:
    counters = ", ".join(f"{outcome.stats[k]:,} {k}" for k in ("nodes", "backtracks", "conflicts")
                         if k in outcome.stats)
    took = f"in {report.seconds(run.time_s)} s" + (f", {counters}" if counters else "")
    if run.category == Category.WRONG:
        return f"WRONG answer from {run.solver} {took}: {run.reason}"
    if run.category in (Category.TIMEOUT, Category.UNKNOWN, Category.ERROR, Category.MEMORY_OUT,
                        Category.UNSUPPORTED):
        return f"no answer from {run.solver}: {run.category}: {run.reason}"
    if run.status == Status.UNSAT:
        return f"no solution: proved by {run.solver} {took}"
    text = f"solved by {run.solver} {took}"
    if unique:
        if len(outcome.solutions) >= 2:
            text += "; NOT unique: at least 2 solutions (the first shown)"
        elif outcome.complete:
            text += "; unique"
        else:
            text += "; uniqueness unknown (the search stopped early)"
    return text
