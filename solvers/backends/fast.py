"""Compiled propagation and MRV search: the mrv method as numba kernels over flat int arrays.

The model's groups become integer tables once per distinct set of groups (rows, columns,
boxes, jigsaw regions, diagonals: whatever the model holds), so every variant is solved
the same way. Each cell holds its candidates as an int64 bitmask (bit v-1 for value v),
which serves every geometry up to 63x63; the bundled sizes go to 25x25.

After every decision these rules run to a fixed point, as in ``mrv``:

- naked single: a cell with one candidate removes it from all its peers;
- hidden single: a value that only one cell of a group can take goes there;
- locked candidates (``inference='locked'``, the default): where groups A and B share
  two cells or more and a value's candidates in A all lie in the shared cells, it
  leaves the rest of B (and the same from B's side). With boxes this is pointing and
  claiming; written for any two groups, it also covers jigsaw regions and diagonals.

The search branches on the cell with the fewest candidates (ties: the cell whose
decisions failed most often so far, as in ``mrv``) or, when that cell has more than two,
on a value left with two places in some group. Its stack is an array of
candidate grids, one row per depth, so the kernel can stop after any decision and
resume: it runs in chunks of decisions, and between chunks Python looks at the clock
and the node budget. Solutions come back one at a time, so counting goes to any
``max_solutions``.

With ``learning='conflicts'`` the search is another one, in ``_fast_learning.py``:
conflict-driven clause learning over (cell, value) literals, singles as exactly-one
constraints with lazy reasons, VSIDS and restarts. Depth-first search without learning
repeats the same refutations in every subtree; on the minimal 25x25 Frisch puzzles that
is the difference between none proved and most (bench/README.md).

Compilation: the kernels have fixed signatures and numba's on-disk cache
(``cache=True``), so they are compiled or loaded from the cache when this module is
imported, once per process: a harness worker pays it while loading the backend, before
its clock starts. The first import on a machine compiles (several seconds, see
bench/README.md); later imports load the cache (well under a second). Numba writes the
cache beside this file, or in the user's cache directory when that is not writable
(``NUMBA_CACHE_DIR`` overrides both).

Counters: ``nodes`` = decisions; ``backtracks`` = decisions undone; ``propagations`` =
cells fixed by the rules (givens excluded); ``fixed_cells`` = the cells the rules fix
before the first decision; with learning, ``conflicts`` and ``restarts``.
"""
from __future__ import annotations

import time
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from models import Model

from ..result import Result, Stats, finish
from . import _fast_learning

COUNTERS = {
    "nodes": "decisions (a value tried in a cell, or a place tried for a value)",
    "backtracks": "decisions undone",
    "propagations": "cells fixed by the rules during the whole run (givens excluded)",
    "fixed_cells": "cells the rules fixed before the first decision",
    "restarts": "restarts of the search from the givens (branching='wdeg', learning='conflicts')",
    "conflicts": "conflicts analysed into a learnt clause (learning='conflicts')",
}
OPTIONS = {
    "inference": "'locked' (default): naked and hidden singles plus locked candidates; "
                 "'singles': naked and hidden singles only; 'subsets': locked plus naked and "
                 "hidden subsets (pairs, triples, ...) anchored at one cell or one value",
    "branching": "'mrv' (default): the cell with the fewest candidates; 'wdeg': fewest "
                 "candidates per failure weight of its groups (dom/wdeg), with Luby restarts "
                 "until a first solution",
    "node_limit": "give up (status unknown, or solved and incomplete) after this many decisions",
    "learning": "'none' (default): depth-first search as above; 'conflicts': conflict-driven "
                "clause learning over (cell, value) literals with VSIDS and restarts "
                "(naked and hidden singles as exactly-one constraints; inference and "
                "branching do not apply), see _fast_learning.py",
}
INFERENCES = ("singles", "locked", "subsets")
"""From weakest to strongest; each adds a rule to the one before."""
BRANCHINGS = ("mrv", "wdeg")
LEARNINGS = ("none", "conflicts")
CHOICES = {"inference": INFERENCES, "branching": BRANCHINGS, "learning": LEARNINGS}
RESTART_BASE = 256
"""Decisions before the first restart with dom/wdeg (then times the Luby sequence)."""
MAX_SIZE = 63
"""The largest n: candidates are int64 bitmasks."""
CHUNK = 4096
"""Decisions between two looks at the clock."""
FIRST_CHUNK = 256
"""Decisions in the first call of the kernel (it propagates the givens first); every
call costs a dispatch of a few microseconds, so an easy puzzle should need one."""

