"""``compare.py explain``: one solve as numbered sentences a student can follow."""
from __future__ import annotations

import argparse
import sys

from models import to_pretty

from ...result import Status
from ...trace import Event, numbered, write_jsonl
from ..engine.terminal import printable
from ..results.outputs import atomic_path
from .common import EXIT_OK, Subcommands, UsageError, check_output_paths, positive_int
from .tracing import chosen_puzzle, one_puzzle_options, solver_named, traced_solve


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    explain = subparsers.add_parser(
        "explain", help="explain one solve step by step, in words",
        description="Solve one puzzle and print every step. The default, the human-style solver, "
                    "uses the techniques people teach (singles, locked candidates, subsets, fish, "
                    "wings, uniqueness, chains, almost locked sets, cage combinations, then "
                    "forcing chains and nets), the easiest first as Sudoku Explainer does, and "
                    "guesses only when none applies; each step is one sentence naming its "
                    "technique, cells and digits. "
                    "The readable mrv, backtrack or dlx show their own search instead: each "
                    "placement with its rule, each decision with its depth and alternatives, each "
                    "contradiction and backtrack.")
    one_puzzle_options(explain, "human, or mrv, backtrack or dlx with options as in run, e.g. "
                                "'mrv:inference=forward:branching=first' (default: human)",
                       default="human")
    explain.add_argument("--max-steps", type=positive_int, default=200, metavar="N",
                         help="print at most N steps (default: 200; the trace file gets all)")
    explain.add_argument("--trace", metavar="FILE.jsonl",
                         help="also write every event as JSON lines ('-' for standard output)")
    return explain


def run(args: argparse.Namespace) -> int:
    if args.trace and args.trace != "-":
        check_output_paths({"--trace": args.trace}, [args.path])
    puzzle = chosen_puzzle(args, "explain")
    result, trace = traced_solve(puzzle, args.solver, args.timeout, args.uniqueness, "explain")
    if args.trace:
        _write_trace(args.trace, trace.events)
        if args.trace == "-":
            return EXIT_OK
    n = puzzle.n
    print(f"{puzzle.source}: {puzzle.geometry.label()} {puzzle.variant}, {puzzle.num_givens} givens; "
          f"solver {solver_named(trace.events[0])}")
    print(to_pretty(puzzle))
    steps = len(trace.events) - 1
    for line in numbered(trace.events, n, args.max_steps):
        print(line)
    if steps > args.max_steps:
        print(f"  ... {steps - args.max_steps:,} more steps (--max-steps {steps} shows them all)")
    stats = result.stats
    counters = ", ".join(f"{getattr(stats, k):,} {k}" for k in ("nodes", "backtracks", "propagations")
                         if getattr(stats, k) is not None)
    print(f"{result.status.value}: {steps:,} steps, {counters}"
          + (f" ({printable(result.message)})" if result.message else ""))
    if result.status is Status.SOLVED:
        print(to_pretty(puzzle.with_givens(result.solutions[0])))
    return EXIT_OK


def _write_trace(path: str, events: list[Event]) -> None:
    if path == "-":
        write_jsonl(events, sys.stdout)
        return
    try:
        with atomic_path(path) as temporary, open(temporary, "w", encoding="utf-8") as out:
            write_jsonl(events, out)
    except OSError as error:
        raise UsageError(f"--trace {path}: cannot write: {error.strerror or error}") from None

