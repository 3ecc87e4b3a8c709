"""What cpsat's _LeanCpModel saves per model build, measured interleaved in one process.

OR-tools' CpModel() attaches deprecated CamelCase aliases to every new instance (its
private ``_add_pre_pep8_methods``); cpsat's ``_LeanCpModel`` skips that. This times
``_cpsat.encode`` (and a bare model) with and without the override, alternating on the
same puzzles so that machine load hits both alike, and prints medians and the paired
saving. tests/test_cpsat.py fails loudly if OR-tools drops the hook.

    python bench/bench_cpsat_model.py [--puzzles puzzles/top95.txt] [--rounds 30]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ortools.sat.python import cp_model

from models import Model, read_puzzles
from solvers.backends import _cpsat


def measure(models: list[Model], rounds: int) -> dict[str, list[float]]:
    """Seconds per call: encode and bare construction, with ('lean') and without ('plain')."""
    lean = _cpsat._LeanCpModel
    times: dict[str, list[float]] = {"encode lean": [], "encode plain": [],
                                     "CpModel() lean": [], "CpModel() plain": []}
    try:
        for _ in range(rounds):
            for model in models:
                for name, cls in (("lean", lean), ("plain", cp_model.CpModel)):
                    _cpsat._LeanCpModel = cls  # encode looks the class up at call time
                    began = time.perf_counter()
                    _cpsat.encode(model)
                    times[f"encode {name}"].append(time.perf_counter() - began)
                    began = time.perf_counter()
                    cls()
                    times[f"CpModel() {name}"].append(time.perf_counter() - began)
    finally:
        _cpsat._LeanCpModel = lean
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", default="puzzles/top95.txt")
    parser.add_argument("--count", type=int, default=20, help="puzzles of the file to use")
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    models = [Model.from_puzzle(p) for p in read_puzzles(args.puzzles).puzzles[:args.count]]
    times = measure(models, args.rounds)
    for name, values in times.items():
        print(f"{name:16s} median {statistics.median(values) * 1e3:.3f} ms  "
              f"min {min(values) * 1e3:.3f} ms")
    saving = [p - q for p, q in zip(times["encode plain"], times["encode lean"])]
    print(f"paired saving per encode: median {statistics.median(saving) * 1e3:.3f} ms "
          f"({len(saving)} pairs)")


if __name__ == "__main__":
    main()
