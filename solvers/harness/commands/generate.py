"""The ``generate`` command: write unique puzzles in line format, with their difficulty.

    python compare.py generate --size 16 --count 20 --seed 1 [--givens G] [--symmetric]
                               [--variant x|jigsaw] [--tries K] [-o FILE]
    python compare.py generate --size 9 --variant killer [--killer-givens] [--max-cage K]
    python compare.py generate --size 20 --variant latin --holes 0.42     (QWH, satisfiable)

``--format`` writes line format (default), grids, or f-puzzles JSON (one document a line).

The same command runs as ``python -m solvers.harness.commands.generate``.
Exit status: 0 written, 1 a request could not be met (e.g. too few givens), 2 bad usage.
"""
from __future__ import annotations

import argparse
import shlex
import sys
import time
from typing import TextIO

from models import Puzzle, to_fpuzzles_json, to_grid, to_line
from models.geometry import MAX_SIZE, MIN_LATIN, valid_size
from models.symbols import MAX_SYMBOL_SIZE

from ...generate.generator import (
    MEASURE_NODE_LIMIT,
    VARIANTS,
    GenerationError,
    GridSearch,
    check_request,
    generate,
)
from ...generate.killer import KILLER_VARIANTS, generate_killer
from ...generate.qwh import qwh
from ..results.outputs import atomic_path
from .common import Subcommands, seconds, whole_number
from .progress import Progress

GRID_SECONDS = 60.0
"""How long finding one complete grid may take by default (--grid-timeout)."""

KILLERS = tuple("killer" if v == "standard" else f"{v}-killer" for v in KILLER_VARIANTS)
ALL_VARIANTS = (*VARIANTS, *KILLERS, "latin")
OUTPUT_FORMATS = ("line", "grid", "fpuzzles")
SUDOKU_ONLY = ("givens", "symmetric", "tries", "max_mrv_nodes")


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    """Add the ``generate`` subcommand (its handler is ``args.func = run``)."""
    parser = subparsers.add_parser(
        "generate", help="generate puzzles with a unique solution (Sudoku, killer) or QWH instances",
        description="Generate puzzles with a unique solution: a random complete grid, then clues "
                    "removed while the solution stays unique, down to a locally minimal puzzle "
                    "or --givens (killer: cages merged, or givens removed, while unique). "
                    "--variant latin --holes F makes quasigroup-with-holes instances (satisfiable, "
                    "not necessarily unique). Writes line format with each puzzle's difficulty as "
                    "a comment, grids, or f-puzzles JSON.")
    add_generate_arguments(parser)
    parser.set_defaults(func=run)
    return parser


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=whole_number, default=9,
                        help="side n: 4, 6, 9, 12, 16, 25, ... (default 9); latin: any from 2")
    parser.add_argument("--count", type=whole_number, default=1, help="how many puzzles (default 1)")
    parser.add_argument("--seed", default="0",
                        help="seed; puzzle i uses '<seed>/<i>', so runs are reproducible (default 0)")
    parser.add_argument("--givens", type=whole_number, default=None,
                        help="stop at exactly this many givens (default: locally minimal)")
    parser.add_argument("--symmetric", action="store_true",
                        help="remove clues in pairs symmetric about the centre")
    parser.add_argument("--variant", choices=ALL_VARIANTS, default="standard",
                        help="standard (default), x (diagonals), jigsaw (random regions), killer, "
                             "x-killer, jigsaw-killer (cages with totals), latin (QWH, with --holes)")
    parser.add_argument("--holes", type=float, default=None, metavar="FRACTION",
                        help="latin: the fraction of cells left empty, 0 to 1 (QWH instances)")
    parser.add_argument("--killer-givens", action="store_true",
                        help="killer: cages plus a few givens (givens removed while unique) "
                             "instead of cages only")
    parser.add_argument("--max-cage", type=whole_number, default=None, metavar="K",
                        help="killer: the largest cage in cells (default 5, less below 6x6)")
    parser.add_argument("--format", dest="out_format", choices=OUTPUT_FORMATS, default="line",
                        help="line (default: one puzzle a line, difficulty as a comment), grid, or "
                             "fpuzzles (one f-puzzles JSON document a line)")
    parser.add_argument("--tries", type=whole_number, default=1,
                        help="make K puzzles per output puzzle and keep the hardest (most mrv nodes)")
    parser.add_argument("--measure-limit", type=whole_number, default=MEASURE_NODE_LIMIT,
                        help=f"mrv decisions allowed when measuring difficulty (default {MEASURE_NODE_LIMIT}); "
                             "beyond it the comment says mrv_nodes>LIMIT")
    parser.add_argument("--max-mrv-nodes", type=whole_number, default=None,
                        help="replace puzzles that mrv cannot settle (count to two) within this many "
                             "decisions, for sets every method should finish")
    parser.add_argument("--grid-timeout", type=seconds, default=GRID_SECONDS, metavar="SECONDS",
                        help="give up when no complete grid is found in this long (a jigsaw draws "
                             "region maps until one can be filled; each that cannot is said on "
                             f"stderr; default {GRID_SECONDS:g})")
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
    if args.holes is not None:
        words += ["--holes", str(args.holes)]
    if args.killer_givens:
        words.append("--killer-givens")
    if args.max_cage is not None:
        words += ["--max-cage", str(args.max_cage)]
    if args.out_format != "line":
        words += ["--format", args.out_format]
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    """Generate and write the puzzles; the exit status (0, 1 request not met, 2 bad usage)."""
    try:
        _check_kind(args)
        if args.size > MAX_SYMBOL_SIZE and args.out_format == "line":
            raise ValueError(f"--size {args.size}: line format's symbols (1-9, A-Z) go up to "
                             f"{MAX_SYMBOL_SIZE}x{MAX_SYMBOL_SIZE}; choose --format grid or fpuzzles")
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


