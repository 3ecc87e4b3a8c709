"""One step of a solve as a picture: the grid just before it with every empty cell's candidates
pencilled, the step's chain drawn over them (strong links solid, weak links dashed, each an
arrow in the order the chain reads), the candidates it eliminates struck out in red and a digit
it places ringed in green. ``render --step N`` draws it; matplotlib is imported only here.

In an SVG each link carries the id ``link-strong-K`` or ``link-weak-K`` and each struck
candidate ``removed-rRcC-D``, so a reader (or a test) can count them.
"""
from __future__ import annotations

import math
import textwrap
from typing import Any

from models.symbols import symbol

from ...trace import Event
from .picture import outline_cages, outline_regions, region_of
from .plot import _pyplot, _save
from .steps import Board

STRONG, WEAK, GONE, PLACED, NODE = "#0072b2", "#e69f00", "#c0392b", "#009e73", "#fff3b0"
"""Okabe-Ito colours: strong links, weak links, eliminations, the placed digit, chain nodes."""


def spot(cell: int, digit: int, n: int) -> tuple[float, float]:
    """Where a candidate is pencilled: its cell split into a k x k grid (k = ceil(sqrt(n)))."""
    k = math.ceil(math.sqrt(n))
    row, col = divmod(cell, n)
    i, j = (digit - 1) % k, (digit - 1) // k
    return col + (i + 0.5) / k, row + (j + 0.5) / k


def node_spot(cells: list[int], digit: int, n: int) -> tuple[float, float]:
    """The middle of a node's candidates (a grouped node's several cells)."""
    points = [spot(cell, digit, n) for cell in cells]
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


def draw_step(board: Board, event: Event, path: str, title: str) -> None:
    """Draw the board before ``event`` (a step of the human solver) with its chain."""
    plt = _pyplot()
    from matplotlib.lines import Line2D  # noqa: PLC0415 - matplotlib only when a picture is drawn
    from matplotlib.patches import FancyArrowPatch, Rectangle  # noqa: PLC0415 - the same

    n = board.model.n
    k = math.ceil(math.sqrt(n))
    size = max(7.0, min(15.0, 0.62 * n + 1.5))
    figure, axes = plt.subplots(figsize=(size, size + 1.8))
    axes.set_xlim(0, n)
    axes.set_ylim(n, 0)
    axes.set_aspect("equal")
    axes.axis("off")
    removed = {(c, v) for c, v in event.get("removed") or []}
    placed = (event["cell"], event["value"]) if event["kind"] == "place" else None
    nodes = {(c, d) for tail, d, head, to_d, _ in event.get("links", []) for c, d in
             [*((x, d) for x in tail), *((x, to_d) for x in head)]}
    font = max(4.0, 150.0 / n)
    small = max(3.0, font * 1.3 / k)
    for cell, value in enumerate(board.values):
        row, col = divmod(cell, n)
        axes.add_patch(Rectangle((col, row), 1, 1, facecolor="#ffffff", edgecolor="#9a9a9a", linewidth=0.5))
        if value:
            axes.text(col + 0.5, row + 0.53, symbol(value), ha="center", va="center", fontsize=font,
                      fontweight="bold" if board.how[cell] == "given" else "normal",
                      color="#000000" if board.how[cell] == "given" else "#1f3a93")
            continue
        for digit in board.candidates(cell):
            _candidate(axes, (cell, digit), n, small, removed, placed, nodes)
    outline_regions(axes, region_of(board), n)
    outline_cages(axes, board, font)
    for number, (tail, d, head, to_d, strong) in enumerate(event.get("links", [])):
        start, end = node_spot(tail, d, n), node_spot(head, to_d, n)
        axes.add_patch(FancyArrowPatch(
            start, end, arrowstyle="-|>", mutation_scale=8 + 40 / n, shrinkA=6, shrinkB=6,
            connectionstyle="arc3,rad=0.18", color=STRONG if strong else WEAK,
            linewidth=2.0 if strong else 1.6, linestyle="-" if strong else (0, (4, 2)),
            gid=f"link-{'strong' if strong else 'weak'}-{number}"))
    handles = [Line2D([], [], color=STRONG, linewidth=2, label="strong link: one of the two holds"),
               Line2D([], [], color=WEAK, linewidth=1.6, linestyle=(0, (4, 2)), label="weak link: not both"),
               Line2D([], [], color=GONE, marker="x", linestyle="", label="eliminated by this step"),
               Line2D([], [], color=PLACED, marker="o", markerfacecolor="none", linestyle="",
                      label="placed by this step")]
    axes.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=2, frameon=False,
                fontsize=9)
    axes.set_title("\n".join(textwrap.wrap(title, 100)), fontsize=8.5, loc="left")
    _save(figure, path)


def _candidate(axes: Any, candidate: tuple[int, int], n: int, small: float, removed: set[tuple[int, int]],
               placed: tuple[int, int] | None, nodes: set[tuple[int, int]]) -> None:
    """One pencilled candidate: grey, on a chain node yellow, eliminated red and crossed, placed
    ringed in green."""
    from matplotlib.patches import Circle  # noqa: PLC0415 - matplotlib only when a picture is drawn

    cell, digit = candidate
    x, y = spot(cell, digit, n)
    radius = 0.36 / math.ceil(math.sqrt(n))
    row, col = divmod(cell, n)
    if candidate in nodes:
        axes.add_patch(Circle((x, y), radius, facecolor=NODE, edgecolor="#8a7a00", linewidth=0.6))
    colour = GONE if candidate in removed else "#555555"
    axes.text(x, y, symbol(digit), ha="center", va="center", fontsize=small, color=colour,
              fontweight="bold" if candidate in removed or candidate in nodes else "normal")
    if candidate in removed:
        axes.plot([x - radius, x + radius], [y - radius, y + radius], color=GONE, linewidth=1.4,
                  gid=f"removed-r{row + 1}c{col + 1}-{digit}")
        axes.plot([x - radius, x + radius], [y + radius, y - radius], color=GONE, linewidth=1.4)
    if candidate == placed:
        axes.add_patch(Circle((x, y), radius * 1.15, facecolor="none", edgecolor=PLACED, linewidth=1.8))