# Kernel answers.
_EXHAUSTED, _FULL, _PAUSED, _CONTRADICTION = 0, 1, 2, 3
# Slots of the state array the kernel shares with Python.
(_DEPTH, _NODES, _BACKTRACKS, _PROPAGATIONS, _LEVEL, _FOUND, _FIXED, _STARTED, _STATUS,
 _SIZE, _WDEG, _RESTARTS) = range(12)
_SLOTS = 12
# Columns of a search frame: kind (0 a cell's values, 1 a value's places in a group),
# the cell or group, the value bit (kind 1), the alternatives not yet tried (a bitmask
# of values, or of positions in the group).
_KIND, _WHERE, _VALUE, _REST = 0, 1, 2, 3


# ------------------------------------------------------------------ the compiled kernels
#
# dirty[w] bit b set: group 64 * w + b changed since the hidden-single scan last saw it.
# cgm[cell, w]: the groups of the cell, in the same layout.

@intrinsic
def _popcount(typingctx, x):
    """The number of set bits of an int64, as the processor's population-count instruction."""
    def codegen(context, builder, signature, args):
        ctpop = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(ctpop, [args[0]])
    return types.int64(types.int64), codegen


@njit(cache=True)
def _mark(cell, dirty, cgm):
    for w in range(dirty.shape[0]):
        dirty[w] |= cgm[cell, w]


@njit(cache=True)
def _naked(c, queue, head, tail, peers, npeers, dirty, cgm):
    """Remove each queued cell's value from its peers; the new tail, -1 on a contradiction."""
    while head < tail:
        cell = queue[head]
        head += 1
        _mark(cell, dirty, cgm)
        bit = c[cell]
        for k in range(npeers[cell]):
            peer = peers[cell, k]
            m = c[peer]
            if m & bit:
                m ^= bit
                c[peer] = m
                _mark(peer, dirty, cgm)
                if m & (m - 1) == 0:
                    if m == 0:
                        return -1
                    queue[tail] = peer
                    tail += 1
    return tail


@njit(cache=True)
def _hidden_in(c, g, queue, tail, gcells, gsize, gfull):
    """Hidden singles in group g; the new tail, -1 on a contradiction."""
    once = twice = solved = 0
    for k in range(gsize[g]):
        m = c[gcells[g, k]]
        if m & (m - 1):
            twice |= once & m
            once |= m
        else:
            solved |= m
    full = gfull[g]
    if full == 0:
        return tail  # a group smaller than n need not hold every value
    if (once | solved) != full:
        return -2 - g
    hidden = once & ~twice & ~solved
    if hidden:
        for k in range(gsize[g]):
            cell = gcells[g, k]
            m = c[cell] & hidden
            if m:
                if m & (m - 1):
                    return -2 - g
                c[cell] = m
                queue[tail] = cell
                tail += 1
    return tail


@njit(cache=True)
def _hidden(c, queue, tail, gcells, gsize, gfull, dirty, touched):
    """Hidden singles in every dirty group (dirty cleared, added to touched); the new tail,
    negative on a contradiction."""
    for w in range(dirty.shape[0]):
        bits = dirty[w]
        dirty[w] = 0
        touched[w] |= bits
        while bits:
            low = bits & -bits
            bits ^= low
            tail = _hidden_in(c, 64 * w + _popcount(low - 1), queue, tail, gcells, gsize, gfull)
            if tail < 0:
                return tail
    return tail


@njit(cache=True)
def _strike(c, cells, count, drop, queue, tail, dirty, cgm):
    """Remove drop from the unsolved cells among cells[:count]; the new tail, -1 when a
    cell loses its last value."""
    for k in range(count):
        cell = cells[k]
        m = c[cell]
        if m & drop and m & (m - 1):
            m &= ~drop
            c[cell] = m
            _mark(cell, dirty, cgm)
            if m & (m - 1) == 0:
                if m == 0:
                    return -1
                queue[tail] = cell
                tail += 1
    return tail


@njit(cache=True)
def _segments(c, inter, icount, segu):
    """segu[i] = the candidates of the unsolved cells shared by the groups of intersection i."""
    for i in range(inter.shape[0]):
        u = 0
        for k in range(icount[i, 0]):
            m = c[inter[i, 0, k]]
            if m & (m - 1):
                u |= m
        segu[i] = u


