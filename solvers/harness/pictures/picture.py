"""A solved grid as a picture: givens apart from filled cells, each filled cell coloured by
how it got the value it holds (the rule that placed it, a decision of the search, or a forced
move), with a legend that counts the cells drawn in each colour; any size, diagonals hatched,
jigsaw regions (and boxes) outlined. matplotlib is imported only here, when a picture is drawn.

Each cell's rectangle carries the id ``cell-rRcC`` in an SVG, so a reader (or a test) can
find the cells and their colours.
"""
from __future__ import annotations

import textwrap
from typing import Any

from models.symbols import symbol

from .plot import _pyplot, _save
from .steps import Board, cage_corner, cage_sides

# fill colour per way a cell got its value (colour-blind-safe Okabe-Ito tints)
COLOURS = {
    "given": "#ffffff",
    "naked single": "#b9e3f7",
    "hidden single": "#c8ecd4",
    "bounds consistency": "#d9d2f0",  # the consistency levels: one per solve, never together
    "arc consistency": "#d9d2f0",
    "singleton arc consistency": "#d9d2f0",
    "decision": "#ffd9a8",
    "forced": "#f3c7de",
    "": "#f7f7f7",  # empty
}
LABELS = {"given": "given (bold)", "decision": "decision of the search",
          "forced": "forced (one option left)", "": "empty"}
OTHER = ("#e8e1b5", "#d6d6d6", "#c9e0e0")  # rules this module does not know yet, in turn


def colours_of(hows: list[str]) -> dict[str, str]:
    """The fill of each way a cell got its value, for the ways in hows (a rule met here first
    gets the next spare tint, so two ways never share a colour in one picture)."""
    known = {how: COLOURS[how] for how in hows if how in COLOURS}
    spare = iter(OTHER)
    for how in hows:
        if how not in known:
            known[how] = next(spare, "#bbbbbb")
    return known


def legend_counts(board: Board) -> dict[str, int]:
    """How many cells got their value each way, in the order the legend lists them."""
    order = [*COLOURS, *sorted(set(board.how) - set(COLOURS))]
    return {how: board.how.count(how) for how in order if how in board.how}


def draw_board(board: Board, path: str, title: str = "") -> None:
    """Draw the board to path (.png or .svg)."""
    plt = _pyplot()
    from matplotlib.patches import Patch, Rectangle  # noqa: PLC0415 - matplotlib only when a picture is drawn

    n = board.model.n
    size = max(6.0, min(14.0, 0.5 * n + 1.5))  # 6 inches at least: room for the legend and title
    figure, axes = plt.subplots(figsize=(size, size + 1.4))
    axes.set_xlim(0, n)
    axes.set_ylim(n, 0)
    axes.set_aspect("equal")
    axes.axis("off")
    diagonal = _diagonal_cells(board)
    font = max(5.0, 180.0 / n)
    counts = legend_counts(board)
    fill = colours_of(list(counts))
    for cell, value in enumerate(board.values):
        row, col = divmod(cell, n)
        how = board.how[cell] if value else ""
        axes.add_patch(Rectangle((col, row), 1, 1, facecolor=fill[how], edgecolor="#9a9a9a",
                                 linewidth=0.5, gid=f"cell-r{row + 1}c{col + 1}"))
        if cell in diagonal:
            axes.add_patch(Rectangle((col, row), 1, 1, facecolor="none", edgecolor="#8a8a8a",
                                     hatch="////", linewidth=0))
        if value:
            axes.text(col + 0.5, row + 0.53, symbol(value), ha="center", va="center",
                      fontsize=font, fontweight="bold" if how == "given" else "normal",
                      color="#000000" if how == "given" else "#1f3a93")
    outline_regions(axes, region_of(board), n)
    outline_cages(axes, board, font)
    handles: list[Any] = [
        Patch(facecolor=fill[how], edgecolor="#666666",
              label=f"{LABELS.get(how, how)}: {count} cell{'' if count == 1 else 's'}")
        for how, count in counts.items()]
    if diagonal:
        handles.append(Patch(facecolor="none", edgecolor="#666666", hatch="////",
                             label="diagonal (X-Sudoku)"))
    if board.model.puzzle.cages:
        handles.append(Patch(facecolor="none", edgecolor="#333333", linestyle="--",
                             label="killer cage (total top left)"))
    if handles:  # none for an empty grid not yet filled
        axes.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.01),
                    ncol=min(len(handles), 2), frameon=False, fontsize=9)
    if title:
        axes.set_title(wrapped_title(title, size), fontsize=10)
    _save(figure, path)


