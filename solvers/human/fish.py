"""Fish: X-wing (2 lines), swordfish (3), jellyfish (4).

If, in k rows, a digit fits only within the same k columns, those rows put the digit once in
each of the k columns, so it leaves the rest of those columns (and the same with rows and
columns swapped). Rows and columns are houses in every geometry, Latin squares included.
"""
from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from models.symbols import symbol

from .board import Board, Step, words

NAMES = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}


def fish(size: int) -> Callable[[Board], Step | None]:
    """The finder of fish over ``size`` lines."""
    technique = NAMES[size]

    def find(board: Board) -> Step | None:
        layout = board.layout
        for base, cover, base_word, cover_word in ((layout.rows, layout.cols, "rows", "columns"),
                                                   (layout.cols, layout.rows, "columns", "rows")):
            for digit in range(1, layout.n + 1):
                bit = 1 << (digit - 1)
                spots: dict[int, int] = {}  # base line -> bitmask of cover lines holding the digit
                for b, cells in enumerate(base):
                    mask = 0
                    for position, cell in enumerate(cells):
                        if board.cand[cell] & bit:
                            mask |= 1 << position
                    if 2 <= mask.bit_count() <= size:
                        spots[b] = mask
                for chosen in combinations(sorted(spots), size):
                    union = 0
                    for b in chosen:
                        union |= spots[b]
                    if union.bit_count() != size:
                        continue
                    covers = [k for k in range(layout.n) if union >> k & 1]
                    # the j-th cell of a cover line lies in base line j
                    gone = [cell for k in covers for j, cell in enumerate(cover[k])
                            if board.cand[cell] & bit and j not in chosen]
                    if gone:
                        d = symbol(digit)
                        return Step(technique,
                                    f"{technique} on {d}: in {base_word} "
                                    f"{words([str(b + 1) for b in chosen])}, {d} fits only in "
                                    f"{cover_word} {words([str(k + 1) for k in covers])}, so {d} "
                                    f"leaves the rest of those {cover_word}: {layout.names(gone)}",
                                    eliminations=tuple((c, digit) for c in gone))
        return None

    find.__name__ = technique.replace("-", "_").lower()
    return find
