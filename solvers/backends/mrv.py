"""Constraint propagation plus minimum-remaining-values search, on bitmasks, in pure Python.

Each cell holds its candidates as a bitmask (bit v-1 for value v). After every
decision these rules run to a fixed point:

- naked single: a cell with one candidate left removes it from all its peers;
- hidden single: a value that only one unsolved cell of a group can take goes there;
- locked candidates (``inference='locked'``, the default): when, inside group A, a
  value's candidates all lie where A meets group B, the value must be placed there, so
  it leaves the rest of B. For boxes and lines this is "pointing" and "claiming"; the
  rule is written for any two groups, so jigsaw regions and diagonals get it too. It
  runs only when the singles are at a fixed point, as it costs more per look.

- cage combinations (killer cages with a total, at every inference level): the cage's
  combinations (sets of different digits of its size making its total) that its cells'
  candidates can still form; every cell keeps only digits of those, a digit all of them
  need goes to its one place in the cage if it has one, and leaves every other cell of
  a group holding the whole cage (solvers/encodings/cages.py lists the combinations).

A contradiction (a cell with no candidate, a group value with no place, one cell
needing two values) ends the branch. Otherwise the search branches on the unsolved
cell with the fewest candidates (ties: the cell whose decisions failed most often so
far), or, when that cell has more than two, on a value left with two places in a group.
The search (:meth:`Propagator.search`, which takes its branching as an argument) is an
explicit stack, so depth is no concern on 25x25, and each branch works
on a copy of the candidate list.

Counters: ``nodes`` = decisions (a value tried for a branching cell);
``backtracks`` = decisions undone (their branch failed, or was left after a
solution to look for more); ``propagations`` = cells fixed by the rules.

Consistency levels (``inference='bounds'|'gac'|'sac'``, Simonis 2005): instead of the
rules above, bounds consistency, generalised arc consistency (Regin's matching) or
singleton arc consistency on every all-different group, each alone, to a fixed point
(solvers/backends/_consistency.py). ``search='none'``, at any level, stops after
propagating the givens: ``solved`` when that fixes every cell, else ``unknown``;
``fixed_cells`` says how many open cells the propagation fixed before any decision.

The readable twin, ``solvers.backends.readable.mrv`` (``impl='readable'``), makes the
same decisions with sets and short functions, and adds the lower rungs of the teaching
ladder (``inference='none'|'forward'|'naked'``, ``branching='first'``).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from models import Grid, Model

from ..encodings.cages import LEVELS_CAGES_UNSUPPORTED, combination_masks
from ..encodings.isomorph import solve_isomorph
from ..options import Declaration, Option, node_limit, seed
from ..result import (
    COUNT_ALL,
    SAMPLE,
    Counted,
    Result,
    Stats,
    finish,
    propagation_only,
    stop_message,
    unsupported,
    with_count,
)

VALUE_ORDERS = ("ascending", "least-used")
INFERENCES = ("locked", "singles")
LADDER = ("none", "forward", "naked", "singles", "locked")  # rungs below 'singles': readable only
LEVELS = ("bounds", "gac", "sac")  # Simonis's consistency levels: solvers/backends/_consistency.py
SEARCHES = ("depth-first", "none")
DECLARATION = Declaration(
    options=(
        # the teaching ladder (solvers/backends/readable/mrv.py): rungs below singles run readable
        Option("inference", "choice", "locked: naked and hidden singles plus locked candidates; "
               "singles: naked and hidden singles only; none, forward, naked: the ladder's lower "
               "rungs; bounds, gac, sac: bounds, generalised arc or singleton arc consistency on "
               "each all-different group alone", default="locked", choices=LADDER + LEVELS),
        Option("search", "choice", "depth-first; none: propagate the givens only (solved when "
               "that fixes every cell, else unknown, with fixed_cells)", default="depth-first",
               choices=SEARCHES),
        Option("value_order", "choice", "ascending: values 1..n; least-used: values placed least "
               "often in the grid so far first (the seeds' order)", default="ascending",
               choices=VALUE_ORDERS),
        node_limit("decisions"),
        Option("impl", "choice", "fast: bitmasks; readable: sets and short functions, the same "
               "decisions", default="fast", choices=("fast", "readable")),
        Option("branching", "choice", "mrv: fewest candidates; first: the first empty cell "
               "(readable only)", default="mrv", choices=("mrv", "first")),
        seed("solve a random isomorph (values relabelled; on a plain grid the rows and columns "
             "reordered by the grid's symmetries), so value order and tie-breaks are random"),
    ),
    counters={
        "nodes": "decisions (a value tried in a cell, or a place tried for a value)",
        "backtracks": "decisions undone",
        "propagations": "cells forced and candidates removed by inference",
        "fixed_cells": "open cells the inference fixed before the first decision",
    },
    constraints=frozenset({"all-different", "sum"}),  # sums: not with the consistency levels
    family="mrv",  # with its readable twin and fast, mrv compiled
    notes="the teaching ladder; a readable twin",
    traces="solvers.backends.readable.mrv",
)
_CLOCK_EVERY = 64  # decisions between two looks at the clock


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          inference: str = "locked", value_order: str = "ascending",
          node_limit: int | None = None, impl: str = "fast", branching: str = "mrv",
          search: str = "depth-first", seed: int | None = None) -> Result:
    """Solve with propagation and MRV search; count up to max_solutions solutions."""
    if seed is not None:
        return solve_isomorph(solve, model, seed, max_solutions=max_solutions,
                              time_limit=time_limit, inference=inference, value_order=value_order,
                              node_limit=node_limit, impl=impl, branching=branching, search=search)
    return _solve(model, [], max_solutions, time_limit, inference=inference, value_order=value_order,
                  node_limit=node_limit, impl=impl, branching=branching, search=search)


def count(model: Model, *, time_limit: float | None = None, sample: int = SAMPLE,
          inference: str = "locked", value_order: str = "ascending", node_limit: int | None = None,
          impl: str = "fast", branching: str = "mrv", search: str = "depth-first",
          seed: int | None = None) -> Result:
    """Count every solution (count mode): the same search, its solutions counted, the first
    ``sample`` kept."""
    if seed is not None:
        return solve_isomorph(count, model, seed, time_limit=time_limit, sample=sample, inference=inference,
                              value_order=value_order, node_limit=node_limit, impl=impl,
                              branching=branching, search=search)
    found = Counted(sample)
    return with_count(_solve(model, found, COUNT_ALL, time_limit, inference=inference, value_order=value_order,
                             node_limit=node_limit, impl=impl, branching=branching, search=search), found)


def _solve(model: Model, found: list[Grid], max_solutions: int, time_limit: float | None, *,
           inference: str, value_order: str, node_limit: int | None, impl: str, branching: str,
           search: str) -> Result:
    """solve's work, its solutions appended to ``found`` (a Counted list when counting)."""
    if inference in LEVELS and model.cages:
        return unsupported(LEVELS_CAGES_UNSUPPORTED)
    if impl == "readable" or inference not in INFERENCES + LEVELS or branching != "mrv":
        from .readable import mrv as readable  # noqa: PLC0415 - the teaching twin
        return readable.solve(model, max_solutions=max_solutions, time_limit=time_limit,
                              inference=inference, branching=branching, value_order=value_order,
                              node_limit=node_limit, search=search, found=found)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    propagator = Propagator(model, inference)
    stats = Stats(nodes=0, backtracks=0, propagations=0)
    cands, forced = propagator.start_counting(model.givens)
    if cands is None:
        stats.solve_time = time.perf_counter() - start
        return finish([], True, stats, limit_hit=False, message="the givens contradict each other")
    stats.propagations = stats.fixed_cells = forced
    if search == "none":
        stats.solve_time = time.perf_counter() - start
        fixed = tuple(0 if c & (c - 1) else c.bit_length() for c in cands)
        return propagation_only(fixed, stats, inference)
    # Only a group of n cells must hold every value, so only those give two-place branches.
    groups = tuple(cells for cells in propagator.groups if len(cells) == model.n)
    least_used = value_order == "least-used"

    def branch(state: list[int], failures: list[int]) -> list[tuple[int, int]]:
        return _branches(state, groups, failures, least_used)

    searched = propagator.search(cands, branch, max_solutions=max_solutions,
                                 node_limit=node_limit, deadline=deadline, found=found)
    stats.nodes, stats.backtracks = searched.nodes, searched.backtracks
    stats.propagations = forced + searched.propagations
    stats.solve_time = time.perf_counter() - start
    limit_hit = searched.limit_hit
    budget_hit = limit_hit and node_limit is not None and searched.nodes >= node_limit
    message = stop_message(limit_hit, budget_hit)
    return finish([grid_of(s) for s in searched.solutions], searched.exhausted, stats,
                  limit_hit=limit_hit and not budget_hit, budget_hit=budget_hit, message=message)


