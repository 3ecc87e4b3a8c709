"""What innies and outies (solvers/human/innies.py) change on the bundled cages-only 9x9
killers: the human solver's guesses, steps and time with every technique and with the two
innie/outie techniques left out, side by side in one run (the counts do not depend on the
machine; the time ratio is measured in the same run).

    python bench/bench_innies.py
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from tabulate import tabulate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

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


def main() -> None:
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
    print(tabulate(rows, headers=["puzzle", "rate guesses before", "after", "steps before", "after",
                                  "explain guesses before", "after", "score before", "after",
                                  "innie/outie steps"]))
    print(f"\ntime (rate + explain solve, all puzzles): before {times[0]:.2f} s, after "
          f"{times[1]:.2f} s, ratio {times[0] / times[1]:.1f}x")


if __name__ == "__main__":
    main()
