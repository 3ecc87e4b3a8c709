"""How the human-style rating (compare.py rate) ranks puzzles against their Sudoku Explainer
ratings: the Spearman rank correlation over a file whose puzzles each follow a '# SE x.y'
comment line (puzzles/exchange_diabolical_se60.txt), and the scores per SE rating.

    python bench/rating_vs_se.py [FILE] [--json OUT.json]

--json keeps the pairs, the correlation and the provenance (bench/figures.py checks it).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

from tabulate import tabulate

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import write_json
from models import Model, parse_puzzle
from solvers.human import rate


def rated_pairs(path: Path) -> list[tuple[float, float, str]]:
    """(SE rating, our score, our hardest technique) for each puzzle of the file."""
    pairs, se = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# SE "):
            se = float(line[5:])
        elif line.strip() and not line.startswith("#"):
            if se is None:
                raise SystemExit(f"{path}: a puzzle without a '# SE x.y' line above it: {line[:20]}...")
            rating = rate(Model.from_puzzle(parse_puzzle(line)))
            pairs.append((se, rating.score, rating.technique))
            se = None
    return pairs


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("file", nargs="?", type=Path, default=ROOT / "puzzles" / "exchange_diabolical_se60.txt")
    parser.add_argument("--json", type=Path, default=None, help="keep the results with their provenance")
    args = parser.parse_args()
    path, load = args.file, [round(value, 2) for value in os.getloadavg()]
    pairs = rated_pairs(path)
    se, ours = [p[0] for p in pairs], [p[1] for p in pairs]
    rho = spearman(se, ours)
    print(f"{path.name}: {len(pairs)} puzzles; Spearman rank correlation of our score with the SE "
          f"rating: {rho:.2f}")
    if args.json is not None:
        write_json(args.json, {"file": path.name, "spearman": rho,
                               "pairs": [{"se": s, "score": o, "technique": t} for s, o, t in pairs]}, load)
    bands = sorted(set(se))
    rows = [[f"{band:.1f}", sum(s == band for s in se),
             f"{statistics.median(o for s, o in zip(se, ours) if s == band):.2f}",
             ", ".join(sorted({t for s, _, t in pairs if s == band}))] for band in bands]
    print(tabulate(rows, ["SE rating", "puzzles", "our median score", "our hardest techniques"],
                   tablefmt="github", disable_numparse=True))


if __name__ == "__main__":
    main()
