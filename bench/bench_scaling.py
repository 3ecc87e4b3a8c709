"""How each method's cost grows with the grid size: every available backend on 4x4 to 25x25.

    python bench/bench_scaling.py [--solvers mrv,cpsat:workers=1] [--plugin SPEC] [--sizes 4,9,16,25] [--per-size 10]
                                  [--time-limit 60] [--json bench/scaling.json] [--plot bench/scaling.png]

Each backend runs in a worker process of the harness (solvers/harness/engine/runner.py), one
puzzle at a time; a run that is not back within the time limit (plus the harness's
grace) is killed with its worker and counted as a timeout (at the limit), so backends
that cannot be interrupted are bounded too. Every answer is checked with models.verify.
Prints a table (tabulate) of mean time and mean nodes/conflicts per backend and size, saves
every run as JSON (timeouts and errors included), and plots time against size on a log scale (matplotlib).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from common import (
    ROOT,
    add_configuration_arguments,
    add_executor_arguments,
    configurations,
    executor,
    exit_status,
    write_json,
)

from models import Puzzle, read_puzzles, verify
from solvers import registry
from solvers.harness.engine.executors import Executor
from solvers.harness.tasks import Configuration, Outcome, Task

SETS = {4: "generated_4x4.txt", 9: "generated_9x9.txt", 16: "generated_16x16.txt",
        25: "generated_25x25.txt"}


@dataclass
class Run:
    """One backend on one puzzle: what happened and what it cost."""

    backend: str
    size: int
    puzzle: int
    status: str           # solved, unsat, timeout, error, wrong
    time: float
    givens: int = 0
    nodes: int | None = None
    conflicts: int | None = None
    message: str = ""


def run_backend(ref: Configuration, sets: dict[int, list[Puzzle]], time_limit: float,
                chosen: Executor) -> list[Run]:
    """Every puzzle of every size with one backend, smallest size first, one at a time in a
    worker process of the harness (killed and replaced if it overruns the limit)."""
    flat = [(size, index, puzzle) for size, puzzles in sets.items()
            for index, puzzle in enumerate(puzzles, start=1)]
    runs: list[Run] = []
    name = ref.name

    def record(position: int, outcome: Outcome) -> None:
        size, index, puzzle = flat[position]
        status = str(getattr(outcome.status, "value", outcome.status))
        if status == "solved" and not (outcome.solutions and verify(puzzle, outcome.solutions[0]).ok):
            status = "wrong"
        runs.append(Run(name, size, index, status, outcome.time_s, puzzle.num_givens,
                        outcome.stats.get("nodes"), outcome.stats.get("conflicts"), outcome.message))
        print(f"  {name:9} {size:2}x{size:<2} #{index:<3} {status:7} {outcome.time_s:8.3f} s",
              file=sys.stderr, flush=True)

    chosen.run([Task(ref, puzzle, time_limit=time_limit) for _, _, puzzle in flat], record)
    return runs


def summarise(runs: list[Run], time_limit: float) -> list[list[object]]:
    """Rows: size, mean share of cells given, backend, solved/total, timeouts, mean time
    (timeouts at the limit), nodes, conflicts."""
    rows = []
    keys = sorted({(r.backend, r.size) for r in runs}, key=lambda k: (k[1], k[0]))
    for backend, size in keys:
        mine = [r for r in runs if r.backend == backend and r.size == size]
        solved = [r for r in mine if r.status == "solved"]
        timeouts = sum(r.status == "timeout" for r in mine)
        others = len(mine) - len(solved) - timeouts
        times = [min(r.time, time_limit) if r.status != "timeout" else time_limit for r in mine]
        mean_time = statistics.fmean(times)
        nodes = [r.nodes for r in solved if r.nodes is not None]
        conflicts = [r.conflicts for r in solved if r.conflicts is not None]
        filled = statistics.fmean(r.givens for r in mine) / (size * size)
        rows.append([f"{size}x{size}", f"{filled:.0%}", backend, f"{len(solved)}/{len(mine)}", timeouts, others,
                     f"{'>=' if timeouts else ''}{mean_time:.4f}",
                     f"{statistics.fmean(nodes):.0f}" if nodes else "-",
                     f"{statistics.fmean(conflicts):.0f}" if conflicts else "-"])
    return rows


def spread(puzzles: list[Puzzle], count: int) -> list[Puzzle]:
    """``count`` puzzles evenly spaced through the list (a set mixes kinds in blocks); 0 = all."""
    if not count or count >= len(puzzles):
        return list(puzzles)
    return [puzzles[i * len(puzzles) // count] for i in range(count)]


HEADERS = ["size", "givens", "backend", "solved", "timeouts", "errors/wrong", "mean time (s)",
           "mean nodes", "mean conflicts"]


def plot(runs: list[Run], time_limit: float, path: Path) -> None:
    import matplotlib  # noqa: PLC0415 - the plot is optional, matplotlib with it
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - after choosing the Agg backend

    fig, ax = plt.subplots(figsize=(6, 4))
    for backend in dict.fromkeys(r.backend for r in runs):
        sizes = sorted({r.size for r in runs if r.backend == backend})
        means, marks = [], []
        for size in sizes:
            mine = [r for r in runs if r.backend == backend and r.size == size]
            means.append(statistics.fmean(time_limit if r.status == "timeout" else r.time for r in mine))
            marks.append(any(r.status == "timeout" for r in mine))
        line, = ax.plot(sizes, means, marker="o", label=backend)
        hit = [(s, m) for s, m, t in zip(sizes, means, marks) if t]
        if hit:
            ax.scatter(*zip(*hit), marker="x", s=80, color=line.get_color(), zorder=3)
    ax.axhline(time_limit, color="grey", linestyle=":", label=f"time limit ({time_limit:g} s)")
    ax.set_yscale("log")
    ax.set_xticks(sorted({r.size for r in runs}))
    ax.set_xlabel("grid side n")
    ax.set_ylabel("mean time per puzzle (s, log)")
    ax.set_title("Cost against size (x: some runs timed out, counted at the limit)")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_configuration_arguments(parser, default="every available registered backend")
    add_executor_arguments(parser)
    parser.add_argument("--sizes", default="4,9,16,25", help="sizes to run (default 4,9,16,25)")
    parser.add_argument("--set", action="append", default=[], metavar="SIZE=FILE",
                        help="use another puzzle file for a size (path relative to puzzles/ or absolute)")
    parser.add_argument("--per-size", type=int, default=10,
                        help="N puzzles spread evenly over each set (default 10; 0 all)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run (default 60)")
    parser.add_argument("--json", default=str(ROOT / "bench" / "scaling.json"), help="where to save every run")
    parser.add_argument("--plot", default=str(ROOT / "bench" / "scaling.png"), help="where to save the plot")
    parser.add_argument("--format", default="github", help="tabulate format (default github)")
    args = parser.parse_args(argv)

    from tabulate import tabulate  # noqa: PLC0415 - only the printing needs it, after the arguments

    refs = configurations(args, registry.available_names())
    names = [ref.name for ref in refs]
    files = dict(SETS)
    for item in args.set:
        size, _, name = item.partition("=")
        files[int(size)] = name
    sets: dict[int, list[Puzzle]] = {}
    for size in (int(s) for s in args.sizes.split(",")):
        path = Path(files[size]) if Path(files[size]).is_absolute() else ROOT / "puzzles" / files[size]
        batch = read_puzzles(path)
        if batch.errors:
            print(f"{path}: {len(batch.errors)} unreadable puzzles", file=sys.stderr)
            return 2
        sets[size] = spread(batch.puzzles, args.per_size)

    started, load = time.strftime("%Y-%m-%d %H:%M:%S"), [round(value, 2) for value in os.getloadavg()]
    runs: list[Run] = []
    chosen = executor(args, 1)  # one run at a time: the times are the backends' alone
    try:
        for ref in refs:
            runs += run_backend(ref, sets, args.time_limit, chosen)
    finally:
        chosen.close()
    print(f"# bench_scaling {started}; backends {', '.join(names)}; limit {args.time_limit:g} s; "
          + "; ".join(f"{s}x{s}: {len(p)} from {files[s]}" for s, p in sets.items()))
    print(tabulate(summarise(runs, args.time_limit), HEADERS, tablefmt=args.format, disable_numparse=True))
    write_json(Path(args.json), {"started": started, "time_limit": args.time_limit,
                                 "sets": {s: files[s] for s in sets}, "runs": [asdict(r) for r in runs]}, load)
    plot(runs, args.time_limit, Path(args.plot))
    print(f"saved {args.json} and {args.plot}", file=sys.stderr)
    return exit_status(r.status for r in runs)


if __name__ == "__main__":
    sys.exit(main())
