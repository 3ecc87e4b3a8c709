"""``compare.py export``: one puzzle's CNF in DIMACS format (the sat backend's encodings)."""
from __future__ import annotations

import argparse
import sys

from models import Puzzle

from ... import registry
from ...encodings.cnf import ENCODINGS
from ...encodings.dimacs import export_dimacs
from ..engine import configs
from ..results.outputs import write_atomic
from .common import (
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    check_output_paths,
    input_options,
    read_inputs,
)

CNF_BACKENDS = ("sat", "pysat", "dimacs")
"""The backends that solve the CNF encodings (solvers/encodings/cnf.py)."""


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
    """--encoding, or the encoding option of a configuration of a CNF backend."""
    if text is None:
        return encoding
    configuration = configs.parse_one(text)
    if configuration.backend not in CNF_BACKENDS:
        raise UsageError(f"export writes the CNF of {', '.join(CNF_BACKENDS)}; {text!r} is a "
                         f"{configuration.backend} configuration")
    chosen = configuration.options_dict.get("encoding")
    if encoding and chosen and encoding != chosen:
        raise UsageError(f"--encoding {encoding} contradicts {text!r}")
    return encoding or chosen or _default_encoding(configuration.backend)


def _default_encoding(backend: str) -> str | None:
    """The backend's own default encoding (pysat's is not sat's), if it can be loaded."""
    try:
        return registry.get(backend).encodings[0]
    except (registry.BackendUnavailableError, IndexError):
        return None


def export_cnf(puzzle: Puzzle, encoding: str | None) -> str:
    """The DIMACS CNF of a puzzle (DIMACS needs no SAT package)."""
    encoding = encoding or ENCODINGS[0]
    try:
        return export_dimacs(puzzle, encoding)
    except (ValueError, KeyError) as error:
        raise UsageError(f"cannot export with encoding {encoding!r}: {error}") from None
