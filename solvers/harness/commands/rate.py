"""``compare.py rate``: each puzzle's difficulty by the human-style solver, and a table over
the file (solvers/human; the scale is in docs/teaching.md)."""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from models import Model, Puzzle, to_record

from ...human import WEIGHTS, Rating, rate
from ..results.outputs import write_atomic
from ..results.tables import TEXT_FORMATS, text_table
from . import uniqueness
from .common import (
    EXIT_OK,
    EXIT_USAGE,
    Subcommands,
    UsageError,
    check_output_paths,
    error_record,
    input_options,
    positive_int,
    read_inputs,
    seconds,
    shown,
    whole_number,
)
from .progress import Progress

DEFAULT_MAX_GUESSES = 10_000


def add_parser(subparsers: Subcommands) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "rate", help="rate each puzzle's difficulty by the techniques a person needs",
        description="Solve each puzzle with the human-style solver (the techniques of 'explain', "
                    "easiest first, guessing only when none applies) and rate it on Sudoku "
                    "Explainer's scale: the hardest technique needed and a score (the weight of "
                    "the heaviest step, a chain's growing with its length; a puzzle that needs "
                    "guesses scores 10 + log2 of the guesses its complete search makes). Prints "
                    "how many puzzles need each technique and the scores' quartiles; progress "
                    "goes to standard error.")
    parser.add_argument("path", metavar="FILE", help="a puzzle file, or '-' for standard input")
    parser.add_argument("--json", metavar="OUT", help="write one record per puzzle (and the summary) as JSON")
    parser.add_argument("--each", action="store_true", help="also print one row per puzzle")
    parser.add_argument("--sample", type=positive_int, default=None, metavar="K",
                        help="rate K puzzles drawn at random (with --seed) instead of all, kept in "
                             "file order")
    parser.add_argument("--seed", type=whole_number, default=0, metavar="S",
                        help="the random seed of --sample (default: 0)")
    parser.add_argument("--max-guesses", type=positive_int, default=DEFAULT_MAX_GUESSES, metavar="N",
                        help=f"give up on a puzzle after N guesses (default: {DEFAULT_MAX_GUESSES:,}); "
                             "its record says so and it is left out of the table")
    parser.add_argument("--timeout", type=seconds, default=60.0, metavar="SECONDS",
                        help="give up on a puzzle after this long (default: 60)")
    parser.add_argument("--format", choices=TEXT_FORMATS, default="text",
                        help="text (default), Markdown tables or LaTeX tabulars (booktabs)")
    uniqueness.add_option(parser)
    input_options(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    if args.json:
        check_output_paths({"--json": args.json}, [args.path])
    puzzles, bad = read_inputs([args.path], args.fmt, args.hex)
    if not puzzles:
        raise UsageError(f"{'standard input' if args.path == '-' else args.path}: no puzzle to rate")
    chosen = [(puzzle.source.index + 1, puzzle) for puzzle in puzzles]  # as --puzzle counts
    if args.sample is not None:
        if args.sample > len(puzzles):
            raise UsageError(f"--sample {args.sample}: {args.path} has only {len(puzzles)} good puzzles")
        chosen = sorted(random.Random(args.seed).sample(chosen, args.sample))
    records = []
    with Progress(len(chosen), what="rating", unit="puzzle") as progress:
        for position, puzzle in chosen:
            known = uniqueness.known(puzzle, args.uniqueness)
            rating = rate(Model.from_puzzle(puzzle), max_guesses=args.max_guesses, time_limit=args.timeout,
                          unique=known.unique)
            records.append(_record(puzzle, position, rating) | {"uniqueness": known.why})
            progress.advance()
    rated = [r for r in records if r["complete"]]
    style = args.format
    where = shown(Path(args.path)) if args.path != "-" else "standard input"
    sampled = f" (a sample drawn with seed {args.seed})" if args.sample is not None else ""
    given_up = f", {len(records) - len(rated)} given up" if len(rated) < len(records) else ""
    print(f"{where}: {len(records)} puzzles rated{sampled}{given_up}",
          file=sys.stderr if style == "latex" else sys.stdout)
    if args.each:
        print(text_table(["puzzle", "hardest technique", "score", "guesses", "solutions"],
                         [[str(r["position"]), r["technique"], f"{r['score']:.2f}", str(r["guesses"]),
                           str(r["solutions"])] for r in records],
                         [False, True, False, False, False], style))
        print()
    summary = _summary(rated)
    print(text_table(["hardest technique", "puzzles", "scores"],
                     [[t, str(n), _scores(rated, t)] for t, n in summary["techniques"].items()],
                     [True, False, False], style))
    if summary["score"]:
        score = summary["score"]
        print()
        print(text_table(["score min", "lower quartile", "median", "upper quartile", "max"],
                         [[f"{score[k]:.2f}" for k in ("min", "q1", "median", "q3", "max")]],
                         [False] * 5, style))
    if args.json:
        document = {"command": "rate", "file": args.path, "weights": WEIGHTS, "puzzles": records,
                    "summary": summary, "errors": [error_record(e) for e in bad]}
        try:
            write_atomic(args.json, json.dumps(document, indent=1) + "\n")
        except OSError as error:
            raise UsageError(f"--json {args.json}: cannot write: {error}") from None
    return EXIT_USAGE if bad else EXIT_OK


def _record(puzzle: Puzzle, position: int, rating: Rating) -> dict[str, Any]:
    """One puzzle's JSON record: where it is, what it needed, its score."""
    return {"position": position, "file": puzzle.source.file, "line": puzzle.source.line,
            "puzzle": to_record(puzzle), "technique": rating.technique, "score": rating.score,
            "guesses": rating.guesses, "uses": rating.uses, "solutions": rating.solutions,
            "complete": rating.complete, **({"stopped": rating.stopped} if rating.stopped else {})}


def _scores(records: list[dict[str, Any]], technique: str) -> str:
    """The scores of the puzzles whose hardest technique this is: '5.5' or '5.5-7.2' (a chain's
    weight grows with its length)."""
    scores = sorted(r["score"] for r in records if r["technique"] == technique)
    return f"{scores[0]:.2f}" if scores[0] == scores[-1] else f"{scores[0]:.2f}-{scores[-1]:.2f}"


def _summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Puzzles per hardest technique (by their lightest score) and the scores' five-number summary."""
    counts = Counter(r["technique"] for r in records)
    lightest = {t: min(r["score"] for r in records if r["technique"] == t) for t in counts}
    order = sorted(counts, key=lambda t: (lightest[t], WEIGHTS.get(t, 0.0)))
    scores = sorted(r["score"] for r in records)
    if not scores:
        return {"techniques": {}, "score": {}}
    q1, median, q3 = (statistics.quantiles(scores, n=4, method="inclusive") if len(scores) > 1
                      else (scores[0],) * 3)
    return {"techniques": {t: counts[t] for t in order},
            "score": {"min": scores[0], "q1": round(q1, 3), "median": round(median, 3),
                      "q3": round(q3, 3), "max": scores[-1], "count": len(scores)}}
