"""The human solver's speed through the real command line: `rate` of 100 diabolical puzzles
(a sample of the evaluation file) and `explain` of the five it rated hardest, each a fresh
`compare.py` process, with wall and CPU seconds (CPU is what a loaded machine does not
inflate), and the counts that do not depend on the machine (steps, the hardest techniques).

    python bench/bench_human.py [--json OUT]

--json keeps the figures with their provenance (bench/figures.py checks them).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import write_json

FILE = "puzzles/exchange_diabolical_sample320.txt"


def run(*args: str) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """The command's result, its wall seconds and its CPU seconds (user and system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, str(ROOT / "compare.py"), *args], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if done.returncode:
        raise SystemExit(f"compare.py {' '.join(args)} failed: {done.stderr}")
    return done, wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the figures here")
    args = parser.parse_args()
    started = [round(value, 2) for value in os.getloadavg()]
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "rated.json"
        done, wall, cpu = run("rate", FILE, "--sample", "100", "--seed", "1", "--json", str(out))
        records = json.loads(out.read_text())["puzzles"]
    progress = [line for line in done.stderr.splitlines() if line.startswith("rating:")]
    figures = {"rate": {"puzzles": len(records), "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
                        "guesses": sum(r["guesses"] for r in records),
                        "steps": sum(sum(r["uses"].values()) for r in records),
                        "hardest": dict(Counter(r["technique"] for r in records).most_common()),
                        "progress_lines": len(progress)}}
    print(f"rate {FILE} --sample 100 --seed 1: {wall:.1f} s wall, {cpu:.1f} s CPU for {len(records)} puzzles "
          f"({figures['rate']['steps']:,} steps, {figures['rate']['guesses']} guesses, "
          f"{len(progress)} progress lines on stderr)")
    hardest = sorted(records, key=lambda r: -r["score"])[:5]
    figures["explain"] = []
    for record in hardest:
        _, wall, cpu = run("explain", FILE, "--puzzle", str(record["position"]), "--max-steps", "1000")
        figures["explain"].append({"puzzle": record["position"], "score": record["score"],
                                   "technique": record["technique"], "wall_s": round(wall, 2), "cpu_s": round(cpu, 2)})
        print(f"explain --puzzle {record['position']} ({record['technique']}, {record['score']:.1f}): "
              f"{wall:.2f} s wall, {cpu:.2f} s CPU")
    if args.json:
        write_json(Path(args.json), figures, started)


if __name__ == "__main__":
    main()
