"""Locked candidates: a digit confined, within a house, to the cells it shares with a group.

The digit must go in that shared part, so it leaves the group's other cells. When the house
is a row or a column the move is called *claiming* (a line claims the digit for a box);
otherwise (a box, a region, a diagonal) *pointing* (the box points along the line).
"""
from __future__ import annotations

from models.symbols import symbol

from .board import Board, Step


def locked_candidates(board: Board) -> Step | None:
    """The first house whose digit lies only where it meets another group, with removals."""
    layout = board.layout
    lines = {*layout.rows, *layout.cols}
    for h, g, shared in layout.house_pairs:
        house_name, house = layout.houses[h]
        group_name, group = layout.groups[g]
        open_digits = 0
        for cell in house:
            open_digits |= board.cand[cell]
        for digit in range(1, layout.n + 1):
            bit = 1 << (digit - 1)
            if not open_digits & bit:
                continue
            places = [c for c in house if board.cand[c] & bit]
            if not all(c in shared for c in places):
                continue
            gone = [c for c in group if c not in shared and board.cand[c] & bit]
            if gone:
                technique = "claiming" if house in lines else "pointing"
                return Step(technique,
                            f"locked candidates ({technique}): in {house_name}, {symbol(digit)} "
                            f"can go only in {layout.names(places)}, all in {group_name}, so "
                            f"{symbol(digit)} leaves the rest of {group_name}: {layout.names(gone)}",
                            eliminations=tuple((c, digit) for c in gone), group=house_name)
    return None