def grid_of(cands: Sequence[int]) -> tuple[int, ...]:
    """The grid of solved candidates (one bit per cell): bit v-1 is value v."""
    return tuple(c.bit_length() for c in cands)


# One intersection of group A with another group B, seen from A: the cells they share
# and the cells of B outside A (where a value locked into the shared cells is removed).
Segment = tuple[tuple[int, ...], tuple[int, ...]]
# Disjoint segments of one group, and the group's cells outside all of them.
Family = tuple[tuple[Segment, ...], tuple[int, ...]]


@dataclass(frozen=True)
class _Rules:
    """What propagation needs to know about the grid, worked out once per solve."""

    peers: Sequence[Sequence[int]]
    groups: tuple[tuple[int, ...], ...]
    group_bits: list[int]  # per cell: bit g set when the cell is in group g
    full: int  # every value's bit
    whole: int  # bit g set when group g has n cells, so it must hold every value
    intersections: tuple[tuple[Family, ...], ...] | None  # per group; None: singles only
    cages: tuple[CageRule, ...] = ()


# A cage with a total as the rule sees it: its cells, its combinations as candidate
# masks, and for each other group holding all its cells, that group's cells outside it.
CageRule = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]


def _rules_for(model: Model, inference: str) -> _Rules:
    groups = tuple(group.cells for group in model.groups)
    return _Rules(
        peers=model.peers, groups=groups,
        group_bits=[sum(1 << g for g in cell_groups) for cell_groups in model.cell_groups],
        full=(1 << model.n) - 1,
        whole=sum(1 << g for g, cells in enumerate(groups) if len(cells) == model.n),
        intersections=_intersections(groups, model.n) if inference == "locked" else None,
        cages=cage_rules(model))