@njit(cache=True)
def _locked(c, queue, tail, segu, dirty, tables, touched, only_touched):
    """One pass of locked candidates; the new tail, -1 on a contradiction.

    For each family of disjoint segments of a group (a box's rows, a row's boxes), the
    values whose unsolved candidates lie in one segment only leave the rest of the
    other group through that segment. The segments' unions are taken once, at the start
    of the pass, when every single has reached its peers; later removals only make the
    truth smaller than those unions, so what they prove stays true.

    With only_touched, a family is looked at only when its group changed since the last
    pass (touched, which only the hidden-single scan adds to; cleared at the end of the
    pass): the cells of a family all lie in its group, so an unchanged group has nothing
    new to give.
    """
    cgm, inter, icount, fseg, fnseg, frest, fnrest = tables[5:12]
    fgroup = tables[14]
    _segments(c, inter, icount, segu)
    for f in range(fseg.shape[0]):
        g = fgroup[f]
        if only_touched and not (touched[g >> 6] >> (g & 63)) & 1:
            continue
        once = twice = 0
        for k in range(fnseg[f]):
            m = segu[fseg[f, k] >> 1]
            twice |= once & m
            once |= m
        for k in range(fnrest[f]):
            # Solved cells count too: one fixed by this pass still sits in the stale
            # segment unions, and its value must not look locked into a segment.
            m = c[frest[f, k]]
            twice |= once & m
            once |= m
        locked = once & ~twice
        if locked == 0:
            continue
        for k in range(fnseg[f]):
            i, side = fseg[f, k] >> 1, fseg[f, k] & 1
            drop = segu[i] & locked
            if drop:
                part = 2 - side  # this family's group is A (side 0): strike B outside A
                tail = _strike(c, inter[i, part], icount[i, part], drop, queue, tail, dirty, cgm)
                if tail < 0:
                    return tail
    if only_touched:
        _reset(touched)
    return tail


@njit(cache=True)
def _naked_subsets(c, g, queue, tail, dirty, gcells, gsize, cgm, free):
    """Naked subsets of group g anchored at a cell: when as many unsolved cells as the
    cell has candidates hold only those candidates, no other cell may take them."""
    for k in range(gsize[g]):
        m = c[gcells[g, k]]
        if m & (m - 1) == 0 or _popcount(m) >= free:
            continue
        inside = 0
        for j in range(gsize[g]):
            mj = c[gcells[g, j]]
            if mj & (mj - 1) and mj & ~m == 0:
                inside += 1
        if inside > _popcount(m):
            return -2 - g
        if inside < _popcount(m):
            continue
        for j in range(gsize[g]):
            cell = gcells[g, j]
            mj = c[cell]
            if mj & (mj - 1) and mj & ~m and mj & m:
                mj &= ~m
                c[cell] = mj
                _mark(cell, dirty, cgm)
                if mj & (mj - 1) == 0:
                    queue[tail] = cell
                    tail += 1
    return tail


@njit(cache=True)
def _hidden_subsets(c, g, queue, tail, dirty, places, gcells, gsize, cgm, free, n):
    """Hidden subsets of group g anchored at a value: when as many values as the value
    has places can go only to those places, those cells take no other value.

    Only values not yet placed count (a cell fixed earlier in this pass may not have
    reached its peers, so its value can still show elsewhere).
    """
    for v in range(n):
        places[v] = 0
    for k in range(gsize[g]):
        m = c[gcells[g, k]]
        if m & (m - 1) == 0:
            places[_popcount(m - 1)] = -1  # placed: neither anchor nor member
    for k in range(gsize[g]):
        m = c[gcells[g, k]]
        if m & (m - 1):
            while m:
                low = m & -m
                m ^= low
                v = _popcount(low - 1)
                if places[v] >= 0:
                    places[v] |= 1 << k
    for v in range(n):
        p = places[v]
        if p < 0:
            continue
        count = _popcount(p)
        if count < 2 or count >= free:
            continue
        values, inside = 0, 0
        for u in range(n):
            q = places[u]
            if q > 0 and q & ~p == 0:
                values |= 1 << u
                inside += 1
        if inside > count:
            return -2 - g
        if inside < count:
            continue
        for k in range(gsize[g]):
            if p >> k & 1:
                cell = gcells[g, k]
                m = c[cell]
                if m & ~values:
                    m &= values
                    c[cell] = m
                    _mark(cell, dirty, cgm)
                    if m & (m - 1) == 0:
                        queue[tail] = cell
                        tail += 1
    return tail


