"""Benchmark the pysat backend: engines x encodings x warm/fresh, and what propagation alone settles.

    python bench/bench_pysat.py [--engines cadical195,glucose4,minisat22] [--all-engines]
                                [--tables search,study] [--sets top95.txt ...] [--timeout 10]

Table "search": every engine and encoding, warm (one solver per geometry, givens as
assumptions) and fresh, counting to two on each set; mean / median / max ms per puzzle
and mean decisions and conflicts. Configurations alternate puzzle by puzzle, so machine
noise hits them all alike; the first puzzle of a set warms the solver outside the timing.

Table "study" (Lynce and Ouaknine, "Sudoku as a SAT Problem", 2006): for each encoding,
how many puzzles unit propagation (``inference=up``) and failed-literal probing
(``inference=failed-literal``) settle with no search, and the share of open cells they
fix. A puzzle counts as settled when every cell is fixed and the grid verifies. These
counts do not depend on the machine or the engine.

Every answer is checked with models.verify; a wrong one exits 1.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

import tables
from common import ROOT

from models import Puzzle, read_puzzles, verify
from solvers import Status, registry
from solvers.backends import _pysat, pysat
from solvers.harness.results.provenance import load_average

SETS = ("top95.txt", "forum_hardest_1106.txt", "16x16")
SIXTEEN = ("16x16_gecode_janko.txt", "16x16_forum_samples.txt", "tsathis_samples_16x16.txt",
           "16x16_forum_blue_ultimate.txt")
"""The '16x16' set: every bundled 16x16 collection of published puzzles (75)."""
BACKEND = registry.get("pysat")


def load(name: str) -> list[Puzzle]:
    names = SIXTEEN if name == "16x16" else (name,)
    puzzles: list[Puzzle] = []
    for file in names:
        batch = read_puzzles(ROOT / "puzzles" / file)
        if batch.errors:
            raise SystemExit(f"{file}: {batch.errors[0]}")
        puzzles += batch.puzzles
    return puzzles


def checked(puzzle: Puzzle, options: dict, timeout: float):
    result = BACKEND.solve(puzzle, max_solutions=2, time_limit=timeout, **options)
    for solution in result.solutions:
        if not verify(puzzle, solution).ok:
            raise SystemExit(f"pysat {options} returned a wrong grid for {puzzle.source}")
    return result


def search_table(sets: dict[str, list[Puzzle]], engines: list[str], timeout: float) -> list[list]:
    configs = [{"engine": e, "encoding": enc, "warm": warm} for e in engines
               for enc in pysat.ENCODINGS for warm in ((True, False) if enc != "simplified" else (False,))]
    rows = []
    for name, puzzles in sets.items():
        times = {i: [] for i in range(len(configs))}
        decisions = {i: [] for i in range(len(configs))}
        conflicts = {i: [] for i in range(len(configs))}
        unsolved = {i: 0 for i in range(len(configs))}
        for options in configs:
            checked(puzzles[0], options, timeout)          # load the warm solver outside the timing
        for puzzle in puzzles:
            for i, options in enumerate(configs):
                start = time.perf_counter()
                result = checked(puzzle, options, timeout)
                times[i].append(time.perf_counter() - start)
                decisions[i].append(result.stats.nodes or 0)
                conflicts[i].append(result.stats.conflicts or 0)
                unsolved[i] += result.status is not Status.SOLVED
        best = min(statistics.mean(t) for t in times.values())
        for i, options in enumerate(configs):
            mean = statistics.mean(times[i])
            rows.append([name, options["engine"], options["encoding"], "warm" if options["warm"] else "fresh",
                         f"{len(puzzles) - unsolved[i]}/{len(puzzles)}", mean * 1e3,
                         statistics.median(times[i]) * 1e3, max(times[i]) * 1e3,
                         statistics.mean(decisions[i]), statistics.mean(conflicts[i]), mean / best])
    return rows


def study_table(sets: dict[str, list[Puzzle]], timeout: float) -> list[list]:
    rows = []
    for name, puzzles in sets.items():
        open_cells = [sum(1 for v in p.givens if not v) for p in puzzles]
        for encoding in pysat.ENCODINGS:
            row = [name, encoding, len(puzzles)]
            for inference in ("up", "failed-literal"):
                results = [checked(p, {"encoding": encoding, "inference": inference}, timeout)
                           for p in puzzles]
                settled = sum(r.status in (Status.SOLVED, Status.UNSAT) for r in results)
                timeouts = sum(r.status is Status.TIMEOUT for r in results)
                share = statistics.mean((r.stats.fixed_cells or 0) / max(o, 1)
                                        for r, o in zip(results, open_cells))
                ms = statistics.mean(r.stats.wall_time for r in results) * 1e3
                row += [f"{settled}" + (f" ({timeouts} timeouts)" if timeouts else ""),
                        f"{share:.1%}", ms]
            rows.append(row)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engines", default="cadical195,glucose4,minisat22")
    parser.add_argument("--all-engines", action="store_true", help="every engine of the wheel")
    parser.add_argument("--tables", default="search,study")
    parser.add_argument("--sets", nargs="+", default=list(SETS))
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--format", default="github")
    parser.add_argument("--json", type=tables.json_path, metavar="PATH", help="also write the tables, with provenance")
    args = parser.parse_args()
    started = load_average()
    engines = list(_pysat.ENGINES) if args.all_engines else args.engines.split(",")
    unknown = [e for e in engines if e not in _pysat.ENGINES]
    if unknown:
        print(f"bench_pysat.py: error: unknown engine(s) {unknown}; valid: {', '.join(_pysat.ENGINES)}",
              file=sys.stderr)
        return 2
    sets = {name.removesuffix(".txt"): load(name) for name in args.sets}
    chosen = args.tables.split(",")
    if "search" in chosen:
        print(tables.shown("search", search_table(sets, engines, args.timeout), floatfmt=".2f", tablefmt=args.format,
                           headers=["set", "engine", "encoding", "solver", "solved", "mean ms", "median ms",
                                "max ms", "mean decisions", "mean conflicts", "time / fastest"]))
        print()
    if "study" in chosen:
        print(tables.shown("study", study_table(sets, args.timeout), floatfmt=".2f", tablefmt=args.format,
                           headers=["set", "encoding", "puzzles", "UP settles", "UP fixes", "UP ms",
                                "failed literals settle", "FL fixes", "FL ms"]))
    tables.save(args.json, started, timeout=args.timeout, engines=engines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
