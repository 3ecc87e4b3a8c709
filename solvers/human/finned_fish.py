"""Finned and sashimi fish: an X-wing, swordfish or jellyfish spoilt by a few extra places
(the fin) that all lie in one box.

In k base rows a digit fits only in k cover columns, but for the fin. Either a fin cell holds
the digit, or the fish does, which clears the cover columns outside the base rows. Cells that
lose the digit both ways are those of the cover columns, outside the base rows, in the fin's
box (they see every fin cell). A fish is *sashimi* when a base row keeps at most one place in
the cover columns besides its fin. The same with rows and columns swapped. It weighs the grouped
chain of one digit through its k lines' strong links (scale.py): a finned X-wing 4.3, swordfish
5.7, jellyfish 6.1.
"""
from __future__ import annotations

from itertools import combinations

from models.symbols import symbol

from .board import Board, Step, words
from .scale import one_digit_weight

NAMES = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}


def finned_fish(board: Board, below: float = float("inf")) -> Step | None:
    """The smallest finned or sashimi fish that removes something."""
    for size in (2, 3, 4):
        weight = one_digit_weight(size, False, True, True, grouped=True)
        if weight >= below:
            return None
        for digit in range(1, board.layout.n + 1):
            step = _fish(board, digit, size, weight)
            if step is not None:
                return step
    return None


def _fish(board: Board, digit: int, size: int, weight: float) -> Step | None:
    layout = board.layout
    bit = 1 << (digit - 1)
    box_of = {cell: b for b, cells in enumerate(layout.boxes) for cell in cells}
    for base, cover, base_word, cover_word in ((layout.rows, layout.cols, "rows", "columns"),
                                               (layout.cols, layout.rows, "columns", "rows")):
        spots = {}
        for b, cells in enumerate(base):
            where = [k for k, cell in enumerate(cells) if board.cand[cell] & bit]
            if 1 <= len(where) <= size + 3:
                spots[b] = where
        for chosen in combinations(sorted(spots), size):
            union = sorted({k for b in chosen for k in spots[b]})
            if len(union) <= size or len(union) > size + 3:
                continue  # a plain fish (fish.py), or fins too wide for one box
            for covers in combinations(union, size):
                fins = [base[b][k] for b in chosen for k in spots[b] if k not in covers]
                boxes = {box_of.get(f) for f in fins}
                if len(boxes) != 1 or None in boxes:
                    continue
                (fin_box,) = boxes
                gone = [cell for k in covers for j, cell in enumerate(cover[k])
                        if j not in chosen and board.cand[cell] & bit and box_of.get(cell) == fin_box]
                if gone:
                    sashimi = any(len([k for k in spots[b] if k in covers]) <= 1 for b in chosen)
                    kind = "sashimi" if sashimi else "finned"
                    d = symbol(digit)
                    return Step("finned fish",
                                f"{kind} {NAMES[size]} on {d}: in {base_word} "
                                f"{words([str(b + 1) for b in chosen])}, {d} fits only in {cover_word} "
                                f"{words([str(k + 1) for k in covers])} but for the fin "
                                f"{layout.names(sorted(fins))}; either the fin holds {d} or the fish "
                                f"does, and {layout.names(gone)} lose it both ways, so {d} leaves them",
                                eliminations=tuple((c, digit) for c in gone), weight=weight)
    return None
