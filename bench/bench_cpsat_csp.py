"""Benchmark of the cpsat and csp backends: encodings, workers, enumeration, and a baseline.

Run from the repository root:

    python bench/bench_cpsat_csp.py                  # every part
    python bench/bench_cpsat_csp.py --parts baseline,encodings --repeats 5

Parts:
  baseline     cpsat against the approach of OR-tools' published Sudoku sample,
               side by side on each top95 puzzle (our own code, labelled baseline:
               an integer variable 1..n per cell, AllDifferent per row, column and
               box, each given as a linear equality, default solver settings)
  encodings    the two cpsat encodings on top95, hardest and the 16x16 samples:
               encode and solve time apart, branches, conflicts, sizes
  workers      cpsat with 1, 2, 4 and 8 search workers
  enumeration  max_solutions=2: one enumerating search with a solution callback
               against re-solving with a blocking constraint
  presolve     cpsat's tuned settings against CP-SAT's defaults, one worker
  csp          both csp encodings on every top95 puzzle (alldiff: a minute or more)

Times are the minimum over --repeats runs of each puzzle, runs interleaved so
that load on a shared machine hits every contender alike. Ratios are measured
in the same run; counts (branches, conflicts, variables) do not depend on the
machine.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from ortools.sat.python import cp_model

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import tables

from models import Model, read_puzzles, verify
from solvers import Result, Status, registry
from solvers.backends import _cpsat, cpsat
from solvers.harness.results.provenance import load_average

PARTS = ("baseline", "encodings", "workers", "enumeration", "presolve", "csp")
SETS = ("top95.txt", "hardest.txt", "16x16_forum_samples.txt")

Run = Callable[[Model], tuple[float, float]]  # returns (encode seconds, solve seconds)


def models_of(name: str) -> list[Model]:
    batch = read_puzzles(ROOT / "puzzles" / name)
    if batch.errors:
        raise SystemExit(f"{name}: {batch.errors[0]}")
    return [Model.from_puzzle(p) for p in batch.puzzles]


def checked(model: Model, result: Result, what: str) -> Result:
    """Fail loudly on a wrong or missing answer: a fast wrong solver is no result."""
    if result.status is not Status.SOLVED or not verify(model, result.solution).ok:
        raise SystemExit(f"{what}: {result.status} {result.message}")
    return result


def sample_baseline(model: Model, workers: int | None = None) -> tuple[float, float]:
    """The published sample's approach, written here: no domain reduction, default settings."""
    start = time.perf_counter()
    cp = cp_model.CpModel()
    n = model.n
    cells = [cp.new_int_var(1, n, f"cell{c}") for c in range(model.num_cells)]
    geometry = model.puzzle.geometry
    for unit in (*geometry.rows, *geometry.cols, *geometry.boxes):
        cp.add_all_different([cells[c] for c in unit])
    for cell, value in enumerate(model.givens):
        if value:
            cp.add(cells[cell] == value)
    solver = cp_model.CpSolver()
    if workers is not None:
        solver.parameters.num_workers = workers
    encoded = time.perf_counter()
    status = solver.solve(cp)
    solved = time.perf_counter()
    grid = tuple(solver.value(v) for v in cells)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE) or not verify(model, grid).ok:
        raise SystemExit("baseline failed")
    return encoded - start, solved - encoded


def ours(**options) -> Run:
    def run(model: Model) -> tuple[float, float]:
        result = checked(model, registry.get("cpsat").solve(model, **options), f"cpsat {options}")
        return result.stats.encode_time or 0.0, result.stats.solve_time or 0.0
    return run


def race(models: list[Model], contenders: dict[str, Run], repeats: int) -> dict[str, list[tuple]]:
    """Per contender, per puzzle: the (encode, solve) of the fastest of `repeats` runs."""
    best: dict[str, list[tuple]] = {name: [] for name in contenders}
    for model in models:
        runs: dict[str, list[tuple]] = {name: [] for name in contenders}
        for _ in range(repeats):
            for name, run in contenders.items():
                runs[name].append(run(model))
        for name in contenders:
            best[name].append(min(runs[name], key=sum))
    return best


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def mean_totals(models: list[Model], contenders: dict, repeats: int) -> dict:
    """Per contender, the mean over the puzzles of the best total (encode + solve) seconds."""
    best = race(models, contenders, repeats)
    return {k: sum(map(sum, t)) / len(t) for k, t in best.items()}


