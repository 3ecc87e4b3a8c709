"""The compiled backend's targets: microseconds per puzzle counting to two, and its compile time.

    python bench/bench_fast.py [--repeats 7] [--configs fast,fast:inference=singles]
                               [--set puzzles/top95.txt] [--compare mrv]
                               [--baseline /tmp/fast_before.py]

Part 1, compile: a fresh interpreter imports solvers.backends.fast (which compiles
nothing), then prepares the depth-first kernel, then the learning kernel, timing each
step; twice, first with an empty numba cache directory (the first use on a machine:
numba compiles) and then with that cache filled (every later process: it loads them).

Part 2, speed: in this process (already imported, so the compile is paid and excluded)
each configuration solves every puzzle counting to two, through the registry, so the
time is the backend's whole call (model tables, arrays, kernel, result). Configurations
alternate puzzle by puzzle and each puzzle's time is the fastest of --repeats runs, so a
busy machine's pauses are filtered out rather than averaged in; the table gives the
mean of those per-puzzle bests, with the process CPU time per puzzle beside it (on a
machine shared with other jobs the wall clock can exceed it). Every answer is checked
with models.verify and must prove the puzzle unique.

With --baseline FILE (an earlier fast.py copied out of the repository, e.g. with
``git show REV:solvers/backends/fast.py > /tmp/fast_before.py``) every configuration also
runs on that module, interleaved puzzle by puzzle in the same process, and a second table
gives each one's time now against before (ratio now / before) and both node counts.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import tables

from models import Model, read_puzzles, verify
from solvers import registry
from solvers.harness.engine import configs

DEFAULT_SETS = ("top95.txt", "forum_hardest_1106.txt", "hardest.txt", "16x16_forum_samples.txt")
STEPS = ("import time; t = time.perf_counter(); import solvers.backends.fast as fast\n"
         "print(time.perf_counter() - t); t = time.perf_counter(); fast.prepare()\n"
         "print(time.perf_counter() - t); t = time.perf_counter(); fast.prepare(learning='conflicts')\n"
         "print(time.perf_counter() - t)")


def compile_times() -> list[list[float]]:
    """Seconds to import fast, prepare its depth-first kernel, prepare its learning kernel:
    with an empty numba cache, then with the cache filled."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
        return [[float(line) for line in subprocess.run(
            [sys.executable, "-c", STEPS], env=env, cwd=ROOT, check=True, capture_output=True,
            text=True).stdout.split()] for _ in range(2)]


Entry = tuple[str, registry.Backend, dict]
"""A contender: its label, the backend that runs it, its options."""


def entries(chosen: list[configs.Configuration]) -> list[Entry]:
    return [(c.name, registry.get(c.backend), c.options_dict) for c in chosen]


