"""Constraint propagation and search with plain sets, as a ladder of rungs to climb in class.

Read this next to Peter Norvig's essay "Solving Every Sudoku Puzzle" (norvig.com/sudoku.html):
each cell keeps a set of candidates, placing a value removes it from the cell's peers,
and a depth-first search tries the candidates of one cell at a time. What the search
infers after each placement is one option, so each rung of the classic teaching
sequence is one configuration (``inference``, from least to most):

- ``none``: plain backtracking; a value may go where no peer holds it, nothing else;
- ``forward``: forward checking; a placed value leaves its peers' candidates, and a
  cell left with none ends the branch;
- ``naked``: forward checking, and a cell left with one candidate is placed (naked single);
- ``singles``: also a value with one place left in a group goes there (hidden single);
- ``locked``: also locked candidates: when a value's places in group A all lie where A
  meets group B, it leaves the rest of B ("pointing" and "claiming" for boxes and lines).

Beside the ladder stand the consistency levels of Helmut Simonis's "Sudoku as a
constraint problem" (2005), each on its own rather than on top of the rungs:
``bounds`` (bounds consistency), ``gac`` (generalised arc consistency, Regin's matching
algorithm) and ``sac`` (singleton arc consistency: ``gac`` plus shaving), run on every
group until no group changes (what each removes from one group: ``alldifferent.py``).
A cell they leave with one candidate counts as placed. ``search='none'`` stops after
propagating the givens, at any rung or level: ``solved`` if that fixed every cell.

Killer cages with a total are reasoned about at every rung, in the rung's own way. From
``singles`` up, by their combinations (:meth:`Solver.cage_combinations`): the sets of
different digits of the cage's size that make its total and that its cells' candidates
can still form. Each cell keeps only digits of those ("cage 17 in two cells: only 8
and 9"), a digit every one of them needs goes to its one place in the cage (a hidden
single in the cage), and leaves every other cell of a group that holds the whole cage.
Below ``singles``, as the textbook backtracker does: a value is tried in a cage's cell
only if the cage's total is still within reach (:meth:`Solver.cage_allows`).

``branching='first'`` branches on the first open cell in reading order; ``'mrv'`` on an
open cell with the fewest candidates (ties: the cell whose decisions failed most often,
then reading order), or, when that cell has more than two, on the first value left
with two places in a group (one decision per place).

This is the readable twin of ``solvers.backends.mrv`` (``impl='fast'``: bitmasks,
an explicit stack, bit-parallel counting). At ``inference='singles'`` or ``'locked'``
with ``branching='mrv'`` both make the same decisions in the same order, so they give
the same solutions and the same ``nodes``, ``backtracks`` and ``propagations``
(tests/test_readable.py checks this); the lower rungs and ``branching='first'`` exist
only here. ``mrv`` with ``impl='readable'``, or with a rung only this module has, runs it.

Counters: ``nodes`` = decisions (a value tried in a cell); ``backtracks`` = decisions
undone; ``propagations`` = cells placed by a rule (naked or hidden single).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from models import Grid, Model

from ...encodings.cages import LEVELS_CAGES_UNSUPPORTED, cage_clash, cage_number, combinations
from ...encodings.domains import clash_message
from ...result import Result, Stats, finish, propagation_only, stop_message, unsupported
from ...trace import Trace
from .alldifferent import arc_prunings, bounds_prunings
from .limits import Limits, Stop, recursion_room

INFERENCES = ("none", "forward", "naked", "singles", "locked")
LEVELS = ("bounds", "gac", "sac")  # consistency levels, each alone (not rungs of the ladder)
SEARCHES = ("depth-first", "none")
LEVEL_NAMES = {"bounds": "bounds consistency", "gac": "arc consistency",
               "sac": "singleton arc consistency"}
BRANCHINGS = ("first", "mrv")
VALUE_ORDERS = ("ascending", "least-used")
CLOCK_EVERY = 64  # decisions between two looks at the clock, as in the fast mrv


class Contradiction(Exception):
    """The current branch cannot hold a solution; ``why`` says how, as trace fields."""

    def __init__(self, **why: object) -> None:
        super().__init__(why)
        self.why = why


@dataclass
class Board:
    """One node of the search: each cell's candidates, and the values placed so far (0: open)."""

    candidates: list[set[int]]
    values: list[int]
    pending: list[int] = field(default_factory=list)  # cells left with one candidate

    def copy(self) -> Board:
        return Board([set(c) for c in self.candidates], self.values[:])