@njit(cache=True)
def _subsets(c, queue, tail, dirty, touched, places, tables, n):
    """Naked and hidden subsets in every touched group (touched cleared); the new tail,
    negative on a contradiction."""
    gcells, gsize, cgm = tables[0], tables[1], tables[5]
    for w in range(touched.shape[0]):
        bits = touched[w]
        touched[w] = 0
        while bits:
            low = bits & -bits
            bits ^= low
            g = 64 * w + _popcount(low - 1)
            free = 0
            for k in range(gsize[g]):
                m = c[gcells[g, k]]
                if m & (m - 1):
                    free += 1
            if free < 3:
                continue
            tail = _naked_subsets(c, g, queue, tail, dirty, gcells, gsize, cgm, free)
            if tail >= 0 and tables[2][g]:  # only a group of n cells must hold every value
                tail = _hidden_subsets(c, g, queue, tail, dirty, places, gcells, gsize, cgm,
                                       free, n)
            if tail < 0:
                return tail
    return tail


@njit(cache=True)
def _any(dirty):
    for w in range(dirty.shape[0]):
        if dirty[w]:
            return True
    return False


@njit(cache=True)
def _propagate(c, queue, tail, dirty, segu, scratch, tables, level):
    """Run the rules to a fixed point; the queue's final length, or on a contradiction
    -1 (a cell lost its last value) or -2 - g (group g cannot hold its values).

    queue[:tail] holds cells just fixed whose value is not yet removed from their peers;
    dirty the groups to look at for hidden singles.
    """
    gcells, gsize, gfull, peers, npeers, cgm = tables[:6]
    words = dirty.shape[0]
    touched, places = scratch[:words], scratch[words:]
    head = 0
    while True:
        tail = _naked(c, queue, head, tail, peers, npeers, dirty, cgm)
        if tail < 0:
            return -1
        head = tail
        tail = _hidden(c, queue, tail, gcells, gsize, gfull, dirty, touched)
        if tail < 0:
            return tail
        if head < tail:
            continue
        if level == 0:
            return tail
        tail = _locked(c, queue, tail, segu, dirty, tables, touched, level == 1)
        if tail < 0:
            return -1
        if head < tail or _any(dirty):
            continue
        if level == 1:
            return tail
        tail = _subsets(c, queue, tail, dirty, touched, places, tables, places.shape[0])
        if tail < 0:
            return tail
        if head == tail and not _any(dirty):
            return tail


@njit(cache=True)
def _fewest(c, failures):
    """The unsolved cell with the fewest candidates and their count; ties go to the cell
    whose decisions failed most often so far (as in mrv), then to the first met."""
    best, best_count, best_failures = -1, 1 << 30, -1
    for cell in range(c.shape[0]):
        m = c[cell]
        if m & (m - 1):
            k = _popcount(m)
            if k < best_count or (k == best_count and failures[cell] > best_failures):
                best, best_count, best_failures = cell, k, failures[cell]
    return best, best_count


@njit(cache=True)
def _weighted(c, weights, cgl, ncg):
    """dom/wdeg: the unsolved cell with the fewest candidates per unit of its groups'
    failure weight, and its count of candidates."""
    best, best_count, best_weight = -1, 1, 0
    for cell in range(c.shape[0]):
        m = c[cell]
        if m & (m - 1):
            k = _popcount(m)
            w = 0
            for j in range(ncg[cell]):
                w += weights[cgl[cell, j]]
            if best < 0 or k * best_weight < best_count * w:
                best, best_count, best_weight = cell, k, w
    return best, best_count


@njit(cache=True)
def _blame(c, code, weights, cgl, ncg):
    """Add one to the weight of the groups where a contradiction (code) was found."""
    if code <= -2:
        weights[-2 - code] += 1
        return
    for cell in range(c.shape[0]):
        if c[cell] == 0:
            for j in range(ncg[cell]):
                weights[cgl[cell, j]] += 1
            return


@njit(cache=True)
def _choose(c, frame, tables, weights, wdeg):
    """Set frame to the next branching (fewest alternatives); False if every cell is solved."""
    gcells, gsize = tables[0], tables[1]
    if wdeg:
        best, best_count = _weighted(c, weights, tables[12], tables[13])
    else:
        best, best_count = _fewest(c, weights[gcells.shape[0]:])
    if best < 0:
        return False
    if best_count > 2:
        for g in range(gcells.shape[0]):
            once = twice = thrice = 0
            for k in range(gsize[g]):
                m = c[gcells[g, k]]
                if m & (m - 1):
                    thrice |= twice & m
                    twice |= once & m
                    once |= m
            two = twice & ~thrice
            if two:
                bit = two & -two
                places = 0
                for k in range(gsize[g]):
                    if c[gcells[g, k]] & bit:
                        places |= 1 << k
                frame[0], frame[1], frame[2], frame[3] = 1, g, bit, places
                return True
    frame[0], frame[1], frame[2], frame[3] = 0, best, 0, c[best]
    return True


