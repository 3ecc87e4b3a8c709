"""``compare.py export``: one puzzle's model for another solver (a CNF in DIMACS format, the
sat backend's encodings; a MiniZinc model, the minizinc backend's; an answer set program,
the asp backend's), or puzzles converted to another format: f-puzzles JSON or links, line,
grid."""
from __future__ import annotations

import argparse
import os
import resource
import sys
from typing import Any

from models import Puzzle, PuzzleError, as_model, to_fpuzzles_json, to_fpuzzles_link, to_grid, to_line
from models.symbols import MAX_SYMBOL_SIZE

from ... import registry
from ...encodings.asp import program_text
from ...encodings.cnf import ENCODINGS, clause_count
from ...encodings.dimacs import export_dimacs
from ...encodings.minizinc import model_text
from ...options import OptionError
from ..engine import configs
from ..results.outputs import write_atomic
from .common import (
    EXIT_OK,
    EXIT_USAGE,
    PUZZLE_HELP,
    Subcommands,
    UsageError,
    check_output_paths,
    find_inputs,
    input_options,
    pick_puzzle,
    puzzle_option,
    read_inputs,
    retired_option,
)

FORMATS = ("dimacs", "minizinc", "asp", "fpuzzles", "fpuzzles-link", "line", "grid")
"""What export writes: one puzzle's model for a solver, or the puzzles themselves in a puzzle format."""
CNF_BACKENDS = ("sat", "pysat", "dimacs")
"""The backends that solve the CNF encodings (solvers/encodings/cnf.py)."""
MODEL_BACKENDS = {"dimacs": CNF_BACKENDS, "minizinc": ("minizinc",), "asp": ("asp",)}
"""Each model format -> the backends whose model it is (--solver names one of them)."""


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    export = subparsers.add_parser("export", help="write a puzzle's CNF (DIMACS), MiniZinc model or "
                                                  "answer set program, or convert puzzles to "
                                                  "f-puzzles, line or grid format",
                                   description="Write the model of one puzzle for another solver: its CNF "
                                               "(the sat backend's encodings), with --format minizinc a "
                                               "MiniZinc model (the minizinc backend's; it prints the "
                                               "solution in the line format), with --format asp an "
                                               "answer set program for clingo (the asp backend's). Or "
                                               "with --format write puzzles in another format: f-puzzles "
                                               "JSON (one document a line), f-puzzles links, line or grid.")
    export.add_argument("path", metavar="PATH", help="puzzle file or '-'")
    export.add_argument("--encoding", metavar="NAME", help="CNF encoding (default: the sat backend's "
                        "first), or the asp encoding (basic, extended)")
    export.add_argument("--solver", "--solvers", dest="configuration", metavar="CONFIG",
                        help="or the model of this configuration, e.g. sat:encoding=extended, "
                             "minizinc:propagation=bounds:search=first_fail, asp:encoding=extended")
    puzzle_option(export, default=None,
                  help_text=f"{PUZZLE_HELP} (default: the first for dimacs, minizinc and asp, every "
                            "puzzle for the other formats)")
    retired_option(export, "--index", "--puzzle", offset=1,
                   why="this option counted puzzles from 0 and is gone; every command now picks a "
                       "puzzle with --puzzle K, counted from 1")
    export.add_argument("--format", dest="out_format", choices=FORMATS, default="dimacs",
                        help="dimacs (default: the CNF), minizinc (a .mzn model), asp (a clingo "
                             "program), fpuzzles (JSON, one document a line), fpuzzles-link, line or grid")
    export.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    input_options(export)
    return export


def run(args: argparse.Namespace) -> int:
    if args.out_format not in MODEL_BACKENDS and (args.encoding or args.configuration):
        raise UsageError(f"--encoding and --solver choose a model; --format {args.out_format} writes "
                         "puzzles, not a model")
    if args.out_format == "dimacs":
        encoding = _encoding(args.encoding, args.configuration)
    elif args.out_format in MODEL_BACKENDS:
        options = _model_options(args.out_format, args.encoding, args.configuration)
    check_output_paths({"--output": args.output}, [args.path])
    bad: list[PuzzleError] = []
    if args.puzzle is not None:
        (path,) = find_inputs([args.path])
        puzzles = [pick_puzzle(path, args.puzzle, args.fmt, args.hex)]
    else:
        puzzles, bad = read_inputs([args.path], args.fmt, args.hex)
        if bad and not puzzles:
            raise UsageError("no good puzzle to export")
    if args.out_format in MODEL_BACKENDS:
        text = export_cnf(puzzles[0], encoding) if args.out_format == "dimacs" else \
            export_model(puzzles[0], args.out_format, options)
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


