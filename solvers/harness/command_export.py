"""``compare.py export``: one puzzle's CNF in DIMACS format (the sat backend's encodings)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from models import Puzzle

from ..encodings.cnf import ENCODINGS
from ..encodings.dimacs import export_dimacs
from .common import EXIT_OK, EXIT_USAGE, UsageError, input_options, read_inputs

NAME = "export"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    export = subparsers.add_parser("export", help="write a puzzle's CNF in DIMACS format",
                                   description="Write the CNF of one puzzle (the sat backend's encodings).")
    export.add_argument("path", metavar="PATH", help="puzzle file or '-'")
    export.add_argument("--encoding", metavar="NAME", help="CNF encoding (default: the sat backend's first)")
    export.add_argument("--index", type=int, default=0, metavar="I",
                        help="which puzzle of the file, 0-based (default: 0)")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    input_options(export)
    return export


def run(args: argparse.Namespace) -> int:
    puzzles, bad = read_inputs([args.path], args.fmt, args.hex)
    if bad and not puzzles:
        raise UsageError("no good puzzle to export")
    if not 0 <= args.index < len(puzzles):
        raise UsageError(f"--index {args.index} is out of range: {args.path} has "
                         f"{len(puzzles)} good puzzle(s)")
    cnf = export_cnf(puzzles[args.index], args.encoding)
    if len(puzzles) > 1:
        print(f"compare.py: exported puzzle {args.index} of {len(puzzles)} (choose with --index)",
              file=sys.stderr)
    if args.output:
        try:
            Path(args.output).write_text(cnf, encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write {args.output}: {error.strerror or error}") from None
    else:
        sys.stdout.write(cnf)
    return EXIT_USAGE if bad else EXIT_OK


def export_cnf(puzzle: Puzzle, encoding: str | None) -> str:
    """The DIMACS CNF of a puzzle (DIMACS needs no SAT package)."""
    encoding = encoding or ENCODINGS[0]
    try:
        return export_dimacs(puzzle, encoding)
    except (ValueError, KeyError) as error:
        raise UsageError(f"cannot export with encoding {encoding!r}: {error}") from None
