"""``compare.py decode``: read an external SAT solver's answer back into a grid, and check it.

The CLI twin of ``decode_with_cnf``: the CNF file written by ``compare.py export`` names
its puzzle and encoding in its comments, which is all that is needed to turn the
solver's model into a grid. The grid is then checked with ``models.verify`` against that
puzzle. Exit status: 0 a valid grid (or the solver said UNSATISFIABLE), 1 the grid does
not solve the puzzle (or the solver gave no answer), 2 a file that cannot be read or
parsed (the message names the file and line).
"""
from __future__ import annotations

import argparse
import sys
from typing import BinaryIO

from models import Grid, Puzzle, as_model, to_grid, to_line, to_pretty, verify

from ...encodings.cnf import EncodingError, encode
from ...encodings.dimacs import (
    SATISFIABLE,
    UNSATISFIABLE,
    Answer,
    DimacsError,
    cnf_puzzle,
    read_answer,
    read_dimacs,
)
from .common import EXIT_OK, EXIT_WRONG, Subcommands, UsageError


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    decode = subparsers.add_parser(
        "decode", help="read a SAT solver's answer back into a grid and check it",
        description="Decode a SAT solver's answer to a CNF written by 'compare.py export' (the "
                    "puzzle and encoding come from the CNF's comments) and check the grid.",
        epilog="Exit status: 0 a valid grid or UNSAT, 1 the grid does not solve the puzzle or no "
               "answer, 2 an unreadable or malformed file.")
    decode.add_argument("answer", metavar="ANSWER",
                        help="the solver's output ('s'/'v' lines, MiniSat's result file, or literals), "
                             "or '-' for stdin")
    decode.add_argument("--cnf", required=True, metavar="FILE", help="the CNF file the answer answers")
    decode.add_argument("--format", choices=("pretty", "line", "grid"), default="pretty",
                        help="how to print the grid (default: pretty, boxed)")
    return decode


MAX_CNF_BYTES = 128 << 20
"""The largest CNF read: three times what 'compare.py export' writes for a 35x35 grid in the
extended encoding (a 25x25 one is 11 MB); /dev/zero stops here."""
MAX_ANSWER_BYTES = 16 << 20
"""The largest answer read: a model of a 35x35 grid is under 0.5 MB of 'v' lines, the rest
room for the solver's comments."""


def run(args: argparse.Namespace) -> int:
    if args.answer == "-" and args.cnf == "-":
        raise UsageError("the answer and the CNF cannot both be standard input ('-')")
    cnf_text = _read(args.cnf, MAX_CNF_BYTES, "a CNF")
    answer_text = _read(args.answer, MAX_ANSWER_BYTES, "an answer")
    try:
        puzzle, encoding = cnf_puzzle(read_dimacs(cnf_text))
    except DimacsError as error:
        raise UsageError(f"{args.cnf}: {error}") from None
    try:
        answer = read_answer(answer_text)
    except DimacsError as error:
        raise UsageError(f"{_name(args.answer)}: {error}") from None
    if answer.status == UNSATISFIABLE:
        print(f"{_name(args.answer)}: the solver says UNSATISFIABLE: the puzzle has no solution")
        return EXIT_OK
    if answer.status != SATISFIABLE:
        print(f"{_name(args.answer)}: the solver gave no answer ({answer.status}): nothing to decode")
        return EXIT_WRONG
    grid, problems = _decode(answer, puzzle, encoding)
    if grid is None:
        print(f"DOES NOT MATCH the CNF in {args.cnf} (is it the answer to that file?): "
              + _listed(problems))
        return EXIT_WRONG
    print(_shown(puzzle, grid, args.format))
    problems += verify(puzzle, grid).problems
    if problems:
        print(f"DOES NOT MATCH the puzzle in {args.cnf}: " + _listed(problems))
        return EXIT_WRONG
    print(f"valid: the grid keeps the {puzzle.num_givens} givens of the puzzle in {args.cnf} "
          f"and every group differs ({encoding} encoding)")
    return EXIT_OK


def _decode(answer: Answer, puzzle: Puzzle, encoding: str) -> tuple[Grid | None, list[str]]:
    """The grid (None if the model describes none) and what in the model contradicts the CNF's
    puzzle: variables beyond the file's, given cells set to another value (decoding keeps givens)."""
    cnf = encode(as_model(puzzle), encoding)
    beyond = max((abs(lit) for lit in answer.literals), default=0)
    problems = [f"the answer names variable {beyond}, the CNF has {cnf.num_vars}"] \
        if beyond > cnf.num_vars else []
    true = [lit for lit in answer.literals if 0 < lit <= cnf.numbering.top]  # not cage selectors
    n = puzzle.n
    for lit in true:
        cell, value = cnf.numbering.cell_value(lit)
        given = puzzle.givens[cell]
        if given and value != given:
            problems.append(f"the model sets given {given} at row {cell // n + 1}, column "
                            f"{cell % n + 1} to {value}")
    try:
        return cnf.decode(true), problems
    except EncodingError as error:
        return None, [*problems, str(error)]


def _listed(problems: list[str], shown: int = 5) -> str:
    more = len(problems) - shown
    return "; ".join(problems[:shown]) + (f"; and {more} more" if more > 0 else "")


def _shown(puzzle: Puzzle, grid: Grid, fmt: str) -> str:
    solved = puzzle.with_givens(grid)
    if fmt == "line" and puzzle.n > 35:
        fmt = "grid"   # no symbols left beyond 35x35
    return {"pretty": to_pretty, "line": to_line, "grid": to_grid}[fmt](solved)


def _read(path: str, cap: int, what: str) -> str:
    """The text of a file ('-': standard input), read up to ``cap`` bytes: UsageError (exit 2)
    for a larger or endless one (/dev/zero), an unreadable one or one that is not UTF-8."""
    try:
        if path == "-":
            data = _read_capped(sys.stdin.buffer, cap)
        else:
            with open(path, "rb") as stream:
                data = _read_capped(stream, cap)
        if data is None:
            raise UsageError(f"{_name(path)}: more than {cap:,} bytes: too large for {what} "
                             f"(is it the right file?)")
        return data.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"{_name(path)}: cannot read: {getattr(error, 'strerror', None) or error}") from None


def _read_capped(stream: BinaryIO, cap: int) -> bytes | None:
    """Up to ``cap`` bytes of a stream, or None if it holds more."""
    chunks, size = [], 0
    while size <= cap and (chunk := stream.read(min(1 << 20, cap + 1 - size))):
        chunks.append(chunk)
        size += len(chunk)
    return None if size > cap else b"".join(chunks)


def _name(path: str) -> str:
    return "<stdin>" if path == "-" else path
