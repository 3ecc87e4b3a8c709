"""Unique rectangles (types 1 to 4 and hidden): a deadly pattern a unique puzzle cannot end in.

Four cells at the corners of a rectangle, two in each of two rows, two columns and two boxes,
that all could hold the same two digits a and b form a *deadly pattern* if they end up
holding only those: a and b could then swap there and the puzzle would have two solutions.
A puzzle known to have one solution therefore never reaches it, and what would lead there is
false. This holds only when swapping the two digits in the four cells breaks no rule, so the
test is made on the model's groups: each group must hold none of the four cells or two of
them in one row or column (a variant's diagonal or cage through one corner forbids it).

type 1: three corners hold only a and b, so the fourth is not a and not b.
type 2: two corners hold only a and b, the other two a, b and one same extra digit c: one of
        those two is c, so c leaves every cell that sees both.
type 3: the other two hold extra digits; as one cell holding one of those extras they make a
        naked subset with other cells of a group they share, whose digits leave the group.
type 4: two corners in one line hold only a and b, and where the other two share a house, a
        can go only in them: one of them is a, so neither is b.
hidden: one corner holds only a and b, and in the row and column of the opposite corner a can
        go only in the rectangle: that corner is not b.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from models.symbols import symbol

from .board import Board, Layout, Step, digit_words, digits

CAVEAT = "this assumes the puzzle has one solution"
"""Said by every step that relies on uniqueness."""


@dataclass(frozen=True)
class Rectangle:
    """Corners in reading order: two in one row, then two in the other; a < b its digits."""

    cells: tuple[int, int, int, int]
    a: int
    b: int

    @property
    def pair(self) -> int:
        return 1 << (self.a - 1) | 1 << (self.b - 1)


def unique_rectangle(board: Board) -> Step | None:
    """The lightest unique-rectangle step (types 1, 2, 4 and hidden weigh 4.5, type 3 more)."""
    best: Step | None = None
    for rect in rectangles(board):
        for find in (_type1, _type2, _type4, _hidden, _type3):
            step = find(board, rect)
            if step is not None and (best is None or step.weight < best.weight):
                best = step
                if step.weight <= 4.5:
                    return best
    return best


def rectangles(board: Board) -> Iterator[Rectangle]:
    """Every rectangle of empty cells that all hold two same digits, one corner holding only
    those two, whose digits could swap without breaking any group."""
    layout, cand, n = board.layout, board.cand, board.layout.n
    seen: set[tuple[int, ...]] = set()
    for corner, mask in enumerate(cand):
        if mask.bit_count() != 2:
            continue
        row, col = divmod(corner, n)
        for r2 in range(n):
            for c2 in range(n):
                if r2 == row or c2 == col:
                    continue
                cells = tuple(sorted((corner, row * n + c2, r2 * n + col, r2 * n + c2)))
                if cells in seen or any(cand[c] & mask != mask for c in cells):
                    continue
                seen.add(cells)
                if _swappable(layout, cells):
                    a, b = digits(mask)
                    yield Rectangle((cells[0], cells[1], cells[2], cells[3]), a, b)


def _swappable(layout: Layout, cells: tuple[int, ...]) -> bool:
    """Every group holds none of the corners, or two of them in one row or column."""
    n = layout.n
    held: dict[int, list[int]] = {}
    for cell in cells:
        for g in layout.model.cell_groups[cell]:
            held.setdefault(g, []).append(cell)
    for group_cells in held.values():
        if len(group_cells) != 2:
            return False
        (r1, c1), (r2, c2) = divmod(group_cells[0], n), divmod(group_cells[1], n)
        if r1 != r2 and c1 != c2:
            return False
    return True


def _words(board: Board, rect: Rectangle) -> str:
    return (f"{board.layout.names(rect.cells)} could all hold {symbol(rect.a)} and "
            f"{symbol(rect.b)}")


def _step(kind: str, text: str, gone: list[tuple[int, int]], weight: float = 4.5,
          placements: tuple[tuple[int, int], ...] = ()) -> Step:
    return Step("unique rectangle", f"unique rectangle {kind}: {text} ({CAVEAT})",
                placements=placements, eliminations=tuple(gone), weight=round(weight, 1))


def _type1(board: Board, rect: Rectangle) -> Step | None:
    extra = [c for c in rect.cells if board.cand[c] != rect.pair]
    if len(extra) != 1:
        return None
    (cell,) = extra
    name = board.layout.name(cell)
    return _step("type 1", f"{_words(board, rect)} and all but {name} hold nothing else; were "
                 f"{name} {symbol(rect.a)} or {symbol(rect.b)} the two digits could swap there, "
                 f"so {symbol(rect.a)} and {symbol(rect.b)} leave {name}",
                 [(cell, rect.a), (cell, rect.b)])


def _roof(board: Board, rect: Rectangle) -> tuple[list[int], list[int]] | None:
    """(floor, roof): the two corners holding only the pair, and the two holding more."""
    floor = [c for c in rect.cells if board.cand[c] == rect.pair]
    roof = [c for c in rect.cells if board.cand[c] != rect.pair]
    return (floor, roof) if len(floor) == 2 else None


def _type2(board: Board, rect: Rectangle) -> Step | None:
    parts = _roof(board, rect)
    if parts is None:
        return None
    _, roof = parts
    extras = {board.cand[c] & ~rect.pair for c in roof}
    if len(extras) != 1 or (extra := extras.pop()).bit_count() != 1:
        return None
    layout = board.layout
    gone = sorted(c for c in layout.peers[roof[0]] & layout.peers[roof[1]] if board.cand[c] & extra)
    if not gone:
        return None
    c = symbol(extra.bit_length())
    return _step("type 2", f"{_words(board, rect)}, and {layout.names(roof)} hold only {c} "
                 f"besides; one of those two must be {c} or the pair could swap, so {c} leaves "
                 f"{layout.names(gone)}, which {'sees' if len(gone) == 1 else 'see'} both",
                 [(g, extra.bit_length()) for g in gone])


def _shared_groups(board: Board, cells: list[int]) -> Iterator[tuple[str, tuple[int, ...]]]:
    layout = board.layout
    for name, group in layout.groups:
        if all(c in group for c in cells):
            yield name, group


def _type3(board: Board, rect: Rectangle) -> Step | None:
    parts = _roof(board, rect)
    if parts is None:
        return None
    _, roof = parts
    cand, layout = board.cand, board.layout
    extra = (cand[roof[0]] | cand[roof[1]]) & ~rect.pair
    best: Step | None = None
    for name, group in _shared_groups(board, roof):
        others = [c for c in group if cand[c] and c not in roof and not cand[c] & rect.pair]
        for size in range(1, 4):
            if best is not None and best.weight <= 4.5 + 0.1 * size:
                break  # a smaller subset was found already
            for chosen in combinations(others, size):
                union = extra
                for c in chosen:
                    union |= cand[c]
                if union.bit_count() != size + 1:
                    continue
                gone = [(c, d) for c in group if cand[c] and c not in roof and c not in chosen
                        for d in digits(cand[c] & union)]
                if not gone:
                    continue
                weight = 4.5 + 0.1 * size
                if best is None or weight < best.weight:  # the smallest subset of this group
                    best = _step("type 3", f"{_words(board, rect)}, and one of {layout.names(roof)} "
                                 f"must hold {digit_words(extra)} or the pair could swap; with "
                                 f"{layout.names(chosen)} that makes a naked set of "
                                 f"{digit_words(union)} in {name}, so those digits leave "
                                 f"{layout.names(sorted({c for c, _ in gone}))}", gone, weight)
                break
    return best


def _type4(board: Board, rect: Rectangle) -> Step | None:
    parts = _roof(board, rect)
    if parts is None:
        return None
    floor, roof = parts
    n = board.layout.n
    if divmod(floor[0], n)[0] != divmod(floor[1], n)[0] and floor[0] % n != floor[1] % n:
        return None  # the two corners holding only the pair must share a row or column
    layout = board.layout
    for name, house in layout.houses:
        if roof[0] not in house or roof[1] not in house:
            continue
        for strong, other in ((rect.a, rect.b), (rect.b, rect.a)):
            if set(board.places(house, strong)) == set(roof):
                return _step("type 4", f"{_words(board, rect)}, and {layout.names(floor)} hold "
                             f"nothing else; in {name}, {symbol(strong)} can go only in "
                             f"{layout.names(roof)}, so one of them is {symbol(strong)} and "
                             f"{symbol(other)} in either would let the pair swap: "
                             f"{symbol(other)} leaves {layout.names(roof)}",
                             [(c, other) for c in roof])
    return None


def _hidden(board: Board, rect: Rectangle) -> Step | None:
    layout, cand, n = board.layout, board.cand, board.layout.n
    for corner in rect.cells:
        if cand[corner] != rect.pair:
            continue
        row, col = divmod(corner, n)
        (opposite,) = [c for c in rect.cells if c // n != row and c % n != col]
        orow, ocol = divmod(opposite, n)
        row_mate, col_mate = orow * n + col, row * n + ocol
        for strong, other in ((rect.a, rect.b), (rect.b, rect.a)):
            if (set(board.places(layout.rows[orow], strong)) == {opposite, row_mate}
                    and set(board.places(layout.cols[ocol], strong)) == {opposite, col_mate}):
                o = layout.name(opposite)
                return _step("hidden", f"{_words(board, rect)}, {layout.name(corner)} holds nothing "
                             f"else, and in row {orow + 1} and column {ocol + 1} {symbol(strong)} "
                             f"can go only in the rectangle; were {o} {symbol(other)}, "
                             f"{symbol(strong)} would fill {layout.names((row_mate, col_mate))} and "
                             f"the pair could swap, so {symbol(other)} leaves {o}",
                             [(opposite, other)])
    return None


def bug_plus_one(board: Board) -> Step | None:
    """BUG+1: every empty cell but one holds two candidates and every digit fits twice in each
    house, but for one digit three times around that cell: it must be that digit, or the grid
    would be a bivalue universal grave, a deadly pattern with no or several solutions."""
    layout, cand = board.layout, board.cand
    if not layout.standard:
        return None
    empty = [c for c, m in enumerate(cand) if m]
    plus = [c for c in empty if cand[c].bit_count() != 2]
    if len(plus) != 1 or cand[plus[0]].bit_count() != 3:
        return None
    (cell,) = plus
    extra = 0
    for h, (_, house) in enumerate(layout.houses):
        counts = [len(board.places(house, d)) for d in range(1, layout.n + 1)]
        odd = [d for d, k in enumerate(counts, 1) if k not in (0, 2)]
        if h in layout.cell_houses[cell]:
            if len(odd) != 1 or counts[odd[0] - 1] != 3 or (extra and odd[0] != extra):
                return None
            extra = odd[0]
        elif odd:
            return None
    if not extra:
        return None
    name = layout.name(cell)
    return Step("BUG+1", f"BUG+1: every empty cell but {name} holds two candidates and each "
                f"digit fits twice in each row, column and box, but {symbol(extra)} three times "
                f"around {name}; without {symbol(extra)} there the grid would be a deadly "
                f"pattern with no or two solutions, so {name} = {symbol(extra)} ({CAVEAT})",
                placements=((cell, extra),), group="")

