"""Benchmark the registered backends over puzzle sets and print one table (not a test).

    python bench/bench_backends.py                          # available backends, default sets
    python bench/bench_backends.py --solvers mrv,backtrack --timeout 5
    python bench/bench_backends.py --norvig /tmp/norvig/sudoku.py   # add Norvig's solver
    python bench/bench_backends.py --solvers mrv,singles=mrv:inference=singles   # options, labels
    python bench/bench_backends.py --plugin my.py:solve --solvers mrv,solve   # a plugin

Per (puzzle set, backend): solved/total, timeouts, mean / median / max wall time, mean
nodes, mean encode and solve time when the backend reports them, and ratios measured
in this one run: against the fastest backend on that set, and against Norvig's
solver when ``--norvig`` points at a copy of his ``sudoku.py`` (kept outside this
repository; it only handles the puzzle size it was written for, 9x9, so other sets show
no Norvig figure unless ``--norvig`` is given again with a copy generalised to that size).
Configurations are written as in compare.py (bench/common.py). Every answer is checked
with the independent checker; the exit status is 1 if any run was wrong or errored.
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType

import tables
from common import ROOT, add_configuration_arguments, configurations, exit_status

from models import Model, Puzzle, read_puzzles, verify
from solvers import Status, registry
from solvers.harness.engine.plugins import load_backend
from solvers.harness.results.provenance import load_average
from solvers.harness.tasks import Configuration

DEFAULT_SETS = ("top95.txt", "hardest.txt", "16x16_forum_samples.txt")
NORVIG = "norvig"


@dataclass
class Run:
    """One backend on one puzzle."""

    puzzle_set: str
    index: int
    solver: str
    status: str
    wall_time: float
    nodes: int | None = None
    encode_time: float | None = None
    solve_time: float | None = None


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    started = load_average()
    solvers = configurations(args, [name for name in registry.available_names()
                                    if registry.get(name).interruptible])
    norvigs = [_load_norvig(Path(path), i) for i, path in enumerate(args.norvig)]
    runs: list[Run] = []
    for name in args.sets:
        path = Path(name) if Path(name).exists() else ROOT / "puzzles" / name
        batch = read_puzzles(path)
        puzzles = batch.puzzles[: args.limit] if args.limit else batch.puzzles
        label = path.name.removesuffix(".txt")
        for solver in solvers:
            runs += [_run_backend(solver, label, i, p, args.timeout)
                     for i, p in enumerate(puzzles)]
        for norvig in norvigs:
            runs += [_run_norvig(norvig, label, i, p) for i, p in enumerate(puzzles)
                     if _norvig_handles(norvig, p)]
    print(_table(runs, args.tablefmt))
    print(f"\ntimes in ms, wall clock per puzzle; timeout {args.timeout:g} s per run "
          f"(a timed-out run counts at its time); python {sys.version.split()[0]}")
    tables.save(Path(args.json) if args.json else None, started, timeout=args.timeout,
                runs=[asdict(r) for r in runs])
    return exit_status(r.status for r in runs)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_configuration_arguments(parser, default="every available backend that honours time "
                                                 "limits from inside")
    parser.add_argument("--sets", nargs="+", default=list(DEFAULT_SETS),
                        help="puzzle files, by path or by name under puzzles/")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per run")
    parser.add_argument("--limit", type=int, default=0, help="only the first N puzzles of each set")
    parser.add_argument("--norvig", action="append", default=[],
                        help="path to a copy of Norvig's sudoku.py (repeat for copies "
                             "generalised to other sizes; each runs the puzzles of its size)")
    parser.add_argument("--tablefmt", default="github", help="tabulate format (github, simple)")
    parser.add_argument("--json", default="", help="also save every run and the table to this JSON file, "
                                                   "with provenance")
    return parser


def _run_backend(choice: Configuration, label: str, index: int, puzzle: Puzzle,
                 timeout: float) -> Run:
    """One run in this process; a grid the checker rejects makes the run 'wrong', an exception
    'error' (each said on stderr)."""
    try:
        result = load_backend(choice).solve(Model.from_puzzle(puzzle), time_limit=timeout,
                                     **dict(choice.options))
    except Exception as error:  # noqa: BLE001 - a backend's failure is this run's error
        print(f"ERROR: {choice.name} on {label} #{index}: {type(error).__name__}: {error}",
              file=sys.stderr)
        return Run(label, index, choice.name, "error", 0.0)
    status = str(result.status)
    for solution in result.solutions:
        verdict = verify(puzzle, solution)
        if not verdict.ok:
            print(f"WRONG: {choice.name} on {label} #{index}: {verdict}", file=sys.stderr)
            status = "wrong"
    if status == "error":
        print(f"ERROR: {choice.name} on {label} #{index}: {result.message}", file=sys.stderr)
    s = result.stats
    return Run(label, index, choice.name, status, s.wall_time, s.nodes, s.encode_time, s.solve_time)


def _load_norvig(path: Path, number: int = 0) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"norvig_sudoku_{number}", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for needed in ("solve", "squares", "digits"):
        if not hasattr(module, needed):
            raise SystemExit(f"{path} has no {needed!r}: not Norvig's sudoku.py?")
    return module


def _norvig_handles(norvig: ModuleType, puzzle: Puzzle) -> bool:
    """Norvig's file is written for one size (9x9) and plain Sudoku only."""
    return (puzzle.geometry.cells == len(norvig.squares) and puzzle.n == len(norvig.digits)
            and puzzle.variant == "standard")


