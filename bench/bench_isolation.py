"""What isolating plugins costs: a plugin's tasks on workers kept for that plugin (the
harness's choice) against a fresh worker for every plugin task.

    python bench/bench_isolation.py [--puzzles puzzles/top95.txt] [--count 40] [--jobs 2] [--rounds 3]

Each mode runs the same tasks (the trusted reference plugin and the built-in mrv on
each puzzle, interleaved as compare.py orders them) through run_tasks, several rounds
side by side in alternation; prints the median wall seconds per mode, their ratio, and
the workers each mode started (a machine-independent count).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from models import read_puzzles
from solvers.harness.engine import runner
from solvers.harness.tasks import Configuration, Task


def measure(tasks: list[Task], jobs: int, fresh: bool) -> tuple[float, int]:
    """Wall seconds and workers started for one pass over the tasks."""
    started = 0
    spawn = runner._Pool._spawn

    def counting(self: runner._Pool, key: str) -> runner._Worker:
        nonlocal started
        started += 1
        return spawn(self, key)

    runner._Pool._spawn = counting  # type: ignore[method-assign]  # counting spawns for the measurement
    try:
        begin = time.perf_counter()
        outcomes = runner.run_tasks(tasks, jobs=jobs, fresh_plugin_workers=fresh)
        elapsed = time.perf_counter() - begin
    finally:
        runner._Pool._spawn = spawn  # type: ignore[method-assign]  # counting spawns for the measurement
    assert all(o.status.value == "solved" for o in outcomes), [o.message for o in outcomes][:3]
    return elapsed, started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--puzzles", default=str(ROOT / "puzzles" / "top95.txt"))
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    puzzles = read_puzzles(args.puzzles).puzzles[:args.count]
    reference = Configuration("reference", plugin=f"{ROOT / 'tests' / 'plugins' / 'reference.py'}:solve",
                          backend="reference")
    mrv = Configuration("mrv", backend="mrv")
    tasks = [Task(solver, puzzle, 1, 30.0) for puzzle in puzzles for solver in (mrv, reference)]
    times: dict[bool, list[float]] = {False: [], True: []}
    workers: dict[bool, int] = {}
    for _ in range(args.rounds):
        for fresh in (False, True):
            elapsed, workers[fresh] = measure(tasks, args.jobs, fresh)
            times[fresh].append(elapsed)
    kept, fresh = statistics.median(times[False]), statistics.median(times[True])
    print(f"{len(tasks)} tasks ({len(puzzles)} puzzles x mrv + reference plugin), {args.jobs} jobs, "
          f"{args.rounds} rounds")
    print(f"workers kept per plugin: {kept:6.2f} s median, {workers[False]} workers started")
    print(f"fresh worker per task:   {fresh:6.2f} s median, {workers[True]} workers started")
    print(f"fresh / kept: {fresh / kept:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