def _check_kind(args: argparse.Namespace) -> None:
    """ValueError for options that do not fit the variant (each says which variant it needs)."""
    defaults = {"givens": None, "symmetric": False, "tries": 1, "max_mrv_nodes": None}
    if args.variant in VARIANTS:
        check_request(args.size, args.givens, args.symmetric, args.variant)
    else:
        used = [name for name in SUDOKU_ONLY if getattr(args, name) != defaults[name]]
        if used:
            option = "--" + used[0].replace("_", "-")
            raise ValueError(f"{option} applies to the Sudoku variants ({', '.join(VARIANTS)}), "
                             f"not to {args.variant}")
    if args.variant == "latin":
        if args.holes is None:
            raise ValueError("--variant latin makes quasigroup-with-holes instances: give --holes "
                             "FRACTION (for instance 0.42)")
        if not 0.0 <= args.holes <= 1.0:
            raise ValueError(f"--holes {args.holes}: the fraction of empty cells is from 0 to 1")
        if not MIN_LATIN <= args.size <= MAX_SIZE:
            raise ValueError(f"--size {args.size}: a Latin square has an order from {MIN_LATIN} to {MAX_SIZE}")
    elif args.holes is not None:
        raise ValueError("--holes applies to --variant latin (QWH instances)")
    if args.variant in KILLERS:
        if not valid_size(args.size):
            raise ValueError(f"--size {args.size} is not a valid grid for a killer "
                             "(box_rows x box_cols with both at least 2: 4, 6, 8, 9, ...)")
        if args.max_cage is not None and not 2 <= args.max_cage <= args.size:
            raise ValueError(f"--max-cage {args.max_cage}: a cage has 2 to {args.size} cells")
    elif args.killer_givens or args.max_cage is not None:
        raise ValueError(f"--killer-givens and --max-cage apply to {', '.join(KILLERS)}")


