"""Compiled propagation and MRV search: the mrv method as numba kernels over flat int arrays.

The model's groups become integer tables once per distinct set of groups (rows, columns,
boxes, jigsaw regions, diagonals: whatever the model holds), so every variant is solved
the same way. Each cell holds its candidates as an int64 bitmask (bit v-1 for value v),
which serves every geometry up to 63x63; the bundled sizes go to 25x25. Beside them the
state keeps, for each group and value, the value's places in the group as a bitmask,
updated with every removal, so the rules react to what changed instead of rescanning.

After every decision these rules run to a fixed point, as in ``mrv``:

- naked single: a cell with one candidate removes it from all its peers (visiting only
  the peers whose places still hold it);
- hidden single: a value that only one cell of a group can take goes there (looked at
  when its places in the group drop to one);
- locked candidates (``inference='locked'``, the default): where groups A and B share
  two cells or more and a value's candidates in A all lie in the shared cells, it
  leaves the rest of B (and the same from B's side). With boxes this is pointing and
  claiming; written for any two groups, it also covers jigsaw regions and diagonals.
  A value is looked at when its places in A drop to the size of A's largest share.

Singles and locked candidates reach the same fixed point in any order (or find a
contradiction in any order), so the search makes ``mrv``'s decisions (tests/test_fast.py
compares the node counts). The order does decide which group a contradiction is blamed
on, so ``branching='wdeg'`` walks other trees than before the value places came in.

The search branches on the cell with the fewest candidates (ties: the cell whose
decisions failed most often so far, as in ``mrv``) or, when that cell has more than two,
on a value left with two places in some group. Its stack is an array of
states, one row per depth, so the kernel can stop after any decision and
resume: it runs in chunks of decisions, and between chunks Python looks at the clock
and the node budget. Solutions come back one at a time, so counting goes to any
``max_solutions``.

With ``learning='conflicts'`` the search is another one, in ``_fast_learning.py``:
conflict-driven clause learning over (cell, value) literals, singles as exactly-one
constraints with lazy reasons, VSIDS and restarts. Depth-first search without learning
repeats the same refutations in every subtree; on the minimal 25x25 Frisch puzzles that
is the difference between none proved and most (bench/README.md).

Compilation: nothing is compiled when this module is imported (so listing the backends
or a mistyped option answers at once). ``prepare`` compiles the kernels a run needs (the
depth-first one, the learning one, the batch one) for their fixed signatures, or loads
them from numba's on-disk cache (``cache=True``); the harness's worker calls it when it
loads the backend, before its clock starts, and ``solve`` calls it too. A real compile
(the first use on a machine, or after the code changed) says ``compiling fast (first use
...) ...`` and then ``compiling fast took N s`` on stderr; bench/README.md has its cost.
Numba writes the cache beside this file, or in the user's cache directory when that is
not writable (``NUMBA_CACHE_DIR`` overrides both).

``solve_batch`` solves a whole array of puzzles of one geometry in one compiled call
(counting each to two, or to one), for throughput: no Python between the puzzles.

The rules' kernels are in ``_fast_kernels`` (with the layout both searches share: the
state slots, the kernel answers, the tables declared once as ``Tables``, the Luby
sequence); the chunked loop that calls a kernel between looks at the clock is
``_fast_drive``. This module chooses, copies and branches. The kernels
are compiled without numba's reference counting (``_nrt=False``: they allocate nothing,
and counting the references of every array passed between them cost about 40% of the
time) and the hot ones are inlined into the kernel.

Counters: ``nodes`` = decisions; ``backtracks`` = decisions undone; ``propagations`` =
cells fixed by the rules (givens excluded); ``fixed_cells`` = the cells the rules fix
before the first decision; with learning, ``conflicts`` and ``restarts``.
"""
from __future__ import annotations

import time
from functools import lru_cache
from typing import Annotated, NamedTuple

import numpy as np
from numba import njit, types

from models import Model

from ..encodings.cages import combination_masks
from ..result import Result, Stats, finish, stop_message, unsupported
from . import _fast_learning
from ._fast_drive import drive
from ._fast_kernels import (
    _BACKTRACKS,
    _CGL,
    _CULPRIT,
    _DEPTH,
    _FIXED,
    _FOUND,
    _GCELLS,
    _GFULL,
    _GSIZE,
    _I4,
    _I8,
    _LEVEL,
    _NCG,
    _NODES,
    _PROPAGATIONS,
    _RESTARTS,
    _SEGMAX,
    _SIZE,
    _SLOTS,
    _STARTED,
    _STATUS,
    _TAIL,
    _U8,
    _WDEG,
    CONTRADICTION,
    EXHAUSTED,
    FULL,
    LATE,
    MAX_SHARES,
    PAUSED,
    SLICE,
    TABLES,
    Tables,
    _cycles,
    _drop,
    _failed,
    _popcount,
    _propagate,
    compile_kernels,
    field_types,
    luby,
)