def cage_rules(model: Model) -> tuple[CageRule, ...]:
    """Each cage with a total: its cells, its combinations as masks (bit v-1 for value v),
    and the cells outside it of every other group that holds all of it."""
    rules = []
    for cage in model.cages:
        inside = set(cage.cells)
        houses = tuple(tuple(c for c in group.cells if c not in inside) for group in model.groups
                       if inside < set(group.cells))
        rules.append((cage.cells, combination_masks(len(cage.cells), cage.total or 0, model.n),
                      houses))
    return tuple(rules)


def cage_combinations(cands: list[int], queue: list[int], cages: tuple[CageRule, ...],
                      group_bits: list[int]) -> int:
    """One pass of the cage rule over every cage: each cell keeps the digits of the
    combinations its cage can still form, a digit every one of them needs goes to its one
    place in the cage, and leaves the rest of each group holding the cage. Cells left with
    one candidate go on the queue. The groups changed (0: nothing), or -1 on a
    contradiction (no combination left, or a cell with no candidate)."""
    changed = 0
    for cells, combos, houses in cages:
        allowed, needed = 0, -1
        for combo in combos:
            cover = 0
            for cell in cells:
                m = cands[cell] & combo
                if not m:
                    break
                cover |= m
            else:
                if cover == combo:
                    allowed |= combo
                    needed &= combo
        if not allowed:
            return -1
        for cell in cells:
            c = cands[cell]
            if c & ~allowed:
                c &= allowed
                if not c:
                    return -1
                if not c & (c - 1):
                    queue.append(cell)
                cands[cell] = c
                changed |= group_bits[cell]
        rest = needed
        while rest:
            bit = rest & -rest
            rest ^= bit
            place = -1
            for cell in cells:
                if cands[cell] & bit:
                    place = cell if place == -1 else -2
            if place >= 0 and cands[place] != bit:
                cands[place] = bit
                queue.append(place)
                changed |= group_bits[place]
        for outside in houses:
            for cell in outside:
                c = cands[cell]
                if c & needed:
                    c &= ~needed
                    if not c:
                        return -1
                    if not c & (c - 1):
                        queue.append(cell)
                    cands[cell] = c
                    changed |= group_bits[cell]
    return changed


Branch = Callable[[list[int], list[int]], list[tuple[int, int]]]
"""Branching: from the candidates and the per-cell count of refuted decisions so far, the
decisions to try as (cell, value bit), the first to try last (the list is popped); []
when every cell is solved."""


@dataclass
class Search:
    """What one depth-first search found and what it cost.

    ``exhausted``: the whole search space was explored (False also when the search
    stopped at max_solutions); ``limit_hit``: the node limit or the deadline stopped it.
    """

    solutions: list[list[int]]
    nodes: int = 0
    backtracks: int = 0
    propagations: int = 0
    limit_hit: bool = False
    exhausted: bool = True


