"""A human-style solver: the techniques people teach, each step explained in one sentence,
and a difficulty rating from the hardest technique a puzzle needs.

It works on the shared ``models.Model`` (any size, any variant: the model's groups are the
houses) and imports nothing but ``models``, except ``traced``, which speaks the trace
vocabulary of ``explain``, ``render`` and ``replay``.

board:          candidates as bitmasks, the houses, Step and Contradiction, words for digits
singles:        naked and hidden singles
intersections:  locked candidates (pointing and claiming)
subsets:        naked and hidden pairs, triples and quads
fish:           X-wing, swordfish, jellyfish
wings:          XY-wing and XYZ-wing
colouring:      simple colouring (colour wrap and colour trap)
cages:          cage combinations (killer cages with a total)
innies:         innies and outies: the rule of 45 over one house or adjacent rows or columns
solver:         the techniques in order with their weights, and the solve that guesses last
rating:         the hardest technique needed and the score
traced:         the solve as trace events and a Result, for explain, render and replay
"""
from __future__ import annotations

from .board import Board, Contradiction, Step
from .rating import Rating, rate
from .solver import TECHNIQUES, WEIGHTS, Event, Solve, solve

__all__ = ["TECHNIQUES", "WEIGHTS", "Board", "Contradiction", "Event", "Rating", "Solve", "Step",
           "rate", "solve"]
