"""The harness's own cost per run, locally and through another executor, side by side.

    python bench/bench_harness.py [--count 3000] [--solvers fast] [--executor dask]
                                  [--jobs N] [--rounds 3] [--db]

Thousands of easy puzzles (bench/make_puzzles.py: easy50 under random symmetries) go
through the whole pipeline of ``compare.py run`` (lazy tasks, executor, judging with
models.verify, the store) with warm workers: each executor first runs a warm-up batch
so backends are loaded. Per executor and round:

    overhead per run = (wall x jobs - sum of the runs' own times) / runs
    throughput       = runs / wall

``jobs`` is the number of runner workers solving at once (for Dask: the pool of each
Dask worker times the Dask workers). Rounds alternate local and the other executor, so
a change of load on a shared machine hits both; the median round is shown, and the
other executor's throughput as a ratio to local's. ``--db`` also writes every run to a
results database (a temporary file), as ``run --db`` does.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import tables
from common import (
    ROOT,
    add_configuration_arguments,
    add_executor_arguments,
    configurations,
    executor,
    exit_status,
    write_json,
)
from make_puzzles import transform

from models import Puzzle, Source, read_puzzles
from solvers.harness.engine.executors import Executor
from solvers.harness.engine.runner import default_jobs
from solvers.harness.results.database import DatabaseStore, open_database
from solvers.harness.results.experiment import MemoryStore, stream_experiment
from solvers.harness.results.provenance import load_average
from solvers.harness.tasks import Configuration, Experiment


def easy_puzzles(count: int, seed: int = 1) -> list[Puzzle]:
    """``count`` variants of the easy50 puzzles, numbered as one file."""
    import random  # noqa: PLC0415 - only the shuffled batches need it

    sources = read_puzzles(ROOT / "puzzles" / "easy50.txt").puzzles
    rng = random.Random(seed)
    return [Puzzle(p.geometry, p.givens, source=Source("easy-variants", number + 1, number))
            for number, p in ((n, transform(sources[n % len(sources)], rng)) for n in range(count))]


def measure(chosen: Executor, puzzles: list[Puzzle], solvers: list[Configuration], jobs: int,
            database: str | None) -> dict[str, float]:
    """One timed batch through stream_experiment: wall, summed run times, overhead, runs/s."""
    store = MemoryStore()
    db_store = None
    if database:
        handle = open_database(database, create=True)
        db_store = DatabaseStore(handle, handle.start_sweep({}, {}), resume=False)
    start = time.perf_counter()
    experiment = Experiment(paths=(), configurations=tuple(solvers), time_limit=10.0)
    stream_experiment(puzzles, experiment, executor=chosen, store=db_store or store)
    wall = time.perf_counter() - start
    if db_store is not None:
        runs = list(db_store.database.runs())
        db_store.database.close()
    else:
        runs = [r.as_dict() for r in store.results(False).runs]
    own = sum(r["time_s"] for r in runs)
    return {"runs": len(runs), "jobs": jobs, "wall_s": wall, "own_s": own,
            "overhead_ms": (wall * jobs - own) / len(runs) * 1000, "runs_per_s": len(runs) / wall,
            "failed": sum(r["category"] != "correct" for r in runs)}


def pool_size(chosen: Executor, jobs: int | None) -> int:
    """Runner workers solving at once under an executor."""
    client = getattr(chosen, "client", None)
    if client is None:
        return jobs or default_jobs()
    dask_workers = len(client.scheduler_info()["workers"])
    return dask_workers * (jobs or default_jobs())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_configuration_arguments(parser, default="fast")
    add_executor_arguments(parser)
    parser.set_defaults(executor="dask")
    parser.add_argument("--count", type=int, default=3000, help="puzzles per round (default 3000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per executor (default 3)")
    parser.add_argument("--jobs", type=int, default=None, help="runner workers (default: the cores)")
    parser.add_argument("--db", action="store_true", help="also write every run to a results database")
    parser.add_argument("--json", type=tables.json_path, metavar="PATH", help="also write every round, with provenance")
    args = parser.parse_args()
    started = load_average()
    solvers = configurations(args, ["fast"])
    puzzles = easy_puzzles(args.count)
    executors = {"local": executor(argparse.Namespace(executor="local", chunk_size=args.chunk_size),
                                   args.jobs),
                 args.executor: executor(args, args.jobs)}
    rows: dict[str, list[dict[str, float]]] = {name: [] for name in executors}
    described = {name: e.describe() for name, e in executors.items()}
    try:
        with tempfile.TemporaryDirectory() as folder:
            for chosen in executors.values():  # warm-up: load the backends in every worker
                measure(chosen, puzzles[: 20 * pool_size(chosen, args.jobs)], solvers,
                        pool_size(chosen, args.jobs), None)
            for round_number in range(args.rounds):
                for name, chosen in executors.items():
                    database = str(Path(folder) / f"{round_number}-{len(rows[name])}.sqlite") if args.db else None
                    rows[name].append(measure(chosen, puzzles, solvers, pool_size(chosen, args.jobs), database))
    finally:
        for chosen in executors.values():
            chosen.close()
    report(rows, args, described)
    if args.json:
        write_json(args.json, {"count": args.count, "rounds": rows, "executors": described}, started)
    return exit_status("wrong" if r["failed"] else "correct" for rs in rows.values() for r in rs)


def report(rows: dict[str, list[dict[str, float]]], args: argparse.Namespace,
           described: dict[str, str]) -> None:
    """The median round per executor, and the throughput ratio to local."""
    local = statistics.median(r["runs_per_s"] for r in rows["local"])
    print(f"{args.count} easy 9x9 puzzles x {args.solvers or 'fast'} per round, {args.rounds} rounds, "
          f"warm workers{', every run written to a results database' if args.db else ''}")
    print(f"{'executor':<22} {'jobs':>4} {'runs/s':>8} {'overhead ms/run':>16} {'own ms/run':>11} "
          f"{'vs local':>9}")
    for name, measured in rows.items():
        middle = sorted(measured, key=lambda r: r["runs_per_s"])[len(measured) // 2]
        print(f"{name:<22} {middle['jobs']:>4} {middle['runs_per_s']:>8.0f} {middle['overhead_ms']:>16.3f} "
              f"{middle['own_s'] / middle['runs'] * 1000:>11.3f} {middle['runs_per_s'] / local:>8.2f}x")
    for name, text in described.items():
        print(f"  {name}: {text}")


if __name__ == "__main__":
    sys.exit(main())
