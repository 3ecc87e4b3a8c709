"""``compare.py export``: one puzzle's CNF in DIMACS format (the sat backend's encodings)."""
from __future__ import annotations

import argparse
import sys

from models import Puzzle

from ..encodings.cnf import ENCODINGS
from ..encodings.dimacs import export_dimacs
from . import configs
from .common import EXIT_OK, EXIT_USAGE, UsageError, check_output_paths, input_options, read_inputs
from .outputs import write_atomic

NAME = "export"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    export = subparsers.add_parser("export", help="write a puzzle's CNF in DIMACS format",
                                   description="Write the CNF of one puzzle (the sat backend's encodings).")
    export.add_argument("path", metavar="PATH", help="puzzle file or '-'")
    export.add_argument("--encoding", metavar="NAME", help="CNF encoding (default: the sat backend's first)")
    export.add_argument("--solver", "--solvers", dest="configuration", metavar="CONFIG",
                        help="or the encoding of this configuration, e.g. sat:encoding=extended")
    export.add_argument("--index", type=int, default=0, metavar="I",
                        help="which puzzle of the file, 0-based (default: 0)")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    input_options(export)
    return export


def run(args: argparse.Namespace) -> int:
    encoding = _encoding(args.encoding, args.configuration)
    check_output_paths({"--output": args.output}, [args.path])
    puzzles, bad = read_inputs([args.path], args.fmt, args.hex)
    if bad and not puzzles:
        raise UsageError("no good puzzle to export")
    if not 0 <= args.index < len(puzzles):
        raise UsageError(f"--index {args.index} is out of range: {args.path} has "
                         f"{len(puzzles)} good puzzle(s)")
    cnf = export_cnf(puzzles[args.index], encoding)
    if len(puzzles) > 1:
        print(f"compare.py: exported puzzle {args.index} of {len(puzzles)} (choose with --index)",
              file=sys.stderr)
    if args.output:
        try:
            write_atomic(args.output, cnf)
        except OSError as error:
            raise UsageError(f"cannot write {args.output}: {error.strerror or error}") from None
    else:
        sys.stdout.write(cnf)
    return EXIT_USAGE if bad else EXIT_OK


def _encoding(encoding: str | None, text: str | None) -> str | None:
    """--encoding, or the encoding option of a configuration of the sat backend."""
    if text is None:
        return encoding
    configuration = configs.parse_one(text)
    if configuration.backend != "sat":
        raise UsageError(f"export writes the sat backend's CNF; {text!r} is a {configuration.backend} "
                         "configuration")
    chosen = configuration.options_dict.get("encoding")
    if encoding and chosen and encoding != chosen:
        raise UsageError(f"--encoding {encoding} contradicts {text!r}")
    return encoding or chosen


def export_cnf(puzzle: Puzzle, encoding: str | None) -> str:
    """The DIMACS CNF of a puzzle (DIMACS needs no SAT package)."""
    encoding = encoding or ENCODINGS[0]
    try:
        return export_dimacs(puzzle, encoding)
    except (ValueError, KeyError) as error:
        raise UsageError(f"cannot export with encoding {encoding!r}: {error}") from None
