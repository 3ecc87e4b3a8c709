"""``compare.py render``: one puzzle and its solution as a picture, each cell coloured by how
it got its final value (given, naked single, hidden single, decision, forced move), the legend
counting the cells of each colour and the title the search's decisions in all; or, with
``--step N``, the grid just before step N with its candidates and that step's chain."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...result import Result, Status
from ...trace import Event, describe
from ..engine.terminal import printable
from ..pictures.chain_picture import draw_step
from ..pictures.picture import draw_board
from ..pictures.plot import PlotUnavailableError, require_matplotlib
from ..pictures.search_tree import search_counts
from ..pictures.steps import Board, changes, final_board
from ..results.outputs import atomic_path
from .common import EXIT_OK, Subcommands, UsageError, check_output_paths, positive_int
from .tracing import chosen_puzzle, one_puzzle_options, solver_named, traced_solve

FORMATS = ("png", "svg")


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    render = subparsers.add_parser(
        "render", help="draw a puzzle and its solution, coloured by the rule that filled each cell",
        description="Solve one puzzle with the human-style solver or the readable mrv, backtrack or "
                    "dlx and draw it: givens "
                    "in bold, every other cell coloured by the rule or decision that placed it, "
                    "with a legend; any size, diagonals shaded, jigsaw regions outlined. With "
                    "--step N, the grid just before step N of the solve (numbered as explain "
                    "numbers them) with every candidate pencilled and that step drawn: a chain's "
                    "strong links solid, its weak links dashed, the candidates it eliminates "
                    "struck out in red. Needs matplotlib (pip install 'sudoku-methods[plot]').")
    one_puzzle_options(render, "human, mrv, backtrack or dlx, with options as in run (default: mrv; "
                               "with --step, human, whose steps explain numbers)", default=None)
    render.add_argument("-o", "--output", required=True, metavar="FILE.png|svg",
                        help="the picture to write")
    render.add_argument("--step", type=positive_int, default=None, metavar="N",
                        help="draw step N (as explain numbers the steps) over the grid before it, "
                             "with its chain, instead of the solved grid")
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
    solver = args.solver or ("human" if args.step is not None else "mrv")
    result, trace = traced_solve(puzzle, solver, args.timeout, args.uniqueness, "render")
    if args.step is not None:
        return _render_step(args, puzzle.source, trace.events)
    board = final_board(trace.events)
    if result.status is not Status.SOLVED:
        print(f"compare.py render: {result.status.value}"
              + (f" ({printable(result.message)})" if result.message else "") + "; drawing the grid as the "
              "search left it", file=sys.stderr)
    title = f"{puzzle.source}: {solver_named(trace.events[0])}\n{search_words(result, trace.events)}"
    try:
        with atomic_path(args.output) as temporary:
            draw_board(board, temporary, title)
    except OSError as error:
        raise UsageError(f"-o {args.output}: cannot write: {error.strerror or error}") from None
    print(f"wrote {args.output}")
    return EXIT_OK


def _render_step(args: argparse.Namespace, source: object, events: list[Event]) -> int:
    """Draw step --step over the grid just before it."""
    steps = len(events) - 1
    if args.step > steps:
        raise UsageError(f"--step {args.step}: the solve has {steps:,} step{'' if steps == 1 else 's'}")
    board = Board.start(events[0])
    for _ in changes(board, events[1:args.step]):
        pass
    event = events[args.step]
    words = describe(event, board.model.n)
    title = f"{source}: step {args.step} of {steps:,}: {words}"
    try:
        with atomic_path(args.output) as temporary:
            draw_step(board, event, temporary, title)
    except OSError as error:
        raise UsageError(f"-o {args.output}: cannot write: {error.strerror or error}") from None
    links = len(event.get("links", []))
    print(f"wrote {args.output}: step {args.step} ({event.get('rule', event['kind'])}"
          + (f", a chain of {links} link{'' if links == 1 else 's'}" if links else "") + ")")
    return EXIT_OK
