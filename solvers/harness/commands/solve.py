"""``compare.py solve``: solve puzzles with one configuration and print them for people."""
from __future__ import annotations

import argparse
import sys

from models import Puzzle, PuzzleError, to_grid, to_line, to_pretty
from models.symbols import MAX_SYMBOL_SIZE

from ...result import Status
from ..engine.configs import choose_one as one_solver
from ..engine.configs import load_plugins
from ..engine.runner import default_jobs
from ..engine.terminal import printable
from ..results import tables
from ..results.experiment import families_of
from ..results.judge import Run, fails, judge
from ..results.judge_process import JudgeProcess
from ..tasks import COUNT_SAMPLE, Category, Configuration, Outcome, Task, solutions_asked
from .common import (
    EXIT_OK,
    EXIT_USAGE,
    EXIT_WRONG,
    Subcommands,
    UsageError,
    input_options,
    read_inputs,
    run_with_progress,
    solutions_wanted,
    solving_options,
)


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    solve = subparsers.add_parser("solve", help="solve puzzles with one backend and print them",
                                  description="Solve each puzzle with one backend and print it for people.")
    solve.add_argument("paths", nargs="*", metavar="PATH", help="puzzle files or '-' (default: stdin)")
    solve.add_argument("--solver", "--solvers", dest="solver", metavar="CONFIG",
                       help="the configuration, [LABEL=]BACKEND[:OPTION=VALUE...] "
                            "(default: mrv, or the plugin)")
    solving_options(solve)
    solve.add_argument("--batch", action="store_true",
                       help="solve each file with the configuration's batch entry (fast) in "
                            "compiled calls in this process; every solution still checked, "
                            "claims of uniqueness unchecked (docs/experiments.md)")
    solve.add_argument("--format", choices=("pretty", "line", "grid"), default="pretty",
                       help="pretty: boxed grid and verdict; line/grid: the solution, verdict as '#' comment")
    input_options(solve)
    solve.set_defaults(jobs=None)
    return solve


def run(args: argparse.Namespace) -> int:
    solutions_wanted(args)
    plugins = load_plugins(args.plugin)
    solver = one_solver(args.solver, plugins)
    paths = args.paths or ["-"]
    if "-" in paths and sys.stdin.isatty():
        print("compare.py solve: reading puzzles from standard input (type or paste them, end with "
              "Ctrl-D; or give a file)", file=sys.stderr)
    max_solutions = COUNT_SAMPLE if args.count else solutions_asked(args.max_solutions, args.unique)
    solved, bad = (_in_batch(args, solver, paths, max_solutions) if args.batch
                   else _one_by_one(args, solver, paths, max_solutions))
    puzzles = [puzzle for puzzle, _, _ in solved]
    wrong = False
    for number, (puzzle, run, outcome) in enumerate(solved):
        wrong |= fails(run.category, run.termination)
        if number:
            print()
        print(_solve_text(puzzle, run, outcome, args.format, max_solutions,
                          every=args.max_solutions is not None))
    if bad:
        print(f"compare.py: {len(bad)} bad puzzle(s) skipped (see above)", file=sys.stderr)
    elif not puzzles:
        print(f"compare.py solve: no puzzles in {', '.join(paths)}", file=sys.stderr)
    if wrong:
        return EXIT_WRONG
    return EXIT_USAGE if bad or not puzzles else EXIT_OK


def _check_line_sizes(puzzles: list[Puzzle]) -> None:
    """UsageError (exit 2) for a puzzle too large for --format line."""
    too_big = next((p for p in puzzles if p.n > MAX_SYMBOL_SIZE), None)
    if too_big is not None:
        raise UsageError(f"{too_big.source}: a {too_big.n}x{too_big.n} solution has no line format "
                         f"(symbols go up to {MAX_SYMBOL_SIZE}x{MAX_SYMBOL_SIZE}); use --format grid")


