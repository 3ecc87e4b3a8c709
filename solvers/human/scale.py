"""The difficulty scale: Sudoku Explainer's (SE 1.2.1) weights, and its rule for chain length.

Every technique SE has keeps SE's weight. A chain's weight is its kind's base plus SE's length
bonus: 0.1 for each threshold of 4, 6, 8, 12, 16, 24, 32, 48, ... (each alternately 3/2 and
4/3 of the last) that its length passes. SE's length is the number of implications in the chain
less two: for an open chain (an AIC, whose ends are both strong) it is the number of its nodes,
for a continuous loop its nodes less two, for a forcing chain or net the candidates in all its
branches (each assumption and conclusion counted) less two.

A technique SE lacks weighs what SE gives the chain that proves the same eliminations
(docs/teaching.md has the table): a skyscraper, two-string kite, turbot fish or empty
rectangle is an X-chain of four nodes (6.6); a finned or sashimi fish of k lines an X-chain of
2k nodes; an almost locked set or Sue de Coq counts one node per cell of its sets on SE's base
for chains that mix cells and houses (7.0). Grouped nodes (SE has none) count one node each.
These were fixed before any puzzle was rated against SE's ratings and are not tuned to them.
"""
from __future__ import annotations

BASE: dict[str, float] = {
    # singles and subsets: SE's table
    "hidden single": 1.2,  # in a box or region; 1.5 in a row, column or diagonal (SE)
    "naked single": 2.3,
    "cage combinations": 2.5,  # killers: not SE (docs/teaching.md)
    "innies and outies": 2.6,
    "pointing": 2.6,
    "claiming": 2.8,
    "innies and outies of several houses": 2.9,
    "naked pair": 3.0,
    "X-wing": 3.2,
    "hidden pair": 3.4,
    "naked triple": 3.6,
    "swordfish": 3.8,
    "hidden triple": 4.0,
    "XY-wing": 4.2,
    "XYZ-wing": 4.4,
    "unique rectangle": 4.5,  # types 1, 2, 4 and hidden; type 3 adds 0.1 per digit of its subset past one
    "naked quad": 5.0,
    "jellyfish": 5.2,
    "hidden quad": 5.4,
    "BUG+1": 5.6,
    # chains: SE's bases, plus the length bonus
    "X-loop": 6.5,  # SE's X-cycle: a continuous nice loop on one digit
    "XY-loop": 6.5,  # SE's Y-cycle: a continuous loop through bivalue cells
    "skyscraper": 6.6,  # X-chains of four nodes (SE's forcing X-chain)
    "two-string kite": 6.6,
    "turbot fish": 6.6,
    "empty rectangle": 6.6,
    "finned fish": 6.6,  # finned or sashimi X-wing 6.6, swordfish 6.7, jellyfish 6.8
    "simple colouring": 6.6,
    "X-chain": 6.6,
    "XY-chain": 7.0,  # SE's forcing chain with cell and house links
    "remote pair": 7.0,
    "AIC": 7.0,
    "nice loop": 7.0,  # a continuous loop mixing cells and houses (SE's XY-cycle)
    "ALS-XZ": 7.0,
    "ALS-XY-wing": 7.0,
    "Sue de Coq": 7.0,
    "Nishio forcing chain": 7.5,
    "cell forcing chain": 8.0,  # SE's multiple forcing chains
    "region forcing chain": 8.0,
    "forcing net": 8.5,  # SE's dynamic forcing chains: cell, region, digit (double or contradiction)
    "forcing net with basic techniques": 9.0,  # SE's dynamic forcing chains (+)
    "guess": 10.0,  # past every net: 10 + log2(guesses), see rating.py
}
"""The weight of each technique, or the base of its chain (a step may weigh more: step.weight)."""


def length_bonus(length: int) -> float:
    """SE's bonus for a chain of this length: 0.1 for each of 4, 6, 8, 12, 16, 24, ... it exceeds.

    >>> [length_bonus(k) for k in (2, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25)]
    [0.0, 0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6]
    """
    tenths, ceiling, odd = 0, 4, False
    while length > ceiling:
        tenths += 1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return tenths / 10


def chain_weight(technique: str, length: int) -> float:
    """The base of the technique plus the bonus of SE's chain length, rounded to a tenth."""
    return round(BASE[technique] + length_bonus(length), 1)
