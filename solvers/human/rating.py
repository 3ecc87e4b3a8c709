"""A puzzle's difficulty from a human-style solve: the hardest technique needed and a score.

The score is the weight (solver.WEIGHTS) of the hardest technique the puzzle needs when it
can be solved without guessing. A puzzle that needs a guess scores the guess weight, 7.0,
plus log2 of the number of guesses the complete search makes (every branch explored, so the
count does not depend on which branch happens to hold the solution): 2 guesses score 8.0,
16 guesses 11.0. docs/teaching.md gives the whole scale.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from models import Model

from .solver import TECHNIQUES, WEIGHTS, Technique, solve


@dataclass(frozen=True)
class Rating:
    """technique: the hardest one needed ('guess' if reasoning alone stalls); score: as above;
    uses: how many steps each technique made over the whole search; solutions: how many were
    found (up to 2); complete: whether the search finished (no limit stopped it)."""

    technique: str
    score: float
    guesses: int
    uses: dict[str, int]
    solutions: int
    complete: bool
    stopped: str = ""


def score_of(techniques: list[str], guesses: int) -> tuple[str, float]:
    """(the hardest technique, the score) for the techniques used and the guesses made."""
    if guesses:
        return "guess", round(WEIGHTS["guess"] + math.log2(guesses), 2)
    if not techniques:
        return "none", 0.0
    hardest = max(techniques, key=lambda t: WEIGHTS[t])
    return hardest, WEIGHTS[hardest]


def rate(model: Model, *, max_guesses: int | None = 10_000, time_limit: float | None = None,
         techniques: tuple[Technique, ...] = TECHNIQUES) -> Rating:
    """Rate one puzzle: solve it completely (up to two solutions) and score what it needed
    (with ``techniques``: all of them unless a study leaves some out)."""
    done = solve(model, max_solutions=2, max_guesses=max_guesses, time_limit=time_limit,
                 record=False, techniques=techniques)
    technique, score = score_of(list(done.uses), done.guesses)
    return Rating(technique, score, done.guesses, dict(done.uses), len(done.solutions),
                  done.complete or len(done.solutions) >= 2, done.stopped)
