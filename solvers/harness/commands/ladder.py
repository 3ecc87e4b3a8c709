"""``compare.py ladder``: what each rung of inference buys, on the same puzzles, as one table.

The rungs are configurations of ``mrv`` (the lower ones run its readable twin), from
plain backtracking to propagation with locked candidates, then the fast ``mrv`` (the
top rung's decisions, on bitmasks) and the compiled ``fast`` backend when numba is there
(its general kernel, the same decisions again, and its default: the 9x9 band kernel).
"""
from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from models import Model, Puzzle, verify

from ... import registry
from ...result import Status
from ..results.tables import TEXT_FORMATS, text_table
from .common import (
    EXIT_OK,
    EXIT_USAGE,
    EXIT_WRONG,
    Subcommands,
    bundled_puzzles,
    input_options,
    read_inputs,
    seconds,
    shown,
)
from .progress import Progress


@dataclass(frozen=True)
class Rung:
    """One row of the table: a name for the class and the configuration behind it."""

    name: str
    backend: str
    options: dict[str, Any]

    @property
    def config(self) -> str:
        options = ":".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.backend}:{options}" if options else self.backend


RUNGS = (
    Rung("backtracking", "mrv", {"inference": "none", "branching": "first"}),
    Rung("forward checking", "mrv", {"inference": "forward", "branching": "first"}),
    Rung("+ fewest candidates (MRV)", "mrv", {"inference": "forward", "branching": "mrv"}),
    Rung("+ naked singles", "mrv", {"inference": "naked", "branching": "mrv"}),
    Rung("+ hidden singles", "mrv", {"inference": "singles", "branching": "mrv", "impl": "readable"}),
    Rung("+ locked candidates", "mrv", {"inference": "locked", "branching": "mrv", "impl": "readable"}),
)
FAST = (Rung("the same, on bitmasks", "mrv", {}), Rung("compiled (numba)", "fast", {"kernel": "general"}),
        Rung("+ band rules, bi-value guesses", "fast", {}))
"""The fast backends: mrv, fast's general kernel (mrv's method compiled: the same decisions)
and fast's default, on a standard 9x9 grid its band kernel (stronger band rules and a
guess on a cell with two candidates: fewer guesses; elsewhere the general kernel again)."""


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    ladder = subparsers.add_parser(
        "ladder", help="the inference ladder: decisions and time per rung on the same puzzles",
        description="Solve the same puzzles at each rung of the teaching ladder (backtracking, "
                    "forward checking, MRV, naked singles, hidden singles, locked candidates), "
                    "then with the fast backends, and print decisions and time per rung.")
    ladder.add_argument("path", nargs="?", metavar="PATH",
                        help="puzzle file (default: the bundled puzzles/teaching.txt)")
    ladder.add_argument("--timeout", type=seconds, default=10.0, metavar="SECONDS",
                        help="limit per puzzle and rung (default: 10); an unsolved run counts "
                             "as not solved and its decisions so far are left out of the means")
    ladder.add_argument("--format", choices=TEXT_FORMATS, default="text",
                        help="text (default), a Markdown table or a LaTeX tabular (booktabs)")
    input_options(ladder)
    return ladder


def run(args: argparse.Namespace) -> int:
    path = args.path or str(bundled_puzzles() / "teaching.txt")
    puzzles, bad = read_inputs([path], args.fmt, args.hex)
    if not puzzles:
        print("compare.py ladder: no puzzle to solve", flush=True)
        return EXIT_USAGE
    rows, wrong = [], False
    rungs = RUNGS + tuple(r for r in FAST if registry.get(r.backend).available)
    with Progress(len(rungs) * len(puzzles), what="ladder") as progress:
        measured = [measure(rung, puzzles, args.timeout, progress.advance, progress.paused)
                    for rung in rungs]
    for number, (rung, (solved, decisions, times, rung_wrong)) in enumerate(zip(rungs, measured), 1):
        wrong |= rung_wrong
        rows.append([number, rung.name, rung.config, f"{solved}/{len(puzzles)}",
                     f"{statistics.fmean(decisions):,.1f}" if decisions else "-",
                     f"{statistics.fmean(times) * 1000:,.2f}" if times else "-"])
    headers = ["", "rung", "configuration", "solved", "mean decisions", "mean ms"]
    print(f"{shown(Path(path))}: {len(puzzles)} puzzles; decisions = values tried by the search "
          f"(time: wall clock, this machine)", file=sys.stderr if args.format == "latex" else sys.stdout)
    print(text_table(headers, [[str(c) for c in row] for row in rows],
                     [False, True, True, False, False, False], args.format))
    if wrong:
        return EXIT_WRONG
    return EXIT_USAGE if bad else EXIT_OK


def measure(rung: Rung, puzzles: list[Puzzle], timeout: float,
            done: Callable[[], None] = lambda: None,
            aside: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext,
            ) -> tuple[int, list[int], list[float], bool]:
    """Solve each puzzle at one rung, calling ``done`` after each: (solved, decisions of the
    solved, seconds of the solved, whether an answer failed the checker); ``aside()`` holds
    the work that is not the rung's (fast's compile), which progress leaves out of its estimate."""
    backend = registry.get(rung.backend)
    if rung.backend == "fast":  # compile once before the clock runs
        with aside():
            backend.solve(Model.from_puzzle(puzzles[0]), time_limit=timeout, **rung.options)
    solved, decisions, times, wrong = 0, [], [], False
    for puzzle in puzzles:
        model = Model.from_puzzle(puzzle)
        start = time.perf_counter()
        result = backend.solve(model, time_limit=timeout, **rung.options)
        took = time.perf_counter() - start
        done()
        if result.status is not Status.SOLVED:
            continue
        if not verify(puzzle, result.solutions[0]).ok:
            wrong = True
            continue
        solved += 1
        decisions.append(result.stats.nodes or 0)
        times.append(took)
    return solved, decisions, times, wrong