@dataclass
class Branch:
    """Where the search branches: why there, and the (cell, value) decisions in the order tried."""

    rule: str  # 'first empty cell', 'fewest candidates' or 'two places'
    cell: int
    decisions: list[tuple[int, int]]
    group: str | None = None  # two places: the group the value has them in


@dataclass(frozen=True)
class CageRule:
    """A cage with a total, as the rules see it."""

    name: str  # 'cage 3', its group's name
    total: int
    cells: tuple[int, ...]
    combinations: tuple[frozenset[int], ...]  # the digit sets of its size making its total
    houses: tuple[tuple[str, tuple[int, ...]], ...]  # other groups holding it: name, cells outside


def cage_rules(model: Model) -> list[CageRule]:
    """The cages with totals of the model, each with its combinations and houses."""
    rules = []
    for cage in model.cages:
        inside = set(cage.cells)
        houses = tuple((group.name, tuple(c for c in group.cells if c not in inside))
                       for group in model.groups if inside < set(group.cells))
        rules.append(CageRule(f"cage {cage_number(model, cage)}", cage.total or 0, cage.cells,
                              combinations(len(cage.cells), cage.total or 0, model.n), houses))
    return rules


@dataclass
class Counts:
    """What the search has cost so far."""

    nodes: int = 0
    backtracks: int = 0
    propagations: int = 0