class Propagator:
    """mrv's propagation and search for one model, worked out once.

    Candidates are a list with one bitmask per cell (bit v-1 for value v). The mrv
    backend searches with its own branching (:func:`_branches`).
    """

    def __init__(self, model: Model, inference: str = "singles"):
        if inference not in INFERENCES + LEVELS:
            raise ValueError(f"unknown inference {inference!r}; choose one of {INFERENCES + LEVELS}")
        self._rules = _rules_for(model, inference)
        self.full = self._rules.full
        self._consistency = _consistency_of(inference, self._rules)

    @property
    def groups(self) -> tuple[tuple[int, ...], ...]:
        """The cells of each all-different group of the model."""
        return self._rules.groups

    def start(self, givens: Sequence[int]) -> list[int] | None:
        """Candidates after propagating the givens, or None if they contradict each other."""
        return self.start_counting(givens)[0]

    def start_counting(self, givens: Sequence[int]) -> tuple[list[int] | None, int]:
        """:meth:`start`, and the cells the rules fixed on the way (0 on a contradiction)."""
        rules = self._rules
        if len(givens) != len(rules.group_bits):
            raise ValueError(f"{len(givens)} givens for a grid of {len(rules.group_bits)} cells")
        cands = [rules.full] * len(givens)
        queue = []
        for cell, value in enumerate(givens):
            if value:
                cands[cell] = 1 << (value - 1)
                queue.append(cell)
        everything = (1 << len(rules.groups)) - 1
        consistency = self._consistency
        forced = _propagate(cands, queue, everything, rules) if consistency is None \
            else consistency(cands, everything)
        return (cands, forced) if forced >= 0 else (None, 0)

    def propagate(self, cands: list[int], changed: Sequence[int]) -> bool:
        """Run the rules to a fixed point after ``changed`` cells lost candidates, in place.

        ``cands`` must have been at a fixed point before those cells changed. Returns
        False on a contradiction (``cands`` is then left half-done: discard it).
        """
        rules = self._rules
        group_bits = rules.group_bits
        queue = []
        dirty = 0
        for cell in changed:
            c = cands[cell]
            if not c:
                return False
            if not c & (c - 1):
                queue.append(cell)
            dirty |= group_bits[cell]
        if self._consistency is not None:
            return self._consistency(cands, dirty) >= 0
        return _propagate(cands, queue, dirty, rules) >= 0

    def search(self, cands: list[int], branch: Branch, *, max_solutions: int = 1,
               node_limit: int | None = None, deadline: float | None = None,
               found: list[Any] | None = None) -> Search:
        """Depth-first search from propagated candidates, each decision followed by the rules.

        A decision sets one cell to one value on a copy of its parent's candidates; a
        decision the rules refute counts as a failure of its cell (``branch`` sees the
        counts). Stops at ``max_solutions``, after ``node_limit`` decisions, or at the
        ``deadline`` (a time.perf_counter() value, looked at every few decisions).
        """
        failures = [0] * len(cands)  # per cell: its decisions refuted by propagation so far
        branches = branch(cands, failures)
        kept: list[Any] = [] if found is None else found  # where the solutions go (a Counted counts)
        if not branches:
            kept.append(cands)
            return Search(kept)
        searched = Search(kept, exhausted=False)
        # A frame: the state before branching and its untried (cell, value bit) decisions.
        stack = [(cands, branches)]
        nodes = backtracks = propagations = 0
        limit = node_limit if node_limit is not None else -1
        perf_counter, propagate, rules = time.perf_counter, _propagate, self._rules
        group_bits, consistency = rules.group_bits, self._consistency
        while stack:
            state, untried = stack[-1]
            if not untried:
                stack.pop()
                if stack:
                    backtracks += 1  # the parent's decision that led here failed
                continue
            if nodes == limit or (deadline is not None and not nodes % _CLOCK_EVERY
                                  and perf_counter() > deadline):
                searched.limit_hit = True
                break
            nodes += 1
            child = state[:]
            cell, child[cell] = untried.pop()
            if consistency is None:
                forced = propagate(child, [cell], group_bits[cell], rules)
            else:
                forced = consistency(child, group_bits[cell])
            if forced < 0:
                backtracks += 1
                failures[cell] += 1
                continue
            propagations += forced
            branches = branch(child, failures)
            if branches:
                stack.append((child, branches))
                continue
            searched.solutions.append(child)
            if len(searched.solutions) >= max_solutions:
                break
            backtracks += 1  # leave this solution to look for another
        searched.nodes, searched.backtracks, searched.propagations = nodes, backtracks, propagations
        searched.exhausted = not stack
        return searched


