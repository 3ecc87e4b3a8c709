"""Heavy tails over solver seeds, and what restarts do to them (Gomes, Selman, Crato, Kautz).

    python bench/bench_tails.py [--order 25] [--holes 0.42] [--count 6] [--seeds 8] [--timeout 10]

Generates QWH instances near the phase transition (compare.py generate --variant latin),
runs fast without restarts, fast with dom/wdeg and restarts (branching=wdeg) and mrv with
singles, each on every instance once per solver seed (compare.py run --seeds), then draws
the log-log survival of the node counts and prints each configuration's Hill tail index
(compare.py plot survival). Output: bench/tails_qwh.json, bench/survival_qwh25.png.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = "fast,wdeg=fast:branching=wdeg,mrv:inference=singles"


def compare(*args: str, **options: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "compare.py"), *args], check=False,
                          text=True, **options)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--order", type=int, default=25)
    parser.add_argument("--holes", type=float, default=0.42)
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--json", type=Path, default=ROOT / "bench" / "tails_qwh.json")
    parser.add_argument("--plot", type=Path, default=ROOT / "bench" / "survival_qwh25.png")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        instances = Path(folder) / f"qwh{args.order}.txt"
        with instances.open("w") as out:
            made = compare("generate", "--variant", "latin", "--size", str(args.order), "--holes",
                           str(args.holes), "--count", str(args.count), "--seed", "7", stdout=out)
        if made.returncode:
            return made.returncode
        ran = compare("run", str(instances), "--solvers", CONFIGS, "--seeds", str(args.seeds),
                      "--timeout", str(args.timeout), "--json", str(args.json))
    drawn = compare("plot", "survival", str(args.json), "--field", "nodes", "-o", str(args.plot),
                    "--title", f"QWH order {args.order}, {args.holes:.0%} holes: "
                               f"{args.count} instances x {args.seeds} seeds")
    return ran.returncode or drawn.returncode


if __name__ == "__main__":
    sys.exit(main())