def _one_by_one(args: argparse.Namespace, solver: Configuration, paths: list[str],
                max_solutions: int) -> tuple[list[tuple[Puzzle, Run, Outcome]], list[PuzzleError]]:
    """Each puzzle run in a worker under the limits, judged as ``run`` judges it."""
    puzzles, bad = read_inputs(paths, args.fmt, args.hex)
    if args.format == "line":  # before anything is solved
        _check_line_sizes(puzzles)
    tasks = [Task(solver, puzzle, max_solutions, args.timeout, memory_limit=args.memory_limit,
                  cpu_limit=args.cpu_limit, count=args.count)
             for puzzle in puzzles]
    outcomes = run_with_progress(tasks, default_jobs()) if tasks else []
    solved, checker = [], JudgeProcess(args.judge_budget, args.judge_memory)  # the judge's own process
    try:
        for task, outcome in zip(tasks, outcomes, strict=True):
            (run,), _ = judge(task.puzzle, [(solver.name, outcome)], max_solutions=max_solutions,
                              families=families_of([task]), checker=checker)
            solved.append((task.puzzle, run, outcome))
    finally:
        checker.close()
    return solved, bad


def _in_batch(args: argparse.Namespace, solver: Configuration, paths: list[str],
              max_solutions: int) -> tuple[list[tuple[Puzzle, Run, Outcome]], list[PuzzleError]]:
    """--batch: every file through the configuration's batch entry (commands/batch.py); a
    size --format line cannot show is refused after the batch (its files are read inside it)."""
    from .batch import solved_in_batch  # noqa: PLC0415 - numpy and the batch path, only for --batch

    solved, bad = solved_in_batch(solver, paths, args.fmt, args.hex, max_solutions=max_solutions,
                                  time_limit=args.timeout, memory_limit=args.memory_limit,
                                  cpu_limit=args.cpu_limit)
    if args.format == "line":
        _check_line_sizes([puzzle for puzzle, _, _ in solved])
    return solved, bad


def _solve_text(puzzle: Puzzle, run: Run, outcome: Outcome, fmt: str, asked: int,
                every: bool) -> str:
    """The puzzle's head line, its solution (every solution found when ``every``) and the verdict."""
    where = f"{run.file} puzzle {run.index + 1}" + (f" (line {run.line})" if run.line else "")
    variant = ("" if puzzle.variant == "standard" else f" {puzzle.variant}"
               if puzzle.geometry.latin and puzzle.regions is None else f" {puzzle.variant}-sudoku")
    head = f"{where}: {puzzle.geometry.label()}{variant}, {puzzle.num_givens} givens"
    verdict = _verdict(run, outcome, asked)
    grids: list[str] = []
    if run.category in (Category.CORRECT, Category.UNCHECKED) and outcome.solutions:  # verified grids
        show = {"pretty": to_pretty, "line": to_line, "grid": to_grid}[fmt]
        chosen = outcome.solutions if every else outcome.solutions[:1]
        grids = [show(puzzle.with_givens(tuple(solution))) for solution in chosen]
    if fmt == "pretty":
        return "\n".join([head, *grids, verdict])
    return "\n".join([f"# {head}", f"# {verdict}", *grids])


PROOF_WORDS = {"proved": "the judge proved it (reference method, checked proof)",
               "confirmed": "confirmed by another method (no proof checked)",
               "not asked": "its claim of completeness was not asked for (not checked)"}


def _verdict(run: Run, outcome: Outcome, asked: int) -> str:
    counters = ", ".join(f"{outcome.stats[k]:,} {k}" for k in ("nodes", "backtracks", "conflicts")
                         if k in outcome.stats)
    took = f"in {tables.seconds(run.time_s)} s" + (f", {counters}" if counters else "")
    if run.category == Category.WRONG:
        return f"WRONG answer from {run.solver} {took}: {printable(run.reason)}"
    if run.category == Category.UNCHECKED:
        return f"UNCHECKED answer from {run.solver} {took}: {printable(run.reason)}"
    if run.category != Category.CORRECT:
        return f"no answer from {run.solver}: {run.category}: {printable(run.reason)}"
    checked = f"; {PROOF_WORDS[run.proof]}" if run.proof in PROOF_WORDS else ""
    if run.count is not None:
        sample = f" ({run.verified_solutions} of them verified)" if run.verified_solutions else ""
        return f"{run.count:,} solution{'' if run.count == 1 else 's'}{sample}: counted by {run.solver} {took}" \
            + (f"; {printable(run.reason)}" if run.proof in PROOF_WORDS else "")
    if run.status == Status.UNSAT:
        return f"no solution: proved by {run.solver} {took}{checked}"
    text = f"solved by {run.solver} {took}"
    count = len(outcome.solutions)
    if asked >= 2:
        if count >= 2:
            many = f"exactly {count}" if outcome.complete else f"at least {count}"
            text += f"; NOT unique: {many} solutions"
        elif outcome.complete:
            text += "; unique"
    return text + checked