class Solver:
    """The rules and the search for one model, at one rung of the ladder."""

    def __init__(self, model: Model, inference: str, branching: str, value_order: str,
                 trace: Trace | None) -> None:
        self.n = model.n
        self.peers = model.peers
        self.groups = [group.cells for group in model.groups]
        self.names = [group.name for group in model.groups]
        # Groups of n cells must hold every value; a smaller one only holds each at most once.
        self.whole = [len(cells) == model.n for cells in self.groups]
        self.level = inference if inference in LEVELS else None
        # a rung includes the ones below it; a consistency level includes none of them
        self.inference = -1 if self.level else INFERENCES.index(inference)
        self.branching, self.least_used = branching, value_order == "least-used"
        self.overlaps = overlaps(self.groups, self.whole) if inference == "locked" else []
        self.cages = cage_rules(model)
        self.cages_of: list[list[CageRule]] = [[] for _ in range(model.num_cells)]
        for cage in self.cages:
            for cell in cage.cells:
                self.cages_of[cell].append(cage)
        self.trace = trace
        self.counts = Counts()
        self.failures = [0] * model.num_cells  # per cell: its decisions refuted at once

    def uses(self, rung: str) -> bool:
        """Whether this solver's inference includes the rule of that rung."""
        return self.inference >= INFERENCES.index(rung)

    # --- placing values and the rules ---------------------------------------------------

    def place(self, board: Board, cell: int, value: int) -> None:
        """Put value in cell; with forward checking, remove it from the peers' candidates."""
        board.values[cell] = value
        board.candidates[cell] = {value}
        if self.uses("forward"):
            for peer in self.peers[cell]:
                self.remove(board, peer, value)

    def remove(self, board: Board, cell: int, value: int) -> None:
        """Take value from the cell's candidates; a cell left with none is a contradiction."""
        candidates = board.candidates[cell]
        if value not in candidates or board.values[cell]:
            return
        candidates.discard(value)
        if not candidates:
            raise Contradiction(rule="no candidate", cell=cell, cells=[cell])
        if len(candidates) == 1 and self.uses("naked"):
            board.pending.append(cell)

    def propagate(self, board: Board, depth: int) -> None:
        """Apply the rules, simplest first, until none applies (or raise Contradiction)."""
        if self.level:
            self.enforce(board, depth)
            return
        while True:
            while board.pending:
                self.naked_single(board, board.pending.pop(), depth)
            if self.uses("singles") and self.hidden_singles(board, depth):
                continue
            if self.uses("singles") and self.cage_combinations(board, depth):
                continue
            if self.uses("locked") and self.locked_candidates(board, depth):
                continue
            return

    def naked_single(self, board: Board, cell: int, depth: int) -> None:
        """A cell with one candidate left takes it."""
        if board.values[cell]:
            return
        (value,) = board.candidates[cell]
        self.emit("place", depth, cell=cell, value=value, rule="naked single")
        self.counts.propagations += 1
        self.place(board, cell, value)

    def hidden_singles(self, board: Board, depth: int) -> bool:
        """Place every value that has one place left in a group; True if any was placed."""
        placed = False
        for index, group in enumerate(self.groups):
            if not self.whole[index]:
                continue
            for value in range(1, self.n + 1):
                if any(board.values[c] == value for c in group):
                    continue
                places = [c for c in group if not board.values[c] and value in board.candidates[c]]
                if not places:
                    raise Contradiction(rule="no place", value=value, group=self.names[index],
                                        cells=list(group))
                if len(places) == 1:
                    self.emit("place", depth, cell=places[0], value=value, rule="hidden single",
                              group=self.names[index])
                    self.counts.propagations += 1
                    self.place(board, places[0], value)
                    placed = True
        return placed

    def cage_combinations(self, board: Board, depth: int) -> bool:
        """Narrow one cage by the combinations its cells can still form; True if it changed."""
        for cage in self.cages:
            candidates = [board.candidates[c] for c in cage.cells]
            left = [combo for combo in cage.combinations
                    if all(cell & combo for cell in candidates)  # each cell can take one digit,
                    and set().union(*(cell & combo for cell in candidates)) == combo]  # each digit a cell
            if not left:
                raise Contradiction(rule="no combination", group=cage.name, total=cage.total,
                                    cells=list(cage.cells))
            allowed = set().union(*left)
            needed = set.intersection(*map(set, left))
            shown = [sorted(combo) for combo in left]
            removed = [(c, v) for c in cage.cells if not board.values[c]
                       for v in sorted(board.candidates[c] - allowed)]
            if removed:
                self.eliminate(board, depth, removed, rule="cage combinations", group=cage.name,
                               other=cage.name, total=cage.total, combinations=shown)
                return True
            for value in sorted(needed):
                places = [c for c in cage.cells if value in board.candidates[c]]
                if len(places) == 1 and not board.values[places[0]]:
                    self.emit("place", depth, cell=places[0], value=value, rule="hidden single",
                              group=cage.name)
                    self.counts.propagations += 1
                    self.place(board, places[0], value)
                    return True
            for name, outside in cage.houses:
                removed = [(c, v) for c in outside if not board.values[c]
                           for v in sorted(board.candidates[c] & needed)]
                if removed:
                    self.eliminate(board, depth, removed, rule="cage digits", group=cage.name,
                                   other=name, total=cage.total, combinations=shown)
                    return True
        return False

    def eliminate(self, board: Board, depth: int, removed: list[tuple[int, int]],
                  **why: object) -> None:
        """Remove several (cell, value) candidates at once, as one step of the trace."""
        self.emit("eliminate", depth, value=removed[0][1], cells=sorted({c for c, _ in removed}),
                  removed=[list(pair) for pair in removed], **why)
        for cell, value in removed:
            self.remove(board, cell, value)

    def cage_allows(self, board: Board, cell: int, value: int) -> bool:
        """Below the singles rung: each cage of the cell can still reach its total with value
        in the cell (its other r empty cells add at least 1 + ... + r, at most n + ... + (n-r+1))."""
        for cage in self.cages_of[cell]:
            need = cage.total - value - sum(board.values[c] for c in cage.cells)
            rest = sum(1 for c in cage.cells if not board.values[c]) - 1
            if not rest * (rest + 1) // 2 <= need <= rest * (2 * self.n - rest + 1) // 2:
                return False
        return True

    def locked_candidates(self, board: Board, depth: int) -> bool:
        """Remove one value locked into an overlap of two groups from the rest of the second."""
        for a, b, shared, outside in self.overlaps:
            for value in range(1, self.n + 1):
                places = [c for c in self.groups[a]
                          if not board.values[c] and value in board.candidates[c]]
                if not places or not shared.issuperset(places):
                    continue
                removed = [c for c in outside if not board.values[c] and value in board.candidates[c]]
                if removed:
                    self.emit("eliminate", depth, value=value, cells=removed,
                              rule="locked candidates", group=self.names[a], other=self.names[b])
                    for cell in removed:
                        self.remove(board, cell, value)
                    return True
        return False

    # --- the consistency levels ----------------------------------------------------------

    def enforce(self, board: Board, depth: int) -> None:
        """Make every group consistent at this solver's level; then the cells left with one
        candidate count as placed."""
        self.make_groups_consistent(board, depth)
        if self.level == "sac":
            self.shave(board, depth)
        for cell, candidates in enumerate(board.candidates):
            if not board.values[cell] and len(candidates) == 1:
                (value,) = candidates
                board.values[cell] = value
                self.counts.propagations += 1
                self.emit("place", depth, cell=cell, value=value, rule=LEVEL_NAMES[str(self.level)])

    def make_groups_consistent(self, board: Board, depth: int) -> None:
        """Bounds or arc consistency on each group in turn, round and round until no group changes."""
        prunings = bounds_prunings if self.level == "bounds" else arc_prunings
        rule = "bounds consistency" if self.level == "bounds" else "arc consistency"
        changed = True
        while changed:
            changed = False
            for index, group in enumerate(self.groups):
                removed = prunings([board.candidates[cell] for cell in group])
                if removed is None:
                    raise Contradiction(rule=rule, group=self.names[index], cells=list(group))
                for position, value in removed:
                    self.emit("eliminate", depth, value=value, cells=[group[position]], rule=rule,
                              group=self.names[index])
                    self.remove(board, group[position], value)
                    changed = True

    def shave(self, board: Board, depth: int) -> None:
        """Singleton arc consistency: remove each candidate whose placement arc consistency
        refutes, until every candidate left survives its trial."""
        shaved = True
        while shaved:
            shaved = False
            for cell, candidates in enumerate(board.candidates):
                for value in sorted(candidates):
                    if len(board.candidates[cell]) < 2 or value not in board.candidates[cell]:
                        continue  # fixed meanwhile, or the value went already
                    if self.refutes(board, cell, value):
                        self.emit("eliminate", depth, value=value, cells=[cell],
                                  rule="singleton arc consistency")
                        self.remove(board, cell, value)
                        self.make_groups_consistent(board, depth)
                        shaved = True

    def refutes(self, board: Board, cell: int, value: int) -> bool:
        """Whether arc consistency fails once value is the cell's only candidate (a trial on a
        copy, neither traced nor counted)."""
        trial = board.copy()
        trial.candidates[cell] = {value}
        trace, self.trace = self.trace, None
        try:
            self.make_groups_consistent(trial, depth=0)
        except Contradiction:
            return True
        finally:
            self.trace = trace
        return False

    # --- choosing where to branch -------------------------------------------------------

    def options(self, board: Board, cell: int) -> list[int]:
        """The values the search may try in an open cell, in the order it tries them."""
        if self.uses("forward") or self.level:
            values = sorted(board.candidates[cell])
        else:  # nothing was removed: a value is allowed where no peer holds it
            taken = {board.values[p] for p in self.peers[cell]}
            values = [v for v in range(1, self.n + 1) if v not in taken]
        if self.cages_of[cell] and not self.uses("singles"):
            values = [v for v in values if self.cage_allows(board, cell, v)]
        if self.least_used:
            values.sort(key=lambda v: (board.values.count(v), v))
        return values

    def branch(self, board: Board) -> Branch | None:
        """Where to branch next; None when every cell is filled."""
        open_cells = [c for c, v in enumerate(board.values) if not v]
        if not open_cells:
            return None
        if self.branching == "first":
            cell = open_cells[0]
            return Branch("first empty cell", cell, [(cell, v) for v in self.options(board, cell)])
        options = {c: self.options(board, c) for c in open_cells}
        cell = min(open_cells, key=lambda c: (len(options[c]), -self.failures[c]))
        if len(options[cell]) > 2:
            two = self.two_places(board, options)
            if two:
                return two
        return Branch("fewest candidates", cell, [(cell, v) for v in options[cell]])

    def two_places(self, board: Board, options: dict[int, list[int]]) -> Branch | None:
        """The first value (by group, then value) left with exactly two places in a group
        (a value the group holds already has none to take, even where bounds consistency
        left it a candidate)."""
        for index, group in enumerate(self.groups):
            if not self.whole[index]:
                continue
            held = {board.values[c] for c in group}
            for value in range(1, self.n + 1):
                if value in held:
                    continue
                places = [c for c in group if c in options and value in options[c]]
                if len(places) == 2:
                    return Branch("two places", places[0], [(c, value) for c in places],
                                  self.names[index])
        return None

    # --- the search ---------------------------------------------------------------------

    def search(self, board: Board, depth: int, found: list[Grid], limits: Limits) -> None:
        """Try each decision in turn, each followed by the rules; recurse on what survives."""
        branch = self.branch(board)
        if branch is None:
            found.append(tuple(board.values))
            self.emit("solved", depth, count=len(found))
            if len(found) >= limits.max_solutions:
                raise Stop
            return
        if not branch.decisions:  # only without forward checking: no value fits this cell
            self.emit("contradiction", depth, rule="no candidate", cell=branch.cell,
                      cells=[branch.cell])
        for number, (cell, value) in enumerate(branch.decisions):
            limits.check(self.counts.nodes)
            self.counts.nodes += 1
            self.emit("decide", depth + 1, cell=cell, value=value, rule=branch.rule,
                      group=branch.group, alternatives=[list(d) for d in branch.decisions[number + 1:]],
                      forced=len(branch.decisions) == 1)
            child = board.copy()
            forced = self.counts.propagations
            try:
                self.place(child, cell, value)
                self.propagate(child, depth + 1)
            except Contradiction as contradiction:
                self.emit("contradiction", depth + 1, **contradiction.why)
                self.failures[cell] += 1
                self.counts.propagations = forced  # a refuted decision forced nothing
            else:
                self.search(child, depth + 1, found, limits)
            self.counts.backtracks += 1
            self.emit("backtrack", depth + 1, cell=cell, value=value)

    def emit(self, kind: str, depth: int, **fields: object) -> None:
        """Record a step when tracing."""
        if self.trace is not None:
            self.trace.emit(kind, depth, **fields)


