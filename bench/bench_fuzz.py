"""How fast ``compare.py fuzz`` finds and shrinks the planted bugs of tests/plugins/fuzzbugs.py.

Each planted bug is fuzzed by compare.py itself, on the default mix, with each seed given;
the table says, per bug and seed, the case it was found in (machine-independent for a seed:
``S/i`` is instance i), the instances tried, the searching and shrinking seconds and the
whole wall time, the shrink tests, and what the puzzle shrank from and to. The target is
every bug found and shrunk within 150 s of wall time on the 2-core machine; the exit status
is 1 if one is missed.

    python bench/bench_fuzz.py                      # every bug, seed 1
    python bench/bench_fuzz.py --bugs box_width --seeds 1,2,3,4,5
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time

import tables
from common import compare, write_json

BUGS = {"box_width": [], "x_centre": [], "killer_four": [], "count_three": [], "hangs": ["--timeout", "1"],
        "crashes": [], "raises": []}
"""Each planted bug and the options it is fuzzed with (a hang is shrunk with a short limit)."""
TARGET_S = 150.0
FOUND = re.compile(r"finding 1: (\w+) from \w+ in (\w+) mode \(case (\S+), after (.+?) of searching")
SHRUNK = re.compile(r"shrunk from (.+?) to (.+?): (.+?), (\d+) tests in (.+)$", re.M)
TRIED = re.compile(r"^([\d,]+) instances in ", re.M)


def seconds(text: str) -> float:
    """Seconds from compare.py's durations: 'under 0.1 s', '8.2 s', '1 min 10 s', '1 h 2 min'.

    >>> [seconds(t) for t in ("under 0.1 s", "8.2 s", "1 min 10 s", "1 h 2 min")]
    [0.05, 8.2, 70.0, 3720.0]
    """
    if text.startswith("under"):
        return 0.05
    units = {"h": 3600.0, "min": 60.0, "s": 1.0}
    return sum(float(number) * units[unit] for number, unit in re.findall(r"([\d.]+) (h|min|s)\b", text))


def measure(bug: str, seed: int, budget: float) -> list[str]:
    """One fuzz of one bug: the table row."""
    with tempfile.TemporaryDirectory() as folder:
        started = time.monotonic()
        done = compare("fuzz", "--plugin", f"{bug}=tests/plugins/fuzzbugs.py:{bug}", "--seed", str(seed),
                       "--budget", f"{budget:g}", "--out", folder, *BUGS[bug], capture_output=True)
        wall = time.monotonic() - started
    found, shrunk, tried = FOUND.search(done.stdout), SHRUNK.search(done.stdout), TRIED.search(done.stdout)
    if done.returncode != 1 or not (found and shrunk and tried):
        return [bug, str(seed), "not found", "", tried.group(1) if tried else "", "", "", f"{wall:.0f}", "", "", ""]
    kind, mode, case, after = found.groups()
    return [bug, str(seed), f"{kind} ({mode})", case, tried.group(1), f"{seconds(after):.1f}",
            f"{seconds(shrunk.group(5)):.1f}", f"{wall:.0f}", shrunk.group(4), shrunk.group(1),
            f"{shrunk.group(2)} ({shrunk.group(3)})"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bugs", default=",".join(BUGS), help="planted bugs, comma-separated")
    parser.add_argument("--seeds", default="1", help="fuzz seeds, comma-separated (default 1)")
    parser.add_argument("--budget", type=float, default=TARGET_S, help="searching budget per fuzz (s)")
    parser.add_argument("--json", type=tables.json_path, metavar="PATH", help="also write every row, with provenance")
    args = parser.parse_args()
    started = [round(value, 2) for value in os.getloadavg()]
    bugs = args.bugs.split(",")
    if not set(bugs) <= set(BUGS):
        parser.error(f"bugs are {', '.join(BUGS)}")
    head = ["bug", "seed", "found", "case", "instances", "search s", "shrink s", "wall s", "tests",
            "from", "to"]
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head), flush=True)
    missed, rows = 0, []
    for bug in bugs:
        for seed in (int(s) for s in args.seeds.split(",")):
            row = measure(bug, seed, args.budget)
            missed += row[2] == "not found" or float(row[7]) > TARGET_S
            rows.append(dict(zip(head, row)))
            print("| " + " | ".join(row) + " |", flush=True)
    if args.json:
        write_json(args.json, {"budget": args.budget, "target_s": TARGET_S, "rows": rows}, started)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
