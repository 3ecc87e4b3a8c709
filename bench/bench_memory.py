"""Whose memory is a run's peak? Each way of measuring it, against an outside measurement,
and what each costs (issue 34, item 3).

    python bench/bench_memory.py [--jobs 2] [--rounds 3] [--json bench/memory.json]

Accuracy. A sequence of runs as one worker could be handed them (cpsat, then mrv and sat on
the same 9x9; sat's extended encoding on a 25x25, then plain sat and mrv on 9x9s and the
25x25...). The outside measurement of each run is the resident high-water mark (VmHWM in
/proc/PID/status) of a fresh interpreter that imports the toolkit and what a worker
imports, solves that one puzzle through the registry and exits: no harness code measures
it (``bare_mb``: the same without the worker's imports, some 8 MB less). Each way of
measuring runs the
sequence through the worker's own code (worker.solve: the high-water mark reset before the
call and read after it), in processes as that way allots them:

* shared: one process for every run (main before issue 34: one kind of worker for all
  built-in backends);
* per configuration: a process per configuration;
* per configuration and grid size: a process per (configuration, grid side), the harness's
  choice (tasks.Task.key);
* baseline: one process for every run, each run's peak taken as its growth over the
  process's resident size before the call plus a baseline measured once per
  configuration (a fresh process's resident size after solving a 4x4);
* fresh per run: a process per run.

Cost. The same sweep (hardest.txt and the first 4 generated 16x16 puzzles, mrv, sat,
cpsat and dlx) through the real runner, in alternation for --rounds rounds: shared workers
(Task.key as before), the harness's workers per configuration and grid size, and a fresh
worker per run; the median wall seconds (ratios are what carry to another machine) and the
workers each started (a count that does not depend on the machine).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import write_json
from models import read_puzzles
from solvers.harness.engine import runner
from solvers.harness.engine.configs import parse_one
from solvers.harness.engine.plugins import load_backend
from solvers.harness.engine.worker import solve
from solvers.harness.tasks import Task

Step = tuple[str, str, int]
"""A run: the configuration (compare.py's syntax), the puzzle file under puzzles/, its index."""

SEQUENCE: tuple[Step, ...] = (
    ("cpsat", "hardest.txt", 0),
    ("mrv", "hardest.txt", 0),
    ("sat", "hardest.txt", 0),
    ("sat:encoding=extended", "generated_25x25.txt", 0),
    ("sat", "hardest.txt", 1),
    ("mrv", "generated_25x25.txt", 0),
    ("mrv", "hardest.txt", 1),
    ("sat", "generated_25x25.txt", 0),
    ("sat", "hardest.txt", 2),
    ("dlx", "hardest.txt", 2),
)
BASELINE_PUZZLE = ("small_4x4.txt", 0)
MODES = ("shared", "per configuration", "per configuration and grid size", "baseline", "fresh per run")
COST_CONFIGURATIONS = ("mrv", "sat", "cpsat", "dlx")


def high_water_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as handle:
        return next(int(line.split()[1]) for line in handle if line.startswith("VmHWM:")) / 1024


def resident_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as handle:
        return next(int(line.split()[1]) for line in handle if line.startswith("VmRSS:")) / 1024


def puzzle(file: str, index: int) -> Any:
    return read_puzzles(ROOT / "puzzles" / file).puzzles[index]


def outside(step: Step, *, worker_imports: bool = True) -> float:
    """The step's peak as a fresh interpreter shows it (VmHWM at its end), solving through the
    registry with no harness code measuring; with ``worker_imports`` it first imports what a
    worker has imported (multiprocessing and the worker's modules, some 8 MB), so that the two
    compare like for like."""
    configuration = parse_one(step[0])
    imports = "import multiprocessing.connection, solvers.harness.engine.worker; " if worker_imports else ""
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); from models import read_puzzles; "
            f"from solvers import registry; {imports}"
            "p = read_puzzles(sys.argv[2]).puzzles[int(sys.argv[3])]; "
            "r = registry.get(sys.argv[4]).solve(p, **json.loads(sys.argv[5])); "
            "assert r.status.value == 'solved', r; "
            "print(next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')) / 1024)")
    done = subprocess.run([sys.executable, "-c", code, str(ROOT), str(ROOT / "puzzles" / step[1]),
                           str(step[2]), configuration.backend_name, json.dumps(configuration.options_dict)],
                          capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


def child(steps: Sequence[Step]) -> list[dict[str, float]]:
    """Run the steps in this process through the worker's code: each step's peak (the
    high-water mark reset before the call) and the resident size just before it."""
    found = []
    for text, file, index in steps:
        configuration = parse_one(text)
        backend = load_backend(configuration)
        task = Task(configuration, puzzle(file, index), max_solutions=1, time_limit=120.0)
        gc.collect()
        before = resident_mb()
        outcome = solve(backend, task)
        assert outcome["status"] == "solved", outcome
        found.append({"peak": outcome["peak_memory_mb"], "before": before, "after": resident_mb()})
    return found


def in_processes(groups: Sequence[Sequence[int]]) -> dict[int, dict[str, float]]:
    """Each group of steps (by number) run in a process of its own, in order: step -> readings."""
    found: dict[int, dict[str, float]] = {}
    for group in groups:
        steps = [SEQUENCE[number] for number in group]
        done = subprocess.run([sys.executable, __file__, "--child", json.dumps(steps)],
                              capture_output=True, text=True, check=True)
        found.update(zip(group, json.loads(done.stdout.splitlines()[-1])))
    return found


def grouped(key: Any) -> list[list[int]]:
    """The steps' numbers grouped by key(step), each group in the sequence's order."""
    groups: dict[Any, list[int]] = {}
    for number, step in enumerate(SEQUENCE):
        groups.setdefault(key(step), []).append(number)
    return list(groups.values())


def side(step: Step) -> int:
    return puzzle(step[1], step[2]).geometry.n


def accuracy() -> list[dict[str, Any]]:
    """Every step's outside peak and its peak by each way of measuring (MB)."""
    everything = list(range(len(SEQUENCE)))
    shared = in_processes([everything])
    baselines = {text: in_processes_baseline(text) for text in {step[0] for step in SEQUENCE}}
    modes = {
        "shared": {n: r["peak"] for n, r in shared.items()},
        "per configuration": {n: r["peak"] for n, r in in_processes(grouped(lambda s: s[0])).items()},
        "per configuration and grid size": {
            n: r["peak"] for n, r in in_processes(grouped(lambda s: (s[0], side(s)))).items()},
        "baseline": {n: baselines[SEQUENCE[n][0]] + max(0.0, r["peak"] - r["before"]) for n, r in shared.items()},
        "fresh per run": {n: r["peak"] for n, r in in_processes([[n] for n in everything]).items()},
    }
    rows = []
    for number, step in enumerate(SEQUENCE):
        reference = outside(step)
        rows.append({"step": number + 1, "configuration": step[0], "puzzle": f"{step[1]} #{step[2] + 1}",
                     "bare_mb": round(outside(step, worker_imports=False), 1),
                     "outside_mb": round(reference, 1),
                     **{mode: round(modes[mode][number], 1) for mode in MODES}})
    return rows


def in_processes_baseline(text: str) -> float:
    """A configuration's baseline: a fresh process's resident size after solving a 4x4."""
    done = subprocess.run([sys.executable, __file__, "--child", json.dumps([[text, *BASELINE_PUZZLE]])],
                          capture_output=True, text=True, check=True)
    return float(json.loads(done.stdout.splitlines()[-1])[0]["after"])


@contextmanager
def keyed(mode: str) -> Iterator[dict[str, int]]:
    """The runner set up for one way of allotting workers; yields the count of workers started."""
    counts = {"workers": 0}
    spawn, done, key = runner._Pool._spawn, runner._Pool._done, Task.key

    def counting(self: Any, key: str) -> Any:
        counts["workers"] += 1
        return spawn(self, key)

    def retiring(self: Any, worker: Any, answer: Any, task: Any) -> None:
        done(self, worker, answer, task)
        worker.retire = True

    runner._Pool._spawn = counting
    if mode == "shared":
        Task.key = property(lambda task: "")
    elif mode == "fresh per run":
        runner._Pool._done = retiring
    try:
        yield counts
    finally:
        runner._Pool._spawn, runner._Pool._done, Task.key = spawn, done, key


def cost(jobs: int, rounds: int) -> dict[str, dict[str, float]]:
    """Median wall seconds and workers started per way of allotting workers, over rounds run
    in alternation."""
    puzzles = read_puzzles(ROOT / "puzzles" / "hardest.txt").puzzles + \
        read_puzzles(ROOT / "puzzles" / "generated_16x16.txt").puzzles[:4]
    configurations = [parse_one(text) for text in COST_CONFIGURATIONS]
    tasks = [Task(configurations[(number + k) % len(configurations)], each, 1, 60.0)
             for number, each in enumerate(puzzles) for k in range(len(configurations))]  # rotated, as run does
    modes = ("shared", "per configuration and grid size", "fresh per run")
    times: dict[str, list[float]] = {mode: [] for mode in modes}
    workers: dict[str, int] = {}
    for _ in range(rounds):
        for mode in modes:
            with keyed(mode) as counts:
                begin = time.perf_counter()
                outcomes = runner.run_tasks(tasks, jobs=jobs)
                times[mode].append(time.perf_counter() - begin)
            assert all(o.status.value == "solved" for o in outcomes), [o.message for o in outcomes][:3]
            workers[mode] = counts["workers"]
    shared = statistics.median(times["shared"])
    return {mode: {"runs": len(tasks), "median_s": round(statistics.median(times[mode]), 2),
                   "ratio_to_shared": round(statistics.median(times[mode]) / shared, 2),
                   "workers": workers[mode]} for mode in modes}


def show(rows: list[dict[str, Any]], costs: dict[str, dict[str, float]]) -> None:
    from tabulate import tabulate  # noqa: PLC0415 - 12 MB: the children that measure never import it
    print(tabulate(rows, headers="keys", tablefmt="github"))
    print()
    for mode in MODES:
        ratios = [row[mode] / row["outside_mb"] for row in rows]
        print(f"{mode:32} ratio to outside {min(ratios):.2f} - {max(ratios):.2f}, "
              f"{sum(0.8 <= r <= 1.5 for r in ratios)}/{len(ratios)} runs within 0.8-1.5x")
    print()
    print(tabulate([{"workers allotted": mode, **figures} for mode, figures in costs.items()],
                   headers="keys", tablefmt="github"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "memory.json")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(child([tuple(step) for step in json.loads(args.child)])))
        return 0
    load = [round(value, 2) for value in os.getloadavg()]
    rows = accuracy()
    costs = cost(args.jobs, args.rounds)
    show(rows, costs)
    write_json(args.json, {"accuracy": rows, "cost": costs}, load)
    return 0


if __name__ == "__main__":
    sys.exit(main())
