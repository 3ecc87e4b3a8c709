"""``compare.py tree``: the search tree of one traced solve as an SVG picture (or an HTML page
holding it): decisions as nodes, values on the edges, contradictions and the solution path
marked, a big tree summarised with collapsed subtrees that say their size."""
from __future__ import annotations

import argparse
import os
from html import escape
from pathlib import Path

from models import Puzzle, PuzzleError, read_text

from ...trace import Event, TraceError, read_jsonl
from ..pictures.search_tree import search_counts
from ..pictures.tree_svg import search_tree
from ..results.outputs import write_atomic
from .common import EXIT_OK, Subcommands, UsageError, check_output_paths, positive_int
from .tracing import TRACED, chosen_puzzle, one_puzzle_options, solver_named, traced_solve

FORMATS = ("svg", "html")
DEFAULT_BUDGET = 300
"""Nodes drawn at most: a few hundred stay readable; beyond that subtrees are collapsed."""


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    tree = subparsers.add_parser(
        "tree", help="draw the search tree of one solve (SVG): decisions, values, dead ends",
        description="Solve one puzzle with a solver that records its steps (the human-style "
                    "solver, or the readable mrv, backtrack or dlx) and draw its search "
                    "tree top down: each node a decision (inside it, the cell its children "
                    "try), each edge the value tried, contradictions and solutions marked, the "
                    "path to the solution thick, a legend. A tree of more than --max-nodes "
                    "nodes is drawn down to a depth, with the rest collapsed into triangles "
                    "that say how many nodes they hide. PATH may also be a puzzle in line "
                    "format, e.g. '1.3...2..1...3.2', or a trace written by 'explain --trace' "
                    "(FILE.jsonl: drawn as it is, --solver unused).")
    one_puzzle_options(tree, f"{', '.join(TRACED)}, with options as in run (default: mrv)")
    tree.add_argument("-o", "--output", required=True, metavar="FILE.svg|html",
                      help="the picture to write (.html: a page holding the SVG)")
    tree.add_argument("--max-nodes", type=positive_int, default=DEFAULT_BUDGET, metavar="N",
                      help=f"draw at most about N nodes, collapsing subtrees beyond "
                           f"(default: {DEFAULT_BUDGET})")
    return tree


def run(args: argparse.Namespace) -> int:
    suffix = Path(args.output).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise UsageError(f"-o {args.output}: write a .svg picture or an .html page, not "
                         f"{suffix or 'no suffix'!r}")
    events, title = _saved_trace(args) if args.path.endswith(".jsonl") else _solved(args)
    drawing = search_tree(events, title, args.max_nodes)
    summary, tree, picture = drawing.summary, drawing.summary.tree, drawing.svg
    if suffix == "html":
        picture = (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
                   f"search tree: {escape(title)}</title></head>\n<body>\n{picture}</body></html>\n")
    try:
        write_atomic(args.output, picture)
    except OSError as error:
        raise UsageError(f"-o {args.output}: cannot write: {error}") from None
    drawn = (f"{summary.drawn():,} drawn, the rest collapsed" if summary.collapsed else "all drawn")
    print(f"wrote {args.output}: {search_counts(tree.nodes - tree.forced, tree.forced, '')} ({drawn})")
    return EXIT_OK


def _solved(args: argparse.Namespace) -> tuple[list[Event], str]:
    """The events of solving PATH's puzzle with --solver, and a title saying how it ended."""
    puzzle = _puzzle(args)
    result, trace = traced_solve(puzzle, args.solver, args.timeout, args.uniqueness, "tree")
    status = result.status.value + (f" ({result.message})" if result.message else "")
    return trace.events, f"{puzzle.source}: {solver_named(trace.events[0])}, {status}"


def _saved_trace(args: argparse.Namespace) -> tuple[list[Event], str]:
    """The events of a trace written by ``explain --trace``, and a title naming it."""
    if not Path(args.path).is_file():
        raise UsageError(f"{args.path}: no such file")
    check_output_paths({"-o": args.output}, [args.path])
    try:
        events = read_jsonl(args.path)
    except (TraceError, UnicodeDecodeError) as error:
        raise UsageError(str(error)) from None
    return events, f"{Path(args.path).name}: {events[0]['solver']}"


def _puzzle(args: argparse.Namespace) -> Puzzle:
    """The puzzle PATH names: a file (its --puzzle-th), or a puzzle written out in line format."""
    path = args.path
    if path == "-" or os.path.exists(path) or "/" in path or os.sep in path:
        check_output_paths({"-o": args.output}, [path])
        return chosen_puzzle(args, "tree")
    try:
        return chosen_puzzle(args, "tree")
    except UsageError as missing:
        try:
            batch = read_text(path, name="PATH", fmt="line" if args.fmt == "auto" else args.fmt,
                              hex16=args.hex)
        except PuzzleError as error:  # e.g. a --format that cannot read one line
            raise UsageError(f"{missing}, nor a puzzle in line format: {error}") from None
        if batch.errors or len(batch.puzzles) != 1:
            why = batch.errors[0] if batch.errors else f"{len(batch.puzzles)} puzzles"
            raise UsageError(f"{missing}, nor a puzzle in line format: {why}") from None
    if args.puzzle != 1:
        raise UsageError(f"--puzzle {args.puzzle}: PATH is one puzzle, not a file")
    return batch.puzzles[0]
