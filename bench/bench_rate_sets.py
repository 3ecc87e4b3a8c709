"""The human-style rating of three collections known to differ in difficulty (docs/teaching.md):
``compare.py rate`` on seeded samples of 20 of easy50 and top95 and on the 20 bundled puzzles
of the forum's hardest rated above 11.0 by Sudoku Explainer, each set's summary, per-puzzle
records and CPU time kept together with the provenance.

    python bench/bench_rate_sets.py [--timeout SECONDS] [--json OUT.json]

The scores and guesses do not depend on the machine as long as no puzzle is given up at the
time limit (wall time: a loaded machine needs a generous one; the default, 600 s, is far above
what any of these puzzles takes). The CPU seconds are this machine's.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import compare, write_json

SETS = (("easy50", ("puzzles/easy50.txt", "--sample", "20", "--seed", "27")),
        ("top95", ("puzzles/top95.txt", "--sample", "20", "--seed", "27")),
        ("forum hardest (SE > 11)", ("puzzles/forum_hardest_1905_11plus_sample20.txt",)))
"""(name, the arguments of ``compare.py rate`` before the options common to all)."""


def children_cpu() -> float:
    """CPU seconds of the finished child processes so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def rated(arguments: tuple[str, ...], timeout: float, folder: Path) -> dict[str, Any]:
    """One ``compare.py rate`` run: its command, summary, records and CPU seconds; SystemExit(1)
    if it failed."""
    out = folder / "rate.json"
    command = ("rate", *arguments, "--timeout", f"{timeout:g}", "--json", str(out))
    before = children_cpu()
    done = compare(*command, stdout=subprocess.DEVNULL)
    if done.returncode != 0:
        print(f"bench_rate_sets.py: compare.py {' '.join(command)} exited {done.returncode}", file=sys.stderr)
        raise SystemExit(1)
    found = json.loads(out.read_text(encoding="utf-8"))
    records = [{key: record[key] for key in ("position", "technique", "score", "guesses", "complete")}
               for record in found["puzzles"]]
    return {"command": ["python", "compare.py", *command[:-1], "OUT"], "summary": found["summary"],
            "puzzles": records, "cpu_s": round(children_cpu() - before, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--timeout", type=float, default=600.0, help="rate's limit per puzzle, wall seconds")
    parser.add_argument("--json", type=Path, default=None, help="keep the figures with their provenance")
    args = parser.parse_args()
    if args.timeout <= 0:
        parser.error(f"--timeout must be positive, not {args.timeout:g}")
    started = list(os.getloadavg())
    with tempfile.TemporaryDirectory() as folder:
        sets = [{"name": name, **rated(arguments, args.timeout, Path(folder))} for name, arguments in SETS]
    for each in sets:
        score = each["summary"]["score"]
        print(f"{each['name']}: median score {score['median']:.2f} ({score['min']:.2f} to {score['max']:.2f}), "
              f"{each['cpu_s']} s of CPU")
    if args.json:
        write_json(args.json, {"timeout_s": args.timeout, "sets": sets}, started)


if __name__ == "__main__":
    main()
