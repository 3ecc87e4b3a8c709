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
    box_of = _boxes(board)
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
            for fin_box, fin_positions in _fin_choices(base, chosen, spots, union, box_of, len(union) - size):
                covers = [k for k in union if k not in fin_positions]
                fins = [base[b][k] for b in chosen for k in spots[b] if k in fin_positions]
                gone = [cell for k in covers for j, cell in enumerate(cover[k])
                        if j not in chosen and board.cand[cell] & bit and box_of.get(cell) == fin_box]
                if gone:
                    return _step(board, (digit, size, weight), (chosen, covers, fins, gone),
                                 (base_word, cover_word), spots)
    return None


def _boxes(board: Board) -> dict[int, int]:
    """Each cell's box (or region) number."""
    return {cell: b for b, cells in enumerate(board.layout.boxes) for cell in cells}


def _fin_choices(base: tuple[tuple[int, ...], ...], chosen: tuple[int, ...], spots: dict[int, list[int]],
                 union: list[int], box_of: dict[int, int], fins: int) -> list[tuple[int, tuple[int, ...]]]:
    """(box, positions) for each way to leave ``fins`` positions out of the cover lines so that
    the base lines' places there (the fin) all lie in that box."""
    boxes_at: dict[int, set[int | None]] = {}
    for b in chosen:
        for k in spots[b]:
            boxes_at.setdefault(k, set()).add(box_of.get(base[b][k]))
    by_box: dict[int, list[int]] = {}
    for k in union:
        if len(boxes_at[k]) == 1 and (box := next(iter(boxes_at[k]))) is not None:
            by_box.setdefault(box, []).append(k)
    return [(box, positions) for box, where in by_box.items() for positions in combinations(where, fins)]


def _step(board: Board, fish: tuple[int, int, float], parts: tuple[tuple[int, ...], list[int], list[int], list[int]],
          words_: tuple[str, str], spots: dict[int, list[int]]) -> Step:
    digit, size, weight = fish
    chosen, covers, fins, gone = parts
    base_word, cover_word = words_
    layout = board.layout
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