def _consistency_of(inference: str, rules: _Rules) -> Callable[[list[int], int], int] | None:
    """A consistency level's propagation, (candidates, dirty groups) -> cells fixed or -1;
    None for mrv's own rules."""
    if inference not in LEVELS:
        return None
    from . import _consistency  # noqa: PLC0415 - networkx is imported only when a level is asked for
    return _consistency.propagator(inference, rules.groups, rules.group_bits)


@lru_cache(maxsize=32)
def _intersections(groups: tuple[tuple[int, ...], ...], n: int) -> tuple[tuple[Family, ...], ...]:
    """Per group of n cells, its intersections (of two cells or more) with the other groups
    (none for a smaller group: it need not hold every value, so nothing is locked in it).

    The intersections of one group are sorted into families of disjoint segments (a
    box: one family along its rows, one along its columns), so that one pass over a
    family tells which values lie in exactly one of its segments.
    """
    per_group = []
    sets = [frozenset(group) for group in groups]
    for a, inside in zip(groups, sets):
        families: list[list[Segment]] = []
        for b, other in zip(groups, sets if len(a) == n else ()):
            shared = tuple(c for c in a if c in other)
            if b is a or len(shared) < 2:
                continue
            segment = (shared, tuple(c for c in b if c not in inside))
            for family in families:
                if not any(set(shared).intersection(seg) for seg, _ in family):
                    family.append(segment)
                    break
            else:
                families.append([segment])
        per_group.append(tuple(
            (tuple(family), tuple(c for c in a if not any(c in seg for seg, _ in family)))
            for family in families))
    return tuple(per_group)


def _propagate(cands: list[int], queue: list[int], dirty: int, rules: _Rules) -> int:
    """Run the rules to a fixed point; the cells fixed, or -1 on a contradiction.

    queue holds cells just fixed whose value is not yet removed from their peers; dirty
    has bit g set when group g has changed since the rules last looked at it.
    """
    forced = 0
    intersections, cages = rules.intersections, rules.cages
    unlocked = 0  # groups changed since locked candidates last looked at them
    while True:
        fixed, touched = _singles(cands, queue, dirty, rules.peers, rules.groups,
                                  rules.group_bits, rules.full, rules.whole)
        if fixed < 0:
            return -1
        forced += fixed
        unlocked |= touched
        if cages:
            dirty = cage_combinations(cands, queue, cages, rules.group_bits)
            if dirty < 0:
                return -1
            if dirty:
                forced += len(queue)
                continue
        if intersections is None or not unlocked:
            return forced
        dirty = _locked_candidates(cands, queue, unlocked, intersections, rules.group_bits)
        unlocked = 0
        if dirty <= 0:
            return forced if dirty == 0 else -1
        forced += len(queue)


def _singles(cands: list[int], queue: list[int], dirty: int,
             peers: Sequence[Sequence[int]], groups: tuple[tuple[int, ...], ...],
             group_bits: list[int], full: int, whole: int) -> tuple[int, int]:
    """Naked and hidden singles to a fixed point (hidden singles in the groups of n cells,
    the ones in ``whole``: a smaller group need not hold every value).

    Returns the cells fixed (-1 on a contradiction) and the groups looked at (every
    group whose candidates changed).
    """
    forced = touched = 0
    pop, push = queue.pop, queue.append
    while True:
        while queue:
            cell = pop()
            bit = cands[cell]
            for peer in peers[cell]:
                c = cands[peer]
                if c & bit:
                    c ^= bit
                    if not c & (c - 1):
                        if not c:
                            return -1, touched
                        push(peer)
                        forced += 1
                    cands[peer] = c
                    dirty |= group_bits[peer]
        if not dirty:
            return forced, touched
        scan, dirty = dirty & whole, 0
        touched |= scan
        while scan:
            low = scan & -scan
            scan ^= low
            group = groups[low.bit_length() - 1]
            once = twice = solved = 0
            for cell in group:
                m = cands[cell]
                if m & (m - 1):
                    twice |= once & m
                    once |= m
                else:
                    solved |= m
            if once | solved != full:
                return -1, touched  # some value has no place left in this group
            hidden = once & ~twice & ~solved
            if hidden:
                for cell in group:
                    m = cands[cell] & hidden
                    if m:
                        if m & (m - 1):
                            return -1, touched  # one cell is the only place for two values
                        cands[cell] = m
                        push(cell)
                        forced += 1
                        dirty |= group_bits[cell]


