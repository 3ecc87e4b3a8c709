"""The fast paths keep their speed: backtrack, mrv and dlx now, against their code before the
readable twins and the teaching ladder were added, side by side in one run; and what the
readable twins cost against their fast twins (same decisions, same node counts).

    python bench/bench_fast_paths.py [--base REV] [--repeat 3] [--limit 40]

The baseline modules are read from git (``git show REV:solvers/backends/<name>.py``) and
loaded beside the current ones, so both run in the same process, interleaved puzzle by
puzzle, best of --repeat runs each. A ratio near 1.00 means unchanged; the node counts must
be equal (exit 1 otherwise). Times are per puzzle, wall clock, this machine.
"""
from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from models import Model, read_puzzles
from solvers.backends import backtrack, dlx, mrv
from solvers.backends.readable import backtrack as readable_backtrack
from solvers.backends.readable import dlx as readable_dlx
from solvers.backends.readable import mrv as readable_mrv
from solvers.harness.results.provenance import load_average

BASE = "6631f69"  # main just before the teaching work (issue 12) touched these modules
ROWS: list[dict[str, object]] = []
"""Every row printed, with its figures, for --json."""


def baseline(name: str, rev: str, package: str = "solvers.backends") -> ModuleType:
    """<package>/<name>.py as it was at rev, loaded as a sibling of the current one."""
    path = f"{package.replace('.', '/')}/{name}.py"
    source = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout
    spec = importlib.util.spec_from_loader(f"{package}._baseline_{name}", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = package
    sys.modules[spec.name] = module
    exec(compile(source, f"{rev}:{path}", "exec"), module.__dict__)
    return module


def best(solve: Callable, model: Model, repeat: int, **options) -> tuple[float, int]:
    """Best wall time of repeat runs, and the node count."""
    times, nodes = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = solve(model, **options)
        times.append(time.perf_counter() - start)
        nodes = result.stats.nodes
    return min(times), nodes


def compare(label: str, puzzles: list, first: Callable, second: Callable, repeat: int,
            names: tuple[str, str], **options) -> bool:
    """One row: mean ms of each, the ratio second/first, and whether the nodes agree."""
    a_times, b_times, same = [], [], True
    for puzzle in puzzles:
        model = Model.from_puzzle(puzzle)
        a, a_nodes = best(first, model, repeat, **options)
        b, b_nodes = best(second, model, repeat, **options)
        a_times.append(a)
        b_times.append(b)
        same &= a_nodes == b_nodes
    a_mean, b_mean = statistics.fmean(a_times) * 1000, statistics.fmean(b_times) * 1000
    ratios = sorted(b / a for a, b in zip(a_times, b_times))
    line = (f"| {label} | {len(puzzles)} | {a_mean:.2f} | {b_mean:.2f} | {b_mean / a_mean:.2f}x "
            f"| {statistics.median(ratios):.2f}x | {'equal' if same else 'DIFFERENT'} |")
    print(line)
    ROWS.append({"against": "/".join(names), "label": label, "puzzles": len(puzzles), "ratio": b_mean / a_mean,
                 "median_ratio": statistics.median(ratios), "same_nodes": same, "line": line})
    return same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=BASE, help=f"the git revision to compare with (default {BASE})")
    parser.add_argument("--repeat", type=int, default=3, help="runs per puzzle, the best kept (default 3)")
    parser.add_argument("--limit", type=int, default=40, help="puzzles per set (default 40)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write every row, with provenance")
    args = parser.parse_args()
    started = load_average()
    top95 = read_puzzles(ROOT / "puzzles" / "top95.txt").puzzles[:args.limit]
    teaching = read_puzzles(ROOT / "puzzles" / "teaching.txt").puzzles[:args.limit]
    hardest = read_puzzles(ROOT / "puzzles" / "hardest.txt").puzzles[:args.limit]
    old = {name: baseline(name, args.base) for name in ("backtrack", "mrv", "dlx")}
    print(f"Python {sys.version.split()[0]}; best of {args.repeat}; times per puzzle; baseline {args.base}\n")
    print("Fast paths now against before (ratio = now / before; 1.00x = unchanged):\n")
    head = "| configuration, set | puzzles | {} ms | {} ms | ratio of means | median ratio | nodes |"
    print(head.format("before", "now"))
    print("|---|---:|---:|---:|---:|---:|---|")
    ok = compare("mrv, top95", top95, old["mrv"].solve, mrv.solve, args.repeat, ("before", "now"))
    ok &= compare("mrv inference=singles, top95", top95, old["mrv"].solve, mrv.solve, args.repeat,
                  ("before", "now"), inference="singles")
    ok &= compare("mrv, hardest", hardest, old["mrv"].solve, mrv.solve, args.repeat, ("before", "now"))
    ok &= compare("backtrack, teaching", teaching, old["backtrack"].solve, backtrack.solve,
                  args.repeat, ("before", "now"))
    ok &= compare("dlx, top95", top95, old["dlx"].solve, dlx.solve, args.repeat, ("before", "now"))
    # the readable dlx existed before; it now also checks, per row tried, whether to record a trace
    old_readable_dlx = baseline("dlx", args.base, "solvers.backends.readable")
    ok &= compare("dlx impl=readable, top95", top95, old_readable_dlx.solve, readable_dlx.solve,
                  args.repeat, ("before", "now"))
    print("\nReadable twins against the fast ones (ratio = readable / fast; the same decisions):\n")
    print(head.format("fast", "readable"))
    print("|---|---:|---:|---:|---:|---:|---|")
    ok &= compare("mrv, top95", top95, mrv.solve, readable_mrv.solve, args.repeat, ("fast", "readable"))
    ok &= compare("mrv inference=singles, top95", top95, mrv.solve, readable_mrv.solve, args.repeat,
                  ("fast", "readable"), inference="singles")
    ok &= compare("backtrack, teaching", teaching, backtrack.solve, readable_backtrack.solve,
                  args.repeat, ("fast", "readable"))
    ok &= compare("dlx, top95", top95, dlx.solve, readable_dlx.solve, args.repeat, ("fast", "readable"))
    if not ok:
        print("node counts differ: a fast path no longer makes the same decisions", file=sys.stderr)
    if args.json:
        sys.path.insert(0, str(ROOT / "bench"))
        from common import write_json  # noqa: PLC0415 - bench/'s helper, only when asked
        write_json(args.json, {"base": args.base, "repeat": args.repeat, "limit": args.limit, "rows": ROWS}, started)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
