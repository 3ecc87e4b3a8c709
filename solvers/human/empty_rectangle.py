"""Empty rectangle: a box whose places for a digit lie on one row and one column of it, and a
conjugate pair outside the box that points at it.

If a digit's places in a box all lie in its row r or its column c (the rest of the box is an
"empty rectangle"), the box's digit is in row r or in column c. Take a conjugate pair X=Y of
the digit in a column outside the box with X in row r: then the cell T where Y's row meets
column c cannot hold the digit. Were T the digit, Y would not be (same row), so X would be,
which clears row r of the box; T clears column c of the box; the box would have no place
left. The same with rows and columns swapped. Sukaku Explainer weighs it 4.3.
"""
from __future__ import annotations

from collections.abc import Callable

from models.symbols import symbol

from .board import Board, Link, Step


def empty_rectangle(board: Board) -> Step | None:
    layout, n = board.layout, board.layout.n
    for box in layout.boxes:
        for digit in range(1, n + 1):
            spots = board.places(box, digit)
            if len(spots) < 2:
                continue
            rows, cols = {c // n for c in spots}, {c % n for c in spots}
            if len(rows) == 1 or len(cols) == 1:
                continue  # in one line: that is locked candidates
            for r in rows:
                for c in cols:
                    if all(s // n == r or s % n == c for s in spots):
                        step = _pointed(board, box, digit, spots, r, c)
                        if step is not None:
                            return step
    return None


def _pointed(board: Board, box: tuple[int, ...], digit: int, spots: list[int], r: int, c: int) -> Step | None:
    """The step from a conjugate pair outside the box that meets row r or column c of it."""
    layout, n = board.layout, board.layout.n
    sides: tuple[tuple[bool, tuple[tuple[int, ...], ...], Callable[[int], int]], ...] = (
        (True, layout.cols, lambda x: x // n), (False, layout.rows, lambda x: x % n))
    for line_of_r, lines, across in sides:
        for line in lines:
            if any(cell in box for cell in line):
                continue
            pair = board.places(line, digit)
            if len(pair) != 2:
                continue
            for x, y in ((pair[0], pair[1]), (pair[1], pair[0])):
                if across(x) != (r if line_of_r else c):
                    continue
                target = (y // n) * n + c if line_of_r else r * n + y % n
                if target in box or not board.cand[target] >> (digit - 1) & 1:
                    continue
                return _step(board, box, digit, spots, r, c, x, y, target)
    return None


def _step(board: Board, box: tuple[int, ...], digit: int, spots: list[int], r: int, c: int,
          x: int, y: int, target: int) -> Step:
    layout, n = board.layout, board.layout.n
    d = symbol(digit)
    box_name = next(name for name, cells in layout.houses if cells == box)
    in_row = tuple(s for s in spots if s // n == r)
    in_col = tuple(s for s in spots if s // n != r)
    near = in_row if x // n == r else tuple(s for s in spots if s % n == c)
    far = in_col if x // n == r else tuple(s for s in spots if s % n != c)
    links = (Link((y,), digit, (x,), digit, True), Link((x,), digit, near, digit, False),
             Link(near, digit, far, digit, True), Link(far, digit, (target,), digit, False))
    return Step("empty rectangle",
                f"empty rectangle on {d}: in {box_name}, {d} lies only in row {r + 1} and column "
                f"{c + 1} ({layout.names(spots)}), and {layout.name(x)} and {layout.name(y)} are "
                f"its only places in their line; were {layout.name(target)} {d}, "
                f"{layout.name(x)} would be {d} and {box_name} would have no place left, so {d} "
                f"leaves {layout.name(target)}",
                eliminations=((target, digit),), weight=4.3, links=links)
