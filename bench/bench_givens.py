"""Givens against cost on 9x9 Sudoku: does a puzzle with fewer clues cost more search?

    python bench/bench_givens.py [--clue17 50] [--givens 24,27,30,35] [--count 10]
        [--solvers fast,mrv,forward=mrv:inference=forward] [--timeout 10]

Puts together the first --clue17 puzzles of puzzles/17_clue.txt, the generated set
puzzles/generated_9x9.txt and, for each --givens G, --count puzzles from
compare.py generate --size 9 --givens G (seeded), runs every configuration on all of them
(compare.py run), then draws the median nodes and time and their quartiles against the
number of givens (compare.py plot curve), printing where each median peaks. Output:
bench/givens.json, bench/givens_nodes.png, bench/givens_time.png.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from common import ROOT, compare, first_puzzles, plot_curves


def givens_levels(text: str) -> list[int]:
    """The comma-separated givens of the generated series, each 17 to 80.

    >>> givens_levels("22, 26,30")
    [22, 26, 30]
    """
    try:
        levels = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"--givens takes whole numbers separated by commas, not {text!r}") from None
    if any(not 17 <= level <= 80 for level in levels):
        raise ValueError(f"--givens takes numbers from 17 to 80, not {text!r}")
    return levels


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--clue17", type=int, default=50, help="how many 17-clue puzzles")
    parser.add_argument("--givens", default="24,27,30,35", help="the generated series' givens")
    parser.add_argument("--count", type=int, default=10, help="puzzles per generated series")
    parser.add_argument("--solvers", default="fast,mrv,forward=mrv:inference=forward")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "givens.json")
    parser.add_argument("--plot", type=Path, default=ROOT / "bench" / "givens_nodes.png")
    parser.add_argument("--time-plot", type=Path, default=ROOT / "bench" / "givens_time.png")
    args = parser.parse_args()
    try:
        levels = givens_levels(args.givens)
    except ValueError as error:
        parser.error(str(error))
    puzzles = first_puzzles((ROOT / "puzzles" / "17_clue.txt").read_text().splitlines(), args.clue17)
    puzzles += first_puzzles((ROOT / "puzzles" / "generated_9x9.txt").read_text().splitlines(), 10**6)
    for level in levels:
        made = compare("generate", "--size", "9", "--givens", str(level), "--count", str(args.count),
                       "--seed", str(level), capture_output=True)
        if made.returncode:
            sys.stderr.write(made.stderr)
            return made.returncode
        puzzles += first_puzzles(made.stdout.splitlines(), args.count)
    with tempfile.TemporaryDirectory() as folder:
        instances = Path(folder) / "givens_9x9.txt"
        instances.write_text("\n".join(puzzles) + "\n")
        ran = compare("run", str(instances), "--solvers", args.solvers, "--timeout",
                      str(args.timeout), "--json", str(args.json))
    title = f"9x9: {len(puzzles)} puzzles (17-clue, generated), median and quartiles"
    drawn = plot_curves(args.json, "givens", (("nodes", args.plot), ("time_s", args.time_plot)), title)
    return ran.returncode or drawn


if __name__ == "__main__":
    sys.exit(main())
