"""What innies and outies (solvers/human/innies.py) change on the bundled cages-only 9x9
killers: the human solver's guesses, steps and time with every technique and with the two
innie/outie techniques left out, side by side in one run (the counts do not depend on the
machine; the time ratio is measured in the same run).

    python bench/bench_innies.py [--json OUT.json]

--json keeps every puzzle's counts with the provenance (bench/figures.py checks them).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from tabulate import tabulate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import write_json
from models import Model, Puzzle, read_puzzles
from solvers.human import TECHNIQUES, rate, solve
from solvers.human.solver import Technique
from tests.killers import SEARCHING

WITHOUT = tuple(t for t in TECHNIQUES if not t.name.startswith("innies and outies"))
FILES = [("generated_killer_9x9.txt", None), ("killer_teaching.txt", 2)]
"""(file in puzzles/, the one puzzle to take or None for all): the cages-only 9x9 killers;
tests/killers.py's two with larger cages (SEARCHING) are measured too."""


def killers() -> list[tuple[str, Puzzle]]:
    found = []
    for name, only in FILES:
        for position, puzzle in enumerate(read_puzzles(ROOT / "puzzles" / name), 1):
            if only in (None, position) and puzzle.cages and not any(puzzle.givens):
                found.append((f"{name.removesuffix('.txt')} {position}", puzzle))
    return found + [(f"tests/killers.py {name}", puzzle) for name, (puzzle, _) in SEARCHING.items()]


def measure(puzzle: Puzzle, techniques: tuple[Technique, ...]) -> tuple[int, int, int, float, float]:
    """(guesses of the complete rating search, steps it took, guesses of the explain solve
    to the first solution, the score, seconds for both)."""
    model = Model.from_puzzle(puzzle)
    start = time.perf_counter()
    rating = rate(model, techniques=techniques)
    first = solve(model, techniques=techniques)
    return (rating.guesses, sum(rating.uses.values()), first.guesses, rating.score,
            time.perf_counter() - start)


HEADERS = ["puzzle", "rate guesses before", "after", "steps before", "after", "explain guesses before", "after",
           "score before", "after", "innie/outie steps"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--json", type=Path, default=None, help="keep the counts with their provenance")
    args = parser.parse_args()
    load = [round(value, 2) for value in os.getloadavg()]
    rows, times = [], [0.0, 0.0]
    for label, puzzle in killers():
        before = measure(puzzle, WITHOUT)
        after = measure(puzzle, TECHNIQUES)
        times[0] += before[4]
        times[1] += after[4]
        uses = rate(Model.from_puzzle(puzzle)).uses
        innies = sum(v for k, v in uses.items() if k.startswith("innies"))
        rows.append([label, before[0], after[0], before[1], after[1], before[2], after[2],
                     f"{before[3]:.2f}", f"{after[3]:.2f}", innies])
    print(tabulate(rows, headers=HEADERS))
    print(f"\ntime (rate + explain solve, all puzzles): before {times[0]:.2f} s, after "
          f"{times[1]:.2f} s, ratio {times[0] / times[1]:.1f}x")
    if args.json is not None:
        keys = ["puzzle", "rate_guesses_before", "rate_guesses_after", "steps_before", "steps_after",
                "explain_guesses_before", "explain_guesses_after", "score_before", "score_after", "innie_steps"]
        write_json(args.json, {"puzzles": [dict(zip(keys, row)) for row in rows],
                               "seconds": {"before": times[0], "after": times[1]}}, load)


if __name__ == "__main__":
    main()
