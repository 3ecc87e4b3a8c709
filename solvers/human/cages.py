"""Cage combinations (killer Sudoku): the digit sets that can still make a cage's total.

A cage of k cells with total t can only hold k different digits summing to t that its cells'
candidates allow. A candidate used by no such filling leaves its cell; a digit every
combination uses must be somewhere in the cage, so it leaves any cell outside the cage that
sees all the cage's cells where it can go.
"""
from __future__ import annotations

from functools import lru_cache

from models import Cage
from models.symbols import symbol

from .board import Board, Contradiction, Step, digit_words, digits

NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                8: "eight", 9: "nine"}


@lru_cache(maxsize=1 << 17)
def _total(mask: int) -> int:
    return sum(digits(mask))


def fillings(board: Board, cells: list[int], target: int, taken: int
             ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(the digit sets the empty ``cells`` can still take summing to ``target``, avoiding
    ``taken``; for each cell the bitmask of its candidates some such filling uses)."""
    return _fillings(tuple(board.cand[c] & ~taken for c in cells), target)


@lru_cache(maxsize=1 << 14)
def _fillings(masks: tuple[int, ...], target: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """fillings() for cells with these candidate masks (cached: a search meets the same
    cage state again and again)."""
    layers = [{0}]
    for allowed in masks:
        nxt = set()
        for mask in layers[-1]:
            free = allowed & ~mask
            while free:
                bit = free & -free
                nxt.add(mask | bit)
                free ^= bit
        layers.append(nxt)
    ends = sorted(m for m in layers[-1] if _total(m) == target)
    alive = set(ends)
    support = [0] * len(masks)
    for i in range(len(masks) - 1, -1, -1):
        allowed = masks[i]
        before = set()
        for mask in layers[i]:
            free = allowed & ~mask
            while free:
                bit = free & -free
                if mask | bit in alive:
                    before.add(mask)
                    support[i] |= bit
                free ^= bit
        alive = before
    return tuple(ends), tuple(support)


def cage_combinations(board: Board) -> Step | None:
    layout = board.layout
    for cage in layout.cages:
        if cage.total is None:
            continue
        name = layout.cage_names.get(cage.cells, "a cage")
        empty = [c for c in cage.cells if not board.values[c]]
        if not empty:
            continue
        taken = board.placed(cage.cells)
        combos, support = fillings(board, empty, cage.total - _total(taken), taken)
        if not combos:
            raise Contradiction(f"no combination of different digits left in {name} can make "
                                f"its total {cage.total}", rule="no combination", group=name,
                                total=cage.total)
        gone = [(c, d) for c, s in zip(empty, support) for d in digits(board.cand[c] & ~s)]
        if gone:
            values = {d for _, d in gone}
            verb = "leaves" if len(values) == 1 else "leave"
            return Step("cage combinations",
                        f"cage combinations: {_words(cage, taken, combos, name)}, so "
                        f"{digit_words(sum(1 << (d - 1) for d in values))} {verb} "
                        f"{layout.names(sorted({c for c, _ in gone}))}",
                        eliminations=tuple(gone), group=name)
        must = combos[0]
        for combo in combos[1:]:
            must &= combo
        for digit in digits(must):
            bit = 1 << (digit - 1)
            spots = [c for c in empty if board.cand[c] & bit]
            outside = set.intersection(*(set(layout.peers[c]) for c in spots)) - set(cage.cells)
            hit = sorted(c for c in outside if board.cand[c] & bit)
            if hit:
                return Step("cage combinations",
                            f"cage combinations: {_words(cage, taken, combos, name)}, "
                            f"so {symbol(digit)} must be in the cage and leaves "
                            f"{layout.names(hit)}, {'which sees' if len(hit) == 1 else 'which see'} all its "
                            f"places there",
                            eliminations=tuple((c, digit) for c in hit), group=name)
    return None


def _words(cage: Cage, taken: int, combos: tuple[int, ...], name: str) -> str:
    """'cage 17 in two cells (cage 3): only 8 and 9', 'cage 10 in three cells (cage 2): only
    1+2+7 or 1+3+6', or with digits placed '..., 4 placed, the rest: only 1 and 5'."""
    size = len(cage.cells)
    cells = f"{NUMBER_WORDS.get(size, str(size))} cell{'s' if size > 1 else ''}"
    if len(combos) == 1:
        only = digit_words(combos[0])
    else:
        only = " or ".join("+".join(symbol(d) for d in digits(m)) for m in sorted(combos, key=digits))
    placed = f", {digit_words(taken)} placed, the rest" if taken else ""
    return f"cage {cage.total} in {cells} ({name}){placed}: only {only}"
