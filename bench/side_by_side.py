"""Time several methods side by side on the same puzzles: shared by bench_dlx.py and bench_mip.py.

A method takes (puzzle, model) and returns (solutions, nodes, second counter); the
counters may be None. Methods alternate puzzle by puzzle, so machine noise hits them
alike; each puzzle keeps its best time over the rounds. Every answer is verified and
the methods must return the same solutions.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import tables

from models import Grid, Model, Puzzle, read_puzzles, verify
from solvers.harness.results.provenance import load_average

Method = Callable[[Puzzle, Model], tuple[list[Grid], int | None, int | None]]
Figures = dict[str, dict[str, list[float]]]
PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def measure(puzzles: list[Puzzle], methods: dict[str, Method], repeat: int) -> Figures:
    """Per method: best time per puzzle (seconds), and its two counters per puzzle."""
    models = [Model.from_puzzle(p) for p in puzzles]
    best = {name: [float("inf")] * len(puzzles) for name in methods}
    counts: Figures = {name: {"nodes": [], "other": []} for name in methods}
    for round_ in range(repeat):
        for i, (puzzle, model) in enumerate(zip(puzzles, models)):
            answers = set()
            for name, method in methods.items():
                start = time.perf_counter()
                solutions, nodes, other = method(puzzle, model)
                best[name][i] = min(best[name][i], time.perf_counter() - start)
                if not solutions or not all(verify(puzzle, s).ok for s in solutions):
                    raise SystemExit(f"{name} gave a wrong answer on puzzle {i}")
                answers.add(tuple(sorted(solutions)))
                if round_ == 0 and nodes is not None:
                    counts[name]["nodes"].append(nodes)
                    counts[name]["other"].append(other or 0)
            if len(answers) != 1:
                raise SystemExit(f"the methods disagree on puzzle {i}")
    return {name: {"times": best[name], **counts[name]} for name in methods}


def rows(set_name: str, figures: Figures, anchor: str) -> list[list[str]]:
    """One table row per method: mean, median and max ms, mean counters, anchor's time / its."""
    anchor_mean = statistics.mean(figures[anchor]["times"]) if anchor in figures else None
    table = []
    for name, data in figures.items():
        mean = statistics.mean(data["times"])
        table.append([set_name, name, f"{mean * 1000:.2f}",
                      f"{statistics.median(data['times']) * 1000:.2f}",
                      f"{max(data['times']) * 1000:.1f}",
                      f"{statistics.mean(data['nodes']):.1f}" if data["nodes"] else "",
                      f"{statistics.mean(data['other']):,.0f}" if data["other"] else "",
                      f"{anchor_mean / mean:.2f}x" if anchor_mean else ""])
    return table


def main(doc: str, methods: Callable[[], dict[str, Method]], anchor: str, counters: tuple[str, str],
         sets: str, repeat: int) -> int:
    """The command line both benchmarks share: --repeat, --sets, --format; prints the table."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=repeat)
    parser.add_argument("--sets", default=sets)
    parser.add_argument("--format", default="simple")
    parser.add_argument("--json", type=tables.json_path, metavar="PATH",
                        help="also write the table and every puzzle's times and counters, with provenance")
    args = parser.parse_args()
    started = load_average()
    chosen = methods()
    table, measured = [], {}
    for name in args.sets.split(","):
        batch = read_puzzles(PUZZLES / f"{name}.txt")
        measured[name] = measure(list(batch.puzzles), chosen, args.repeat)
        table += rows(name, measured[name], anchor)
    print(f"Python {sys.version.split()[0]}; count to two; best of {args.repeat}; "
          "every answer verified; times per puzzle\n")
    print(tables.shown("side by side", table, ["set", "method", "mean ms", "median ms", "max ms", *counters,
                                               "anchor / method"], tablefmt=args.format, disable_numparse=True))
    tables.save(args.json, started, repeat=args.repeat, anchor=anchor, measured=measured)
    return 0
