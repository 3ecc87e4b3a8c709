"""End-to-end runs a second of ``compare.py run`` with one fast backend, this checkout side by
side with another (issue 36 item 5: at least 2,000 runs a second for ``fast`` on the 17-clue
set, every answer verified).

    python bench/bench_run_rate.py --baseline /tmp/base [--puzzles 5000] [--rounds 3]
                                   [--solvers fast] [--file puzzles/17_clue.txt]

``--baseline`` is another checkout of the toolkit (``git archive main | tar -x -C /tmp/base``),
run with this interpreter. Each round runs ``compare.py run FILE --solvers fast --format csv``
in a fresh process for both checkouts, in alternating order, on the first N puzzles of the file
and on the first J alone (J = the cores this process may use: one puzzle per worker, so both
runs start as many workers); every run's category is read back from the CSV. Per checkout:

    end to end  = N / wall of the N-puzzle run (start-up included: imports, workers, numba load)
    steady      = (N - J) / (wall of the N-puzzle run - wall of the J-puzzle run)
    CPU ms/run  = (CPU of the process tree, parent and workers, over the N-puzzle run - over the
                  J-puzzle run) / (N - J); split into the parent's own (compare.py) and its
                  workers' (its reaped children), as each compare.py reports them on exit

The median round is shown, with this checkout's ratio to the baseline, and the load average
before and after (the figures move with the load; the ratios, measured side by side, less).
Exit status 1 if a run of this checkout is not correct.
"""
from __future__ import annotations

import argparse
import csv
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tables
from common import ROOT, first_puzzles, write_json

USAGE = """import resource, runpy, sys
path = sys.argv[1]
sys.argv = sys.argv[1:]
try:
    runpy.run_path(path, run_name="__main__")
finally:
    own, workers = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    sys.stderr.write(f"\\nCPU-SPLIT {own.ru_utime + own.ru_stime} {workers.ru_utime + workers.ru_stime}\\n")
"""
"""compare.py run as a script, saying on exit its own CPU seconds and its reaped children's."""


def timed(tree: Path, puzzles: Path, solvers: str) -> tuple[float, tuple[float, float], list[str]]:
    """(wall s, CPU s of compare.py and of its workers, each run's category) of one compare.py run."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", USAGE, str(tree / "compare.py"), "run", str(puzzles),
                           "--solvers", solvers, "--format", "csv"],
                          cwd=tree, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"{tree}: compare.py exited {done.returncode}: {done.stderr[-2000:]}")
    split = done.stderr.rsplit("CPU-SPLIT ", 1)[1].split()
    return wall, (float(split[0]), float(split[1])), _categories(tree, puzzles, solvers) if done.returncode else []


def _categories(tree: Path, puzzles: Path, solvers: str) -> list[str]:
    """The categories of the runs that were not correct (the run is repeated with --csv)."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "runs.csv"
        subprocess.run([sys.executable, str(tree / "compare.py"), "run", str(puzzles), "--solvers", solvers,
                        "--csv", str(out)], cwd=tree, capture_output=True, check=False)
        rows = csv.DictReader(io.StringIO(out.read_text()))
        return [row["category"] for row in rows if row["category"] != "correct"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="another checkout of the toolkit")
    parser.add_argument("--puzzles", type=int, default=5000, help="puzzles per run (default 5000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--solvers", default="fast", help="the configuration (default fast)")
    parser.add_argument("--file", type=Path, default=ROOT / "puzzles" / "17_clue.txt")
    parser.add_argument("--json", type=tables.json_path, metavar="PATH", help="also write every round, with provenance")
    args = parser.parse_args()
    trees = {"this": ROOT, "baseline": args.baseline.resolve()}
    lines = first_puzzles(args.file.read_text().splitlines(), args.puzzles)
    rows: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    load = os.getloadavg()
    failed: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        many, few = Path(folder) / "many.txt", Path(folder) / "few.txt"
        jobs = len(os.sched_getaffinity(0))
        many.write_text("\n".join(lines) + "\n")
        few.write_text("\n".join(lines[:jobs]) + "\n")
        for tree in trees.values():  # warm-up: bytecode, numba's cache
            timed(tree, few, args.solvers)
        for round_number in range(args.rounds):
            order = list(trees.items())[:: 1 if round_number % 2 == 0 else -1]
            for name, tree in order:
                start, start_cpu, _ = timed(tree, few, args.solvers)
                wall, cpu, bad = timed(tree, many, args.solvers)
                failed += bad if name == "this" else []
                steady = max(1, len(lines) - jobs)
                parent, workers = ((cpu[k] - start_cpu[k]) / steady for k in (0, 1))
                rows[name].append({"wall": wall, "cpu": parent + workers, "parent": parent, "workers": workers,
                                   "start": start, "end_to_end": len(lines) / wall,
                                   "steady": steady / max(1e-9, wall - start)})
    report(rows, len(lines), args, load, os.getloadavg())
    if args.json:
        write_json(args.json, {"puzzles": len(lines), "file": args.file.name, "solvers": args.solvers,
                               "baseline": str(args.baseline), "rounds": rows}, [round(value, 2) for value in load])
    if failed:
        print(f"not correct: {len(failed)} runs ({', '.join(sorted(set(failed)))})")
    return 1 if failed else 0


def report(rows: dict[str, list[dict[str, float]]], count: int, args: argparse.Namespace,
           load_before: tuple[float, ...], load_after: tuple[float, ...]) -> None:
    """The median round of each checkout, and this one's ratio to the baseline."""
    def middle(name: str, key: str) -> float:
        return statistics.median(row[key] for row in rows[name])

    print(f"compare.py run: {count} puzzles of {args.file.name} x {args.solvers}, {args.rounds} rounds "
          f"(median shown); load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    print(f"{'checkout':<10} {'end to end runs/s':>18} {'steady runs/s':>14} {'start-up s':>11} "
          f"{'CPU ms/run':>11} {'parent':>7} {'workers':>8}")
    for name in rows:
        print(f"{name:<10} {middle(name, 'end_to_end'):>18.0f} {middle(name, 'steady'):>14.0f} "
              f"{middle(name, 'start'):>11.2f} {middle(name, 'cpu') * 1000:>11.3f} "
              f"{middle(name, 'parent') * 1000:>7.3f} {middle(name, 'workers') * 1000:>8.3f}")
    ratios = [this["steady"] / base["steady"] for this, base in zip(rows["this"], rows["baseline"])]
    print(f"this / baseline, steady runs/s: {statistics.median(ratios):.2f}x "
          f"(rounds: {', '.join(f'{r:.2f}' for r in ratios)})")


if __name__ == "__main__":
    sys.exit(main())