def _run_norvig(norvig: ModuleType, label: str, index: int, puzzle: Puzzle) -> Run:
    text = "".join(norvig.digits[v - 1] if v else "." for v in puzzle.givens)
    norvig.nodes = 0  # counted by a generalised copy that has the counter; ignored otherwise
    start = time.perf_counter()
    values = norvig.solve(text)
    elapsed = time.perf_counter() - start
    nodes = norvig.nodes if "nodes" in norvig.search.__code__.co_names else None
    if not values:
        return Run(label, index, NORVIG, str(Status.UNSAT), elapsed, nodes)
    grid = tuple(norvig.digits.index(values[s]) + 1 for s in norvig.squares)
    verdict = verify(puzzle, grid)
    if not verdict.ok:
        print(f"WRONG: Norvig's solver on {label} #{index}: {verdict}", file=sys.stderr)
        return Run(label, index, NORVIG, "wrong", elapsed, nodes)
    return Run(label, index, NORVIG, str(Status.SOLVED), elapsed, nodes)


def _table(runs: list[Run], tablefmt: str) -> str:
    groups: dict[tuple[str, str], list[Run]] = {}
    for run in runs:
        groups.setdefault((run.puzzle_set, run.solver), []).append(run)
    means = {key: statistics.fmean(r.wall_time for r in rs) for key, rs in groups.items()}
    rows = []
    for (puzzle_set, solver), rs in groups.items():
        times = [r.wall_time for r in rs]
        fastest = min(m for (s, _), m in means.items() if s == puzzle_set)
        reference = means.get((puzzle_set, NORVIG))
        rows.append([
            puzzle_set, solver,
            f"{sum(r.status == str(Status.SOLVED) for r in rs)}/{len(rs)}",
            sum(r.status == str(Status.TIMEOUT) for r in rs),
            _ms(statistics.fmean(times)), _ms(statistics.median(times)), _ms(max(times)),
            _mean([r.nodes for r in rs], "{:.1f}"),
            _mean([r.encode_time for r in rs], "{:.2f}", 1000),
            _mean([r.solve_time for r in rs], "{:.2f}", 1000),
            f"{means[(puzzle_set, solver)] / fastest:.2f}" if fastest > 0 else "-",
            "" if reference is None or not means[(puzzle_set, solver)] > 0
            else f"{reference / means[(puzzle_set, solver)]:.2f}",
        ])
    headers = ["set", "solver", "solved", "timeouts", "mean ms", "median ms", "max ms",
               "mean nodes", "encode ms", "solve ms", "time / fastest", "norvig / time"]
    return tables.shown("backends", rows, headers, tablefmt=tablefmt, disable_numparse=True)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def _mean(values: list, fmt: str, scale: float = 1.0) -> str:
    known = [v for v in values if v is not None]
    return fmt.format(statistics.fmean(known) * scale) if known else ""


if __name__ == "__main__":
    sys.exit(main())