def _header(args: argparse.Namespace) -> str:
    """The comment lines at the top of a line or grid file."""
    if args.variant == "latin":
        what = ("quasigroup with holes: a uniformly random Latin square (Jacobson and Matthews' "
                "Markov chain), holes at random; satisfiable, not necessarily unique")
        after = "# after each puzzle: holes (empty cells)\n"
    elif args.variant in KILLERS:
        what = ("unique solutions (each step proved by mrv counting to two, the result again "
                "by sat)")
        after = ("# after each puzzle: cages, largest (cells in the largest cage), givens, "
                 "checks (uniqueness proofs made)\n")
    else:
        what = "unique solutions (proved while removing clues, confirmed by mrv counting to two)"
        after = ("# after each puzzle: givens, singles (naked+hidden singles alone solve it), "
                 "mrv_nodes (mrv decisions to solve and prove unique), minimal=yes if locally minimal\n")
    return (f"# {command_line(args)}\n"
            f"# seed {args.seed}: puzzle i is generated from seed '{args.seed}/i'; {what}\n" + after)


def _grid_search(args: argparse.Namespace, number: int) -> GridSearch:
    """The bound on finding puzzle ``number``'s complete grid, each region map that gives
    none said on stderr (a large jigsaw takes many)."""
    def missed(tried: int, spent: float) -> None:
        print(f"generate: puzzle {number}: region map {tried} gave no complete grid; trying another "
              f"({spent:.0f} s of --grid-timeout {args.grid_timeout:g} s)", file=sys.stderr, flush=True)
    return GridSearch(args.grid_timeout, missed)


def _made(args: argparse.Namespace, seed: str, limit: int | None) -> tuple[Puzzle, str]:
    """One puzzle of the requested kind and the comment written after it."""
    search = _grid_search(args, int(seed.rsplit("/", 1)[1]) + 1)
    if args.variant == "latin":
        instance = qwh(args.size, args.holes, seed=seed)
        holes = args.size ** 2 - instance.puzzle.num_givens
        return instance.puzzle, f"holes={holes}"
    if args.variant in KILLERS:
        base = "standard" if args.variant == "killer" else args.variant.removesuffix("-killer")
        killer = generate_killer(args.size, seed=seed, variant=base, givens=args.killer_givens,
                                 max_cage=args.max_cage, search=search)
        return killer.puzzle, killer.comment()
    made = generate(args.size, seed=seed, givens=args.givens, symmetric=args.symmetric,
                    variant=args.variant, tries=args.tries, measure_limit=limit,
                    max_mrv_nodes=args.max_mrv_nodes, search=search)
    minimal = " minimal=yes" if made.minimal else ""
    return made.puzzle, made.difficulty.comment() + minimal


def _written(puzzle: Puzzle, comment: str, out_format: str, title: str) -> str:
    """The puzzle in the output format, with its comment where the format has room for one."""
    if out_format == "fpuzzles":
        return to_fpuzzles_json(puzzle, title=title, ruleset=comment) + "\n"
    if out_format == "grid":
        return f"# {comment}\n{to_grid(puzzle)}\n\n"
    return f"{to_line(puzzle)}  # {comment}\n"


def _write_puzzles(args: argparse.Namespace, out: TextIO) -> int:
    limit = args.measure_limit if args.measure_limit > 0 else None
    if args.out_format != "fpuzzles":  # JSON has no comments: each document's title says it
        out.write(_header(args))
    out.flush()
    started = time.perf_counter()
    try:
        with Progress(args.count, what="generating", unit="puzzle") as progress:
            for index in range(args.count):
                puzzle, comment = _made(args, f"{args.seed}/{index}", limit)
                title = f"{args.variant} {args.size}x{args.size}, seed {args.seed}/{index}"
                out.write(_written(puzzle, comment, args.out_format, title))
                out.flush()
                progress.advance()
    except GenerationError as error:
        print(f"generate: {error}", file=sys.stderr)
        return 1
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
