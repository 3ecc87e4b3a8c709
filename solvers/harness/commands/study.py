"""``compare.py study consistency [PATHS]``: the classic studies, each as one table.

consistency: Simonis (2005): per consistency level and puzzle set, the puzzles that
             propagation alone settles (every cell fixed, no search) and the mean number
             of open cells it fixes. The counts must rise along the chains naked <=
             singles <= locked, singles <= gac and bounds <= gac <= sac (by definition);
             a fall is reported as a bug (exit 1).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..engine.terminal import printable
from ..results import consistency_study
from ..results.outputs import write_atomic
from ..results.provenance import environment
from ..results.tables import TEXT_FORMATS, text_table
from .common import (
    EXIT_OK,
    EXIT_USAGE,
    EXIT_WRONG,
    Subcommands,
    UsageError,
    bundled_puzzles,
    check_output_paths,
    input_options,
    positive_int,
    read_inputs,
    shown,
)
from .progress import Progress

STUDIES = ("consistency",)
DEFAULT_SETS = ("top95.txt", "forum_hardest_1106.txt", "16x16_gecode_janko.txt")


def levels_list(text: str) -> tuple[str, ...]:
    """A comma-separated list of consistency levels, each one of consistency_study.LEVELS."""
    levels = tuple(word.strip() for word in text.split(",") if word.strip())
    unknown = [level for level in levels if level not in consistency_study.LEVELS]
    if unknown or not levels:
        raise argparse.ArgumentTypeError(
            f"unknown level {', '.join(map(repr, unknown)) or 'none given'}; "
            f"valid: {', '.join(consistency_study.LEVELS)}")
    return levels


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    study = subparsers.add_parser("study", help="a classic CSP study as one table (consistency)",
                                  description=__doc__.split("\n", 2)[2],
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    study.add_argument("study", choices=STUDIES)
    study.add_argument("paths", nargs="*", metavar="PATH",
                       help=f"puzzle files, one set each (default: the bundled "
                            f"{', '.join(DEFAULT_SETS)})")
    study.add_argument("--levels", type=levels_list, default=consistency_study.DEFAULT_LEVELS,
                       metavar="L1,L2,...", help=f"the levels, rows of the table (default: all: "
                                                 f"{','.join(consistency_study.LEVELS)})")
    study.add_argument("--first", type=positive_int, default=None, metavar="N",
                       help="only the first N puzzles of each file")
    study.add_argument("--format", choices=TEXT_FORMATS, default="text",
                       help="text (default), a Markdown table or a LaTeX tabular (booktabs)")
    study.add_argument("--json", metavar="FILE",
                       help="also write the per-puzzle counts as JSON (bench/bench_consistency.py "
                            "draws the figure from it)")
    input_options(study)
    return study


def run(args: argparse.Namespace) -> int:
    paths = args.paths or [str(bundled_puzzles() / name) for name in DEFAULT_SETS]
    check_output_paths({"--json": args.json}, paths)
    sets, any_bad = [], False
    for path in paths:
        puzzles, bad = read_inputs([path], args.fmt, args.hex)
        any_bad |= bool(bad)
        if not puzzles:
            raise UsageError(f"{path}: no puzzle to study")
        sets.append((shown(Path(path)), puzzles[:args.first]))
    total = sum(len(puzzles) for _, puzzles in sets) * len(args.levels)
    with Progress(total, what="study") as progress:
        results = [consistency_study.measure(name, puzzles, args.levels, progress=progress.note,
                                             settled=progress.advance)
                   for name, puzzles in sets]
    print_table(results, args.levels, args.format)
    if args.json:
        document = {"provenance": environment(), **consistency_study.as_json(results)}
        write_atomic(args.json, json.dumps(document, indent=1) + "\n")
    wrong = [f"{r.name}: {level} settled puzzle {i + 1} on a grid the checker rejects"
             for r in results for level in args.levels
             for i, o in enumerate(r.outcomes[level]) if o.wrong]
    breaks = [line for r in results for line in consistency_study.chain_breaks(r)]
    for line in wrong + breaks:
        print(f"compare.py study: {printable(line)}", file=sys.stderr)
    if wrong or breaks:
        return EXIT_WRONG
    return EXIT_USAGE if any_bad else EXIT_OK


def print_table(results: list[consistency_study.SetResult], levels: tuple[str, ...], fmt: str) -> None:
    """Levels down, sets across: settled/total and the mean open cells fixed."""
    headers = ["level", *(f"{r.name} ({len(r.outcomes[levels[0]])})" for r in results), "what it is"]
    rows = [[level, *(f"{r.settled(level)} settled, {r.mean_fixed(level):.1f} fixed "
                      f"({r.fixed_share(level):.0%})" for r in results),
             consistency_study.LEVELS[level]] for level in levels]
    print("puzzles settled by propagation alone (every cell fixed, no search), and the mean "
          "open cells fixed per puzzle (share of all open cells)", file=sys.stderr if fmt == "latex" else sys.stdout)
    print(text_table(headers, rows, [True] * len(headers), fmt))
