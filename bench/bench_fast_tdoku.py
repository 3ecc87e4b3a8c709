"""fast beside tdoku, side by side in one process: each called per puzzle from Python.

    TDOKU_LIB=/path/to/libtdoku.so python bench/bench_fast_tdoku.py [--repeats 5]
        [--set puzzles/top95.txt --set puzzles/forum_hardest_1106.txt --set puzzles/17_clue.txt@3000]

tdoku (t-dillon/tdoku, BSD-2) is not packaged for pip or apt and nothing of it is kept
here: build its solver as a shared library yourself from its public source and give its
path with --tdoku-lib or TDOKU_LIB (without one the benchmark says so and stops, exit 0;
a path that does not load is an error, exit 2). Its C entry
``TdokuSolverDpllTriadSimd(puzzle, limit, configuration, solution, guesses)`` is called
through ctypes with the puzzle as 81 characters ('.' empty), limit 2.

Per puzzle, in turn, each contender solves it counting to two, --repeats times; the
fastest run counts and the table gives the mean of those per-puzzle bests. Contenders:
``fast.solve`` on a model built outside the clock (what a script calling fast per puzzle
pays; on a standard 9x9 grid that is the band kernel), the same with ``kernel='general'``
(the general kernel, for the before and after), ``tdoku`` through ctypes (its string
built outside the clock), and for reference ``fast.solve_batch`` on the whole set in one
call (per puzzle, best of --repeats whole calls). fast's answers are checked with
models.verify; all must prove every puzzle unique. Counts beside the times: each kernel's
own nodes (the band kernel's guesses, the general kernel's decisions) and tdoku's guesses.
A set given as FILE@N takes its first N puzzles.
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
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import tables

from models import Model, read_puzzles, verify
from solvers.backends import fast
from solvers.harness.results.provenance import load_average

SETS = ("top95.txt", "forum_hardest_1106.txt", "17_clue.txt@3000")
CONTENDERS = ("fast", "general", "tdoku")


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


def puzzle_set(spec: str) -> tuple[Path, int | None]:
    """FILE or FILE@N: the path (as given, else under puzzles/) and how many puzzles to take."""
    name, _, count = spec.partition("@")
    path = Path(name) if Path(name).exists() else ROOT / "puzzles" / name
    return path, int(count) if count else None


def measure(path: Path, count: int | None, repeats: int, tdoku: ctypes._CFuncPtr) -> list[str]:
    """One table row: per-puzzle bests of each contender, interleaved puzzle by puzzle."""
    puzzles = read_puzzles(path).puzzles[:count]
    models = [Model.from_puzzle(p) for p in puzzles]
    texts = [bytes("".join(str(v) if v else "." for v in p.givens), "ascii") for p in puzzles]
    best = {name: [float("inf")] * len(puzzles) for name in CONTENDERS}
    nodes = {name: [0] * len(puzzles) for name in CONTENDERS}
    solution, guessed = ctypes.create_string_buffer(82), ctypes.c_size_t(0)
    clock = time.perf_counter
    for _ in range(repeats):
        for index, (model, text) in enumerate(zip(models, texts, strict=True)):
            start = clock()
            result = fast.solve(model, max_solutions=2)
            middle = clock()
            general = fast.solve(model, max_solutions=2, kernel="general")
            later = clock()
            count_ = tdoku(text, 2, 0, solution, ctypes.byref(guessed))
            end = clock()
            for name, ran in (("fast", result), ("general", general)):
                if not (ran.unique and verify(puzzles[index], ran.solution).ok):
                    raise SystemExit(f"{path.name} puzzle {index}: {name} {ran.status}, not unique")
            if count_ != 1:
                raise SystemExit(f"{path.name} puzzle {index}: tdoku counted {count_}")
            for name, seconds in (("fast", middle - start), ("general", later - middle),
                                  ("tdoku", end - later)):
                best[name][index] = min(best[name][index], seconds)
            nodes["fast"][index], nodes["general"][index] = result.stats.nodes, general.stats.nodes
            nodes["tdoku"][index] = guessed.value
    batch_best = float("inf")
    for _ in range(repeats):
        start = clock()
        batch = fast.solve_batch(models[0], fast.givens_array(puzzles), max_solutions=2)
        batch_best = min(batch_best, clock() - start)
    if not (batch.counts == 1).all():
        raise SystemExit(f"{path.name}: solve_batch did not prove every puzzle unique")
    ms = {name: 1000 * statistics.mean(best[name]) for name in CONTENDERS}
    batch_ms = 1000 * batch_best / len(puzzles)
    return [path.stem, len(puzzles), f"{ms['fast']:.4f}", f"{ms['tdoku']:.4f}",
            f"{ms['fast'] / ms['tdoku']:.2f}", f"{ms['general']:.4f}",
            f"{ms['general'] / ms['tdoku']:.2f}", f"{batch_ms:.4f}", f"{batch_ms / ms['tdoku']:.2f}",
            *(f"{statistics.mean(nodes[name]):.1f}" for name in CONTENDERS)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tdoku-lib", default=os.environ.get("TDOKU_LIB"),
                        help="tdoku's shared library (default: $TDOKU_LIB)")
    parser.add_argument("--set", action="append", default=[], metavar="FILE[@N]",
                        help="9x9 puzzle files, each optionally with how many puzzles to take "
                             f"(default: {', '.join(SETS)})")
    parser.add_argument("--repeats", type=int, default=5, help="runs per puzzle; the fastest counts")
    parser.add_argument("--json", type=tables.json_path, metavar="PATH", help="also write the table, with provenance")
    args = parser.parse_args(argv)
    if not args.tdoku_lib:
        print("bench_fast_tdoku: no tdoku library given (--tdoku-lib or TDOKU_LIB); build "
              "tdoku's solver as a shared library from its public source to run this", file=sys.stderr)
        return 0
    tdoku = load_tdoku(args.tdoku_lib)
    fast.prepare(batch=True)
    load_before = load_average()
    rows = [measure(*puzzle_set(spec), args.repeats, tdoku) for spec in args.set or SETS]
    print(tables.shown("tdoku", rows, ["set", "puzzles", "fast ms", "tdoku ms", "fast / tdoku",
                                  "general ms", "general / tdoku", "fast batch ms",
                                  "batch / tdoku", "fast guesses", "general decisions",
                                  "tdoku guesses"], tablefmt="github"))
    print(f"\ncounting to two, per puzzle the fastest of {args.repeats} runs, mean over the set; "
          "fast (band kernel), fast kernel=general and tdoku interleaved puzzle by puzzle in "
          f"this process; load average {load_before} before, {load_average()} after")
    tables.save(args.json, load_before, repeats=args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
