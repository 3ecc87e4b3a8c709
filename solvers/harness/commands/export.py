"""``compare.py export``: one puzzle's CNF in DIMACS format (the sat backend's encodings), or
puzzles converted to another format: f-puzzles JSON or links, line, grid."""
from __future__ import annotations

import argparse
import sys

from models import Model, Puzzle, PuzzleError, to_fpuzzles_json, to_fpuzzles_link, to_grid, to_line
from models.symbols import MAX_SYMBOL_SIZE

from ... import registry
from ...encodings.cnf import ENCODINGS, clause_estimate
from ...encodings.dimacs import export_dimacs
from ..engine import configs
from ..results.outputs import write_atomic
from .common import (
    EXIT_OK,
    EXIT_USAGE,
    PUZZLE_HELP,
    UsageError,
    check_output_paths,
    find_inputs,
    input_options,
    pick_puzzle,
    puzzle_option,
    read_inputs,
    retired_option,
)

FORMATS = ("dimacs", "fpuzzles", "fpuzzles-link", "line", "grid")
"""What export writes: a CNF, or the puzzles themselves in a puzzle format."""
CNF_BACKENDS = ("sat", "pysat", "dimacs")
"""The backends that solve the CNF encodings (solvers/encodings/cnf.py)."""


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    export = subparsers.add_parser("export", help="write a puzzle's CNF in DIMACS format, or convert "
                                                  "puzzles to f-puzzles, line or grid format",
                                   description="Write the CNF of one puzzle (the sat backend's encodings), "
                                               "or with --format write puzzles in another format: "
                                               "f-puzzles JSON (one document a line), f-puzzles links, "
                                               "line or grid.")
    export.add_argument("path", metavar="PATH", help="puzzle file or '-'")
    export.add_argument("--encoding", metavar="NAME", help="CNF encoding (default: the sat backend's first)")
    export.add_argument("--solver", "--solvers", dest="configuration", metavar="CONFIG",
                        help="or the encoding of this configuration, e.g. sat:encoding=extended")
    puzzle_option(export, default=None,
                  help_text=f"{PUZZLE_HELP} (default: the first for dimacs, every puzzle for the "
                            "other formats)")
    retired_option(export, "--index", "--puzzle", offset=1,
                   why="this option counted puzzles from 0 and is gone; every command now picks a "
                       "puzzle with --puzzle K, counted from 1")
    export.add_argument("--format", dest="out_format", choices=FORMATS, default="dimacs",
                        help="dimacs (default: the CNF), fpuzzles (JSON, one document a line), "
                             "fpuzzles-link, line or grid")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    input_options(export)
    return export


def run(args: argparse.Namespace) -> int:
    if args.out_format != "dimacs" and (args.encoding or args.configuration):
        raise UsageError(f"--encoding and --solver choose a CNF; --format {args.out_format} writes "
                         "puzzles, not a CNF")
    encoding = _encoding(args.encoding, args.configuration) if args.out_format == "dimacs" else None
    check_output_paths({"--output": args.output}, [args.path])
    bad: list[PuzzleError] = []
    if args.puzzle is not None:
        (path,) = find_inputs([args.path])
        puzzles = [pick_puzzle(path, args.puzzle, args.fmt, args.hex)]
    else:
        puzzles, bad = read_inputs([args.path], args.fmt, args.hex)
        if bad and not puzzles:
            raise UsageError("no good puzzle to export")
    if args.out_format == "dimacs":
        text = export_cnf(puzzles[0], encoding)
        if len(puzzles) > 1 or bad:
            print(f"compare.py: exported puzzle {puzzles[0].source.index + 1} of {len(puzzles) + len(bad)} "
                  "(choose with --puzzle K, counted from 1)", file=sys.stderr)
    else:
        text = export_puzzles(puzzles, args.out_format)
    cnf = text
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


def export_puzzles(puzzles: list[Puzzle], out_format: str) -> str:
    """The puzzles in a puzzle format: one a line (f-puzzles JSON, links, line format), or
    grids separated by blank lines."""
    if out_format == "line":
        too_big = next((p for p in puzzles if p.n > MAX_SYMBOL_SIZE), None)
        if too_big is not None:
            raise UsageError(f"{too_big.source}: a {too_big.n}x{too_big.n} puzzle has no line format "
                             f"(symbols go up to {MAX_SYMBOL_SIZE}x{MAX_SYMBOL_SIZE}); use --format grid")
    if out_format == "grid":
        return "\n\n".join(map(to_grid, puzzles)) + "\n"
    write = {"fpuzzles": to_fpuzzles_json, "fpuzzles-link": to_fpuzzles_link, "line": to_line}[out_format]
    return "".join(write(puzzle) + "\n" for puzzle in puzzles)


MAX_CLAUSES = 10_000_000
"""The most clauses export builds: about 1 GB of memory for the clauses and their text (a 49x49
Latin square's 8.5 million fit; a 64x64 one's 24.8 million do not)."""


def export_cnf(puzzle: Puzzle, encoding: str | None) -> str:
    """The DIMACS CNF of a puzzle (DIMACS needs no SAT package); UsageError, before building
    anything, for a CNF of more than MAX_CLAUSES clauses."""
    encoding = encoding or ENCODINGS[0]
    estimate = clause_estimate(Model.from_puzzle(puzzle), encoding)
    if estimate > MAX_CLAUSES:
        raise UsageError(f"the {encoding} CNF of this {puzzle.geometry.label()} has up to {estimate:,} "
                         f"clauses (some {estimate * 14 // 10**6:,} MB of DIMACS text); export builds at "
                         f"most {MAX_CLAUSES:,}: a smaller grid, or fewer open cells under --encoding "
                         "simplified")
    try:
        return export_dimacs(puzzle, encoding)
    except (ValueError, KeyError) as error:
        raise UsageError(f"cannot export with encoding {encoding!r}: {error}") from None
