"""The difficulty scale: Sudoku Explainer's weights, and its rule for chain length.

Every technique Sudoku Explainer 1.2.1 (SE) has keeps SE's weight. A chain's weight is its
kind's base plus SE's length bonus: 0.1 for each threshold of 4, 6, 8, 12, 16, 24, 32, 48, ...
(each alternately 3/2 and 4/3 of the last) that its length passes. SE's length is the number of
implications in the chain less two: for an open chain (an AIC, both ends strong) the number of
its nodes, for a continuous loop its nodes less two, for a forcing chain or net the candidates
of all its branches (each assumption and conclusion counted) less two.

A technique SE 1.2.1 lacks takes the weight Sukaku Explainer gives it (SE's maintained successor,
default settings: the program that rated the Sudoku Exchange puzzle bank), where it has it:
chains of one digit by their number of strong links (two: skyscraper 4.0, two-string kite 4.1,
turbot fish 4.2, grouped or empty rectangle 4.3; three 5.4, four 5.8, each plus 0.1 when the
links lie in a box or in lines of both kinds, 0.2 when both, 0.3 when grouped), and its wings
of four, five and six cells (5.5, 6.2, 6.6) for an ALS-XZ of as many cells whose two sets share
only their two digits. Otherwise it weighs what SE gives the chain that proves the same: an
X-chain of five strong links or more 6.6 plus the bonus, a finned fish the grouped chain of its
lines' strong links (X-wing 4.3, swordfish 5.7, jellyfish 6.1), an almost locked set or Sue de
Coq one node per cell on SE's base for chains mixing cells and houses (7.0). Grouped nodes
count one node each. docs/teaching.md has the table. These were fixed from the programs'
published sources before any puzzle was rated against their ratings, and not tuned to them.
"""
from __future__ import annotations

BASE: dict[str, float] = {
    # SE's table
    "hidden single": 1.2,  # in a box or region; 1.5 in a row, column or diagonal
    "naked single": 2.3,
    "cage combinations": 2.5,  # killers: neither SE nor Sukaku Explainer (docs/teaching.md)
    "innies and outies": 2.6,
    "locked candidates": 2.6,  # its steps: pointing 2.6, claiming 2.8
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
    # one digit: Sukaku Explainer's strong links (two to four), then SE's X-chains
    "skyscraper": 4.0,
    "two-string kite": 4.1,
    "turbot fish": 4.2,
    "empty rectangle": 4.3,
    "finned fish": 4.3,  # X-wing 4.3, swordfish 5.7, jellyfish 6.1
    "simple colouring": 4.0,  # the X-chain between the cells it uses
    "X-chain": 4.0,  # two strong links 4.0-4.3, three 5.4-5.7, four 5.8-6.1, five on 6.6 + bonus
    "grouped X-chain": 4.3,
    "X-loop": 4.0,  # weighed as the X-chain of its strong links up to four; five on 6.5 + bonus (SE's X-cycle)
    # chains through cells and houses: SE's bases, plus the length bonus
    "XY-loop": 6.5,  # SE's Y-cycle
    "XY-chain": 7.0,  # SE's forcing chain with cell and house links
    "remote pair": 7.0,
    "AIC": 7.0,
    "grouped AIC": 7.0,
    "nice loop": 7.0,  # a continuous loop mixing cells and houses (SE's XY-cycle)
    "ALS-XZ": 4.4,  # three cells 4.4, four 5.5, five 6.2, six 6.6 (wings); others 7.0 + bonus
    "ALS-XY-wing": 7.0,
    "Sue de Coq": 7.0,
    "Nishio forcing chain": 7.5,
    "cell forcing chain": 8.0,  # SE's multiple forcing chains
    "region forcing chain": 8.0,
    "forcing net": 8.5,  # SE's dynamic forcing chains: cell, region, digit (double or contradiction)
    "forcing net with basic techniques": 9.0,  # SE's dynamic forcing chains (+)
    "guess": 10.0,  # past every net: 10 + log2(guesses), see rating.py
}
"""The weight of each technique, or the lightest its steps can weigh (step.weight says)."""

STRONG_LINKS = {2: 4.0, 3: 5.4, 4: 5.8}
"""Sukaku Explainer's base for a chain of one digit with this many strong links."""
TURBOT = {"lines of one kind": 4.0, "lines of both kinds": 4.1, "a box": 4.2, "grouped": 4.3}
"""Sukaku Explainer's turbot fish (two strong links) by where the links lie."""
WINGS = {3: 4.4, 4: 5.5, 5: 6.2, 6: 6.6}
"""Sukaku Explainer's wings (XYZ, WXYZ, VWXYZ, UVWXYZ) by their number of cells."""


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


def one_digit_weight(strong: int, box: bool, rows: bool, cols: bool, grouped: bool, loop: bool = False) -> float:
    """A chain of one digit with ``strong`` strong links, lying in a box, rows, columns, or
    through a grouped node: Sukaku Explainer's strong links up to four, SE's X-chain (or X-cycle
    for a loop) beyond.

    >>> one_digit_weight(2, False, True, False, False), one_digit_weight(3, True, True, True, False)
    (4.0, 5.6)
    >>> one_digit_weight(5, False, True, True, False), one_digit_weight(5, False, True, True, False, loop=True)
    (6.9, 6.7)
    """
    if strong >= 5:
        return round((6.5 if loop else 6.6) + length_bonus(2 * strong - (2 if loop else 0)), 1)
    if strong <= 2:  # one strong link alone is locked candidates: weighed as two
        kind = ("grouped" if grouped else "a box" if box else
                "lines of both kinds" if rows and cols else "lines of one kind")
        return TURBOT[kind]
    extra = 0.3 if grouped else 0.2 if box and rows and cols else 0.1 if box or (rows and cols) else 0.0
    return round(STRONG_LINKS[strong] + extra, 1)


def chain_weight(technique: str, length: int) -> float:
    """The base of the technique plus the bonus of SE's chain length, rounded to a tenth."""
    return round(BASE[technique] + length_bonus(length), 1)


def als_weight(cells: int, only_two_shared: bool) -> float:
    """An ALS-XZ: Sukaku Explainer's wing of as many cells when the two sets share only their
    two digits, else SE's chain through its cells."""
    if only_two_shared and cells in WINGS:
        return WINGS[cells]
    return chain_weight("AIC", cells)
