"""The hard sets side by side: configurations counting to two through the harness, under a limit.

    python bench/bench_hard.py [--solvers fast,mrv,sat,cpsat] [--set puzzles/forum_hardest_1106.txt]
                               [--time-limit 60] [--jobs 1] [--json OUT.json] [--first N]
                               [--executor local|dask[=ADDRESS]]

Every run asks for two solutions (so each answer proves uniqueness) in a worker process
of the harness (solvers/harness/engine/runner.py): the clock starts once the worker has loaded
the backend, so an import-time cost such as fast's compile (or numba cache load) is not
in any run's time; a run still busy after the limit plus the harness's grace is killed
and counted as a timeout at the limit. The tasks alternate configuration by
configuration on each puzzle, so a change of load on a shared machine hits all alike.
Every solution is checked with models.verify; a puzzle counts as solved when the run
proved it unique. Prints solved/total, timeouts, mean / median / max seconds (a timeout
counts at the limit) and mean nodes per configuration and set.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import tables
from common import add_executor_arguments, executor

from models import Puzzle, read_puzzles, verify
from solvers.harness.engine import configs
from solvers.harness.engine.executors import Executor
from solvers.harness.results.provenance import load_average
from solvers.harness.tasks import Outcome, Task

DEFAULT_SETS = ("forum_hardest_1106.txt", "25x25_gecode_frisch.txt")


@dataclass
class Run:
    """One configuration on one puzzle."""

    solver: str
    set: str
    puzzle: int
    status: str   # unique (proved), unproved (one found, limit hit), several, unsat, timeout, ...
    seconds: float
    nodes: int | None = None


def run_set(name: str, puzzles: list[Puzzle], chosen: list[configs.Configuration],
            time_limit: float, where: Executor) -> list[Run]:
    """Every configuration on every puzzle of one set, alternating configurations."""
    refs = list(chosen)
    tasks = [Task(ref, puzzle, max_solutions=2, time_limit=time_limit)
             for puzzle in puzzles for ref in refs]
    runs: list[Run | None] = [None] * len(tasks)

    def record(position: int, outcome: Outcome) -> None:
        puzzle = puzzles[position // len(refs)]
        label = refs[position % len(refs)].name
        status = str(outcome.status)
        if any(not verify(puzzle, s).ok for s in outcome.solutions):
            status = "wrong"
        elif status == "solved":
            status = ("several" if len(outcome.solutions) > 1 else
                      "unique" if outcome.complete else "unproved")
        runs[position] = Run(label, name, position // len(refs), status, outcome.time_s,
                             outcome.stats.get("nodes"))
        if status not in ("unique",) or len(puzzles) <= 50:
            print(f"  {label:24} {name} #{position // len(refs):<4} {status:8} "
                  f"{outcome.time_s:8.3f} s", file=sys.stderr, flush=True)

    where.run(tasks, record)
    return [r for r in runs if r is not None]


def summarise(runs: list[Run], time_limit: float) -> list[list[object]]:
    """One row per (set, configuration), in the order met."""
    rows = []
    keys = list(dict.fromkeys((r.set, r.solver) for r in runs))
    for set_name, solver in keys:
        mine = [r for r in runs if r.set == set_name and r.solver == solver]
        times = [time_limit if r.status == "timeout" else r.seconds for r in mine]
        nodes = [r.nodes for r in mine if r.nodes is not None and r.status == "unique"]
        rows.append([set_name.removesuffix(".txt"), solver,
                     f"{sum(r.status == 'unique' for r in mine)}/{len(mine)}",
                     sum(r.status == "timeout" for r in mine),
                     sum(r.status in ("wrong", "error") for r in mine),
                     f"{1000 * statistics.mean(times):.2f}", f"{1000 * statistics.median(times):.2f}",
                     f"{1000 * max(times):.1f}",
                     f"{statistics.mean(nodes):.1f}" if nodes else ""])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--solvers", default="fast,mrv,sat,cpsat",
                        help="configurations, [LABEL=]BACKEND[:OPT=VAL;...] (default fast,mrv,sat,cpsat)")
    parser.add_argument("--set", action="append", default=[], metavar="FILE",
                        help=f"puzzle file, repeatable (default: {', '.join(DEFAULT_SETS)} in puzzles/)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run (default 60)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--first", type=int, default=None, help="only the first N puzzles of each set")
    parser.add_argument("--json", default=None, help="save every run and the table as JSON, with provenance")
    parser.add_argument("--format", default="github", help="tabulate format (default github)")
    add_executor_arguments(parser)
    args = parser.parse_args(argv)
    started = load_average()
    chosen = configs.parse(args.solvers)
    paths = [Path(p) for p in args.set] or [ROOT / "puzzles" / name for name in DEFAULT_SETS]
    runs: list[Run] = []
    chosen_executor = executor(args, args.jobs)
    for path in paths:
        batch = read_puzzles(path)
        if batch.errors:
            print(f"{path}: {batch.errors[0]}", file=sys.stderr)
            return 2
        puzzles = list(batch.puzzles)[:args.first]
        runs += run_set(path.name, puzzles, chosen, args.time_limit, chosen_executor)
    chosen_executor.close()
    headers = ["set", "solver", "unique", "timeouts", "wrong/error", "mean ms", "median ms",
               "max ms", "mean nodes"]
    print(tables.shown("hard", summarise(runs, args.time_limit), headers, tablefmt=args.format))
    print(f"\ncounting to two; limit {args.time_limit:g} s per run (a timeout counts at the limit); "
          f"{args.jobs} worker(s); times are wall clock inside the worker")
    tables.save(Path(args.json) if args.json else None, started, time_limit=args.time_limit,
                runs=[asdict(r) for r in runs])
    return 1 if any(r.status == "wrong" for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
