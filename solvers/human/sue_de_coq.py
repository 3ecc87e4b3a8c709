"""Sue de Coq: where a line crosses a box, the cells of the crossing share their digits out
between the line and the box.

Take two or three empty cells I where a line meets a box, cells L elsewhere in the line and
cells B elsewhere in the box, with no digit common to L and B, and as many cells in all as
digits: |I| + |L| + |B| = |digits of I, L and B|. Cells of I and L differ (one line), cells of
I and B differ (one box), and L and B share no digit, so all these cells hold different digits:
each digit is in them exactly once. A digit that B cannot hold is then in I or L, inside the
line: it leaves the rest of the line; a digit that L cannot hold leaves the rest of the box
(a cell of the crossing left out of I is in both: both kinds leave it).
SE has no Sue de Coq: 7.0, its base for chains mixing cells and houses, plus the length bonus
of its cells (scale.py).
"""
from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from .board import Board, Step, digit_words, digits
from .scale import length_bonus

MAX_SIDE = 3
"""The most cells taken from the line or the box beside the crossing."""


def sue_de_coq(board: Board, below: float = float("inf")) -> Step | None:
    """The Sue de Coq with the fewest cells that removes something."""
    if below <= 7.0:
        return None
    best: Step | None = None
    layout = board.layout
    for line_name, line in layout.houses:
        if not line_name.startswith(("row ", "column ")):
            continue
        for box_name, box in layout.houses:
            if not box_name.startswith(("box ", "region ")):
                continue
            crossing = [c for c in line if c in box and board.cand[c]]
            for size in (2, 3):
                for cells in combinations(crossing, size):
                    step = _best_for(board, (line_name, line), (box_name, box), cells,
                                     min(below, best.weight if best else below))
                    if step is not None:
                        best = step
    return best


def _sides(board: Board, cells: list[int], shared: int, limit: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """(cells, their digits) of up to MAX_SIDE cells holding at most one digit more than
    cells, at least one of them among ``shared``."""
    cand = board.cand
    for size in range(1, min(MAX_SIDE, limit) + 1):
        for chosen in combinations(cells, size):
            mask = 0
            for c in chosen:
                mask |= cand[c]
            if mask.bit_count() <= size + 1 and mask & shared:
                yield chosen, mask


def _best_for(board: Board, line: tuple[str, tuple[int, ...]], box: tuple[str, tuple[int, ...]],
              crossing: tuple[int, ...], below: float) -> Step | None:
    cand = board.cand
    inside = 0
    for c in crossing:
        inside |= cand[c]
    if inside.bit_count() < len(crossing) + 2:
        return None
    line_rest = [c for c in line[1] if cand[c] and c not in box[1]]
    box_rest = [c for c in box[1] if cand[c] and c not in line[1]]
    for side_l, mask_l in _sides(board, line_rest, inside, len(line_rest) - 1):
        for side_b, mask_b in _sides(board, box_rest, inside, len(box_rest) - 1):
            total = len(crossing) + len(side_l) + len(side_b)
            weight = round(7.0 + length_bonus(total), 1)
            if mask_l & mask_b or weight >= below:
                continue
            union = inside | mask_l | mask_b
            if union.bit_count() != total:
                continue
            off_line, off_box = union & ~mask_b, union & ~mask_l
            others = [c for c in line[1] if cand[c] and c in box[1] and c not in crossing]  # in both
            gone = sorted({*((c, d) for c in line_rest if c not in side_l for d in digits(cand[c] & off_line)),
                           *((c, d) for c in box_rest if c not in side_b for d in digits(cand[c] & off_box)),
                           *((c, d) for c in others for d in digits(cand[c] & (off_line | off_box)))})
            if gone:
                return _step(board, line[0], box[0], crossing, (side_l, side_b), (union, mask_l, mask_b),
                             gone, weight)
    return None


def _step(board: Board, line: str, box: str, crossing: tuple[int, ...],
          sides: tuple[tuple[int, ...], tuple[int, ...]], masks: tuple[int, int, int],
          gone: list[tuple[int, int]], weight: float) -> Step:
    layout = board.layout
    side_l, side_b = sides
    union, mask_l, mask_b = masks
    return Step("Sue de Coq",
                f"Sue de Coq: {layout.names(crossing)}, where {line} meets {box}, with "
                f"{layout.names(side_l)} in the line ({digit_words(mask_l)}) and "
                f"{layout.names(side_b)} in the box ({digit_words(mask_b)}) are "
                f"{len(crossing) + len(side_l) + len(side_b)} cells for the "
                f"{union.bit_count()} digits {digit_words(union)}, each held once; so "
                f"{digit_words(union & ~mask_b)} leave the rest of {line} and "
                f"{digit_words(union & ~mask_l)} the rest of {box}: "
                f"{layout.names(sorted({c for c, _ in gone}))}",
                eliminations=tuple(gone), weight=weight)