LEARNING_CAGES = ("fast's clause-learning search (learning='conflicts') states the groups "
                  "only; killer cage totals need learning='none'")
INFERENCES = ("singles", "locked", "subsets")
"""From weakest to strongest; each adds a rule to the one before (fast.py declares the same)."""
RESTART_BASE = 256
"""Decisions before the first restart with dom/wdeg (then times the Luby sequence)."""
MAX_SIZE = 63
"""The largest n: candidates are int64 bitmasks."""
FIRST_CHUNK = 1024
"""Decisions in the first call of the kernel (it propagates the givens first); every
call costs a dispatch and a look at the clock, so most 9x9 puzzles (the 1,106 hardest
too) should need one; 1,024 decisions take about a millisecond on 9x9."""

# Columns of a search frame: kind (0 a cell's values, 1 a value's places in a group),
# the cell or group, the value bit (kind 1), the alternatives not yet tried (a bitmask
# of values, or of positions in the group).
_KIND, _WHERE, _VALUE, _REST = 0, 1, 2, 3
_SOLVED = 1 << 62
"""Added to a solved cell's key in the choice of a cell (fewer than 2**40 failures assumed)."""


# ------------------------------------------------------------------ the search kernels
#
# The rules (propagation to a fixed point over the candidates and the value places) are in
# _fast_kernels; these choose, copy and branch.

@njit(cache=True, inline='always', _nrt=False)
def _fewest(c, failures):
    """The unsolved cell with the fewest candidates and their count; ties go to the cell
    whose decisions failed most often so far (as in mrv), then to the first met.

    One key per cell orders all three (fewer candidates, more failures; solved cells
    last), so the scan has no branch that depends on the grid.
    """
    best, best_key = -1, _SOLVED
    for cell in range(c.shape[0]):
        k = _popcount(c[cell])
        key = (k << 40) - failures[cell] + (_SOLVED if k < 2 else 0)
        if key < best_key:
            best, best_key = cell, key
    if best < 0:
        return -1, 0
    return best, _popcount(c[best])


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
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


@njit(cache=True, inline='always', _nrt=False)
def _choose(c, p, frame, tables, weights, wdeg):
    """Set frame to the next branching (fewest alternatives); False if every cell is solved."""
    groups = tables[_GSIZE].shape[0]
    if wdeg:
        best, best_count = _weighted(c, weights, tables[_CGL], tables[_NCG])
    else:
        best, best_count = _fewest(c, weights[groups:])
    if best < 0:
        return False
    if best_count > 2:
        gfull = tables[_GFULL]
        for g in range(groups):
            if gfull[g] == 0:
                continue  # a value need not appear in a smaller group
            for v in range(p.shape[1]):
                q = p[g, v]
                rest = q & (q - 1)
                if rest and rest & (rest - 1) == 0:
                    frame[_KIND], frame[_WHERE], frame[_VALUE], frame[_REST] = 1, g, 1 << v, q
                    return True
    frame[_KIND], frame[_WHERE], frame[_VALUE], frame[_REST] = 0, best, 0, c[best]
    return True


@njit(cache=True, inline='always', _nrt=False)
def _clear(waiting, pend, touched, state):
    """Empty the queue, the pending values and the touched marks for a new propagation."""
    for w in range(waiting.shape[0]):
        marks = waiting[w]
        waiting[w] = 0
        while marks:
            low = marks & -marks
            marks ^= low
            pend[64 * w + _popcount(low - 1)] = 0
        touched[w] = 0
    state[_TAIL] = 0
    state[_CULPRIT] = -1


@njit(cache=True, _nrt=False)
def _givens_by_group(givens, taken, state, tables):
    """taken[g] = the values given in group g; False if a given is out of range or a
    value is given twice in one group."""
    n = state[_SIZE]
    gcells, gsize = tables[_GCELLS], tables[_GSIZE]
    for g in range(gsize.shape[0]):
        seen = 0
        for k in range(gsize[g]):
            value = givens[gcells[g, k]]
            if value:
                bit = 1 << (value - 1)
                if value > n or seen & bit:
                    return False
                seen |= bit
        taken[g] = seen
    return True