def baseline_entries(path: Path, chosen: list[configs.Configuration]) -> list[Entry]:
    """The fast configurations run on an earlier copy of fast.py, labelled 'before:...'.

    The copy is loaded as a module of solvers.backends, so its relative imports resolve.
    """
    spec = importlib.util.spec_from_file_location("solvers.backends._fast_baseline", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"--baseline {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    backend = registry.Backend.from_function("before", module.solve, "fast before the change")
    return [(f"before:{c.name}", backend, c.options_dict) for c in chosen if c.backend == "fast"]


def race(models: list[Model], chosen: list[Entry], repeats: int
         ) -> dict[str, tuple[list[float], float, list[int]]]:
    """Per contender: each puzzle's best wall time, CPU seconds in all, nodes per puzzle."""
    best = {label: [float("inf")] * len(models) for label, _, _ in chosen}
    cpu = {label: 0.0 for label, _, _ in chosen}
    nodes: dict[str, list[int]] = {label: [0] * len(models) for label, _, _ in chosen}
    for _ in range(repeats):
        for index, model in enumerate(models):
            for label, backend, options in chosen:
                start_cpu = time.process_time()
                result = backend.solve(model, max_solutions=2, **options)
                cpu[label] += time.process_time() - start_cpu
                if not (result.unique and verify(model, result.solution).ok):
                    raise SystemExit(f"{label} did not prove puzzle {index} unique: {result.status}")
                best[label][index] = min(best[label][index], result.stats.wall_time)
                nodes[label][index] = result.stats.nodes or 0
    return {label: (best[label], cpu[label] / repeats, nodes[label]) for label in best}


def ratios(results: dict[str, dict[str, tuple[list[float], float, list[int]]]]) -> list[list]:
    """Rows of set, configuration, ms now, ms before, now / before, nodes now and before."""
    rows = []
    for set_name, by_label in results.items():
        for label, (best, _, nodes) in by_label.items():
            before = by_label.get(f"before:{label}")
            if before is None or label.startswith("before:"):
                continue
            now_ms, before_ms = 1000 * statistics.mean(best), 1000 * statistics.mean(before[0])
            rows.append([set_name, label, f"{now_ms:.4f}", f"{before_ms:.4f}",
                         f"{now_ms / before_ms:.2f}", f"{statistics.mean(nodes):.1f}",
                         f"{statistics.mean(before[2]):.1f}"])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", default="fast,fast:inference=singles,fast:inference=subsets,"
                        "fast:inference=subsets:branching=wdeg",
                        help="configurations to race (default: fast's inference rungs)")
    parser.add_argument("--compare", default="mrv", help="configurations run once alongside (default mrv)")
    parser.add_argument("--set", action="append", default=[], metavar="FILE", help="puzzle files")
    parser.add_argument("--repeats", type=int, default=7, help="runs per puzzle; the fastest counts")
    parser.add_argument("--no-compile", action="store_true", help="skip the compile-time part")
    parser.add_argument("--baseline", type=Path, metavar="FILE",
                        help="an earlier fast.py to race every fast configuration against")
    parser.add_argument("--json", type=tables.json_path, metavar="PATH", help="also write the tables, with provenance")
    args = parser.parse_args(argv)
    started = os.getloadavg()
    if not args.no_compile:
        for label, (load, plain, learning) in zip(("empty numba cache (compile)", "cache filled"),
                                                  compile_times(), strict=True):
            print(f"{label}: import fast {load:.2f} s, prepare() {plain:.2f} s, "
                  f"prepare(learning='conflicts') {learning:.2f} s")
        print()
    registry.get("fast").prepare({})
    raced = configs.parse(args.configs)
    contenders = entries(raced) + (baseline_entries(args.baseline, raced) if args.baseline else [])
    rows, results = [], {}
    for path in [Path(p) for p in args.set] or [ROOT / "puzzles" / s for s in DEFAULT_SETS]:
        models = [Model.from_puzzle(p) for p in read_puzzles(path).puzzles]
        for chosen, repeats in ((contenders, args.repeats),
                                (entries(configs.parse(args.compare)) if args.compare else [], 1)):
            timed = race(models, chosen, repeats)
            results.setdefault(path.stem, {}).update(timed)
            for label, (best, cpu, nodes) in timed.items():
                rows.append([path.stem, label, len(models), f"{1000 * statistics.mean(best):.4f}",
                             f"{1000 * statistics.median(best):.4f}", f"{1000 * max(best):.3f}",
                             f"{1000 * cpu / len(models):.4f}", f"{statistics.mean(nodes):.1f}",
                             repeats])
    print(tables.shown("speed", rows, headers=["set", "configuration", "puzzles", "mean ms (best of runs)",
                                  "median ms", "max ms", "cpu ms/puzzle", "mean nodes", "runs"],
                   tablefmt="github"))
    print("\ncounting to two; wall time of the backend call, per puzzle the fastest of its runs")
    if args.baseline:
        print(f"\nNow against before ({args.baseline}), interleaved in this process:\n")
        print(tables.shown("now against before", ratios(results),
                           headers=["set", "configuration", "now ms", "before ms", "now / before", "nodes now",
                                    "nodes before"], tablefmt="github"))
    tables.save(args.json, [round(value, 2) for value in started], repeats=args.repeats,
                baseline=str(args.baseline) if args.baseline else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
