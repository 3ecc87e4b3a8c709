"""Chains: X-chains, XY-chains, remote pairs, alternating inference chains (AICs) with grouped
nodes, and nice loops (links.py says what nodes and links are).

An AIC starts and ends with a strong link and alternates: A=B-C=D says that if A is false B
is true, so C is false, so D is true: A or D is true. So a candidate that sees both ends (on
one digit) is false; where the ends are two digits of one cell, the cell's other digits go;
where they are two digits of cells that see each other, each end's digit leaves the other's
cell; a chain that comes back to its own start as true proves it true (a discontinuous nice
loop). When the last node also has a weak link back to the first, the chain is a continuous
loop: then every weak link in it holds exactly one true end, and the digit leaves every cell
that sees both ends of one.

The search is breadth-first from every node at once, one strong link further each round, so
the first chains found are the shortest, and a chain's weight (scale.py: on one digit by its
strong links, otherwise SE's base for its kind plus its length bonus) grows with each round:
the search stops as soon as no longer chain can be lighter than the best found, or than
``below`` (a lighter step found elsewhere).
An X-chain stays on one digit and links through houses; an XY-chain links the two digits of
bivalue cells and passes between cells on one digit; an AIC mixes both, and may pass through
grouped nodes.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from models.symbols import symbol

from .board import Board, Step, digit_words, digits, words
from .links import CELL, HOUSE, Graph, chain_links, eureka, graph_of
from .scale import length_bonus, one_digit_weight

INFINITY = float("inf")


@dataclass(frozen=True)
class Kind:
    """Which links a search may use, and its chains' and loops' lightest bases."""

    name: str
    strong: frozenset[int]  # HOUSE, CELL
    mixed_weak: bool  # weak links between two digits of one cell too
    groups: bool
    chain_base: float
    loop_base: float


X = Kind("X", frozenset({HOUSE}), False, True, 6.6, 6.5)
XY = Kind("XY", frozenset({CELL}), False, False, 7.0, 6.5)
MIXED = Kind("AIC", frozenset({HOUSE, CELL}), True, True, 7.0, 7.0)


def x_chain(board: Board, below: float = INFINITY) -> Step | None:
    """The lightest X-chain or X-loop (one digit, links through houses, grouped nodes allowed)."""
    return search(graph_of(board), X, below)


def xy_chain(board: Board, below: float = INFINITY) -> Step | None:
    """The lightest XY-chain, remote pair or XY-loop (bivalue cells linked on one digit)."""
    return search(graph_of(board), XY, below)


def aic(board: Board, below: float = INFINITY) -> Step | None:
    """The lightest AIC or nice loop mixing cell and house links (grouped nodes allowed)."""
    return search(graph_of(board), MIXED, below)


def search(graph: Graph, kind: Kind, below: float) -> Step | None:
    """Breadth-first over all starts at once; the lightest step (the first of equal weight)."""
    usable = [kind.groups or len(cells) == 1 for cells in graph.cells]
    strong = [[w for w, k in links if k in kind.strong and usable[w]] if usable[v] else []
              for v, links in enumerate(graph.strong)]
    weak = [[v for v in graph.weak[u] if usable[v] and (kind.mixed_weak or graph.digit[v] == graph.digit[u])]
            for u in range(len(graph.digit))]
    prev: dict[int, dict[int, tuple[int, int]]] = {}
    frontier: list[tuple[int, int]] = []
    for s in range(len(graph.digit)):
        if strong[s]:
            prev[s] = {w: (-1, s) for w in strong[s]}
            frontier += [(s, w) for w in strong[s]]
    best: Step | None = None
    layer = 1
    while frontier:
        if lightest(kind, layer) >= min(below, best.weight if best else INFINITY):
            break
        for s, e in frontier:
            step = _conclude(graph, kind, s, e, prev[s], weak)
            if step is not None and step.weight < min(below, best.weight if best else INFINITY):
                best = step
        frontier = _expand(frontier, prev, strong, weak)
        layer += 1
    return best


def lightest(kind: Kind, strong: int) -> float:
    """The least a chain or loop of this kind with this many strong links can weigh."""
    if kind is X:
        return min(one_digit_weight(strong, False, True, False, False, loop) for loop in (False, True))
    return min(round(kind.chain_base + length_bonus(2 * strong - 2), 1),
               round(kind.loop_base + length_bonus(2 * strong - 2), 1))


def weight_of(graph: Graph, kind: Kind, nodes: list[int], loop: bool) -> float:
    """A chain's weight: on one digit by its strong links and where they lie; otherwise SE's
    base plus the bonus of its length (an open chain's nodes, a loop's less two, a chain that
    comes back to its start less two)."""
    if kind is X:
        strong = len(nodes) // 2
        box = rows = cols = grouped = False
        n = graph.board.layout.n
        for a, b in zip(nodes[::2], nodes[1::2]):
            if graph.grouped(a) or graph.grouped(b):
                grouped = True
            elif graph.cells[a][0] // n == graph.cells[b][0] // n:
                rows = True
            elif graph.cells[a][0] % n == graph.cells[b][0] % n:
                cols = True
            else:
                box = True
        return one_digit_weight(strong, box, rows, cols, grouped, loop)
    if loop:
        return round(kind.loop_base + length_bonus(len(nodes) - 2), 1)
    back = nodes[0] == nodes[-1]
    return round(kind.chain_base + length_bonus(len(nodes) - 2 if back else len(nodes)), 1)


def _expand(frontier: list[tuple[int, int]], prev: dict[int, dict[int, tuple[int, int]]],
            strong: list[list[int]], weak: list[list[int]]) -> list[tuple[int, int]]:
    """The next round: from each true end, a weak link makes a node false, and a strong link
    from it makes the next true."""
    following = []
    for s, u in frontier:
        if u == s:
            continue  # the chain came back to its start: nothing beyond
        seen = prev[s]
        for v in weak[u]:
            for w in strong[v]:
                if w not in seen:
                    seen[w] = (u, v)
                    following.append((s, w))
    return following


def path(prev: dict[int, tuple[int, int]], end: int) -> list[int]:
    """The chain's nodes from its start to ``end``."""
    nodes = [end]
    while True:
        u, v = prev[end]
        nodes.append(v)
        if u < 0:
            return nodes[::-1]
        nodes.append(u)
        end = u