def pair_row(name: str, encoding: str, models: list[Model], contenders: dict[str, Run],
             repeats: int) -> list:
    """A table row: the two contenders' mean ms and how many times faster the first is."""
    totals = mean_totals(models, contenders, repeats)
    first, second = contenders
    return [name, encoding, ms(totals[first]), ms(totals[second]),
            f"{totals[second] / totals[first]:.2f}x"]


def timing_rows(best: dict[str, list[tuple]], reference: str | None = None) -> list[list]:
    rows = []
    ref_total = sum(map(sum, best[reference])) if reference else None
    for name, times in best.items():
        k = len(times)
        encode = sum(e for e, _ in times) / k
        solve = sum(s for _, s in times) / k
        total = encode + solve
        row = [name, ms(encode), ms(solve), ms(total), ms(max(map(sum, times)))]
        if reference:
            row.append(f"{ref_total / sum(map(sum, times)):.2f}x")
        rows.append(row)
    return rows


HEAD = ["contender", "encode ms", "solve ms", "total ms/puzzle", "max ms"]


def part_baseline(repeats: int) -> None:
    models = models_of("top95.txt")
    contenders = {
        "baseline: sample approach, default workers": sample_baseline,
        "baseline: sample approach, 8 workers": lambda m: sample_baseline(m, 8),
        "cpsat boolean (default)": ours(encoding="boolean"),
        "cpsat integer": ours(encoding="integer"),
    }
    best = race(models, contenders, repeats)
    print("\n## cpsat against the published sample's approach (top95, 95 puzzles)\n")
    print(tables.shown("baseline", timing_rows(best, "baseline: sample approach, default workers"),
                   [*HEAD, "speed-up vs baseline"], tablefmt="github"))


def part_encodings(repeats: int) -> None:
    print("\n## cpsat encodings (defaults: 1 worker, tuned settings)\n")
    rows = []
    for name in SETS:
        models = models_of(name)
        for encoding in cpsat.ENCODINGS:
            results = []
            for model in models:
                tries = [checked(model, registry.get("cpsat").solve(model, encoding=encoding), encoding)
                         for _ in range(repeats)]
                results.append(min(tries, key=lambda r: r.stats.encode_time + r.stats.solve_time))
            k = len(results)
            mean = lambda f, results=results, k=k: sum(f(r) for r in results) / k
            rows.append([name, encoding, k, ms(mean(lambda r: r.stats.encode_time)),
                         ms(mean(lambda r: r.stats.solve_time)),
                         f"{mean(lambda r: r.stats.nodes):.0f}", f"{mean(lambda r: r.stats.conflicts):.1f}",
                         f"{mean(lambda r: r.stats.variables):.0f}", f"{mean(lambda r: r.stats.constraints):.0f}"])
    print(tables.shown("encodings", rows, ["puzzles", "encoding", "n", "encode ms", "solve ms", "branches",
                          "conflicts", "variables", "constraints"], tablefmt="github"))


def part_workers(repeats: int) -> None:
    print("\n## cpsat search workers (mean total ms per puzzle)\n")
    rows = []
    for name in ("top95.txt", "16x16_forum_samples.txt"):
        models = models_of(name)
        for encoding in cpsat.ENCODINGS:
            contenders = {w: ours(encoding=encoding, workers=w) for w in (1, 2, 4, 8)}
            totals = mean_totals(models, contenders, repeats)
            rows.append([name, encoding] + [ms(totals[w]) for w in contenders])
    print(tables.shown("workers", rows, ["puzzles", "encoding", "1 worker", "2", "4", "8"], tablefmt="github"))


