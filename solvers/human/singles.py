"""Singles: a cell with one candidate left, or a digit with one place left in a house."""
from __future__ import annotations

from models.symbols import symbol

from .board import Board, Step


def naked_single(board: Board) -> Step | None:
    """The first empty cell with exactly one candidate."""
    for cell, mask in enumerate(board.cand):
        if mask and not mask & (mask - 1):
            digit = mask.bit_length()
            return Step("naked single",
                        f"naked single: {board.layout.name(cell)} = {symbol(digit)}, its only "
                        f"candidate left", placements=((cell, digit),))
    return None


def hidden_single(board: Board) -> Step | None:
    """The first digit with one place left in a house (a group of n cells): boxes and regions
    first (SE weighs a hidden single there 1.2, in a row, column or diagonal 1.5)."""
    layout = board.layout
    for name, cells in layout.single_houses:
        once = twice = 0  # digits seen in at least one / at least two empty cells
        for cell in cells:
            mask = board.cand[cell]
            twice |= once & mask
            once |= mask
        single = once & ~twice
        if single:
            digit = (single & -single).bit_length()
            cell = board.places(cells, digit)[0]
            return Step("hidden single",
                        f"hidden single: {symbol(digit)} can go only in {layout.name(cell)} "
                        f"within {name}", placements=((cell, digit),), group=name,
                        weight=1.2 if cells in layout.boxes else 1.5)
    return None
