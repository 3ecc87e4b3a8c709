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
    cand = board.cand
    for h, g, shared, house_rest, group_rest in layout.house_pairs:
        inside = rest = beyond = 0
        for c in shared:
            inside |= cand[c]
        for c in house_rest:
            rest |= cand[c]
        locked = inside & ~rest
        if not locked:
            continue
        for c in group_rest:
            beyond |= cand[c]
        if not locked & beyond:
            continue
        bit = locked & beyond & -(locked & beyond)
        digit = bit.bit_length()
        house_name, house = layout.houses[h]
        group_name = layout.groups[g][0]
        places = [c for c in shared if cand[c] & bit]
        gone = [c for c in group_rest if cand[c] & bit]
        technique = "claiming" if house in layout.lines else "pointing"
        return Step(technique,
                    f"locked candidates ({technique}): in {house_name}, {symbol(digit)} "
                    f"can go only in {layout.names(places)}, all in {group_name}, so "
                    f"{symbol(digit)} leaves the rest of {group_name}: {layout.names(gone)}",
                    eliminations=tuple((c, digit) for c in gone), group=house_name)
    return None
