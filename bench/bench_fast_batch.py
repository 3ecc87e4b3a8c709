"""fast's batch entry: puzzles per second when a whole file is solved in one compiled call.

    python bench/bench_fast_batch.py [--set puzzles/17_clue.txt] [--repeats 3]
                                     [--max-solutions 2] [--sample 2000]

Each file is read once (its puzzles must share one geometry); fast.solve_batch then solves
all of them in one call, counting each to --max-solutions, --repeats times, and the best
time counts (one core: the call runs in this process's one thread). Every answer is then
checked with models.verify (outside the timing), and each puzzle must have the count a
per-puzzle fast.solve gives on a sample of --sample puzzles, with the same decisions, so the
batch walks the same trees. The per-puzzle call is timed beside it on that sample.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np

from models import Model, read_puzzles, verify
from solvers.backends import fast


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", action="append", default=[], metavar="FILE", help="puzzle files")
    parser.add_argument("--repeats", type=int, default=3, help="batch calls; the fastest counts")
    parser.add_argument("--max-solutions", type=int, default=2, choices=(1, 2))
    parser.add_argument("--sample", type=int, default=2000,
                        help="puzzles also solved one call each, to compare (default 2000)")
    args = parser.parse_args(argv)
    fast.prepare(batch=True)
    failures = 0
    for path in [Path(p) for p in args.set] or [ROOT / "puzzles" / "17_clue.txt"]:
        puzzles = read_puzzles(path).puzzles
        model = Model.from_puzzle(puzzles[0])
        givens = fast.givens_array(puzzles)
        best = best_cpu = float("inf")
        for _ in range(args.repeats):
            start, start_cpu = time.perf_counter(), time.process_time()
            batch = fast.solve_batch(model, givens, max_solutions=args.max_solutions)
            best = min(best, time.perf_counter() - start)
            best_cpu = min(best_cpu, time.process_time() - start_cpu)
        for index, puzzle in enumerate(puzzles):
            solution = tuple(batch.solutions[index].tolist())
            if batch.counts[index] < 1 or not verify(puzzle, solution).ok:
                print(f"{path.name} puzzle {index}: no verified solution", file=sys.stderr)
                failures += 1
        one_by_one, same = [], 0
        for index in range(min(args.sample, len(puzzles))):
            single = Model.from_puzzle(puzzles[index])
            start = time.perf_counter()
            result = fast.solve(single, max_solutions=args.max_solutions)
            one_by_one.append(time.perf_counter() - start)
            same += (len(result.solutions), result.stats.nodes) == (batch.counts[index],
                                                                    batch.nodes[index])
        sample = len(one_by_one)
        print(f"{path.name}: {len(puzzles)} puzzles in {best:.3f} s (best of {args.repeats}): "
              f"{len(puzzles) / best:,.0f} puzzles/s, {1e6 * best / len(puzzles):.2f} us each "
              f"(CPU: {len(puzzles) / best_cpu:,.0f} puzzles/s); "
              f"counting to {args.max_solutions}; counts "
              f"{dict(zip(*(a.tolist() for a in np.unique(batch.counts, return_counts=True)), strict=True))}; "
              f"mean decisions {batch.nodes.mean():.2f}")
        print(f"  per-puzzle fast.solve on the first {sample}: "
              f"{1e6 * statistics.mean(one_by_one):.1f} us each (model built outside the clock); "
              f"same count and decisions as the batch: {same} of {sample}")
        failures += sample - same
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