@njit(cache=True, inline='always', _nrt=False)
def _read_places(c, p, g, n, spots, tables):
    """p[g, v] for every value, read off the candidates of g's cells (copied to spots
    first when they fit, so the loops over values read them from one place)."""
    gcells, size = tables[_GCELLS], tables[_GSIZE][g]
    if size <= spots.shape[0]:
        for k in range(size):
            spots[k] = c[gcells[g, k]]
        for v in range(n):
            q = 0
            for k in range(size):
                q |= ((spots[k] >> v) & 1) << k
            p[g, v] = q
        return
    for v in range(n):
        q = 0
        for k in range(size):
            q |= ((c[gcells[g, k]] >> v) & 1) << k
        p[g, v] = q


@njit(cache=True, _nrt=False)
def _place_givens(givens, c, p, queue, waiting, pend, scratch, limit, state, tables):
    """Fill c from the givens (each free cell loses the values given in its groups; the
    givens, then the free cells left with one value, go on the queue), then p, each
    group's limit and the pending values. The number of givens, or -1 if they
    contradict each other."""
    n, level = state[_SIZE], state[_LEVEL]
    full = (1 << n) - 1
    gsize, gfull, segmax = tables[_GSIZE], tables[_GFULL], tables[_SEGMAX]
    cgl, ncg = tables[_CGL], tables[_NCG]
    words = (gsize.shape[0] + 63) >> 6
    touched, spots = scratch[:words], scratch[words:]
    if not _givens_by_group(givens, pend, state, tables):
        return -1
    tail = 0
    for cell in range(c.shape[0]):
        if givens[cell]:
            c[cell] = 1 << (givens[cell] - 1)
            queue[tail] = cell
            tail += 1
        else:
            taken = 0
            for j in range(ncg[cell]):
                taken |= pend[cgl[cell, j]]
            c[cell] = full & ~taken
    count = tail
    for cell in range(c.shape[0]):
        m = c[cell]
        if givens[cell] == 0 and m & (m - 1) == 0:
            if m == 0:
                return -1
            queue[tail] = cell
            tail += 1
    state[_TAIL] = tail
    state[_CULPRIT] = -1
    for w in range(words):
        waiting[w] = 0
        touched[w] = 0
    for g in range(gsize.shape[0]):
        touched[g >> 6] |= 1 << (g & 63)  # the subsets rule looks at every group once
        limit[g] = -1 if gfull[g] == 0 else segmax[g] if level else 1
        pend[g] = 0
        _read_places(c, p, g, n, spots, tables)
        for v in range(n):
            q = p[g, v]
            if _popcount(q) <= limit[g]:
                pend[g] |= 1 << v
                waiting[g >> 6] |= 1 << (g & 63)
    return count


@njit(cache=True, _nrt=False)
def _begin(givens, stack, frames, queue, waiting, pend, scratch, limit, weights, state,
           tables):
    """Put the givens on the first rows of the stacks and propagate them; True if a search
    must follow. The first call of a run also clears the failure weights.

    state[_DEPTH] becomes 0 (search from frames[0]) or -1 (nothing left to search);
    state[_STATUS] is CONTRADICTION if the givens contradict each other.
    """
    c, p = _rows(stack, 0, tables[_GSIZE].shape[0], state[_SIZE])
    groups = tables[_GSIZE].shape[0]
    if state[_NODES] == 0 and state[_RESTARTS] == 0:
        for i in range(weights.shape[0]):
            weights[i] = 1 if i < groups else 0
    state[_DEPTH] = -1
    count = _place_givens(givens, c, p, queue, waiting, pend, scratch, limit, state, tables)
    if count < 0:
        state[_STATUS] = CONTRADICTION
        return False
    tail = _propagate(c, p, queue, waiting, pend, scratch, limit, state, tables, state[_LEVEL])
    if tail < 0:
        state[_STATUS] = CONTRADICTION
        return False
    state[_FIXED] = tail - count
    state[_PROPAGATIONS] += tail - count
    if _choose(c, p, frames[0], tables, weights, state[_WDEG] != 0):
        state[_DEPTH] = 0
        return True
    return False


@njit(cache=True, _nrt=False)
def _record(c, sols, state):
    """Write the solved grid c as values into the next row of sols."""
    row = sols[state[_FOUND]]
    for cell in range(c.shape[0]):
        row[cell] = _popcount(c[cell] - 1) + 1
    state[_FOUND] += 1