def overlaps(groups: list[tuple[int, ...]], whole: list[bool]
             ) -> list[tuple[int, int, frozenset[int], list[int]]]:
    """Each ordered pair of groups (A, B) sharing two cells or more, A one of the groups
    that must hold every value (whole): (A, B, the shared cells, the cells of B outside A)."""
    result = []
    for a, first in enumerate(groups):
        for b, second in enumerate(groups if whole[a] else []):
            shared = frozenset(first).intersection(second)
            if a != b and len(shared) >= 2:
                result.append((a, b, shared, [c for c in second if c not in shared]))
    return result


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          inference: str = "locked", branching: str = "mrv", value_order: str = "ascending",
          node_limit: int | None = None, search: str = "depth-first",
          trace: Trace | None = None, found: list[Grid] | None = None) -> Result:
    """Propagate the givens, then search; count up to max_solutions solutions (appended to
    ``found`` when given: a Counted list counts them)."""
    for name, value, valid in (("inference", inference, INFERENCES + LEVELS),
                               ("branching", branching, BRANCHINGS),
                               ("value_order", value_order, VALUE_ORDERS),
                               ("search", search, SEARCHES)):
        if value not in valid:
            raise ValueError(f"unknown {name} {value!r}; choose one of {valid}")
    if inference in LEVELS and model.cages:
        return unsupported(LEVELS_CAGES_UNSUPPORTED)
    start = time.perf_counter()
    stats = Stats(nodes=0, backtracks=0, propagations=0)
    if trace is not None:
        trace.start(model, f"mrv:impl=readable:inference={inference}:branching={branching}")
    solver = Solver(model, inference, branching, value_order, trace)
    board = Board([{v} if v else set(range(1, model.n + 1)) for v in model.givens],
                  list(model.givens))
    clash = clash_message(model) or cage_clash(model)
    try:
        if clash:
            raise Contradiction(rule="givens clash", message=clash)
        for cell, given in enumerate(model.givens):
            if given:
                solver.place(board, cell, given)
        solver.propagate(board, 0)
    except Contradiction as contradiction:
        solver.emit("contradiction", 0, **contradiction.why)
        stats.solve_time = time.perf_counter() - start
        return finish([], True, stats, limit_hit=False,
                      message=clash or "the givens contradict each other")
    stats.propagations = stats.fixed_cells = solver.counts.propagations
    if search == "none":
        stats.solve_time = time.perf_counter() - start
        return propagation_only(tuple(board.values), stats, inference)
    limits = Limits(max_solutions, start, time_limit, node_limit, CLOCK_EVERY)
    found = [] if found is None else found
    exhausted = False
    with recursion_room(model.num_cells):
        try:
            solver.search(board, 0, found, limits)
            exhausted = True
        except Stop:
            # a grid the givens and the rules settle alone has one solution: proved
            exhausted = solver.counts.nodes == 0 and bool(found)
    stats.nodes, stats.backtracks = solver.counts.nodes, solver.counts.backtracks
    stats.propagations = solver.counts.propagations
    stats.solve_time = time.perf_counter() - start
    message = stop_message(limits.limit_hit, limits.budget_hit)
    return finish(found, exhausted, stats, limit_hit=limits.limit_hit,
                  budget_hit=limits.budget_hit, message=message)
