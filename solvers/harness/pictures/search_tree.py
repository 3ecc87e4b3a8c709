"""The search tree of a traced solve: one node per decision, and a summary of a big one.

The root is the puzzle after the first propagation; each ``decide`` event at depth d is a
child of the node at depth d-1 on the current path; a ``contradiction`` or ``solved``
event marks the node at its depth, a ``backtrack`` closes it. A node is a forced move when
its ``decide`` event says so (``forced``: the branch had one option left); a trace written
before that field existed is read by its shape instead (its parent's only child, with nothing
left to try), which agrees wherever both exist (tests/test_tree.py). ``summarise`` keeps a tree
drawable: every node down to the deepest depth that fits the budget, plus the path to each
solution (or to where the search stopped), and one collapsed stand-in for each set of
hidden children, carrying their size.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from models.symbols import symbol

from ...trace import Event, cell_name, describe

SOLUTION, CONTRADICTION = "solution", "contradiction"


@dataclass(eq=False)
class Node:
    """One decision (the root: none yet) and what followed it."""

    number: int  # 0 the root, k the k-th decision of the trace
    depth: int
    cell: int = -1  # the decision's cell and value (-1, 0 for the root)
    value: int = 0
    said: str = ""  # the decision in words
    group: str = ""  # the group the decision was made in, when its rule names one
    alternatives: int = 0  # how many choices were still to try after it
    children: list[Node] = field(default_factory=list)
    outcome: str = ""  # SOLUTION, CONTRADICTION or '' (went on deeper, or the search stopped)
    why: str = ""  # the outcome in words
    inferred: int = 0  # places and eliminations inference made at this node
    forced: bool = False  # a forced move: its branch had one option left, not a choice
    backtracked: bool = False
    size: int = 1  # nodes in its subtree, itself included (set by ``build``)
    solutions: int = 0  # solution nodes in its subtree
    contradictions: int = 0  # contradiction nodes in its subtree

    def forced_by_shape(self) -> Iterator[Node]:
        """Its children that look forced from the tree's shape: the one child, with nothing
        left to try after it (how a trace without ``forced`` fields is read)."""
        if len(self.children) == 1 and not self.children[0].alternatives:
            yield self.children[0]

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, depth first in the order they were tried."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


@dataclass
class SearchTree:
    """The whole tree of one traced solve."""

    root: Node
    n: int
    solver: str
    stopped: list[Node]  # the path still open when the trace ended (empty after a full search)

    def assignment(self, node: Node) -> str:
        """'r3c5=7': the decision that made the node ('start' for the root)."""
        return "start" if node.cell < 0 else f"{cell_name(node.cell, self.n)}={symbol(node.value)}"

    @property
    def nodes(self) -> int:
        """Nodes below the root: one per decide event, forced moves included."""
        return self.root.size - 1

    @property
    def forced(self) -> int:
        """The forced moves among them (a branch with one option left)."""
        return sum(node.forced for node in self.root.walk())

    def depth(self) -> int:
        return max(node.depth for node in self.root.walk())


def build(events: Iterable[Event]) -> SearchTree:
    """The tree of a trace (its first event the start)."""
    events = iter(events)
    start = next(events)
    n = start["n"]
    root = Node(0, 0)
    path = [root]  # path[d]: the node at depth d on the current branch
    count = 0
    unsaid: set[Node] = set()  # decisions whose event has no 'forced' (older traces)
    for event in events:
        kind, depth = event["kind"], event["depth"]
        if kind == "decide":
            count += 1
            del path[max(depth, 1):]
            child = Node(count, len(path), event["cell"], event["value"], describe(event, n),
                         str(event.get("group") or ""), len(event["alternatives"]),
                         forced=bool(event.get("forced")))
            if "forced" not in event:
                unsaid.add(child)
            path[-1].children.append(child)
            path.append(child)
        elif kind in ("contradiction", "solved"):
            node = path[min(depth, len(path) - 1)]
            node.outcome = CONTRADICTION if kind == "contradiction" else SOLUTION
            node.why = describe(event, n)
        elif kind == "backtrack":
            if 0 < depth < len(path):
                path[depth].backtracked = True
                del path[depth:]
        elif kind in ("place", "eliminate"):
            path[-1].inferred += 1
    if unsaid:
        for node in root.walk():
            for child in node.children:
                if child in unsaid:
                    child.forced = child in node.forced_by_shape()
    _count(root)
    # nodes never taken back: the path to the solution, or to where a stopped search was
    stopped = [node for node in path[1:] if not node.solutions]
    return SearchTree(root, n, str(start.get("solver", "")), stopped)


def search_counts(decisions: int, forced: int, where: str = " in all") -> str:
    """'38 decisions in all and 3 forced moves': the decide events that were choices, and
    apart from them the forced moves (one option left), as the tree's heading and render's
    title both count them."""
    words = f"{decisions:,} decision{'' if decisions == 1 else 's'}{where}"
    return words + (f" and {forced:,} forced move{'' if forced == 1 else 's'}" if forced else "")


def _count(root: Node) -> None:
    """Each node's size, solutions and contradictions, children before parents."""
    for node in reversed(list(root.walk())):
        node.size = 1 + sum(c.size for c in node.children)
        node.solutions = (node.outcome == SOLUTION) + sum(c.solutions for c in node.children)
        node.contradictions = ((node.outcome == CONTRADICTION)
                               + sum(c.contradictions for c in node.children))


