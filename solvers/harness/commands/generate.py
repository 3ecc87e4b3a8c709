"""The ``generate`` command: write unique puzzles in line format, with their difficulty.

    python compare.py generate --size 16 --count 20 --seed 1 [--givens G] [--symmetric]
                               [--variant x|jigsaw] [--tries K] [-o FILE]

The same command runs as ``python -m solvers.harness.commands.generate``.
Exit status: 0 written, 1 a request could not be met (e.g. too few givens), 2 bad usage.
"""
from __future__ import annotations

import argparse
import shlex
import sys
import time
from typing import TextIO

from tqdm import tqdm

from models.symbols import MAX_SYMBOL_SIZE

from ...generate.generator import (
    MEASURE_NODE_LIMIT,
    VARIANTS,
    GenerationError,
    check_request,
    generate,
)
from ..results.outputs import atomic_path


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``generate`` subcommand (its handler is ``args.func = run``)."""
    parser = subparsers.add_parser(
        "generate", help="generate puzzles with a unique solution",
        description="Generate puzzles with a unique solution: a random complete grid, then clues "
                    "removed while the solution stays unique, down to a locally minimal puzzle "
                    "or --givens. Writes line format with each puzzle's difficulty as a comment.")
    add_generate_arguments(parser)
    parser.set_defaults(func=run)
    return parser


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, default=9, help="side n: 4, 6, 9, 12, 16, 25, ... (default 9)")
    parser.add_argument("--count", type=int, default=1, help="how many puzzles (default 1)")
    parser.add_argument("--seed", default="0",
                        help="seed; puzzle i uses '<seed>/<i>', so runs are reproducible (default 0)")
    parser.add_argument("--givens", type=int, default=None,
                        help="stop at exactly this many givens (default: locally minimal)")
    parser.add_argument("--symmetric", action="store_true",
                        help="remove clues in pairs symmetric about the centre")
    parser.add_argument("--variant", choices=VARIANTS, default="standard",
                        help="standard (default), x (diagonals) or jigsaw (random regions)")
    parser.add_argument("--tries", type=int, default=1,
                        help="make K puzzles per output puzzle and keep the hardest (most mrv nodes)")
    parser.add_argument("--measure-limit", type=int, default=MEASURE_NODE_LIMIT,
                        help=f"mrv decisions allowed when measuring difficulty (default {MEASURE_NODE_LIMIT}); "
                             "beyond it the comment says mrv_nodes>LIMIT")
    parser.add_argument("--max-mrv-nodes", type=int, default=None,
                        help="replace puzzles that mrv cannot settle (count to two) within this many "
                             "decisions, for sets every method should finish")
    parser.add_argument("-o", "--output", default="-", help="file to write (default: stdout)")


def command_line(args: argparse.Namespace) -> str:
    """The canonical command that reproduces this run."""
    words = ["python", "compare.py", "generate", "--size", str(args.size), "--count", str(args.count),
             "--seed", str(args.seed)]
    if args.givens is not None:
        words += ["--givens", str(args.givens)]
    if args.symmetric:
        words.append("--symmetric")
    if args.variant != "standard":
        words += ["--variant", args.variant]
    if args.tries != 1:
        words += ["--tries", str(args.tries)]
    if args.measure_limit != MEASURE_NODE_LIMIT:
        words += ["--measure-limit", str(args.measure_limit)]
    if args.max_mrv_nodes is not None:
        words += ["--max-mrv-nodes", str(args.max_mrv_nodes)]
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    """Generate and write the puzzles; the exit status (0, 1 request not met, 2 bad usage)."""
    try:
        check_request(args.size, args.givens, args.symmetric, args.variant)
        if args.size > MAX_SYMBOL_SIZE:
            raise ValueError(f"--size {args.size}: generate writes line format, whose symbols "
                             f"(1-9, A-Z) go up to {MAX_SYMBOL_SIZE}x{MAX_SYMBOL_SIZE}")
        if args.count < 1 or args.tries < 1:
            raise ValueError("--count and --tries must be at least 1")
        if args.max_mrv_nodes is not None and args.max_mrv_nodes < 0:
            raise ValueError("--max-mrv-nodes must be 0 or more")
    except ValueError as error:
        print(f"generate: {error}", file=sys.stderr)
        return 2
    if args.output == "-":
        return _write_puzzles(args, sys.stdout)
    try:  # written whole, through a temporary file renamed over the output at the end
        with atomic_path(args.output) as temporary, open(temporary, "w", encoding="utf-8") as out:
            return _write_puzzles(args, out)
    except OSError as error:
        print(f"generate: cannot write {args.output}: {error.strerror or error}", file=sys.stderr)
        return 2


def _write_puzzles(args: argparse.Namespace, out: TextIO) -> int:
    limit = args.measure_limit if args.measure_limit > 0 else None
    out.write(f"# {command_line(args)}\n"
              f"# seed {args.seed}: puzzle i is generated from seed '{args.seed}/i'; unique solutions "
              f"(proved while removing clues, confirmed by mrv counting to two)\n"
              "# after each puzzle: givens, singles (naked+hidden singles alone solve it), "
              "mrv_nodes (mrv decisions to solve and prove unique), minimal=yes if locally minimal\n")
    out.flush()
    started = time.perf_counter()
    bar = tqdm(total=args.count, unit="puzzle", file=sys.stderr, disable=not sys.stderr.isatty())
    try:
        for index in range(args.count):
            made = generate(args.size, seed=f"{args.seed}/{index}", givens=args.givens,
                            symmetric=args.symmetric, variant=args.variant, tries=args.tries,
                            measure_limit=limit, max_mrv_nodes=args.max_mrv_nodes)
            out.write(made.line() + "\n")
            out.flush()
            bar.update()
    except GenerationError as error:
        print(f"generate: {error}", file=sys.stderr)
        return 1
    finally:
        bar.close()
    elapsed = time.perf_counter() - started
    print(f"generate: {args.count} puzzle(s) in {elapsed:.1f} s "
          f"({elapsed / args.count:.2f} s each)", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m solvers.harness.commands.generate",
                                     description="Generate puzzles with a unique solution "
                                                 "(the 'generate' command of compare.py).")
    add_generate_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
