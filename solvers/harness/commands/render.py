"""``compare.py render``: one puzzle and its solution as a picture, each cell coloured by how
it got its final value (given, naked single, hidden single, decision, forced move), the legend
counting the cells of each colour and the title the search's decisions in all."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...result import Result, Status
from ...trace import Event
from ..engine.terminal import printable
from ..pictures.picture import draw_board
from ..pictures.plot import PlotUnavailableError, require_matplotlib
from ..pictures.search_tree import search_counts
from ..pictures.steps import final_board
from ..results.outputs import atomic_path
from .common import EXIT_OK, Subcommands, UsageError, check_output_paths
from .tracing import chosen_puzzle, one_puzzle_options, traced_solve

FORMATS = ("png", "svg")


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    render = subparsers.add_parser(
        "render", help="draw a puzzle and its solution, coloured by the rule that filled each cell",
        description="Solve one puzzle with the human-style solver or the readable mrv, backtrack or "
                    "dlx and draw it: givens "
                    "in bold, every other cell coloured by the rule or decision that placed it, "
                    "with a legend; any size, diagonals shaded, jigsaw regions outlined. "
                    "Needs matplotlib (pip install 'sudoku-methods[plot]').")
    one_puzzle_options(render, "human, mrv, backtrack or dlx, with options as in run (default: mrv)")
    render.add_argument("-o", "--output", required=True, metavar="FILE.png|svg",
                        help="the picture to write")
    return render


def search_words(result: Result, events: list[Event]) -> str:
    """The status and what the search did in all, in words that do not claim it is all drawn:
    'solved: 41 decisions in all, 36 taken back' and a line saying what the colours show."""
    decides = [e for e in events if e["kind"] == "decide"]
    forced = sum(1 for e in decides if e.get("forced"))
    undone = sum(1 for e in events if e["kind"] == "backtrack")
    if not decides:
        return (f"{result.status.value} without a decision\n"
                "(each cell coloured by how it got its final value)")
    taken = f", {undone:,} taken back" if undone else ""
    return (f"{result.status.value}: {search_counts(len(decides) - forced, forced)}{taken}\n"
            "(each cell coloured by how it got its final value)")


def run(args: argparse.Namespace) -> int:
    check_output_paths({"-o": args.output}, [args.path])
    suffix = Path(args.output).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise UsageError(f"-o {args.output}: write a .png or .svg picture, not {suffix or 'no suffix'!r}")
    try:
        require_matplotlib()
    except PlotUnavailableError as error:
        raise UsageError(str(error)) from None
    puzzle = chosen_puzzle(args, "render")
    result, trace = traced_solve(puzzle, args.solver, args.timeout, "render")
    board = final_board(trace.events)
    if result.status is not Status.SOLVED:
        print(f"compare.py render: {result.status.value}"
              + (f" ({printable(result.message)})" if result.message else "") + "; drawing the grid as the "
              "search left it", file=sys.stderr)
    title = f"{puzzle.source}: {trace.events[0]['solver']}\n{search_words(result, trace.events)}"
    try:
        with atomic_path(args.output) as temporary:
            draw_board(board, temporary, title)
    except OSError as error:
        raise UsageError(f"-o {args.output}: cannot write: {error.strerror or error}") from None
    print(f"wrote {args.output}")
    return EXIT_OK