@dataclass
class Collapsed:
    """The hidden children of one drawn node, drawn as one stand-in."""

    parent: Node
    hidden: list[Node]

    @property
    def size(self) -> int:
        return sum(node.size for node in self.hidden)

    @property
    def solutions(self) -> int:
        return sum(node.solutions for node in self.hidden)

    @property
    def contradictions(self) -> int:
        return sum(node.contradictions for node in self.hidden)


@dataclass
class Summary:
    """What is drawn of a tree: the nodes shown and a stand-in for each set of hidden ones."""

    tree: SearchTree
    shown: set[int]  # node numbers
    collapsed: list[Collapsed]
    depth: int | None  # every node down to this depth is shown; None: the whole tree

    def drawn(self) -> int:
        """Nodes drawn, stand-ins included."""
        return len(self.shown) + len(self.collapsed)


def summarise(tree: SearchTree, budget: int) -> Summary:
    """Show the whole tree if it has at most ``budget`` nodes; else every node down to the
    deepest depth that keeps the drawing within the budget (at least the root and the paths
    that matter: to each solution and to where the search stopped), hidden children
    collapsed into one stand-in per parent."""
    nodes = list(tree.root.walk())
    if len(nodes) <= budget:
        return Summary(tree, {node.number for node in nodes}, [], None)
    kept = _kept_paths(tree, nodes)
    by_depth: dict[int, list[Node]] = {}
    for node in nodes:
        by_depth.setdefault(node.depth, []).append(node)
    hides = {node: any(c not in kept for c in node.children) for node in nodes}
    best = 0
    above = 0  # nodes at depth d or shallower
    for d in range(max(by_depth) + 1):
        above += len(by_depth.get(d, ()))
        deeper = [node for node in kept if node.depth > d]
        stand_ins = (sum(1 for node in by_depth.get(d, ()) if hides[node])
                     + sum(1 for node in deeper if hides[node]))
        if above + len(deeper) + stand_ins > budget:
            break
        best = d
    return _at_depth(tree, nodes, kept, best)


def _kept_paths(tree: SearchTree, nodes: list[Node]) -> set[Node]:
    """The nodes on the path to a solution, or to where the search stopped."""
    kept: set[Node] = set(tree.stopped)
    parent: dict[int, Node] = {c.number: node for node in nodes for c in node.children}
    for node in nodes:
        if node.outcome == SOLUTION:
            while node.number:
                kept.add(node)
                node = parent[node.number]
    return kept


def _at_depth(tree: SearchTree, nodes: list[Node], kept: set[Node], depth: int) -> Summary:
    shown = {node.number for node in nodes if node.depth <= depth or node in kept}
    collapsed = []
    for node in nodes:
        if node.number in shown:
            hidden = [c for c in node.children if c.number not in shown]
            if hidden:
                collapsed.append(Collapsed(node, hidden))
    return Summary(tree, shown, collapsed, depth)
