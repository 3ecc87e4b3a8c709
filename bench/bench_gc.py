"""Garbage collection inside timed calls: the worker's three possible policies side by side.

    python bench/bench_gc.py [--puzzles puzzles/top95.txt] [--rounds 2] [--solvers mrv,sat,fast,cpsat]

One process plays the worker: it loads every backend (cpsat's OR-tools among them, whose
objects make a full collection take tens of milliseconds), then runs each puzzle on each
backend through the worker's own ``solve`` under each policy in turn, interleaved (policy
order rotated per puzzle), so a change of load on a shared machine hits all three:

    plain         the collector left alone (before issue 22)
    pause         gc.collect() before the call, gc.disable() during, re-enabled after
    freeze+pause  as pause, with everything loaded so far frozen (gc.freeze) first, as the
                  worker now does after loading a backend

Per backend and policy: collections that started inside a timed call (a count that does
not depend on the machine), the median and maximum run time, runs over 10 ms (what would
be timeouts at --timeout 0.01), and the median cost per run outside the timed span (the
collection before it).
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from models import read_puzzles
from solvers.harness.engine import worker
from solvers.harness.engine.plugins import load_backend
from solvers.harness.tasks import Configuration, Task

POLICIES = ("plain", "pause", "freeze+pause")
PAUSED = worker.collector_paused


class Counted:
    """A backend whose calls are marked, so collections inside them can be counted."""

    inside = False
    collections = 0

    def __init__(self, backend: Any):
        self.backend = backend

    def load(self) -> Callable[..., Any]:
        function = self.backend.load()

        def call(*args: Any, **kwargs: Any) -> Any:
            Counted.inside = True
            try:
                return function(*args, **kwargs)
            finally:
                Counted.inside = False
        return call


def count_collections(phase: str, _info: dict[str, Any]) -> None:
    if phase == "start" and Counted.inside:
        Counted.collections += 1


@contextlib.contextmanager
def policy(name: str) -> Iterator[None]:
    """The worker's solve() under one collector policy."""
    worker.collector_paused = PAUSED if name != "plain" else contextlib.nullcontext  # type: ignore[assignment]  # each policy swapped in for the measurement
    if name == "freeze+pause":
        gc.freeze()
    try:
        yield
    finally:
        if name == "freeze+pause":
            gc.unfreeze()
        worker.collector_paused = PAUSED  # type: ignore[assignment]  # each policy swapped in for the measurement


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--puzzles", default=str(ROOT / "puzzles" / "top95.txt"))
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--solvers", default="mrv,sat,fast,cpsat")
    args = parser.parse_args()
    puzzles = read_puzzles(args.puzzles).puzzles
    names = args.solvers.split(",")
    backends = {name: Counted(load_backend(Configuration(name, backend=name))) for name in names}
    for name, backend in backends.items():  # warm: imports, compiled kernels, caches
        worker.solve(backend, Task(Configuration(name, backend=name), puzzles[0]))  # type: ignore[arg-type]  # a registered backend, as the worker holds it
    gc.callbacks.append(count_collections)
    results: dict[tuple[str, str], dict[str, list[float]]] = {
        (n, p): {"time": [], "outside": [], "collections": []} for n in names for p in POLICIES}
    for round_ in range(args.rounds):
        for number, puzzle in enumerate(puzzles):
            shift = (number + round_) % len(POLICIES)
            for chosen in POLICIES[shift:] + POLICIES[:shift]:
                with policy(chosen):
                    for name, backend in backends.items():
                        task = Task(Configuration(name, backend=name), puzzle, time_limit=10.0)
                        Counted.collections = 0
                        start = time.perf_counter()
                        outcome = worker.solve(backend, task)  # type: ignore[arg-type]  # a registered backend, as the worker holds it
                        total = time.perf_counter() - start
                        entry = results[(name, chosen)]
                        entry["time"].append(outcome["time_s"])
                        entry["outside"].append(total - outcome["time_s"])
                        entry["collections"].append(Counted.collections)
    print(f"{len(puzzles)} puzzles x {args.rounds} rounds per backend and policy; backends loaded "
          f"in one process: {', '.join(names)}")
    print(f"{'backend':8} {'policy':13} {'collections in calls':>20} {'median ms':>10} {'max ms':>8} "
          f"{'runs > 10 ms':>12} {'outside ms':>11}")
    for (name, chosen), entry in results.items():
        times = entry["time"]
        print(f"{name:8} {chosen:13} {int(sum(entry['collections'])):>20} "
              f"{1000 * statistics.median(times):>10.3f} {1000 * max(times):>8.2f} "
              f"{sum(t > 0.01 for t in times):>12} {1000 * statistics.median(entry['outside']):>11.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