def blocking_enumeration(model: Model, limit: int, encoding: str) -> tuple[float, float]:
    """The alternative to the callback: solve, forbid the solution found, solve again."""
    start = time.perf_counter()
    built = _cpsat.encode(model, encoding)
    cp = built.cp
    # the decision variables are the model's non-constant variables, in order
    decision = [cp.get_int_var_from_proto_index(i) for i, v in enumerate(cp.proto.variables)
                if not (len(v.domain) == 2 and v.domain[0] == v.domain[1])]
    encoded = time.perf_counter()
    found = 0
    while found < limit:
        solver = cp_model.CpSolver()
        for key, value in {**_cpsat.TUNED_PARAMETERS, "num_workers": 1}.items():
            setattr(solver.parameters, key, value)
        if solver.solve(cp) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        found += 1
        values = [solver.value(v) for v in decision]
        if encoding == "integer":
            differs = [cp.new_bool_var("") for _ in decision]
            for var, value, flag in zip(decision, values, differs):
                cp.add(var != value).only_enforce_if(flag)
            cp.add_bool_or(differs)
        else:
            cp.add_bool_or([v.negated() for v, value in zip(decision, values) if value])
    return encoded - start, time.perf_counter() - encoded


def part_enumeration(repeats: int) -> None:
    print("\n## max_solutions=2: callback enumeration against blocking re-solve (mean ms per puzzle)\n")
    multiple = models_of("special_9x9_multiple_solutions.txt")[3:7]
    rows = []
    for name, models in (("top95 (unique)", models_of("top95.txt")), ("2-10 solutions", multiple)):
        for encoding in cpsat.ENCODINGS:
            contenders = {"callback": ours(encoding=encoding, max_solutions=2),
                          "blocking": lambda m, e=encoding: blocking_enumeration(m, 2, e)}
            rows.append(pair_row(name, encoding, models, contenders, repeats))
    print(tables.shown("enumeration", rows, ["puzzles", "encoding", "callback ms", "blocking ms", "callback faster by"],
                   tablefmt="github"))


def part_presolve(repeats: int) -> None:
    print("\n## cpsat tuned settings against CP-SAT defaults (1 worker, mean ms per puzzle)\n")
    defaults = {k: getattr(cp_model.CpSolver().parameters, k) for k in _cpsat.TUNED_PARAMETERS}
    rows = []
    for name in SETS:
        models = models_of(name)
        for encoding in cpsat.ENCODINGS:
            contenders = {"tuned": ours(encoding=encoding),
                          "defaults": ours(encoding=encoding, parameters=defaults)}
            rows.append(pair_row(name, encoding, models, contenders, repeats))
    print(tables.shown("presolve", rows, ["puzzles", "encoding", "tuned ms", "CP-SAT defaults ms", "tuned faster by"],
                   tablefmt="github"))


def part_csp(_repeats: int) -> None:
    from solvers.backends import (  # noqa: PLC0415 - the other parts do not need python-constraint
        csp,
    )

    print("\n## csp on every top95 puzzle (one run each, seconds; encode and solve)\n")
    models = models_of("top95.txt")
    rows = []
    for encoding in csp.ENCODINGS:
        times = []
        for index, model in enumerate(models):
            result = checked(model, registry.get("csp").solve(model, encoding=encoding), f"csp {encoding} #{index}")
            times.append(result.stats.encode_time + result.stats.solve_time)
            print(f"  csp {encoding} top95 #{index}: {times[-1]:.2f} s", file=sys.stderr, flush=True)
        slowest = max(range(len(times)), key=times.__getitem__)
        rows.append([encoding, f"{len(times)}/{len(models)}", f"{sum(times):.1f}",
                     f"{statistics.mean(times):.3f}", f"{statistics.median(times):.3f}",
                     f"{times[slowest]:.2f} (#{slowest})", sum(t > 10 for t in times)])
    print(tables.shown("csp", rows, ["encoding", "solved", "total s", "mean s", "median s", "max s (puzzle)",
                          "over 10 s"], tablefmt="github"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"comma-separated, from: {', '.join(PARTS)}")
    parser.add_argument("--repeats", type=int, default=3, help="runs per puzzle; the fastest counts")
    parser.add_argument("--json", type=tables.json_path, metavar="PATH",
                        help="also write every part's table, with provenance")
    args = parser.parse_args(argv)
    started = load_average()
    chosen = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = set(chosen) - set(PARTS)
    if unknown:
        parser.error(f"unknown parts {sorted(unknown)}; valid: {', '.join(PARTS)}")
    print(f"ortools {metadata.version('ortools')}, python-constraint2 "
          f"{metadata.version('python-constraint2')}; repeats={args.repeats}; {os.cpu_count()} cpus")
    for part in chosen:
        globals()[f"part_{part}"](args.repeats)
    tables.save(args.json, started, repeats=args.repeats, parts=chosen)


if __name__ == "__main__":
    main()
