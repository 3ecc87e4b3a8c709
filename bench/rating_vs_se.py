"""How the human-style rating (compare.py rate) agrees with Sudoku Explainer's: over files whose
puzzles each follow a '# SE x.y' comment line (puzzles/exchange_diabolical_se60.txt, the
evaluation sample puzzles/exchange_diabolical_sample320.txt), the Spearman rank correlation of
our score with the SE rating (with a bootstrap 95% interval), how many puzzles needed a guess,
and per SE rating our median score and the hardest techniques we needed.

    python bench/rating_vs_se.py [FILE ...] [--upto 9.0] [--json OUT]

--json keeps each file's figures with their provenance (bench/figures.py checks them).

Uniqueness is proved as `rate` proves it (mrv counts the solutions first). Times are CPU
seconds of this process (the machine is shared: wall times say little).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tabulate import tabulate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import write_json
from models import Model, parse_puzzle
from solvers import registry
from solvers.human import rate

DEFAULT = [ROOT / "puzzles" / "exchange_diabolical_se60.txt", ROOT / "puzzles" / "exchange_diabolical_sample320.txt"]


def rated(path: Path) -> list[tuple[float, float, str, int, float]]:
    """(SE rating, our score, our hardest technique, our guesses, CPU seconds) per puzzle."""
    found, se = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# SE "):
            se = float(line[5:].split()[0])
        elif line.strip() and not line.startswith("#"):
            if se is None:
                raise SystemExit(f"{path}: a puzzle without a '# SE x.y' line above it: {line[:20]}...")
            puzzle = parse_puzzle(line.split("#")[0].strip())
            start = time.process_time()
            count = registry.get("mrv").solve(puzzle, max_solutions=2)
            unique = len(count.solutions) == 1 and count.complete
            rating = rate(Model.from_puzzle(puzzle), unique=unique)
            found.append((se, rating.score, rating.technique, rating.guesses, time.process_time() - start))
            se = None
    return found


def ranks(values: list[float]) -> list[float]:
    """1-based ranks, ties sharing the mean of their places."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for i in order[start:end + 1]:
            result[i] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rho: Pearson's correlation of the ranks (ties averaged)."""
    return statistics.correlation(ranks(xs), ranks(ys))


def interval(xs: list[float], ys: list[float], rounds: int = 1000, seed: int = 1) -> tuple[float, float]:
    """A bootstrap 95% interval of Spearman's rho (puzzles resampled with replacement)."""
    draw = random.Random(seed)
    found = []
    for _ in range(rounds):
        picks = [draw.randrange(len(xs)) for _ in xs]
        a, b = [xs[i] for i in picks], [ys[i] for i in picks]
        if len(set(a)) > 1 and len(set(b)) > 1:
            found.append(spearman(a, b))
    found.sort()
    return found[int(0.025 * len(found))], found[int(0.975 * len(found)) - 1]


def figures(path: Path, rows: list[tuple[float, float, str, int, float]], upto: float) -> dict[str, Any]:
    """A file's figures over the puzzles SE rates ``upto`` or less (CPU over them all)."""
    kept = [r for r in rows if r[0] <= upto]
    se, ours = [r[0] for r in kept], [r[1] for r in kept]
    low, high = interval(se, ours)
    cpu = [r[4] for r in rows]
    return {"file": path.name, "puzzles": len(rows), "upto": upto, "kept": len(kept),
            "spearman": round(spearman(se, ours), 2), "low": round(low, 2), "high": round(high, 2),
            "guessed": sum(1 for r in kept if r[3]), "cpu_s": round(sum(cpu), 1),
            "median_cpu_s": round(statistics.median(cpu), 2), "max_cpu_s": round(max(cpu), 2)}


def by_rating(rows: list[tuple[float, float, str, int, float]]) -> list[dict[str, Any]]:
    """Per SE rating: how many puzzles, our median score and our hardest techniques (most
    common first, with how many puzzles needed each)."""
    found = []
    for band in sorted({r[0] for r in rows}):
        here = [r for r in rows if r[0] == band]
        found.append({"se": band, "puzzles": len(here), "median": round(statistics.median(r[1] for r in here), 2),
                      "techniques": Counter(r[2] for r in here).most_common()})
    return found


def report(path: Path, rows: list[tuple[float, float, str, int, float]], upto: float) -> dict[str, Any]:
    """Print a file's figures and its table by SE rating; the figures."""
    found = figures(path, rows, upto)
    kept, guessed = found["kept"], found["guessed"]
    print(f"{path.name}: {len(rows)} puzzles, {kept} rated {upto} or less by SE; on those: Spearman "
          f"{found['spearman']:.2f} (95% interval {found['low']:.2f} to {found['high']:.2f}), {guessed} needed a guess "
          f"({kept - guessed} of {kept} solved by reasoning alone, "
          f"{100 * (kept - guessed) / kept:.0f}%); CPU {found['cpu_s']:.1f} s in all, "
          f"median {found['median_cpu_s']:.2f} s, max {found['max_cpu_s']:.2f} s a puzzle")
    if len(rows) > kept:
        all_se, all_ours = [r[0] for r in rows], [r[1] for r in rows]
        print(f"  all {len(rows)}: Spearman {spearman(all_se, all_ours):.2f}, "
              f"{sum(1 for r in rows if r[3])} needed a guess")
    found["by_rating"] = by_rating(rows)
    table = [[f"{band['se']:.1f}", band["puzzles"], f"{band['median']:.1f}",
              ", ".join(f"{t} {k}" for t, k in band["techniques"])] for band in found["by_rating"]]
    print(tabulate(table, ["SE rating", "puzzles", "our median", "our hardest techniques"],
                   tablefmt="github", disable_numparse=True))
    print()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--upto", type=float, default=9.0, help="the figures over puzzles SE rates this or less")
    parser.add_argument("--json", type=Path, default=None, help="keep each file's figures with their provenance")
    args = parser.parse_args()
    started = [round(value, 2) for value in os.getloadavg()]
    found = [report(path, rated(path), args.upto) for path in args.files]
    if args.json:
        write_json(args.json, {"files": found}, started)


if __name__ == "__main__":
    main()
