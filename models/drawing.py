"""A grid drawn as SVG text, for notebooks (``Puzzle._repr_svg_``, results and traces): boxes or
jigsaw regions outlined, diagonals shaded, killer cages dashed with their totals, givens bold
and other values blue, each cell optionally filled with a colour. No library needed.

>>> from models import parse_puzzle
>>> svg = grid_svg(parse_puzzle("12..34....43..21"))
>>> svg.startswith("<svg") and svg.count("<text") == 8
True
"""
from __future__ import annotations

from collections.abc import Sequence
from html import escape as _html_escape
from typing import TYPE_CHECKING

from .symbols import symbol

if TYPE_CHECKING:
    from .puzzle import Puzzle

GIVEN_INK = "#000000"
FILLED_INK = "#1f3a93"  # a value that was not given: blue, as a student pencils it in ink
DIAGONAL_FILL = "#ececec"
CAGE_INSET = 0.1  # how far inside its cells a cage's dashed outline runs, in cells


def escape(text: str) -> str:
    """``text`` for the inside of an SVG element: &, < and > as entities (quotes stay), as
    xml.sax.saxutils.escape, without its import of urllib (50 ms at every start)."""
    return _html_escape(text, quote=False)


def grid_svg(puzzle: Puzzle, values: Sequence[int] | None = None,
             fills: Sequence[str] | None = None, caption: str = "") -> str:
    """The puzzle's grid as an SVG document: ``values`` (default: the givens) written in it,
    a given bold, ``fills`` one colour per cell ('' for none), ``caption`` under it."""
    n = puzzle.n
    cell = max(18.0, min(34.0, 330.0 / n))
    size = cell * n
    pad = 3.0
    caption_height = 20.0 if caption else 0.0
    width = max(size, len(caption) * 6.8) + 2 * pad
    height = size + 2 * pad + caption_height
    values = puzzle.givens if values is None else values
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="{-pad} {-pad} {width:.0f} {height:.0f}" '
           f'font-family="DejaVu Sans, Arial, sans-serif">',
           f'<rect x="{-pad}" y="{-pad}" width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>']
    diagonal = _diagonal(puzzle)
    for index in range(puzzle.geometry.cells):
        row, col = divmod(index, n)
        fill = (fills[index] if fills else "") or (DIAGONAL_FILL if index in diagonal else "")
        if fill:
            out.append(f'<rect x="{col * cell:.1f}" y="{row * cell:.1f}" width="{cell:.1f}" '
                       f'height="{cell:.1f}" fill="{fill}"/>')
    thin = [f"M{k * cell:.1f},0V{size:.1f}M0,{k * cell:.1f}H{size:.1f}" for k in range(1, n)]
    out.append(f'<path d="{"".join(thin)}" stroke="#9a9a9a" stroke-width="0.7"/>')
    out.append(_regions(puzzle, cell))
    out.extend(_cages(puzzle, cell))
    font = cell * 0.56 if n < 10 else cell * 0.5
    for index, value in enumerate(values):
        if value:
            row, col = divmod(index, n)
            ink = f'fill="{GIVEN_INK}" font-weight="bold"' if puzzle.givens[index] else \
                f'fill="{FILLED_INK}"'
            out.append(f'<text x="{(col + 0.5) * cell:.1f}" y="{(row + 0.5) * cell + font * 0.36:.1f}" '
                       f'font-size="{font:.1f}" text-anchor="middle" {ink}>{symbol(value)}</text>')
    if caption:
        out.append(f'<text x="0" y="{size + 15:.1f}" font-size="12">{escape(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _diagonal(puzzle: Puzzle) -> set[int]:
    n = puzzle.n
    if not puzzle.diagonals:
        return set()
    return {i * n + i for i in range(n)} | {i * n + n - 1 - i for i in range(n)}


def _regions(puzzle: Puzzle, cell: float) -> str:
    """A thick line wherever two neighbouring cells lie in different boxes (or jigsaw regions),
    and around the grid; a Latin square has no inner ones."""
    n, geometry = puzzle.n, puzzle.geometry
    if puzzle.regions is not None:
        region = list(puzzle.regions)
    elif geometry.latin:
        region = [0] * geometry.cells
    else:
        region = [geometry.box_of(i) for i in range(geometry.cells)]
    moves = []
    for row in range(n):
        for col in range(n):
            here = region[row * n + col]
            if col + 1 < n and region[row * n + col + 1] != here:
                moves.append(f"M{(col + 1) * cell:.1f},{row * cell:.1f}v{cell:.1f}")
            if row + 1 < n and region[(row + 1) * n + col] != here:
                moves.append(f"M{col * cell:.1f},{(row + 1) * cell:.1f}h{cell:.1f}")
    size = n * cell
    moves.append(f"M0,0H{size:.1f}V{size:.1f}H0Z")
    return (f'<path d="{"".join(moves)}" stroke="#000000" stroke-width="2.2" fill="none" '
            'stroke-linecap="square"/>')


def _cages(puzzle: Puzzle, cell: float) -> list[str]:
    """Each killer cage as setters draw it: dashes just inside its border, its total small in
    its top-left cell."""
    n, d = puzzle.n, CAGE_INSET * cell
    out = []
    for cage in puzzle.cages:
        inside = set(cage.cells)
        moves = []
        for index in cage.cells:
            row, col = divmod(index, n)
            x0, y0, x1, y1 = col * cell, row * cell, (col + 1) * cell, (row + 1) * cell
            up, down = (row - 1) * n + col, (row + 1) * n + col
            left, right = index - 1 if col else -1, index + 1 if col + 1 < n else -1
            ix0 = x0 + d if left not in inside else x0
            ix1 = x1 - d if right not in inside else x1
            iy0 = y0 + d if up not in inside else y0
            iy1 = y1 - d if down not in inside else y1
            if up not in inside:
                moves.append(f"M{ix0:.1f},{iy0:.1f}H{ix1:.1f}")
            if down not in inside:
                moves.append(f"M{ix0:.1f},{iy1:.1f}H{ix1:.1f}")
            if left not in inside:
                moves.append(f"M{ix0:.1f},{iy0:.1f}V{iy1:.1f}")
            if right not in inside:
                moves.append(f"M{ix1:.1f},{iy0:.1f}V{iy1:.1f}")
        out.append(f'<path d="{"".join(moves)}" stroke="#333333" stroke-width="0.9" '
                   'stroke-dasharray="3 2" fill="none"/>')
        if cage.total is not None:
            row, col = divmod(min(cage.cells), n)
            out.append(f'<text x="{col * cell + d * 0.9:.1f}" y="{row * cell + d + cell * 0.2:.1f}" '
                       f'font-size="{cell * 0.26:.1f}" fill="#222222">{cage.total}</text>')
    return out
