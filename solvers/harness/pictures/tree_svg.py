"""A search tree drawn as SVG text, top down as on a blackboard: the cell branched on in each
node, the value tried on each edge, contradictions and solutions marked, the path to the
solution drawn thick, forced moves (one option left) on dotted edges, hidden subtrees as
triangles that say their size, and a legend.

Plain text, no library: every node is a ``<g class="node ...">`` with a tooltip, every edge
a ``<path class="edge ...">``, so a test (or a reader) can count them.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from models.drawing import escape
from models.symbols import symbol

from ...trace import Event, cell_name
from ..results.outputs import write_atomic
from .search_tree import CONTRADICTION, SOLUTION, Collapsed, Node, Summary, build, search_counts, summarise

FONT = 11
CHAR = 6.6  # the width of one character at FONT, a little generous for a sans-serif face
LEVEL = 62  # vertical distance between depths
GAP = 8  # least horizontal space between neighbouring subtrees
RADIUS = 8  # a leaf's circle
MARGIN = 16

PATH_COLOUR = "#009E73"  # Okabe-Ito bluish green: the solution and the path to it
FAIL_COLOUR = "#D55E00"  # vermillion: contradictions
STOP_COLOUR = "#0072B2"  # blue: where the search stopped
HIDDEN_FILL = "#fbe3b0"  # a light orange: collapsed subtrees
DEAD_FILL = "#e6e6e6"  # grey: tried, backtracked, no solution below

STYLE = f"""
.edge {{ stroke: #8c8c8c; stroke-width: 1.2; fill: none; }}
.edge.path {{ stroke: {PATH_COLOUR}; stroke-width: 3.5; }}
.edge.hidden {{ stroke-dasharray: 4 3; }}
.edge.forced {{ stroke-dasharray: 1.5 3; }}
.label {{ fill: #1a1a1a; paint-order: stroke; stroke: #ffffff; stroke-width: 3px; }}
.node rect, .node circle, .node polygon {{ fill: #ffffff; stroke: #4d4d4d; stroke-width: 1.2; }}
.node.dead rect, .node.dead circle {{ fill: {DEAD_FILL}; }}
.node.path rect, .node.path circle {{ stroke: {PATH_COLOUR}; stroke-width: 3; }}
.node.contradiction circle {{ fill: {FAIL_COLOUR}; stroke: {FAIL_COLOUR}; }}
.node.solution circle {{ fill: {PATH_COLOUR}; stroke: {PATH_COLOUR}; }}
.node.stopped rect, .node.stopped circle {{ stroke: {STOP_COLOUR}; stroke-dasharray: 3 2; stroke-width: 2; }}
.node.collapsed polygon {{ fill: {HIDDEN_FILL}; stroke: #b36b00; }}
.node.root rect {{ fill: #ffffff; stroke: #1a1a1a; stroke-width: 2.5; }}
.node.root.dead rect {{ fill: {DEAD_FILL}; }}
.start {{ font-weight: bold; fill: #1a1a1a; }}
.mark {{ fill: #ffffff; font-weight: bold; }}
"""


@dataclass(frozen=True)
class TreePicture:
    """A drawn search tree: a notebook shows it, ``save`` writes it."""

    svg: str
    summary: Summary

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: str | Path) -> None:
        """Write the picture to what ``path`` names (outputs.write_atomic: a link followed, a
        device written directly, a file replaced whole)."""
        write_atomic(str(path), self.svg)


def search_tree(events: Iterable[Event], title: str = "", max_nodes: int = 300) -> TreePicture:
    """The search tree of a trace's events, with at most about ``max_nodes`` nodes drawn."""
    events = list(events)
    summary = summarise(build(events), max_nodes)
    return TreePicture(tree_svg(summary, title or f"search tree of {events[0]['solver']}"), summary)


@dataclass(eq=False)
class Item:
    """One drawn node (a tree node or a collapsed stand-in) with its place."""

    node: Node | None
    stand_in: Collapsed | None
    depth: int
    label: str  # inside the node: the cell (or group) its children branch on
    edge: str  # on the edge into it: what was tried
    children: list[Item]
    x: float = 0.0
    offset: float = 0.0  # its x less its parent's

    @property
    def own_width(self) -> float:
        return max(_text(self.label) + 12 if self.label else 2 * RADIUS,
                   _text(self.edge) + 6, 2 * RADIUS + 14 if self.stand_in else 0)


def _text(words: str) -> float:
    return len(words) * CHAR


def tree_svg(summary: Summary, title: str) -> str:
    """The SVG document of a (summarised) search tree, with ``title`` above it."""
    tree = summary.tree
    top = _items(summary, tree.root)
    contour = _layout(top)
    left = min(low for low, _ in contour)
    span = max(high for _, high in contour) - left
    _place(top, MARGIN - left)
    header = _header(summary, title)
    legend, legend_height = _legend(summary, MARGIN, 20 + 16 * len(header))
    origin = 20 + 16 * len(header) + legend_height + 24
    items = list(_all(top))
    wordy = max(_text(header[0]) * 1.3, *(_text(line) for line in header[1:]))  # the title is bold, larger
    width = max(span + 2 * MARGIN, 640.0, wordy + 2 * MARGIN)
    height = origin + LEVEL * max(item.depth for item in items) + 3 * RADIUS + 28 + MARGIN
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" {_size(width, height)} '
             f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Arial, sans-serif" '
             f'font-size="{FONT}" role="img" aria-labelledby="tree-title tree-desc">',
             f'<title id="tree-title">{escape(title)}</title>',
             f'<desc id="tree-desc">{escape(". ".join(header[1:]))}</desc>', f"<style>{STYLE}</style>",
             f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
             '<g class="header">']
    for number, line in enumerate(header):
        weight = ' font-weight="bold" font-size="13"' if number == 0 else ""
        parts.append(f'<text x="{MARGIN}" y="{20 + 16 * number}"{weight}>{escape(line)}</text>')
    parts.append("</g>")
    parts.extend(legend)
    parts.append('<g class="edges">')
    parts.extend(_edge(parent, child, origin, summary) for parent in items for child in parent.children)
    parts.append('</g><g class="labels">')
    for parent in items:
        for child in parent.children:
            y = origin + LEVEL * child.depth - RADIUS - 14
            parts.append(f'<text class="label" x="{child.x:.1f}" y="{y:.1f}" '
                         f'text-anchor="middle">{escape(child.edge)}</text>')
    parts.append('</g><g class="nodes">')
    parts.extend(_node(item, origin, summary) for item in items)
    parts.append("</g></svg>")
    return "\n".join(parts) + "\n"


FITS = 1400
"""A picture wider than this (pixels) is scaled to the width of the window that opens it."""


def _size(width: float, height: float) -> str:
    """The root's size: its own for a picture that fits a screen's width; a wider one is
    as wide as the window it is opened in, whole (its natural size kept as data-width and
    data-height), so a browser never opens a wide tree at its top-left corner, on the legend
    alone, with the root and the tree off to the right."""
    if width <= FITS:
        return f'width="{width:.0f}" height="{height:.0f}"'
    return (f'width="100%" style="max-width:{width:.0f}px;height:auto" '
            f'data-width="{width:.0f}" data-height="{height:.0f}"')


def _items(summary: Summary, node: Node) -> Item:
    tree = summary.tree
    shown = [c for c in node.children if c.number in summary.shown]
    label, edges = _branching(node.children, tree.n)
    children = [_items(summary, c) for c in shown]
    for child in children:
        child.edge = edges[child.node.number] if child.node is not None else child.edge
    stand_in = next((s for s in summary.collapsed if s.parent is node), None)
    if stand_in is not None:
        tried = [edges[c.number] for c in stand_in.hidden]
        words = ", ".join(tried)
        edge = words if len(words) <= 14 else f"{len(tried)} more"
        children.append(Item(None, stand_in, node.depth + 1, "", edge, []))
    return Item(node, None, node.depth, label, "", children)


def _branching(children: list[Node], n: int) -> tuple[str, dict[int, str]]:
    """What the node's children branch on (its label) and what each one tried (its edge):
    one cell and its values, as a CSP course draws it; one value in several places; or
    'r3c5=7' each when the children share neither."""
    if not children:
        return "", {}
    cells = {c.cell for c in children}
    values = {c.value for c in children}
    if len(cells) == 1:
        return cell_name(children[0].cell, n), {c.number: symbol(c.value) for c in children}
    if len(values) == 1:
        group = children[0].group
        where = group.replace(" filled", "") if group else "?"
        label = where if where.startswith(symbol(children[0].value)) else \
            f"{symbol(children[0].value)} in {where}"
        return label, {c.number: cell_name(c.cell, n) for c in children}
    return "", {c.number: f"{cell_name(c.cell, n)}={symbol(c.value)}" for c in children}


def _layout(item: Item) -> list[tuple[float, float]]:
    """Place the subtree's children relative to their parent (``offset``), each as close to its
    left neighbour as their contours allow (Reingold and Tilford's idea); the subtree's
    contour: per depth below it, its leftmost and rightmost extent around its root."""
    half = item.own_width / 2
    if not item.children:
        return [(-half, half)]
    merged: list[tuple[float, float]] = []
    shifts = []
    for child in item.children:
        contour = _layout(child)
        shift = max((right + GAP - contour[level][0] for level, (_, right) in
                     enumerate(merged[:len(contour)])), default=0.0)
        shifts.append(shift)
        merged = [(min(merged[level][0], left + shift) if level < len(merged) else left + shift,
                   right + shift) for level, (left, right) in enumerate(contour)] + merged[len(contour):]
    centre = (shifts[0] + shifts[-1]) / 2
    for child, shift in zip(item.children, shifts):
        child.offset = shift - centre
    return [(-half, half)] + [(left - centre, right - centre) for left, right in merged]


def _place(item: Item, x: float) -> None:
    item.x = x
    for child in item.children:
        _place(child, x + child.offset)


def _all(item: Item) -> list[Item]:
    found, stack = [], [item]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(current.children)
    return found


def _on_path(item: Item, summary: Summary) -> bool:
    node = item.node
    return node is not None and node.solutions > 0 and node.number in summary.shown


def _edge(parent: Item, child: Item, origin: float, summary: Summary) -> str:
    y0 = origin + LEVEL * parent.depth + RADIUS
    y1 = origin + LEVEL * child.depth - RADIUS
    kind = "path" if _on_path(child, summary) else "hidden" if child.stand_in else "tried"
    if child.node is not None and child.node.forced:
        kind += " forced"
    middle = (y0 + y1) / 2
    return (f'<path class="edge {kind}" d="M{parent.x:.1f},{y0:.1f} C{parent.x:.1f},{middle:.1f} '
            f'{child.x:.1f},{middle:.1f} {child.x:.1f},{y1:.1f}"/>')


def _node(item: Item, origin: float, summary: Summary) -> str:
    y = origin + LEVEL * item.depth
    x = item.x
    if item.stand_in is not None:
        return _stand_in(item.stand_in, x, y)
    node = item.node
    assert node is not None  # an item is a node or a stand-in
    tree = summary.tree
    classes = ["node", "root" if node.number == 0 else "decision"]
    if node.forced:
        classes.append("forced")
    if node.outcome:
        classes.append(node.outcome)
    if _on_path(item, summary):
        classes.append("path")
    elif node in tree.stopped:
        classes.append("stopped")
    elif node.backtracked or (node.number == 0 and not tree.stopped and not node.solutions):
        classes.append("dead")
    tip = _tooltip(node, tree.assignment(node))
    out = [f'<g class="{" ".join(classes)}" data-decision="{node.number}" data-depth="{node.depth}">',
           f"<title>{escape(tip)}</title>"]
    if item.label:
        half = _text(item.label) / 2 + 6
        out.append(f'<rect x="{x - half:.1f}" y="{y - RADIUS - 2:.1f}" width="{2 * half:.1f}" '
                   f'height="{2 * RADIUS + 4}" rx="5"/>')
        out.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle">{escape(item.label)}</text>')
    else:
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS}"/>')
        mark = {SOLUTION: "\u2713", CONTRADICTION: "\u2717"}.get(node.outcome, "")
        if mark:
            out.append(f'<text class="mark" x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle">{mark}</text>')
    if node.number == 0:  # the root is where the search starts, never a decision or a dead end
        out.append(f'<text class="start" x="{x:.1f}" y="{y - RADIUS - 8:.1f}" text-anchor="middle">start</text>')
    if item.label and node.outcome:  # a node with children that also ended (a solution at the root)
        out.append(f'<circle cx="{x:.1f}" cy="{y + RADIUS + 8:.1f}" r="4" '
                   f'fill="{PATH_COLOUR if node.outcome == SOLUTION else FAIL_COLOUR}"/>')
    out.append("</g>")
    return "".join(out)


def _tooltip(node: Node, assignment: str) -> str:
    lines = [f"decision {node.number} at depth {node.depth}: {assignment}" if node.number
             else "start: the givens and what inference forced from them"]
    if node.said:
        lines.append(node.said)
    if node.inferred:
        lines.append(f"then {node.inferred} inference step(s)")
    if node.why:
        lines.append(node.why)
    if node.children:
        lines.append(f"{node.size - 1:,} node(s) below: {node.solutions} solution(s), "
                     f"{node.contradictions:,} contradiction(s)")
    return "\n".join(lines)


def _stand_in(stand_in: Collapsed, x: float, y: float) -> str:
    top, bottom, half = y - RADIUS - 2, y + RADIUS + 10, RADIUS + 6
    tip = (f"{stand_in.size:,} node(s) hidden in {len(stand_in.hidden)} subtree(s): "
           f"{stand_in.solutions} solution(s), {stand_in.contradictions:,} contradiction(s)")
    return (f'<g class="node collapsed" data-nodes="{stand_in.size}" '
            f'data-solutions="{stand_in.solutions}"><title>{escape(tip)}</title>'
            f'<polygon points="{x:.1f},{top:.1f} {x - half:.1f},{bottom:.1f} {x + half:.1f},{bottom:.1f}"/>'
            f'<text x="{x:.1f}" y="{bottom + 13:.1f}" text-anchor="middle">+{stand_in.size:,}</text></g>')


def _header(summary: Summary, title: str) -> list[str]:
    tree = summary.tree
    root = tree.root
    lines = [title, f"{search_counts(tree.nodes - tree.forced, tree.forced)}, depth {tree.depth()}: "
                    f"{_count(root.contradictions, 'contradiction')}, "
                    f"{_count(root.solutions, 'solution')}"
             + ("; the search stopped before its end" if tree.stopped else "")
             + ("" if tree.nodes else "; no search: inference alone " + (
                 "solved it" if root.solutions else "found there is no solution" if root.outcome
                 else "went no further"))]
    if summary.collapsed:
        hidden = sum(s.size for s in summary.collapsed)
        lines.append(f"drawn: {len(summary.shown) - 1:,} of the {tree.nodes:,} nodes, every one "
                     f"down to depth {summary.depth} and the path to each solution or to where "
                     f"the search stopped; the other "
                     f"{hidden:,} in {len(summary.collapsed)} collapsed subtrees")
    return lines


def _count(number: int, noun: str) -> str:
    """'1 contradiction', '2,345 contradictions'."""
    return f"{number:,} {noun}" + ("" if number == 1 else "s")


def _legend(summary: Summary, x: float, y: float) -> tuple[list[str], float]:
    """The symbols, each with what it means and how many are drawn; and the legend's height."""
    counts = {"contradiction": 0, "solution": 0, "dead": 0, "stopped": 0, "forced": 0}
    for node in summary.tree.root.walk():
        if node.number in summary.shown:
            counts["forced"] += node.forced
            if node.outcome:
                counts[node.outcome] += 1
            if node in summary.tree.stopped:
                counts["stopped"] += 1
            elif node.backtracked and not node.outcome:
                counts["dead"] += 1
    entries = [
        ('<rect x="-16" y="-9" width="32" height="18" rx="5" fill="#fff" stroke="#1a1a1a" stroke-width="2.5"/>'
         '<text x="0" y="4" text-anchor="middle">r1c1</text>',
         "start (at the top): the givens and what inference forced from them; inside: the cell "
         "the first decisions try"),
        ('<rect x="-16" y="-9" width="32" height="18" rx="5" fill="#fff" stroke="#4d4d4d"/>'
         '<text x="0" y="4" text-anchor="middle">r1c2</text>',
         "a decision; inside: the cell its children try (edge labels: the value tried)")]
    if counts["contradiction"]:
        entries.append((f'<circle r="{RADIUS}" fill="{FAIL_COLOUR}"/><text class="mark" y="4" '
                        'text-anchor="middle">\u2717</text>',
                        f"contradiction ({counts['contradiction']:,} drawn)"))
    if counts["solution"]:
        entries.append((f'<circle r="{RADIUS}" fill="{PATH_COLOUR}"/><text class="mark" y="4" '
                        'text-anchor="middle">\u2713</text>', f"solution ({counts['solution']} drawn)"))
        entries.append((f'<path d="M-16,0 H16" stroke="{PATH_COLOUR}" stroke-width="3.5"/>',
                        "the path to the solution"))
    if counts["dead"]:
        entries.append((f'<rect x="-9" y="-9" width="18" height="18" rx="5" fill="{DEAD_FILL}" '
                        'stroke="#4d4d4d"/>', f"dead end: backtracked, no solution below "
                                              f"({counts['dead']:,} drawn)"))
    if counts["forced"]:
        entries.append(('<path d="M-16,0 H16" stroke="#8c8c8c" stroke-width="2" '
                        'stroke-dasharray="1.5 3"/>', f"dotted: a forced move, the one option left "
                                                      f"({counts['forced']:,} drawn)"))
    if counts["stopped"]:
        entries.append((f'<circle r="{RADIUS}" fill="#fff" stroke="{STOP_COLOUR}" stroke-width="2" '
                        'stroke-dasharray="3 2"/>', f"where the search stopped ({counts['stopped']})"))
    if summary.collapsed:
        entries.append((f'<polygon points="0,-10 -12,8 12,8" fill="{HIDDEN_FILL}" stroke="#b36b00"/>',
                        f"collapsed subtrees, labelled with their size ({len(summary.collapsed)} drawn)"))
    out = ['<g class="legend">']
    for number, (symbol_svg, words) in enumerate(entries):
        row_y = y + 8 + 24 * number
        out.append(f'<g transform="translate({x + 18:.0f},{row_y:.0f})">{symbol_svg}</g>'
                   f'<text x="{x + 44:.0f}" y="{row_y + 4:.0f}">{escape(words)}</text>')
    out.append("</g>")
    return out, 24 * len(entries)
