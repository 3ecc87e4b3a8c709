"""Heavy tails over solver seeds, and what restarts do to them (Gomes, Selman, Crato, Kautz).

    python bench/bench_tails.py [--order 25] [--holes 0.42] [--count 6] [--seeds 8] [--timeout 10]
    python bench/bench_tails.py --set puzzles/forum_hardest_1106.txt --first 30 \
        --json bench/tails_hardest.json --plot bench/survival_hardest.png

Generates QWH instances near the phase transition (compare.py generate --variant latin),
runs fast depth-first without restarts (branching=mrv), fast with dom/wdeg and restarts (branching=wdeg) and mrv with
singles, each on every instance once per solver seed (compare.py run --seeds), then draws
the log-log survival of the node counts and prints each configuration's Hill tail index
(compare.py plot survival). Output: bench/tails_qwh.json, bench/survival_qwh25.png.
With --set, the first --first puzzles of that file replace the generated instances.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from common import ROOT, compare, first_puzzles

CONFIGS = "fast=fast:branching=mrv,wdeg=fast:branching=wdeg,mrv:inference=singles"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--order", type=int, default=25)
    parser.add_argument("--holes", type=float, default=0.42)
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--solvers", default=CONFIGS, help=f"the configurations (default {CONFIGS})")
    parser.add_argument("--set", type=Path, default=None, metavar="FILE",
                        help="a line-format puzzle file instead of generated QWH instances")
    parser.add_argument("--first", type=int, default=30, help="with --set: how many puzzles")
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "tails_qwh.json")
    parser.add_argument("--plot", type=Path, default=ROOT / "bench" / "survival_qwh25.png")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        instances = Path(folder) / (args.set.name if args.set else f"qwh{args.order}.txt")
        if args.set is not None:
            chosen = first_puzzles(args.set.read_text().splitlines(), args.first)
            instances.write_text("\n".join(chosen) + "\n")
            title = f"{args.set.name}, first {len(chosen)} puzzles x {args.seeds} seeds"
        else:
            with instances.open("w") as out:
                made = compare("generate", "--variant", "latin", "--size", str(args.order), "--holes",
                               str(args.holes), "--count", str(args.count), "--seed", "7", stdout=out)
            if made.returncode:
                return made.returncode
            title = (f"QWH order {args.order}, {args.holes:.0%} holes: "
                     f"{args.count} instances x {args.seeds} seeds")
        ran = compare("run", str(instances), "--solvers", args.solvers, "--seeds", str(args.seeds),
                      "--timeout", str(args.timeout), "--json", str(args.json))
    drawn = compare("plot", "survival", str(args.json), "--field", "nodes", "-o", str(args.plot),
                    "--title", title)
    return ran.returncode or drawn.returncode


if __name__ == "__main__":
    sys.exit(main())