@njit(cache=True)
def _reset(dirty):
    for w in range(dirty.shape[0]):
        dirty[w] = 0


@njit(cache=True)
def _begin(givens, stack, frames, queue, dirty, segu, scratch, weights, state, tables):
    """Put the givens on stack[0] and propagate them; True if a search must follow.

    state[_DEPTH] becomes 0 (search from frames[0]) or -1 (nothing left to search);
    state[_STATUS] is _CONTRADICTION if the givens contradict each other.
    """
    c = stack[0]
    full = (1 << state[_SIZE]) - 1
    count = 0
    for cell in range(c.shape[0]):
        if givens[cell]:
            c[cell] = 1 << (givens[cell] - 1)
            queue[count] = cell
            count += 1
        else:
            c[cell] = full
    for g in range(tables[0].shape[0]):
        dirty[g >> 6] |= 1 << (g & 63)
    tail = _propagate(c, queue, count, dirty, segu, scratch, tables, state[_LEVEL])
    state[_DEPTH] = -1
    if tail < 0:
        state[_STATUS] = _CONTRADICTION
        return False
    state[_FIXED] = tail - count
    state[_PROPAGATIONS] += tail - count
    if _choose(c, frames[0], tables, weights, state[_WDEG] != 0):
        state[_DEPTH] = 0
        return True
    return False


@njit(cache=True)
def _record(c, sols, state):
    """Write the solved grid c as values into the next row of sols."""
    row = sols[state[_FOUND]]
    for cell in range(c.shape[0]):
        row[cell] = _popcount(c[cell] - 1) + 1
    state[_FOUND] += 1


@njit(cache=True)
def _decide(stack, frames, queue, d, gcells):
    """Take the next alternative of frames[d] into stack[d + 1]; the cell it fixes."""
    rest = frames[d, _REST]
    low = rest & -rest
    frames[d, _REST] = rest ^ low
    child = stack[d + 1]
    child[:] = stack[d]
    if frames[d, _KIND] == 0:
        cell = frames[d, _WHERE]
        child[cell] = low
    else:
        cell = gcells[frames[d, _WHERE], _popcount(low - 1)]
        child[cell] = frames[d, _VALUE]
    queue[0] = cell
    return cell


_I8, _I4, _U8 = types.int64, types.int32, types.uint8
_TABLE_TYPES = types.Tuple((_I4[:, ::1], _I4[::1], _I8[::1], _I4[:, ::1], _I4[::1], _I8[:, ::1],
                            _I4[:, :, ::1], _I4[:, ::1], _I4[:, ::1], _I4[::1],
                            _I4[:, ::1], _I4[::1], _I4[:, ::1], _I4[::1], _I4[::1]))
_KERNEL = _I8(_U8[::1], _I8[:, ::1], _I8[:, ::1], _I4[::1], _I8[::1], _I8[::1], _I8[::1], _I8[::1],
              _U8[:, ::1], _I8[::1], _TABLE_TYPES, _I8)


@njit(_KERNEL, cache=True)
def _kernel(givens, stack, frames, queue, dirty, segu, scratch, weights, sols, state, tables,
            node_stop):
    """Solve from the givens on the first call, then search until sols is full, node_stop
    decisions have been made in all, or the space is exhausted; resumable.

    Returns _FULL (resume to look for more), _PAUSED (resume to go on), _EXHAUSTED or
    _CONTRADICTION. Solutions found are sols[:state[_FOUND]].
    """
    if state[_STARTED] == 0:
        state[_STARTED] = 1
        if not _begin(givens, stack, frames, queue, dirty, segu, scratch, weights, state,
                      tables):
            if state[_STATUS] == _CONTRADICTION:
                return _CONTRADICTION
            _record(stack[0], sols, state)
            return _EXHAUSTED
    level, wdeg = state[_LEVEL], state[_WDEG] != 0
    d, nodes, backtracks, forced = state[_DEPTH], state[_NODES], state[_BACKTRACKS], 0
    code = _EXHAUSTED
    while d >= 0:
        if frames[d, _REST] == 0:
            d -= 1
            if d >= 0:
                backtracks += 1  # the parent's decision that led here failed
            continue
        if nodes >= node_stop:
            code = _PAUSED
            break
        nodes += 1
        cell = _decide(stack, frames, queue, d, tables[0])
        _reset(dirty)
        _reset(scratch[:dirty.shape[0]])
        tail = _propagate(stack[d + 1], queue, 1, dirty, segu, scratch, tables, level)
        if tail < 0:
            backtracks += 1
            weights[tables[0].shape[0] + cell] += 1  # the cell's failures break mrv's ties
            if wdeg:
                _blame(stack[d + 1], tail, weights, tables[12], tables[13])
            continue
        forced += tail - 1
        if _choose(stack[d + 1], frames[d + 1], tables, weights, wdeg):
            d += 1
            continue
        _record(stack[d + 1], sols, state)
        if state[_FOUND] == sols.shape[0]:
            code = _FULL
            break
        backtracks += 1  # leave this solution to look for another
    state[_DEPTH], state[_NODES], state[_BACKTRACKS] = d, nodes, backtracks
    state[_PROPAGATIONS] += forced
    return code


