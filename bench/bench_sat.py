"""Benchmark the SAT encodings with pycosat, and the sat backend against pycosat's example approach.

    python bench/bench_sat.py [--repeat 3] [--format github] [--example PATH/TO/sudoku.py]
                              [--solvers sat:encoding=minimal,ext=sat:encoding=extended] [--plugin SPEC]

Table 1: every encoding (or the --solvers configurations, written as in compare.py) on top95,
hardest and the 16x16 samples: mean variables and clauses, mean encode and solve time (ms per
puzzle), each solution verified.

Table 2: time per top95 puzzle of the default encoding next to a baseline that works
the way pycosat's published examples/sudoku.py does (the 11,745 clauses rebuilt in
Python for every puzzle, one unit clause per given, the grid read back through a set).
The baseline here is our own code written after that description; with --example the
example file itself (kept outside this repository) is loaded and its solve(grid) timed
as well. The methods alternate puzzle by puzzle, so machine noise hits all of them; the
best of --repeat rounds is kept.
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pycosat
import tables
from common import ROOT, add_configuration_arguments, configurations

from models import Grid, Model, Puzzle, read_puzzles, verify
from solvers import Status, registry
from solvers.encodings.cnf import ENCODINGS
from solvers.harness.engine.plugins import load_backend
from solvers.harness.results.provenance import load_average
from solvers.harness.tasks import Configuration

SETS = ("top95.txt", "hardest.txt", "16x16_forum_samples.txt")


def load(name: str) -> list[Puzzle]:
    batch = read_puzzles(ROOT / "puzzles" / name)
    if batch.errors:
        raise SystemExit(f"{name}: {batch.errors[0]}")
    return list(batch.puzzles)


def compare_encodings(sets: dict[str, list[Puzzle]], repeat: int,
                      chosen: list[Configuration]) -> list[list]:
    """One row per (set, configuration): sizes and the best-of-repeat mean times; a wrong or
    failed answer stops the benchmark with exit status 1."""
    rows = []
    for name, puzzles in sets.items():
        models = [Model.from_puzzle(p) for p in puzzles]
        for ref in chosen:
            backend, options = load_backend(ref), dict(ref.options)
            backend.solve(models[0], **options)  # one-off geometry clauses, outside the timing
            best_encode = best_solve = float("inf")
            for _ in range(repeat):
                encode_time = solve_time = 0.0
                variables, clauses = [], []
                for model in models:
                    result = backend.solve(model, **options)
                    if result.status is not Status.SOLVED or not verify(model, result.solution).ok:
                        raise SystemExit(f"{ref.name} failed on {model.puzzle.source}: {result}")
                    encode_time += result.stats.encode_time or 0.0
                    solve_time += result.stats.solve_time or result.stats.wall_time
                    variables.append(result.stats.variables or 0)
                    clauses.append(result.stats.clauses or 0)
                best_encode = min(best_encode, encode_time / len(models))
                best_solve = min(best_solve, solve_time / len(models))
            rows.append([name.removesuffix(".txt"), ref.name, len(models),
                         round(statistics.mean(variables)), round(statistics.mean(clauses)),
                         best_encode * 1e3, best_solve * 1e3, (best_encode + best_solve) * 1e3])
    return rows


# --- the baseline: pycosat's example approach, re-expressed (9x9 only) -------------------

def _var(row: int, col: int, value: int) -> int:
    """The example's own numbering (the same numbers as cnf.Numbering(9)), kept as the example
    writes it so that the baseline costs what the example costs."""
    return 81 * (row - 1) + 9 * (col - 1) + value


def example_clauses() -> list[list[int]]:
    """The 11,745 clauses, rebuilt from scratch on every call as the example does."""
    clauses = []
    for row in range(1, 10):
        for col in range(1, 10):
            clauses.append([_var(row, col, d) for d in range(1, 10)])
            for d in range(1, 10):
                for e in range(d + 1, 10):
                    clauses.append([-_var(row, col, d), -_var(row, col, e)])

    def distinct(cells: list[tuple[int, int]]) -> None:
        for i, (r1, c1) in enumerate(cells):
            for r2, c2 in cells[i + 1:]:
                for d in range(1, 10):
                    clauses.append([-_var(r1, c1, d), -_var(r2, c2, d)])

    for i in range(1, 10):
        distinct([(i, j) for j in range(1, 10)])
        distinct([(j, i) for j in range(1, 10)])
    for top in (1, 4, 7):
        for left in (1, 4, 7):
            distinct([(top + k % 3, left + k // 3) for k in range(9)])
    return clauses


def example_approach(givens: Grid) -> Grid:
    clauses = example_clauses()
    clauses += [[_var(c // 9 + 1, c % 9 + 1, v)] for c, v in enumerate(givens) if v]
    answer = pycosat.solve(clauses)
    if not isinstance(answer, list):
        raise RuntimeError(f"pycosat answered {answer!r}")
    true = set(answer)
    return tuple(next(d for d in range(1, 10) if _var(c // 9 + 1, c % 9 + 1, d) in true)
                 for c in range(81))


def load_example(path: Path) -> Callable[[Grid], Grid]:
    """pycosat's examples/sudoku.py from a path outside the repository: its solve(grid) in place."""
    spec = importlib.util.spec_from_file_location("pycosat_sudoku_example", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module: ModuleType = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def run(givens: Grid) -> Grid:
        grid = [list(givens[r * 9:(r + 1) * 9]) for r in range(9)]
        module.solve(grid)
        return tuple(v for row in grid for v in row)
    return run


def compare_with_baseline(puzzles: list[Puzzle], repeat: int,
                          example: Callable[[Grid], Grid] | None) -> tuple[list[list], float]:
    """Per-puzzle times of each method, alternating puzzle by puzzle; and the target ratio."""
    default = ENCODINGS[0]
    methods: dict[str, Callable[[Puzzle], Grid]] = {
        f"sat backend ({default}, geometry clauses cached)":
            lambda p: registry.get("sat").solve(Model.from_puzzle(p)).solution,
        "baseline: example's approach (clauses rebuilt per puzzle)":
            lambda p: example_approach(p.givens),
    }
    if example is not None:
        methods["pycosat examples/sudoku.py itself"] = lambda p: example(p.givens)
    registry.get("sat").solve(Model.from_puzzle(puzzles[0]))  # build the cached clauses before timing
    best = {name: float("inf") for name in methods}
    for _ in range(repeat):
        totals = dict.fromkeys(methods, 0.0)
        for puzzle in puzzles:
            for name, method in methods.items():
                start = time.perf_counter()
                grid = method(puzzle)
                totals[name] += time.perf_counter() - start
                if not verify(puzzle, grid).ok:
                    raise SystemExit(f"{name} gave a wrong grid for {puzzle.source}")
        for name, total in totals.items():
            best[name] = min(best[name], total / len(puzzles))
    ours = best[next(iter(methods))]
    rows = [[name, per * 1e3, per / ours] for name, per in best.items()]
    baseline = best["baseline: example's approach (clauses rebuilt per puzzle)"]
    return rows, baseline / ours


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best is kept (default 3)")
    parser.add_argument("--format", default="simple", help="tabulate format, e.g. github (default simple)")
    parser.add_argument("--example", type=Path, help="path to pycosat's examples/sudoku.py (outside the repo)")
    parser.add_argument("--json", type=tables.json_path, metavar="PATH", help="also write both tables, with provenance")
    add_configuration_arguments(parser, default="sat with every encoding")
    args = parser.parse_args(argv)
    started = load_average()
    chosen = configurations(args, [f"sat:encoding={encoding}" for encoding in ENCODINGS])
    sets = {name: load(name) for name in SETS}
    example = load_example(args.example) if args.example else None

    print(f"pycosat {pycosat.__version__}, Python {sys.version.split()[0]}, best of {args.repeat}\n")
    print("SAT encodings (means per puzzle; times in ms; every solution verified)\n")
    print(tables.shown("encodings", compare_encodings(sets, args.repeat, chosen),
                       ["set", "configuration", "puzzles", "variables", "clauses",
                        "encode ms", "solve ms", "total ms"],
                       tablefmt=args.format, floatfmt=".2f"))
    rows, ratio = compare_with_baseline(sets["top95.txt"], args.repeat, example)
    print("\ntop95, side by side (ms per puzzle, including encoding and reading the grid back)\n")
    print(tables.shown("side by side", rows, ["method", "ms per puzzle", "x sat backend"],
                       tablefmt=args.format, floatfmt=".2f"))
    print(f"\nsat backend is {ratio:.1f}x faster per top95 puzzle than the example's approach "
          f"(target: at least 3x)")
    tables.save(args.json, started, repeat=args.repeat, ratio=ratio)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
