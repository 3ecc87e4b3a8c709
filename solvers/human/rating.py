"""A puzzle's difficulty from a human-style solve: the hardest technique needed and a score,
on Sudoku Explainer's scale (scale.py).

As SE does, the score is the weight of the heaviest step of a solve that always takes the
easiest step there is (a chain weighs its kind's base plus its length bonus). A puzzle that
needs a guess, past every forcing net, scores the guess weight, 10.0, plus log2 of the number
of guesses its complete search makes (every branch explored, so the count does not depend on
which branch happens to hold the solution; under a guess every technique but the nets is
used): 2 guesses score 11.0, 16 guesses 14.0.
docs/teaching.md gives the whole scale.
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


def score_of(peak: dict[str, float], guesses: int) -> tuple[str, float]:
    """(the hardest technique, the score) for the heaviest step of each technique used and
    the guesses made."""
    if guesses:
        return "guess", round(WEIGHTS["guess"] + math.log2(guesses), 2)
    if not peak:
        return "none", 0.0
    hardest = max(peak, key=lambda t: (peak[t], WEIGHTS[t]))
    return hardest, peak[hardest]


def rate(model: Model, *, max_guesses: int | None = 10_000, time_limit: float | None = None,
         techniques: tuple[Technique, ...] = TECHNIQUES, unique: bool = False) -> Rating:
    """Rate one puzzle: solve it completely (up to two solutions) and score what it needed
    (with ``techniques``: all of them unless a study leaves some out; ``unique``: the puzzle
    is known to have one solution, so the uniqueness techniques may be used)."""
    done = solve(model, max_solutions=2, max_guesses=max_guesses, time_limit=time_limit,
                 record=False, techniques=techniques, unique=unique)
    technique, score = score_of(done.peak, done.guesses)
    return Rating(technique, score, done.guesses, dict(done.uses), len(done.solutions),
                  done.complete or len(done.solutions) >= 2, done.stopped)