# ------------------------------------------------------------------ tables and the driver

class _Tables(NamedTuple):
    """The model's groups as integer arrays, in the kernels' argument order."""

    gcells: np.ndarray   # int32[groups, size]: each group's cells
    gsize: np.ndarray    # int32[groups]
    gfull: np.ndarray    # int64[groups]: every value's bit, or 0 for a group smaller than n
    peers: np.ndarray    # int32[cells, most peers]
    npeers: np.ndarray   # int32[cells]
    cgm: np.ndarray      # int64[cells, words]: each cell's groups as bits (group g: word g // 64)
    inter: np.ndarray    # int32[pairs, 3, size]: shared cells, A outside B, B outside A
    icount: np.ndarray   # int32[pairs, 3]
    fseg: np.ndarray     # int32[families, most segments]: 2 * pair + (1 if the family's group is B)
    fnseg: np.ndarray    # int32[families]
    frest: np.ndarray    # int32[families, size]: the group's cells outside the family's segments
    fnrest: np.ndarray   # int32[families]
    cgl: np.ndarray      # int32[cells, most groups]: each cell's groups
    ncg: np.ndarray      # int32[cells]
    fgroup: np.ndarray   # int32[families]: the group each family belongs to


_TABLES: dict[int, tuple[object, tuple, tuple[int, int, int]]] = {}


def _tables_for(model: Model) -> tuple[tuple, tuple[int, int, int]]:
    """The tables of the model's groups and their sizes (cells, groups, intersections);
    the same group tuple is looked up by identity, so a geometry is worked out once."""
    groups = model.groups
    hit = _TABLES.get(id(groups))
    if hit is not None and hit[0] is groups:
        return hit[1], hit[2]
    tables = tuple(_build(model.n, model.num_cells, tuple(g.cells for g in groups)))
    if len(_TABLES) > 64:
        _TABLES.clear()
    key = (model.num_cells, len(tables[0]), len(tables[6]))
    _TABLES[id(groups)] = (groups, tables, key)
    return tables, key