@njit(cache=True, inline='always', _nrt=False)
def _rows(stack, d, groups, n):
    """The state at depth d: the candidates c and the value places p (a view as [groups, n])."""
    row = stack[d]
    cells = row.shape[0] - groups * n
    return row[:cells], row[cells:].reshape((groups, n))


@njit(cache=True, inline='always', _nrt=False)
def _copy(source, target):
    """target[:] = source, as a plain loop (a slice assignment would copy through a buffer)."""
    for i in range(source.shape[0]):
        target[i] = source[i]


@njit(cache=True, inline='always', _nrt=False)
def _decide(stack, frames, d, gcells):
    """Copy depth d to d + 1 and take frames[d]'s next alternative; its cell and value bit."""
    rest = frames[d, _REST]
    low = rest & -rest
    frames[d, _REST] = rest ^ low
    _copy(stack[d], stack[d + 1])
    if frames[d, _KIND] == 0:
        return frames[d, _WHERE], low
    return gcells[frames[d, _WHERE], _popcount(low - 1)], frames[d, _VALUE]


class _Work(NamedTuple):
    """The arrays one search works in, in the kernel's argument order (after the givens)."""

    stack: Annotated[np.ndarray, _I8[:, ::1]]   # [depth, cells + groups * n]: the search
                                                # state at each depth
    frames: Annotated[np.ndarray, _I8[:, ::1]]  # [depth, 4]: the branching at each depth
    queue: Annotated[np.ndarray, _I4[::1]]      # [cells + 1]: cells fixed during a
                                                # propagation, in order
    waiting: Annotated[np.ndarray, _I8[::1]]    # [words]: bit g set when group g has pending
                                                # values
    pend: Annotated[np.ndarray, _I8[::1]]       # [groups]: each group's values left with few
                                                # places, to look at
    scratch: Annotated[np.ndarray, _I8[::1]]    # [words + n]: groups touched since the subsets
                                                # rule ran; a row of n for the subsets rule and
                                                # for reading a group's places
    limit: Annotated[np.ndarray, _I8[::1]]      # [groups]: the most places that make a value
                                                # pending
    weights: Annotated[np.ndarray, _I8[::1]]    # [groups + cells]: contradictions found in
                                                # each group (dom/wdeg), then the decisions
                                                # refuted at each cell


_KERNEL = _I8(_U8[::1], *field_types(_Work), _U8[:, ::1], _I8[::1], TABLES, _I8)
"""The kernel's signature: givens, the work arrays, solutions, state, tables, node stop."""


@njit(cache=True, _nrt=False)
def _kernel(givens, stack, frames, queue, waiting, pend, scratch, limit, weights, sols,
            state, tables, node_stop):
    """Solve from the givens on the first call, then search until sols is full, node_stop
    decisions have been made in all, or the space is exhausted; resumable.

    Returns FULL (resume to look for more), PAUSED (resume to go on), EXHAUSTED or
    CONTRADICTION. Solutions found are sols[:state[_FOUND]].
    """
    if state[_STARTED] == 0:
        state[_STARTED] = 1
        if not _begin(givens, stack, frames, queue, waiting, pend, scratch, limit,
                      weights, state, tables):
            if state[_STATUS] == CONTRADICTION:
                return CONTRADICTION
            _record(_rows(stack, 0, tables[_GSIZE].shape[0], state[_SIZE])[0], sols, state)
            return EXHAUSTED
    level, wdeg, n = state[_LEVEL], state[_WDEG] != 0, state[_SIZE]
    groups = tables[_GSIZE].shape[0]
    touched = scratch[:(groups + 63) >> 6]
    d, nodes, backtracks, forced = state[_DEPTH], state[_NODES], state[_BACKTRACKS], 0
    code = EXHAUSTED
    while d >= 0:
        if frames[d, _REST] == 0:
            d -= 1
            if d >= 0:
                backtracks += 1  # the parent's decision that led here failed
            continue
        if nodes >= node_stop:
            code = PAUSED
            break
        nodes += 1
        cell, bit = _decide(stack, frames, d, tables[_GCELLS])
        c, p = _rows(stack, d + 1, groups, n)
        _clear(waiting, pend, touched, state)
        if _drop(c, p, cell, c[cell] ^ bit, queue, waiting, pend, touched, limit, state, tables):
            tail = _propagate(c, p, queue, waiting, pend, scratch, limit, state, tables, level)
        else:
            tail = _failed(state)
        if tail < 0:
            backtracks += 1
            weights[groups + cell] += 1  # the cell's failures break mrv's ties
            if wdeg:
                _blame(c, tail, weights, tables[_CGL], tables[_NCG])
            continue
        forced += tail - 1
        if _choose(c, p, frames[d + 1], tables, weights, wdeg):
            d += 1
            continue
        _record(c, sols, state)
        if state[_FOUND] == sols.shape[0]:
            code = FULL
            break
        backtracks += 1  # leave this solution to look for another
    state[_DEPTH], state[_NODES], state[_BACKTRACKS] = d, nodes, backtracks
    state[_PROPAGATIONS] += forced
    return code


