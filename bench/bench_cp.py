"""The constraint backends (minizinc, asp, choco) against cpsat, sat and fast: start-up cost,
and the study of docs/results.md.

    python bench/bench_cp.py startup [--repeat 5]     # import + first solve, fresh interpreters
    python bench/bench_cp.py study OUT_FOLDER         # the compare.py runs of the study
    python bench/bench_cp.py table OUT_FOLDER/*.json  # their summary table (Markdown)

``startup`` starts a fresh interpreter per backend and repetition, and times importing the
toolkit's backend, its first solve of a 9x9 (loading the solver library, or starting the
minizinc program) and a second solve, side by side in one run; medians over the repetitions
and each backend's first solve as a multiple of cpsat's. ``study`` runs ``compare.py run`` on
the 9x9, 16x16 and killer sets with the configurations below and saves each run's JSON;
``table`` prints the median time, mean search counters and MiniZinc's flattening share
from them. Times depend on the machine and its load (say it with the figures); the
counters do not.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from common import ROOT, compare

BACKENDS = ("choco", "asp", "minizinc", "cpsat", "sat", "fast")
CONFIGURATIONS = ("minizinc,mzn-bounds=minizinc:propagation=bounds,mzn-pairwise=minizinc:propagation=pairwise,"
                  "asp,asp-extended=asp:encoding=extended,choco,choco-bc=choco:consistency=BC,cpsat,sat,fast")
SETS = {
    "nine": ("puzzles/top95.txt", "puzzles/hardest.txt"),
    "sixteen": ("puzzles/16x16_forum_samples.txt", "puzzles/tsathis_samples_16x16.txt",
                "puzzles/generated_16x16.txt"),
    "killer": ("puzzles/generated_killer_9x9.txt", "puzzles/killer_teaching.txt"),
}
"""Study part -> its puzzle files."""
LIMIT = "20"
"""Seconds per run in the study (wall clock)."""

_TIMER = """
import sys, time
start = time.perf_counter()
from solvers import registry
from models import read_puzzles
backend = registry.get(sys.argv[1])
backend.load()
puzzles = read_puzzles(sys.argv[2]).puzzles
loaded = time.perf_counter()
backend.solve(puzzles[0], max_solutions=2)
first = time.perf_counter()
backend.solve(puzzles[1], max_solutions=2)
second = time.perf_counter()
print(loaded - start, first - loaded, second - first)
"""


def startup(repeat: int) -> int:
    """Median seconds to import, solve a first and a second 9x9, per backend, side by side."""
    rows: dict[str, list[tuple[float, ...]]] = {name: [] for name in BACKENDS}
    for _ in range(repeat):
        for name in BACKENDS:  # interleaved, so a change in the machine's load hits all alike
            done = subprocess.run([sys.executable, "-c", _TIMER, name, str(ROOT / "puzzles" / "hardest.txt")],
                                  cwd=ROOT, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                print(f"{name}: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
                return 1
            rows[name].append(tuple(float(x) for x in done.stdout.split()))
    cpsat = statistics.median(r[1] for r in rows["cpsat"])
    print(f"| backend | import s | first solve s | second solve s | first solve / cpsat's | ({repeat} runs each) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, runs in rows.items():
        load, first, second = (statistics.median(r[i] for r in runs) for i in range(3))
        print(f"| {name} | {load:.3f} | {first:.3f} | {second:.3f} | {first / cpsat:.2f} | |")
    return 0


def study(folder: Path) -> int:
    """The study's compare.py runs, each saved as JSON in folder; the first failing status."""
    folder.mkdir(parents=True, exist_ok=True)
    status = 0
    for part, files in SETS.items():
        command = ["run", *files, "--solvers", CONFIGURATIONS, "--unique", "--timeout", LIMIT,
                   "--format", "markdown", "--json", str(folder / f"{part}.json")]
        print("python compare.py " + " ".join(command), flush=True)
        status = status or compare(*command, cwd=ROOT).returncode
    return status


def table(files: list[Path]) -> int:
    """One row per (puzzle set, configuration): solved, median s, mean nodes, mean conflicts,
    mean flattening (encode) s."""
    print("| set | configuration | solved | median s | mean nodes | mean conflicts | mean encode s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for file in files:
        runs = json.loads(file.read_text())["runs"]
        groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for run in runs:
            groups.setdefault((Path(str(run["file"])).name, str(run["configuration"])), []).append(run)
        for (name, configuration), chosen in groups.items():
            solved = sum(run["category"] == "correct" for run in chosen)
            print(f"| {name} | {configuration} | {solved}/{len(chosen)} | "
                  f"{statistics.median(float(run['time_s']) for run in chosen):.4f} | "
                  f"{_mean(chosen, 'nodes')} | {_mean(chosen, 'conflicts')} | {_mean_encode(chosen)} |")
    return 0


def _mean(runs: list[dict[str, Any]], field: str) -> str:
    values = [float(run[field]) for run in runs if isinstance(run.get(field), (int, float))]
    return f"{statistics.mean(values):,.1f}" if values else "-"


def _mean_encode(runs: list[dict[str, Any]]) -> str:
    values = [float(run["stats"]["encode_time"]) for run in runs
              if isinstance(run.get("stats"), dict) and "encode_time" in run["stats"]]
    return f"{statistics.mean(values):.4f}" if values else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("startup").add_argument("--repeat", type=int, default=5)
    commands.add_parser("study").add_argument("folder", type=Path)
    commands.add_parser("table").add_argument("files", type=Path, nargs="+")
    args = parser.parse_args()
    if args.command == "startup":
        return startup(args.repeat)
    if args.command == "study":
        return study(args.folder)
    return table(args.files)


if __name__ == "__main__":
    sys.exit(main())