@lru_cache(maxsize=32)
def _build(n: int, num_cells: int, groups: tuple[tuple[int, ...], ...]) -> _Tables:
    size = max(len(g) for g in groups)
    gcells = np.zeros((len(groups), size), np.int32)
    for index, group in enumerate(groups):
        gcells[index, :len(group)] = group
    gsize = np.array([len(g) for g in groups], np.int32)
    gfull = np.array([(1 << n) - 1 if len(g) == n else 0 for g in groups], np.int64)
    peer_sets: list[set[int]] = [set() for _ in range(num_cells)]
    for group in groups:
        for cell in group:
            peer_sets[cell].update(group)
    most = max(len(p) for p in peer_sets) - 1
    peers = np.zeros((num_cells, max(most, 1)), np.int32)
    for cell, others in enumerate(peer_sets):
        row = sorted(others - {cell})
        peers[cell, :len(row)] = row
    npeers = np.array([len(p) - 1 if p else 0 for p in peer_sets], np.int32)
    member: list[list[int]] = [[] for _ in range(num_cells)]
    for index, group in enumerate(groups):
        for cell in group:
            member[cell].append(index)
    cgm = np.zeros((num_cells, (len(groups) + 63) // 64), np.int64)
    for cell, indexes in enumerate(member):
        for g in indexes:
            cgm[cell, g // 64] |= np.int64(1) << np.int64(g % 64)
    inter, icount, pairs = _intersections(groups, size)
    cgl = np.zeros((num_cells, max(max(len(m) for m in member), 1)), np.int32)
    for cell, indexes in enumerate(member):
        cgl[cell, :len(indexes)] = indexes
    ncg = np.array([len(m) for m in member], np.int32)
    families = _families(groups, pairs, size)
    return _Tables(gcells, gsize, gfull, peers, npeers, cgm, inter, icount,
                   *families[:4], cgl, ncg, families[4])


def _intersections(groups: tuple[tuple[int, ...], ...], size: int
                   ) -> tuple[np.ndarray, np.ndarray, list[tuple[int, int, frozenset[int]]]]:
    """Every pair of groups sharing two cells or more: shared cells, A outside B, B outside A."""
    rows, pairs = [], []
    sets = [frozenset(g) for g in groups]
    for a in range(len(groups)):
        for b in range(a + 1, len(groups)):
            shared = sets[a] & sets[b]
            if len(shared) >= 2:
                rows.append((sorted(shared), sorted(sets[a] - shared), sorted(sets[b] - shared)))
                pairs.append((a, b, shared))
    inter = np.zeros((max(len(rows), 1), 3, size), np.int32)
    icount = np.zeros((max(len(rows), 1), 3), np.int32)
    for i, parts in enumerate(rows):
        for j, cells in enumerate(parts):
            inter[i, j, :len(cells)] = cells
            icount[i, j] = len(cells)
    return inter, icount, pairs


def _families(groups: tuple[tuple[int, ...], ...], pairs: list[tuple[int, int, frozenset[int]]],
              size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each group's intersections sorted into families of disjoint segments, the cells
    of the group outside each family's segments, and the family's group."""
    families: list[tuple[list[int], list[int], int]] = []
    for g, group in enumerate(groups):
        mine: list[list[tuple[int, frozenset[int]]]] = []
        for i, (a, b, shared) in enumerate(pairs):
            if g not in (a, b):
                continue
            entry = (2 * i + (g == b), shared)
            for family in mine:
                if not any(shared & other for _, other in family):
                    family.append(entry)
                    break
            else:
                mine.append([entry])
        for family in mine:
            covered = frozenset().union(*(shared for _, shared in family))
            families.append(([e for e, _ in family], [c for c in group if c not in covered], g))
    count = max(len(families), 1)
    fseg = np.zeros((count, max([len(f[0]) for f in families] + [1])), np.int32)
    frest = np.zeros((count, size), np.int32)
    fnseg, fnrest = np.zeros(count, np.int32), np.zeros(count, np.int32)
    fgroup = np.zeros(count, np.int32)
    for f, (entries, rest, g) in enumerate(families):
        fseg[f, :len(entries)], fnseg[f] = entries, len(entries)
        frest[f, :len(rest)], fnrest[f] = rest, len(rest)
        fgroup[f] = g
    return fseg, fnseg, frest, fnrest, fgroup


class _Work(NamedTuple):
    """The arrays one search works in, in the kernel's argument order (after the givens)."""

    stack: np.ndarray    # int64[depth, cells]: the candidates at each depth
    frames: np.ndarray   # int64[depth, 4]: the branching at each depth
    queue: np.ndarray    # int32[cells]: cells fixed, not yet removed from their peers
    dirty: np.ndarray    # int64[words]: the groups the hidden-single scan must look at
    segu: np.ndarray     # int64[pairs]: each intersection's candidates in a locked pass
    scratch: np.ndarray  # int64[words + n]: groups touched since the subsets rule ran; places
    weights: np.ndarray  # int64[groups + cells]: contradictions found in each group
                         # (dom/wdeg), then the decisions refuted at each cell


_WORK: dict[tuple[int, int, int], _Work] = {}  # taken while in use, so calls never share


def _work(cells: int, groups: int, pairs: int) -> _Work:
    """Arrays for one search of this size, reused from the last one when free."""
    work = _WORK.pop((cells, groups, pairs), None)
    if work is not None:
        return work
    n = round(cells ** 0.5)
    return _Work(np.empty((cells + 2, cells), np.int64), np.zeros((cells + 2, 4), np.int64),
                 np.empty(cells + 1, np.int32), np.zeros((groups + 63) // 64, np.int64),
                 np.zeros(pairs, np.int64), np.zeros((groups + 63) // 64 + n, np.int64),
                 np.ones(groups + cells, np.int64))


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          inference: str = "locked", branching: str = "mrv",
          node_limit: int | None = None, learning: str = "none") -> Result:
    """Solve with compiled propagation and MRV search; count up to max_solutions solutions."""
    if learning not in LEARNINGS:
        raise ValueError(f"unknown learning {learning!r}; choose one of {LEARNINGS}")
    if inference not in INFERENCES:
        raise ValueError(f"unknown inference {inference!r}; choose one of {INFERENCES}")
    if branching not in BRANCHINGS:
        raise ValueError(f"unknown branching {branching!r}; choose one of {BRANCHINGS}")
    n = model.n
    if n > MAX_SIZE:
        raise ValueError(f"fast handles grids up to {MAX_SIZE}x{MAX_SIZE}, not {n}x{n}")
    if node_limit is not None and node_limit < 0:
        raise ValueError(f"node_limit must be at least 0, not {node_limit}")
    if learning == "conflicts":
        return _fast_learning.solve(model, max_solutions=max_solutions, time_limit=time_limit,
                                    node_limit=node_limit)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    tables, key = _tables_for(model)
    cells, groups = key[0], key[1]
    work = _work(*key)
    state = np.zeros(_SLOTS, np.int64)
    state[_LEVEL], state[_SIZE] = INFERENCES.index(inference), n
    work.scratch.fill(0)
    state[_WDEG] = branching == "wdeg"
    work.weights[:groups] = 1
    work.weights[groups:] = 0
    givens = np.frombuffer(bytearray(model.givens), np.uint8)
    sols = np.empty((min(max_solutions, 64), cells), np.uint8)
    try:
        found, code, limit_hit, budget_hit = _drive(
            givens, work, sols, state, tables, max_solutions, deadline, node_limit)
    finally:
        _WORK[key] = work
    stats = Stats(nodes=int(state[_NODES]), backtracks=int(state[_BACKTRACKS]),
                  restarts=int(state[_RESTARTS]),
                  propagations=int(state[_PROPAGATIONS]), fixed_cells=int(state[_FIXED]),
                  solve_time=time.perf_counter() - start)
    if code == _CONTRADICTION:
        return finish([], True, stats, limit_hit=False, message="the givens contradict each other")
    message = "node limit reached" if budget_hit else "time limit reached" if limit_hit else ""
    return finish(found, code == _EXHAUSTED, stats, limit_hit=limit_hit, budget_hit=budget_hit,
                  message=message)


def _drive(givens: np.ndarray, work: _Work, sols: np.ndarray, state: np.ndarray,
           tables: tuple, max_solutions: int, deadline: float | None, node_limit: int | None
           ) -> tuple[list[tuple[int, ...]], int, bool, bool]:
    """Call the kernel in chunks of decisions; the solutions, the last kernel answer, and
    whether the clock or the node budget stopped the search. The clock is looked at before
    every call (a deadline already past does no work).

    With dom/wdeg the search restarts from the givens (weights kept) each time it spends
    RESTART_BASE times the next Luby number of decisions, until a first solution is found;
    from then on the run in progress goes on to the end, so a proof stays complete.
    """
    found: list[tuple[int, ...]] = []
    chunk = FIRST_CHUNK  # most 9x9 puzzles need one call; then chunks grow to CHUNK
    restart_at = RESTART_BASE * _luby(1) if state[_WDEG] else None
    code = _PAUSED
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            return found, code, True, False
        stop = state[_NODES] + chunk
        if node_limit is not None:
            stop = min(stop, node_limit)
        if restart_at is not None and not found:
            stop = min(stop, restart_at)
        code = _kernel(givens, *work, sols, state, tables, stop)
        chunk = min(CHUNK, 2 * chunk)
        found += [tuple(row) for row in sols[:state[_FOUND]].tolist()]
        state[_FOUND] = 0
        if code in (_EXHAUSTED, _CONTRADICTION) or len(found) >= max_solutions:
            return found[:max_solutions], code, False, False
        if code == _FULL:
            sols = sols[:min(len(sols), max_solutions - len(found))]
            state[_BACKTRACKS] += 1  # leave the last solution to look for another
        elif node_limit is not None and state[_NODES] >= node_limit:
            return found, code, False, True
        elif restart_at is not None and not found and state[_NODES] >= restart_at:
            state[_RESTARTS] += 1
            state[_STARTED] = 0
            restart_at = state[_NODES] + RESTART_BASE * _luby(int(state[_RESTARTS]) + 1)


def _luby(i: int) -> int:
    """The i-th number (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ...

    >>> [_luby(i) for i in range(1, 11)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2]
    """
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)