# ------------------------------------------------------------------ tables and the driver

_TABLES: dict[int, tuple[object, tuple[np.ndarray, ...], tuple[int, int, int], object]] = {}


def _tables_for(model: Model) -> tuple[tuple[np.ndarray, ...], tuple[int, int, int]]:
    """The fields of the model's Tables (a plain tuple, as the kernel takes them) and their
    sizes (cells, groups, n);
    the same group tuple is looked up by identity, so a geometry is worked out once."""
    groups = model.groups
    hit = _TABLES.get(id(groups))
    if hit is not None and hit[0] is groups and hit[3] is model.cages:
        return hit[1], hit[2]
    built = _build(model.n, model.num_cells, tuple(g.cells for g in groups))
    tables = tuple(built._replace(**_cage_fields(model)) if model.cages else built)
    if len(_TABLES) > 64:
        _TABLES.clear()
    key = (model.num_cells, len(groups), model.n)
    _TABLES[id(groups)] = (groups, tables, key, model.cages)
    return tables, key


def _ragged(rows: list[list[int]], dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """Rows of different lengths as one zero-padded array, and the lengths."""
    table: np.ndarray = np.zeros((len(rows), max([1] + [len(r) for r in rows])), dtype)
    for index, row in enumerate(rows):
        table[index, :len(row)] = row
    return table, np.array([len(r) for r in rows], np.int32)


@lru_cache(maxsize=32)
def _build(n: int, num_cells: int, groups: tuple[tuple[int, ...], ...]) -> Tables:
    gcells, gsize = _ragged([list(g) for g in groups], np.int32)
    gfull = np.array([(1 << n) - 1 if len(g) == n else 0 for g in groups], np.int64)
    member: list[list[int]] = [[] for _ in range(num_cells)]
    place: list[list[int]] = [[] for _ in range(num_cells)]
    for index, group in enumerate(groups):
        for k, cell in enumerate(group):
            member[cell].append(index)
            place[cell].append(k)
    cgl, ncg = _ragged(member, np.int32)
    cpos, _ = _ragged(place, np.int32)
    return Tables(gcells, gsize, gfull, cgl, ncg, cpos, *_pairs(groups), *_NO_CAGES)


_NO_CAGES = (np.zeros((0, 1), np.int32), np.zeros(0, np.int32), np.zeros((0, 1), np.int64),
             np.zeros(0, np.int32), np.zeros((0, 1), np.int32), np.zeros(0, np.int32),
             np.zeros(0, np.int32))
"""The cage fields of Tables for a model without cage totals."""


def _cage_fields(model: Model) -> dict[str, np.ndarray]:
    """The cage fields of Tables (kcells ... kgroup) for the model's cages with totals."""
    index = {group.cells: g for g, group in enumerate(model.groups)}
    cells, combos, outside = [], [], []
    for cage in model.cages:
        inside = set(cage.cells)
        cells.append(list(cage.cells))
        combos.append(list(combination_masks(len(cage.cells), cage.total or 0, model.n)))
        outside.append(sorted({c for group in model.groups if inside < set(group.cells)
                               for c in group.cells if c not in inside}))
    kcells, ksize = _ragged(cells, np.int32)
    kcombo, ncombo = _ragged(combos, np.int64)
    kout, nout = _ragged(outside, np.int32)
    kgroup = np.array([index[cage.cells] for cage in model.cages], np.int32)
    return {"kcells": kcells, "ksize": ksize, "kcombo": kcombo, "ncombo": ncombo, "kout": kout,
            "nout": nout, "kgroup": kgroup}


def _pairs(groups: tuple[tuple[int, ...], ...]
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every pair of groups sharing two cells or more (A before B), each group's shares
    (2 * pair + side), where the shared cells sit in A and in B, each group's largest
    share (1 when it shares nothing), and the shares each place of a group lies in."""
    sets = [frozenset(g) for g in groups]
    pairs = [(a, b) for a in range(len(groups)) for b in range(a + 1, len(groups))
             if len(sets[a] & sets[b]) >= 2]
    pairg = np.array(pairs or [(0, 0)], np.int32)
    segpos = np.zeros((max(len(pairs), 1), 2), np.int64)
    segmax = np.ones(len(groups), np.int64)
    mine: list[list[int]] = [[] for _ in groups]
    for i, (a, b) in enumerate(pairs):
        shared = sets[a] & sets[b]
        for side, g in enumerate((a, b)):
            mine[g].append(2 * i + side)
            segpos[i, side] = sum(1 << k for k, cell in enumerate(groups[g]) if cell in shared)
            segmax[g] = max(segmax[g], len(shared))
    gseg, ngseg = _ragged(mine, np.int32)
    segat = np.zeros((len(groups), max(len(g) for g in groups)), np.int64)
    for g, shares in enumerate(mine):
        for s, entry in enumerate(shares[:MAX_SHARES]):
            for k in range(len(groups[g])):
                if segpos[entry >> 1, entry & 1] >> k & 1:
                    segat[g, k] |= 1 << s
    return pairg, gseg, ngseg, segpos, segmax, segat


_WORK: dict[tuple[int, int, int], _Work] = {}  # taken while in use, so calls never share


def _work(cells: int, groups: int, n: int) -> _Work:
    """Arrays for one search of this size, reused from the last one when free."""
    work = _WORK.pop((cells, groups, n), None)
    if work is not None:
        return work
    words = (groups + 63) // 64
    return _Work(np.empty((cells + 2, cells + groups * n), np.int64),
                 np.zeros((cells + 2, 4), np.int64), np.empty(cells + 1, np.int32),
                 np.zeros(words, np.int64), np.zeros(groups, np.int64),
                 np.zeros(words + n, np.int64), np.zeros(groups, np.int64),
                 np.ones(groups + cells, np.int64))


_PREPARED: set[str] = set()
"""The learning options whose kernels this process has compiled or loaded."""


def prepare(*, learning: str = "none", batch: bool = False, wait: bool = True,
            **_options: object) -> bool:
    """Compile (or load from numba's cache) the kernels a run with these options needs; the
    harness's worker calls this (through fast.prepare) when it loads the backend, before any
    clock starts, and solve calls it too (at once when done already). A compile is said on
    stderr. With ``wait=False``, False when another process is compiling them (nothing done)."""
    kind = "batch" if batch else learning
    if kind in _PREPARED:
        return True
    if learning == "conflicts":
        done = compile_kernels("fast's clause learning",
                               [(_fast_learning._kernel, _fast_learning._KERNEL)], wait=wait)
    else:
        done = compile_kernels("fast", [(_kernel, _KERNEL), (luby, types.int64(types.int64))]
                               + ([(_batch, _BATCH)] if batch else []), wait=wait)
    if done:
        _PREPARED.add(kind)
    return done


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          inference: str = "locked", branching: str = "mrv",
          node_limit: int | None = None, learning: str = "none") -> Result:
    """Solve with compiled propagation and MRV search; count up to max_solutions solutions."""
    n = model.n
    if n > MAX_SIZE:
        raise ValueError(f"fast handles grids up to {MAX_SIZE}x{MAX_SIZE}, not {n}x{n}")
    if learning not in _PREPARED:
        prepare(learning=learning)
    if learning == "conflicts":
        if model.cages:
            return unsupported(LEARNING_CAGES)
        return _fast_learning.solve(model, max_solutions=max_solutions, time_limit=time_limit,
                                    node_limit=node_limit)
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    tables, key = _tables_for(model)
    cells = key[0]
    work = _work(*key)
    state = np.zeros(_SLOTS, np.int64)
    state[_LEVEL], state[_SIZE] = INFERENCES.index(inference), n
    state[_WDEG] = branching == "wdeg"
    givens = np.frombuffer(bytearray(model.givens), np.uint8)
    sols = np.empty((min(max_solutions, 64), cells), np.uint8)
    try:
        found, code, limit_hit, budget_hit = drive(_DepthFirst(givens, work, sols, state, tables),
                                                   max_solutions, deadline, node_limit, FIRST_CHUNK)
    finally:
        _WORK[key] = work
    final = state.tolist()  # Python ints, read once
    stats = Stats(nodes=final[_NODES], backtracks=final[_BACKTRACKS], restarts=final[_RESTARTS],
                  propagations=final[_PROPAGATIONS], fixed_cells=final[_FIXED],
                  solve_time=time.perf_counter() - start)
    if code == CONTRADICTION:
        return finish([], True, stats, limit_hit=False, message="the givens contradict each other")
    message = stop_message(limit_hit, budget_hit)
    return finish(found, code == EXHAUSTED, stats, limit_hit=limit_hit, budget_hit=budget_hit,
                  message=message)


COUNT_ROWS = 4096
"""Solutions a counting search writes per kernel call (a buffer reused: memory stays the
search's however many there are)."""


def count(model: Model, *, time_limit: float | None = None, sample: int = 16,
          inference: str = "locked", branching: str = "mrv", node_limit: int | None = None,
          learning: str = "none") -> Result:
    """Count every solution with the depth-first kernel, keeping the first ``sample``: each
    kernel call fills a reused buffer, which is counted and emptied (count mode)."""
    if model.n > MAX_SIZE:
        raise ValueError(f"fast handles grids up to {MAX_SIZE}x{MAX_SIZE}, not {model.n}x{model.n}")
    if learning == "conflicts":
        return unsupported("fast counts with its depth-first search: learning='none'")
    if "none" not in _PREPARED:
        prepare()
    start = time.perf_counter()
    tables, key = _tables_for(model)
    work = _work(*key)
    state = np.zeros(_SLOTS, np.int64)
    state[_LEVEL], state[_SIZE], state[_WDEG] = INFERENCES.index(inference), model.n, branching == "wdeg"
    rows = max(sample, min(COUNT_ROWS, (1 << 22) // key[0]))
    search = _DepthFirst(np.frombuffer(bytearray(model.givens), np.uint8), work,
                         np.empty((rows, key[0]), np.uint8), state, tables)
    try:
        kept, total, code, limit_hit, budget_hit = _count_drive(
            search, sample, None if time_limit is None else start + time_limit, node_limit)
    finally:
        _WORK[key] = work
    final = state.tolist()
    stats = Stats(nodes=final[_NODES], backtracks=final[_BACKTRACKS], restarts=final[_RESTARTS],
                  propagations=final[_PROPAGATIONS], fixed_cells=final[_FIXED],
                  solve_time=time.perf_counter() - start)
    result = finish(kept, code in (EXHAUSTED, CONTRADICTION), stats, limit_hit=limit_hit,
                    budget_hit=budget_hit, message="the givens contradict each other" if code == CONTRADICTION
                    else stop_message(limit_hit, budget_hit))
    result.count = total
    return result


def _count_drive(search: _DepthFirst, sample: int, deadline: float | None, node_limit: int | None
                 ) -> tuple[list[tuple[int, ...]], int, int, bool, bool]:
    """The kernel called until the space is exhausted (or the deadline, or the node budget),
    each call's solutions counted and the first ``sample`` kept: (kept, total, last answer,
    whether the clock stopped it, whether the budget did)."""
    kept: list[tuple[int, ...]] = []
    total, chunk, state = 0, FIRST_CHUNK, search.state
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            return kept, total, PAUSED, True, False
        nodes = int(state[_NODES])
        code = search.run(nodes + chunk if node_limit is None else min(nodes + chunk, node_limit))
        chunk = min(4096, 2 * chunk)
        found = int(state[_FOUND])
        if found:
            if len(kept) < sample:
                kept += [tuple(row) for row in search.sols[:min(found, sample - len(kept))].tolist()]
            total, state[_FOUND], search.restart_at = total + found, 0, None  # no restart once counting
        if code in (EXHAUSTED, CONTRADICTION):
            return kept, total, code, False, False
        if code == FULL:
            state[_BACKTRACKS] += 1  # leave the last solution to look for the next
        elif node_limit is not None and int(state[_NODES]) >= node_limit:
            return kept, total, code, False, True
        else:
            search.paused()


class _DepthFirst:
    """The depth-first kernel as the chunked driver sees it (_fast_drive.Chunked).

    With dom/wdeg the search restarts from the givens (weights kept) each time it spends
    RESTART_BASE times the next Luby number of decisions, until a first solution is found;
    from then on the run in progress goes on to the end, so a proof stays complete.
    """

    __slots__ = ("givens", "restart_at", "sols", "state", "tables", "work")

    def __init__(self, givens: np.ndarray, work: _Work, sols: np.ndarray, state: np.ndarray,
                 tables: tuple[np.ndarray, ...]) -> None:
        self.givens, self.work, self.sols, self.state, self.tables = givens, work, sols, state, tables
        self.restart_at = RESTART_BASE * luby(1) if state[_WDEG] else None

    @property
    def nodes(self) -> int:
        return int(self.state[_NODES])  # a Python int: a numpy one costs the dispatch more

    def run(self, stop: int) -> int:
        if self.restart_at is not None:
            stop = min(stop, self.restart_at)
        return _kernel(self.givens, *self.work, self.sols, self.state, self.tables, stop)

    def take(self) -> list[tuple[int, ...]]:
        count = self.state[_FOUND]
        if not count:
            return []
        self.state[_FOUND] = 0
        self.restart_at = None  # a solution is known: no more restarts
        return [tuple(row) for row in self.sols[:count].tolist()]

    def make_room(self, wanted: int) -> None:
        self.sols = self.sols[:min(len(self.sols), wanted)]
        self.state[_BACKTRACKS] += 1  # leave the last solution to look for another

    def grow(self) -> None:
        raise AssertionError("the depth-first kernel never asks for room")

    def paused(self) -> None:
        state = self.state
        if self.restart_at is not None and state[_NODES] >= self.restart_at:
            state[_RESTARTS] += 1
            state[_STARTED] = 0
            self.restart_at = int(state[_NODES]) + RESTART_BASE * luby(int(state[_RESTARTS]) + 1)


# ------------------------------------------------------------------ many puzzles in one call

_BATCH = _I8(_U8[:, ::1], *field_types(_Work), _U8[:, ::1], _I8[::1], TABLES, _I8, _I8, _I8,
             _I8, _U8[:, :, ::1], _I8[:, ::1])
"""The batch kernel's signature: every puzzle's givens, the work arrays, a solution buffer,
state, tables, inference level, n, node stop and cycles allowed per puzzle, every solution
found, (count, answer, nodes, cycles) rows."""


@njit(cache=True, _nrt=False)
def _batch(givens, stack, frames, queue, waiting, pend, scratch, limit, weights, sols, state,
           tables, level, n, node_stop, cycle_limit, grids, counts):
    """Solve every row of givens in turn with fast's kernel, counting to sols' rows, each
    within node_stop decisions and (cycle_limit > 0) that many processor cycles: its
    solutions into grids, its count, the kernel's last answer (LATE past the limit), its
    decisions and its cycles into counts. The decisions of all."""
    total = 0
    for i in range(givens.shape[0]):
        begin = _cycles()
        for k in range(state.shape[0]):
            state[k] = 0
        state[_LEVEL], state[_SIZE] = level, n
        code = PAUSED
        while code == PAUSED and (state[_STARTED] == 0 or state[_NODES] < node_stop):
            code = _kernel(givens[i], stack, frames, queue, waiting, pend, scratch, limit, weights,
                           sols, state, tables, min(node_stop, state[_NODES] + SLICE))
            if code == PAUSED and cycle_limit > 0 and _cycles() - begin > cycle_limit:
                code = LATE
        found = state[_FOUND]
        for k in range(found):
            _copy(sols[k], grids[i, k])
        counts[i, 0], counts[i, 1], counts[i, 2] = found, code, state[_NODES]
        counts[i, 3] = _cycles() - begin
        total += state[_NODES]
    return total


def solve_batch(model: Model, givens: np.ndarray, max_solutions: int, inference: str,
                node_limit: int | None, cycle_limit: int) -> tuple[np.ndarray, np.ndarray]:
    """Every row of givens (uint8[puzzles, cells], checked by the caller) under the groups of
    model in one compiled call with the general kernel (mrv branching), counting each to
    max_solutions within node_limit decisions and cycle_limit cycles (0: none): every
    solution found (uint8[puzzles, max_solutions, cells], zeros past each count) and (count,
    kernel answer, decisions, cycles) rows."""
    prepare(batch=True)
    tables, key = _tables_for(model)
    work = _work(*key)
    state = np.zeros(_SLOTS, np.int64)
    sols = np.empty((max_solutions, model.num_cells), np.uint8)
    grids = np.zeros((len(givens), max_solutions, model.num_cells), np.uint8)
    counts = np.zeros((len(givens), 4), np.int64)
    stop = (1 << 62) if node_limit is None else node_limit
    try:
        _batch(givens, *work, sols, state, tables, INFERENCES.index(inference), model.n, stop,
               cycle_limit, grids, counts)
    finally:
        _WORK[key] = work
    return grids, counts
