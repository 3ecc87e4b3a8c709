"""Wings: XY-wing and XYZ-wing, three cells whose candidates force a digit into one of two.

XY-wing: a pivot {x,y} sees a pincer {x,z} and a pincer {y,z}; whatever the pivot holds,
one pincer is z, so z leaves every cell that sees both pincers. XYZ-wing: the pivot is
{x,y,z} and the pincers {x,z} and {y,z}; one of the three is z, so z leaves every cell that
sees all three. "Sees" means shares a group with, in any variant.
"""
from __future__ import annotations

from models.symbols import symbol

from .board import Board, Step, digit_words


def _count(mask: int) -> int:
    return mask.bit_count()


def _which(cells: list[int]) -> str:
    return "which sees" if len(cells) == 1 else "which see"


def xy_wing(board: Board) -> Step | None:
    layout = board.layout
    cand, peers = board.cand, layout.peers
    pairs = [c for c, m in enumerate(cand) if _count(m) == 2]
    for pivot in pairs:
        near = [c for c in pairs if c in peers[pivot] and _count(cand[c] & cand[pivot]) == 1]
        for i, a in enumerate(near):
            for b in near[i + 1:]:
                z = cand[a] & cand[b]
                if _count(z) != 1 or z & cand[pivot] or (cand[a] | cand[b]) & cand[pivot] != cand[pivot]:
                    continue
                gone = sorted(c for c in peers[a] & peers[b] if cand[c] & z and c != pivot)
                if gone:
                    digit = z.bit_length()
                    return Step("XY-wing",
                                f"XY-wing: {layout.name(pivot)} ({digit_words(cand[pivot])}) sees "
                                f"{layout.name(a)} ({digit_words(cand[a])}) and {layout.name(b)} "
                                f"({digit_words(cand[b])}); whichever digit {layout.name(pivot)} "
                                f"takes, one of them is {symbol(digit)}, so {symbol(digit)} leaves "
                                f"{layout.names(gone)}, {_which(gone)} both",
                                eliminations=tuple((c, digit) for c in gone))
    return None


def xyz_wing(board: Board) -> Step | None:
    layout = board.layout
    cand, peers = board.cand, layout.peers
    for pivot, mask in enumerate(cand):
        if _count(mask) != 3:
            continue
        near = [c for c in peers[pivot] if _count(cand[c]) == 2 and cand[c] & mask == cand[c]]
        for i, a in enumerate(near):
            for b in near[i + 1:]:
                z = cand[a] & cand[b]
                if _count(z) != 1 or cand[a] | cand[b] != mask:
                    continue
                gone = sorted(c for c in peers[pivot] & peers[a] & peers[b] if cand[c] & z)
                if gone:
                    digit = z.bit_length()
                    return Step("XYZ-wing",
                                f"XYZ-wing: {layout.name(pivot)} ({digit_words(mask)}) with "
                                f"{layout.name(a)} ({digit_words(cand[a])}) and {layout.name(b)} "
                                f"({digit_words(cand[b])}): one of the three is {symbol(digit)}, "
                                f"so {symbol(digit)} leaves {layout.names(gone)}, "
                                f"{_which(gone)} all three",
                                eliminations=tuple((c, digit) for c in gone))
    return None
