"""fast beside tdoku, side by side in one process: each called per puzzle from Python.

    TDOKU_LIB=/path/to/libtdoku.so python bench/bench_fast_tdoku.py [--repeats 3]
        [--set puzzles/top95.txt --set puzzles/forum_hardest_1106.txt]

tdoku (t-dillon/tdoku, BSD-2) is not packaged for pip or apt and nothing of it is kept
here: build its solver as a shared library yourself from its public source and give its
path with --tdoku-lib or TDOKU_LIB (without one the benchmark says so and stops, exit 0;
a path that does not load is an error, exit 2). Its C entry
``TdokuSolverDpllTriadSimd(puzzle, limit, configuration, solution, guesses)`` is called
through ctypes with the puzzle as 81 characters ('.' empty), limit 2.

Per puzzle, in turn, each contender solves it counting to two, --repeats times; the
fastest run counts and the table gives the mean of those per-puzzle bests. Contenders:
``fast.solve`` on a model built outside the clock (what a script calling fast per puzzle
pays), ``tdoku`` through ctypes (its string built outside the clock), and for reference
``fast.solve_batch`` on the whole set in one call (per puzzle, best of --repeats). fast's
answers are checked with models.verify; both must prove every puzzle unique. Counts beside
the times: fast's decisions, tdoku's guesses.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tabulate import tabulate

from models import Model, read_puzzles, verify
from solvers.backends import fast

SETS = ("top95.txt", "forum_hardest_1106.txt")


def load_tdoku(path: str) -> ctypes._CFuncPtr:
    """tdoku's solve entry from its shared library; SystemExit(2) if it will not load."""
    try:
        entry = ctypes.CDLL(path).TdokuSolverDpllTriadSimd
    except (OSError, AttributeError) as error:
        print(f"--tdoku-lib {path}: not a tdoku library ({error})", file=sys.stderr)
        raise SystemExit(2) from None
    entry.restype = ctypes.c_size_t
    entry.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_char_p,
                      ctypes.POINTER(ctypes.c_size_t)]
    return entry


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tdoku-lib", default=os.environ.get("TDOKU_LIB"),
                        help="tdoku's shared library (default: $TDOKU_LIB)")
    parser.add_argument("--set", action="append", default=[], metavar="FILE", help="9x9 puzzle files")
    parser.add_argument("--repeats", type=int, default=3, help="runs per puzzle; the fastest counts")
    args = parser.parse_args(argv)
    if not args.tdoku_lib:
        print("bench_fast_tdoku: no tdoku library given (--tdoku-lib or TDOKU_LIB); build "
              "tdoku's solver as a shared library from its public source to run this", file=sys.stderr)
        return 0
    tdoku = load_tdoku(args.tdoku_lib)
    fast.prepare(batch=True)
    rows = []
    for path in [Path(p) for p in args.set] or [ROOT / "puzzles" / s for s in SETS]:
        puzzles = read_puzzles(path).puzzles
        models = [Model.from_puzzle(p) for p in puzzles]
        texts = [bytes("".join(str(v) if v else "." for v in p.givens), "ascii") for p in puzzles]
        best = {"fast": [float("inf")] * len(puzzles), "tdoku": [float("inf")] * len(puzzles)}
        nodes, guesses = [0] * len(puzzles), [0] * len(puzzles)
        solution, guessed = ctypes.create_string_buffer(82), ctypes.c_size_t(0)
        for _ in range(args.repeats):
            for index, (model, text) in enumerate(zip(models, texts, strict=True)):
                start = time.perf_counter()
                result = fast.solve(model, max_solutions=2)
                middle = time.perf_counter()
                count = tdoku(text, 2, 0, solution, ctypes.byref(guessed))
                end = time.perf_counter()
                if not (result.unique and verify(puzzles[index], result.solution).ok) or count != 1:
                    raise SystemExit(f"{path.name} puzzle {index}: fast {result.status}, "
                                     f"tdoku counted {count}")
                best["fast"][index] = min(best["fast"][index], middle - start)
                best["tdoku"][index] = min(best["tdoku"][index], end - middle)
                nodes[index], guesses[index] = result.stats.nodes, guessed.value
        batch_best = float("inf")
        for _ in range(args.repeats):
            start = time.perf_counter()
            batch = fast.solve_batch(models[0], fast.givens_array(puzzles), max_solutions=2)
            batch_best = min(batch_best, time.perf_counter() - start)
        if not (batch.counts == 1).all():
            raise SystemExit(f"{path.name}: solve_batch did not prove every puzzle unique")
        fast_ms, tdoku_ms = (1000 * statistics.mean(best[k]) for k in ("fast", "tdoku"))
        rows.append([path.stem, len(puzzles), f"{fast_ms:.4f}", f"{tdoku_ms:.4f}",
                     f"{fast_ms / tdoku_ms:.2f}", f"{1000 * batch_best / len(puzzles):.4f}",
                     f"{1000 * batch_best / len(puzzles) / tdoku_ms:.2f}",
                     f"{statistics.mean(nodes):.1f}", f"{statistics.mean(guesses):.1f}"])
    print(tabulate(rows, headers=["set", "puzzles", "fast ms", "tdoku ms", "fast / tdoku",
                                  "fast batch ms", "batch / tdoku", "fast decisions",
                                  "tdoku guesses"], tablefmt="github"))
    print(f"\ncounting to two, per puzzle the fastest of {args.repeats} runs, mean over the set; "
          "fast and tdoku interleaved puzzle by puzzle in this process")
    return 0


if __name__ == "__main__":
    sys.exit(main())
