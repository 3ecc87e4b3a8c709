"""A human-style solver: the techniques people teach, each step explained in one sentence,
and a difficulty rating from the hardest technique a puzzle needs.

It works on the shared ``models.Model`` (any size, any variant: the model's groups are the
houses) and imports nothing but ``models``, except ``traced``, which speaks the trace
vocabulary of ``explain``, ``render`` and ``replay``.

board:          candidates as bitmasks, the houses, Step, Link and Contradiction, words for digits
scale:          the difficulty scale: Sudoku Explainer's weights and its chain-length bonus
singles:        naked and hidden singles
intersections:  locked candidates (pointing and claiming)
subsets:        naked and hidden pairs, triples and quads
fish:           X-wing, swordfish, jellyfish
finned_fish:    finned and sashimi fish
wings:          XY-wing and XYZ-wing
kites:          skyscraper, two-string kite, turbot fish
empty_rectangle: empty rectangles
colouring:      simple colouring (colour wrap and colour trap)
uniqueness:     unique rectangles (types 1 to 4, hidden) and BUG+1, for puzzles known unique
links:          the nodes and the strong and weak links chains are made of
chains:         X-chains, XY-chains, remote pairs, AICs with grouped nodes, nice loops
als:            almost locked sets: ALS-XZ and ALS-XY-wing
sue_de_coq:     Sue de Coq
propagation:    what assuming a candidate true or false leads to, statically or dynamically
basics:         basic techniques on bitmasks, for the nets' cases
forcing:        Nishio, cell and region forcing chains
nets:           forcing nets (and with basic techniques): the last resort before a guess
cages:          cage combinations (killer cages with a total)
innies:         innies and outies: the rule of 45 over one house or adjacent rows or columns
solver:         the techniques in order, and the solve that takes the lightest step and guesses last
rating:         the hardest technique needed and the score
traced:         the solve as trace events and a Result, for explain, render and replay
"""
from __future__ import annotations

from .board import Board, Contradiction, Step
from .rating import Rating, rate
from .solver import TECHNIQUES, WEIGHTS, Event, Solve, solve

__all__ = ["TECHNIQUES", "WEIGHTS", "Board", "Contradiction", "Event", "Rating", "Solve", "Step",
           "rate", "solve"]