def _model_options(out_format: str, encoding: str | None, text: str | None) -> dict[str, Any]:
    """The options of the minizinc or asp backend that shape its model: from --solver (a
    configuration of that backend), and --encoding for asp; each checked against the
    backend's declaration, the defaults for the rest. Writing a model needs neither the
    solver's program nor its package."""
    backend = MODEL_BACKENDS[out_format][0]
    declaration = registry.get(backend).declaration
    items: list[tuple[str, str]] = []
    if text is not None:
        _, named, items = configs.split_one(text)
        if named != backend:
            raise UsageError(f"--format {out_format} writes the {backend} backend's model; {text!r} "
                             f"configures {named}")
    if encoding is not None:
        if "encoding" not in declaration.by_name:
            raise UsageError(f"the {backend} backend has no encoding option; choose its model with "
                             f"--solver, e.g. minizinc:propagation=bounds:search=first_fail")
        if any(name == "encoding" and value != encoding for name, value in items):
            raise UsageError(f"--encoding {encoding} contradicts {text!r}")
        items = [item for item in items if item[0] != "encoding"] + [("encoding", encoding)]
    try:
        return declaration.check(declaration.parse(items))
    except OptionError as error:
        raise UsageError(f"cannot write the {backend} model: {error}") from None


def export_model(puzzle: Puzzle, out_format: str, options: dict[str, Any]) -> str:
    """One puzzle's MiniZinc model or answer set program, as the backend solves it."""
    model, title = as_model(puzzle), str(puzzle.source)
    if out_format == "minizinc":
        return model_text(model, options["propagation"], options["search"], title=title)
    return program_text(model, options["encoding"], title=title)


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


def export_cnf(puzzle: Puzzle, encoding: str | None) -> str:
    """The DIMACS CNF of a puzzle (DIMACS needs no SAT package)."""
    encoding = encoding or ENCODINGS[0]
    try:
        _check_cnf_fits(puzzle, encoding)
        return export_dimacs(puzzle, encoding)
    except (ValueError, KeyError) as error:
        raise UsageError(f"cannot export with encoding {encoding!r}: {error}") from None


BYTES_PER_CLAUSE = 270
"""Memory that building a CNF and its text takes per clause, measured (a 40x40 Latin square:
3.75 million clauses, 985 MB at the peak; its minimal encoding 2.50 million, 672 MB)."""


def _check_cnf_fits(puzzle: Puzzle, encoding: str) -> None:
    """UsageError (exit 2), before the CNF is built, when building it would take more memory
    than this process may use or the machine has free (a 64x64 Latin square: 24.8 million
    clauses, about 6.7 GB)."""
    left = memory_left()
    if left is None or puzzle.n < 25:
        return
    clauses = clause_count(as_model(puzzle), encoding)
    if clauses * BYTES_PER_CLAUSE > left:
        raise UsageError(f"{puzzle.source}: its {encoding} CNF has {clauses:,} clauses, about "
                         f"{clauses * BYTES_PER_CLAUSE / 2 ** 30:.1f} GiB to build, and this process may "
                         f"use {left / 2 ** 30:.1f} GiB more: use a machine with more memory, or "
                         "--format minizinc or asp (a model of a few lines)")


def memory_left() -> int | None:
    """Bytes this process may still take: the least of what its address-space limit leaves
    and the machine's available memory; None where neither is known."""
    known = []
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    try:
        with open("/proc/self/statm") as handle:
            used = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        if soft != resource.RLIM_INFINITY:
            known.append(soft - used)
        with open("/proc/meminfo") as handle:
            known += [int(line.split()[1]) * 1024 for line in handle if line.startswith("MemAvailable:")]
    except (OSError, ValueError, IndexError):
        pass
    return min(known) if known else None