def _conclude(graph: Graph, kind: Kind, s: int, e: int, prev: dict[int, tuple[int, int]],
              weak: list[list[int]]) -> Step | None:
    """The step of the chain from s to e, if it removes or places anything: as a continuous
    loop when e links back to s (a loop removes all its ends would, and more), else by its ends."""
    if e != s and s in weak[e]:
        nodes = path(prev, e)
        if len(nodes) >= 4 and len(set(nodes)) == len(nodes) and (kind is not MIXED or _mixed(graph, nodes)):
            gone = _loop_eliminations(graph, nodes)
            if gone:
                return _loop_step(graph, kind, nodes, gone)
    placements, gone = _ends(graph, s, e)
    if placements or gone:
        return _chain_step(graph, kind, path(prev, e), placements, gone)
    return None


def _ends(graph: Graph, s: int, e: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(placements, eliminations) that s or e being true proves."""
    board = graph.board
    cand, ds, de = board.cand, graph.digit[s], graph.digit[e]
    if s == e:
        if len(graph.cells[s]) == 1:
            return [(graph.cells[s][0], ds)], []
        return [], _cells_of(graph.places[ds] & graph.sees[s], ds)
    if ds == de:
        targets = graph.places[ds] & graph.sees[s] & graph.sees[e] & ~(graph.bits[s] | graph.bits[e])
        return [], _cells_of(targets, ds)
    gone: list[tuple[int, int]] = []
    if len(graph.cells[s]) == 1 and graph.cells[s] == graph.cells[e]:
        cell = graph.cells[s][0]
        keep = 1 << (ds - 1) | 1 << (de - 1)
        return [], [(cell, d) for d in digits(cand[cell] & ~keep)]
    if len(graph.cells[e]) == 1:
        cell = graph.cells[e][0]
        if cand[cell] >> (ds - 1) & 1 and graph.sees[s] >> cell & 1:
            gone.append((cell, ds))
    if len(graph.cells[s]) == 1:
        cell = graph.cells[s][0]
        if cand[cell] >> (de - 1) & 1 and graph.sees[e] >> cell & 1:
            gone.append((cell, de))
    return [], gone


def _cells_of(mask: int, digit: int) -> list[tuple[int, int]]:
    found = []
    while mask:
        low = mask & -mask
        found.append((low.bit_length() - 1, digit))
        mask ^= low
    return found


def _loop_eliminations(graph: Graph, nodes: list[int]) -> list[tuple[int, int]]:
    """What a continuous loop removes: each of its links holds exactly one true end."""
    cand = graph.board.cand
    gone: set[tuple[int, int]] = set()
    ring = [*nodes, nodes[0]]
    for u, v in pairwise(ring):
        du, dv = graph.digit[u], graph.digit[v]
        if du == dv:
            targets = graph.places[du] & graph.sees[u] & graph.sees[v] & ~(graph.bits[u] | graph.bits[v])
            gone.update(_cells_of(targets, du))
        elif len(graph.cells[u]) == 1 and graph.cells[u] == graph.cells[v]:
            cell = graph.cells[u][0]
            gone.update((cell, d) for d in digits(cand[cell] & ~(1 << (du - 1) | 1 << (dv - 1))))
    return sorted(gone)


def _name(graph: Graph, kind: Kind, nodes: list[int]) -> str:
    """The step's technique, a key of scale.BASE."""
    grouped = any(graph.grouped(v) for v in nodes)
    if kind is X:
        return "grouped X-chain" if grouped else "X-chain"
    if kind is XY:
        pairs = {graph.board.cand[graph.cells[v][0]] for v in nodes}
        return "remote pair" if len(pairs) == 1 else "XY-chain"
    return "grouped AIC" if grouped else "AIC"


def _chain_step(graph: Graph, kind: Kind, nodes: list[int], placements: list[tuple[int, int]],
                gone: list[tuple[int, int]]) -> Step | None:
    technique = _name(graph, kind, nodes)
    if kind is MIXED and not _mixed(graph, nodes):
        return None  # on one digit, or bivalue cells only: the X and XY searches find it
    layout = graph.board.layout
    s, e = nodes[0], nodes[-1]
    if technique == "remote pair" and not placements:
        gone = _remote_pair(graph, nodes, gone)
    chain = eureka(graph, nodes)
    on = f" on {symbol(graph.digit[s])}" if kind is X else ""
    if placements:
        cell, d = placements[0]
        why = (f"were {layout.name(cell)} not {symbol(d)}, the chain would make it {symbol(d)}, "
               f"so {layout.name(cell)} = {symbol(d)}")
    else:
        why = _why(graph, s, e, gone)
    weight = weight_of(graph, kind, nodes, loop=False)
    return Step(technique, f"{technique}{on}: {chain}: {why}", placements=tuple(placements),
                eliminations=tuple(gone), weight=weight, links=chain_links(graph, nodes))


def _mixed(graph: Graph, nodes: list[int]) -> bool:
    """Neither on one digit (an X-chain) nor through bivalue cells alone (an XY-chain)."""
    if len({graph.digit[v] for v in nodes}) == 1:
        return False
    strong_in_cells = all(graph.cells[a] == graph.cells[b] for a, b in zip(nodes[::2], nodes[1::2]))
    weak_between_cells = all(graph.cells[a] != graph.cells[b] for a, b in zip(nodes[1::2], nodes[2::2]))
    return not (strong_in_cells and weak_between_cells and not any(graph.grouped(v) for v in nodes))


def _remote_pair(graph: Graph, nodes: list[int], gone: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A remote pair's ends hold the pair's two digits between them: both leave what sees both."""
    s, e = graph.cells[nodes[0]][0], graph.cells[nodes[-1]][0]
    pair = graph.board.cand[s]
    if graph.digit[nodes[0]] != graph.digit[nodes[-1]]:
        return gone
    layout, cand = graph.board.layout, graph.board.cand
    both = layout.peers[s] & layout.peers[e]
    return sorted({*gone, *((c, d) for c in both for d in digits(cand[c] & pair))})


def _why(graph: Graph, s: int, e: int, gone: list[tuple[int, int]]) -> str:
    layout = graph.board.layout
    ds, de = graph.digit[s], graph.digit[e]
    cells = sorted({c for c, _ in gone})
    removed = digit_words(sum(1 << (d - 1) for d in {d for _, d in gone}))
    if ds == de:
        see = "which sees" if len(cells) == 1 else "which see"
        return (f"one of its ends holds {symbol(ds)}, so {removed} {_leave(gone)} "
                f"{layout.names(cells)}, {see} both ends")
    a, b = graph.name(s), graph.name(e)
    if graph.cells[s] == graph.cells[e]:
        return f"{a} is {symbol(ds)} or {symbol(de)}, so {removed} {_leave(gone)} it"
    parts = [f"{symbol(d)} leaves {layout.name(c)}" for c, d in gone]
    return f"{a} is {symbol(ds)} or {b} is {symbol(de)}, and the two see each other, so {words(parts)}"


def _leave(gone: list[tuple[int, int]]) -> str:
    return "leaves" if len({d for _, d in gone}) == 1 else "leave"


def _loop_step(graph: Graph, kind: Kind, nodes: list[int], gone: list[tuple[int, int]]) -> Step:
    layout = graph.board.layout
    if kind is X:
        technique, on = "X-loop", f" on {symbol(graph.digit[nodes[0]])}"
    elif kind is XY:
        technique, on = "XY-loop", ""
    else:
        technique, on = "nice loop", ""
    cells = sorted({c for c, _ in gone})
    removed = digit_words(sum(1 << (d - 1) for d in {d for _, d in gone}))
    return Step(technique, f"{technique}{on}: {eureka(graph, nodes, loop=True)} closes a continuous "
                f"loop, so each of its links holds exactly one true end: {removed} {_leave(gone)} "
                f"{layout.names(cells)}", eliminations=tuple(gone),
                weight=weight_of(graph, kind, nodes, loop=True), links=chain_links(graph, nodes, loop=True))