def wrapped_title(title: str, inches: float, points: float = 10.0) -> str:
    """The title's lines wrapped to the picture's width (a character is about 0.6 of the
    font's size wide), so a long path or configuration is never cut off at either side.

    >>> lines = wrapped_title("puzzles/generated_killer_9x9.txt, line 4: mrv:impl=readable", 3).splitlines()
    >>> len(lines), max(map(len, lines)) <= 34
    (2, True)
    """
    width = max(20, int(inches * 72 / (points * 0.6)) - 2)
    return "\n".join(textwrap.fill(line, width, break_long_words=True) for line in title.splitlines())


def _diagonal_cells(board: Board) -> set[int]:
    n = board.model.n
    if not board.model.puzzle.diagonals:
        return set()
    return {i * n + i for i in range(n)} | {i * n + n - 1 - i for i in range(n)}


def region_of(board: Board) -> list[int]:
    """Per cell, its box or jigsaw region: the thick outlines."""
    puzzle = board.model.puzzle
    if puzzle.regions is not None:
        return list(puzzle.regions)
    geometry = puzzle.geometry
    return [geometry.box_of(cell) for cell in range(geometry.cells)]


CAGE_INSET = 0.09
"""How far inside its cells a cage's dashed outline runs, as a fraction of a cell."""


def outline_cages(axes: Any, board: Board, font: float) -> None:
    """Killer cages as setters draw them: a dashed line just inside the cage's border, and its
    total small in the top-left corner of its first cell."""
    n = board.model.n
    dashed = {"color": "#333333", "linewidth": 0.9, "linestyle": (0, (3, 2))}
    d = CAGE_INSET
    for cage in board.model.puzzle.cages:
        for cell, (top, right, bottom, left) in cage_sides(cage.cells, n).items():
            row, col = divmod(cell, n)
            x0, x1 = col + (d if left else 0), col + 1 - (d if right else 0)
            y0, y1 = row + (d if top else 0), row + 1 - (d if bottom else 0)
            if top:
                axes.plot([x0, x1], [y0, y0], **dashed)
            if bottom:
                axes.plot([x0, x1], [y1, y1], **dashed)
            if left:
                axes.plot([x0, x0], [y0, y1], **dashed)
            if right:
                axes.plot([x1, x1], [y0, y1], **dashed)
        if cage.total is not None:
            row, col = divmod(cage_corner(cage.cells), n)
            axes.text(col + d * 0.6, row + d * 0.6, str(cage.total), ha="left", va="top",
                      fontsize=max(4.0, font * 0.38), color="#222222",
                      bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.4})


def outline_regions(axes: Any, region: list[int], n: int) -> None:
    """A thick line wherever two neighbouring cells lie in different regions, and around all."""
    thick = {"color": "#000000", "linewidth": 2.2, "solid_capstyle": "projecting"}
    for row in range(n):
        for col in range(n):
            here = region[row * n + col]
            if col + 1 < n and region[row * n + col + 1] != here:
                axes.plot([col + 1, col + 1], [row, row + 1], **thick)
            if row + 1 < n and region[(row + 1) * n + col] != here:
                axes.plot([col, col + 1], [row + 1, row + 1], **thick)
    axes.plot([0, n, n, 0, 0], [0, 0, n, n, 0], **thick)
