"""Whether a puzzle is known to have one solution, for the human solver's uniqueness
techniques (unique rectangles, BUG+1), which are sound only then.

``--uniqueness prove`` (the default) counts the puzzle's solutions with mrv, a backend that
shares no code with the human solver, up to two and within a time bound: the techniques are
used only when it finds exactly one and finishes. ``assume`` takes the user's word (a puzzle
from a source that guarantees one solution); ``off`` never uses them.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass

from models import Puzzle

from ... import registry
from ...result import Status

CHOICES = ("prove", "assume", "off")
PROVE_SECONDS = 10.0
"""The longest the count may take before uniqueness counts as not known."""


@dataclass(frozen=True)
class Known:
    """Whether the uniqueness techniques may be used, and why, in words."""

    unique: bool
    why: str


def add_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--uniqueness", choices=CHOICES, default="prove",
        help="the human solver's unique rectangles and BUG+1 assume one solution: 'prove' "
             "(default) counts the solutions with mrv first and uses them only if there is "
             "exactly one; 'assume' takes your word for it; 'off' never uses them")


def known(puzzle: Puzzle, how: str, seconds: float = PROVE_SECONDS) -> Known:
    """Whether the puzzle is known to have one solution, by ``how`` (one of CHOICES)."""
    if how == "assume":
        return Known(True, "assumed unique (--uniqueness assume)")
    if how == "off":
        return Known(False, "uniqueness techniques off (--uniqueness off)")
    result = registry.get("mrv").solve(puzzle, max_solutions=2, time_limit=seconds)
    if result.status is Status.SOLVED and result.complete and len(result.solutions) == 1:
        return Known(True, "proved unique by mrv")
    if len(result.solutions) >= 2:
        return Known(False, "not unique (mrv found two solutions): uniqueness techniques off")
    return Known(False, f"uniqueness not proved by mrv within {seconds:g} s: uniqueness techniques off")