def _locked_candidates(cands: list[int], queue: list[int], scan: int,
                       intersections: tuple[tuple[Family, ...], ...],
                       group_bits: list[int]) -> int:
    """One pass of locked candidates over the groups in scan.

    Removes, from group B outside group A, each value whose candidates in A all lie
    where A meets B. Cells left with one candidate go on the queue. Returns the groups
    changed (0: nothing removed) and the groups not yet looked at, or -1 when a cell
    loses its last candidate. It stops early when a cell is left with one candidate.
    """
    changed = 0
    while scan:
        low = scan & -scan
        scan ^= low
        for segments, rest in intersections[low.bit_length() - 1]:
            once = twice = 0
            seen = []
            for shared, _ in segments:
                m = 0
                for cell in shared:
                    c = cands[cell]
                    if c & (c - 1):
                        m |= c
                seen.append(m)
                twice |= once & m
                once |= m
            for cell in rest:
                c = cands[cell]
                if c & (c - 1):
                    twice |= once & c
                    once |= c
            locked = once & ~twice  # values with candidates in one segment only
            if not locked:
                continue
            for (_, outside), m in zip(segments, seen):
                drop = m & locked
                if not drop:
                    continue
                for cell in outside:
                    c = cands[cell]
                    if c & drop:
                        c &= ~drop
                        if not c & (c - 1):
                            if not c:
                                return -1
                            queue.append(cell)
                        cands[cell] = c
                        changed |= group_bits[cell]
            if queue:
                # A newly fixed cell still sits in its peers' candidates; the look at
                # the next family must wait until the singles have removed it.
                return changed | scan
    return changed


def _branches(cands: list[int], groups: tuple[tuple[int, ...], ...], failures: list[int],
              least_used: bool) -> list[tuple[int, int]]:
    """The decisions to branch on, as (cell, value bit), the first to try last; [] if solved.

    Normally the values of the cell with the fewest candidates. When that cell has more
    than two, a value with only two places left in some group gives a smaller branching:
    one decision per place (the value must go to exactly one of them).
    """
    cell = fewest_candidates(cands, failures)
    if cell < 0:
        return []
    if cands[cell].bit_count() > 2:
        places = _two_places(cands, groups)
        if places:
            return places
    return [(cell, bit) for bit in ordered_bits(cands, cell, least_used)]


def _two_places(cands: list[int], groups: tuple[tuple[int, ...], ...]) -> list[tuple[int, int]]:
    """The two (cell, bit) places of the first value left with two places in a group, or [].

    A value some cell of the group already holds has none to take (under bounds
    consistency it may still be a candidate of other cells there).
    """
    for group in groups:
        once = twice = thrice = solved = 0
        for cell in group:
            m = cands[cell]
            if m & (m - 1):
                thrice |= twice & m
                twice |= once & m
                once |= m
            else:
                solved |= m
        two = twice & ~thrice & ~solved
        if two:
            bit = two & -two
            return [(cell, bit) for cell in reversed(group) if cands[cell] & bit and cands[cell] != bit]
    return []


def fewest_candidates(cands: list[int], failures: list[int]) -> int:
    """The unsolved cell with the fewest candidates, or -1 if every cell is solved.

    Ties go to the cell whose decisions failed most often so far (a cheap form of
    dom/wdeg: the search returns to where the puzzle is tight), then to reading order.
    """
    best, best_count, best_failures = -1, 1 << 30, -1
    for cell, c in enumerate(cands):
        if c & (c - 1):
            count = c.bit_count()
            if count < best_count or (count == best_count and failures[cell] > best_failures):
                best, best_count, best_failures = cell, count, failures[cell]
    return best


def candidate_bits(mask: int) -> list[int]:
    """The bits of a candidate mask, lowest (value 1) first."""
    bits = []
    while mask:
        bit = mask & -mask
        bits.append(bit)
        mask ^= bit
    return bits


def ordered_bits(cands: list[int], cell: int, least_used: bool = False) -> list[int]:
    """The cell's candidate bits, the one to try first last (the list is popped).

    Ascending values, or with ``least_used`` the values placed least often so far first.
    """
    bits = candidate_bits(cands[cell])
    if least_used:
        used = {bit: 0 for bit in bits}
        for c in cands:
            if c in used:
                used[c] += 1
        bits.sort(key=lambda b: (used[b], b))
    bits.reverse()
    return bits
