"""The propagation kernels of the ``fast`` backend: its rules run to a fixed point.

A search state is one row of fast's stack in two parts: c[cell], the cell's candidates
(bit v for value v + 1), and p[g, v], the places left to value v + 1 in group g (bit k
for the group's k-th cell). Every removal goes through _drop (any values of a cell) or
_strike (one value), which keep the two in step and note the events the rules react to:
a cell left with one candidate goes on the queue (naked single), and a value left with
few places in a group (at most limit[g]) marks the group pending (hidden single, or a
check for locked candidates), so no rule rescans the grid. The state slots, the kernel
answers and the tables (``Tables``, declared once: the kernels read its fields by name and
their signatures take its types from it) are the layout fast.py shares with these kernels,
as is the Luby sequence both of fast's searches restart by.

Compiled without numba's reference counting (``_nrt=False``: nothing here allocates) and
mostly inlined into fast's kernel.

Nothing is compiled on import: the searches' entry kernels are compiled (or loaded from
numba's on-disk cache) by ``compile_kernels`` the first time a run needs them, which says
so on stderr when it really compiles (the first use on a machine, or after a change).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import tempfile
import time
import typing
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import event
from numba.extending import intrinsic

from . import _fast_cache

CACHE = _fast_cache.use_private_cache()
"""Where numba caches the kernels: chosen before any is declared (_fast_cache.py)."""

MAX_SHARES = 62
"""Shares of other groups a group may have for locked candidates to find them by bitmask
(more: one look at each)."""
# Slots of the state array the kernels share with Python.
(_DEPTH, _NODES, _BACKTRACKS, _PROPAGATIONS, _LEVEL, _FOUND, _FIXED, _STARTED, _STATUS,
 _SIZE, _WDEG, _RESTARTS, _TAIL, _CULPRIT) = range(14)
_SLOTS = _CULPRIT + 1
# Kernel answers, the same for every search (GROW: the learning search needs more room;
# LATE: a batch kernel gave up on a puzzle at its time limit).
EXHAUSTED, FULL, PAUSED, CONTRADICTION, GROW, LATE = range(6)
SLICE = 256
"""Decisions a batch kernel makes between two looks at the cycle counter."""

_I8, _I4, _U8 = types.int64, types.int32, types.uint8


def field_types(layout: type) -> tuple[types.Type, ...]:
    """The numba types of a NamedTuple's fields, read from their ``Annotated`` declarations:
    the one place a layout's order and types are written."""
    hints = typing.get_type_hints(layout, include_extras=True)  # in the fields' order
    return tuple(hint.__metadata__[0] for hint in hints.values())


class Tables(NamedTuple):
    """The model's groups as integer arrays (built by fast.py); the kernels read them by name."""

    gcells: Annotated[np.ndarray, _I4[:, ::1]]   # [groups, size]: each group's cells
    gsize: Annotated[np.ndarray, _I4[::1]]       # [groups]
    gfull: Annotated[np.ndarray, _I8[::1]]       # [groups]: every value's bit, or 0 for a
                                                 # group smaller than n
    cgl: Annotated[np.ndarray, _I4[:, ::1]]      # [cells, most groups]: each cell's groups
    ncg: Annotated[np.ndarray, _I4[::1]]         # [cells]
    cpos: Annotated[np.ndarray, _I4[:, ::1]]     # [cells, most groups]: the cell's place in
                                                 # each of those groups
    pairg: Annotated[np.ndarray, _I4[:, ::1]]    # [pairs, 2]: groups A and B of each pair
                                                 # sharing two cells or more
    gseg: Annotated[np.ndarray, _I4[:, ::1]]     # [groups, most pairs]: 2 * pair + (1 if the
                                                 # group is the pair's B)
    ngseg: Annotated[np.ndarray, _I4[::1]]       # [groups]
    segpos: Annotated[np.ndarray, _I8[:, ::1]]   # [pairs, 2]: the shared cells' places in A, in B
    segmax: Annotated[np.ndarray, _I8[::1]]      # [groups]: the most cells the group shares
                                                 # with another, or 1
    segat: Annotated[np.ndarray, _I8[:, ::1]]    # [groups, size]: bit s set where the place
                                                 # lies in share s
    # killer cages with a total (no rows when the model has none), for _cages
    kcells: Annotated[np.ndarray, _I4[:, ::1]]   # [cages, most cells]: each cage's cells
    ksize: Annotated[np.ndarray, _I4[::1]]       # [cages]
    kcombo: Annotated[np.ndarray, _I8[:, ::1]]   # [cages, most combinations]: the digit sets
                                                 # making its total, as candidate masks
    ncombo: Annotated[np.ndarray, _I4[::1]]      # [cages]
    kout: Annotated[np.ndarray, _I4[:, ::1]]     # [cages, most cells]: the cells outside the
                                                 # cage of every other group holding all of it
    nout: Annotated[np.ndarray, _I4[::1]]        # [cages]
    kgroup: Annotated[np.ndarray, _I4[::1]]      # [cages]: the cage's own group (blamed when
                                                 # no combination is left)


TABLES = types.Tuple(field_types(Tables))
"""The numba type of Tables' fields as a plain tuple, which is how the kernels take them:
numba reads a plain tuple's type faster from Python (about 2 us a call), and the kernels
ran about 10% slower on a NamedTuple (measured on top95)."""
# Where each field sits in that tuple, by name (a renamed field fails here, at import).
(_GCELLS, _GSIZE, _GFULL, _CGL, _NCG, _CPOS, _PAIRG, _GSEG, _NGSEG, _SEGPOS, _SEGMAX,
 _SEGAT, _KCELLS, _KSIZE, _KCOMBO, _NCOMBO, _KOUT, _NOUT, _KGROUP) = (
    Tables._fields.index(name) for name in (
        "gcells", "gsize", "gfull", "cgl", "ncg", "cpos", "pairg", "gseg", "ngseg", "segpos",
        "segmax", "segat", "kcells", "ksize", "kcombo", "ncombo", "kout", "nout", "kgroup"))


@intrinsic
def _popcount(typingctx, x):  # noqa: ARG001 - numba hands an intrinsic its typing context and argument types
    """The number of set bits of an int64, as the processor's population-count instruction."""
    def codegen(context, builder, signature, args):  # noqa: ARG001 - the signature numba calls codegen with
        ctpop = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(ctpop, [args[0]])
    return types.int64(types.int64), codegen


@intrinsic
def _cycles(typingctx):  # noqa: ARG001 - numba hands an intrinsic its typing context
    """The processor's cycle counter (LLVM's readcyclecounter: the time-stamp counter on
    x86, 0 where a processor has none), for per-puzzle times inside a batch call."""
    def codegen(context, builder, signature, args):  # noqa: ARG001 - the signature numba calls codegen with
        read = builder.module.declare_intrinsic("llvm.readcyclecounter",
                                                fnty=ir.FunctionType(ir.IntType(64), []))
        return builder.call(read, [])
    return types.int64(), codegen


@njit(cache=True, _nrt=False)
def cycles():
    """The cycle counter, read from Python (to calibrate it against the clock)."""
    return _cycles()


@njit(cache=True, inline='always', _nrt=False)
def _shrink(c, cell, bits, queue, state):
    """Remove bits from the cell's candidates and queue it when one is left; False when
    none is left."""
    m = c[cell] & ~bits
    c[cell] = m
    if m & (m - 1) == 0:
        if m == 0:
            return False
        queue[state[_TAIL]] = cell
        state[_TAIL] += 1
    return True


@njit(cache=True, inline='always', _nrt=False)
def _drop(c, p, cell, bits, queue, waiting, pend, touched, limit, state, tables):
    """Remove bits (each a candidate of the cell) from the cell and the cell from those
    values' places; False when the cell is left with no candidate or a full group with
    no place for a value (that group is then state[_CULPRIT])."""
    if not _shrink(c, cell, bits, queue, state):
        return False
    cgl, ncg, cpos = tables[_CGL], tables[_NCG], tables[_CPOS]
    for j in range(ncg[cell]):
        g = cgl[cell, j]
        touched[g >> 6] |= 1 << (g & 63)
        keep = ~(1 << cpos[cell, j])
        few = limit[g]
        rest = bits
        while rest:
            low = rest & -rest
            rest ^= low
            v = _popcount(low - 1)
            q = p[g, v] & keep
            p[g, v] = q
            if q == 0 and few >= 0:  # a full group has no place left for the value
                state[_CULPRIT] = g
                return False
            hit = _popcount(q) <= few
            pend[g] |= low if hit else 0
            waiting[g >> 6] |= (1 if hit else 0) << (g & 63)
    return True


@njit(cache=True, inline='always', _nrt=False)
def _strike(c, p, cell, bit, v, skip, queue, waiting, pend, touched, limit, state, tables):
    """Remove value v (its bit) from the cell, and the cell from v's places in its groups
    but skip (the caller's group, which the caller updates); False when the cell is left
    with no candidate or a full group with no place for v (state[_CULPRIT])."""
    if not _shrink(c, cell, bit, queue, state):
        return False
    cgl, ncg, cpos = tables[_CGL], tables[_NCG], tables[_CPOS]
    for j in range(ncg[cell]):
        g = cgl[cell, j]
        if g == skip:
            continue
        touched[g >> 6] |= 1 << (g & 63)
        q = p[g, v] & ~(1 << cpos[cell, j])
        p[g, v] = q
        if q == 0 and limit[g] >= 0:  # a full group has no place left for the value
            state[_CULPRIT] = g
            return False
        hit = _popcount(q) <= limit[g]
        pend[g] |= bit if hit else 0
        waiting[g >> 6] |= (1 if hit else 0) << (g & 63)
    return True


@njit(cache=True, inline='always', _nrt=False)
def _naked(c, p, head, queue, waiting, pend, touched, limit, state, tables):
    """Remove each queued cell's value from the other cells of its groups (found through
    the value's places, so only cells that hold it are visited); the new head, -1 on a
    contradiction."""
    gcells, cgl, ncg, cpos = tables[_GCELLS], tables[_CGL], tables[_NCG], tables[_CPOS]
    while head < state[_TAIL]:
        cell = queue[head]
        head += 1
        bit = c[cell]
        v = _popcount(bit - 1)
        for j in range(ncg[cell]):
            g = cgl[cell, j]
            own = 1 << cpos[cell, j]
            others = p[g, v] & ~own
            if others == 0:
                continue
            p[g, v] = own  # the value's one place in g from now on
            touched[g >> 6] |= 1 << (g & 63)
            while others:
                low = others & -others
                others ^= low
                peer = gcells[g, _popcount(low - 1)]
                if not _strike(c, p, peer, bit, v, g, queue, waiting, pend, touched, limit,
                               state, tables):
                    return -1
    return head


@njit(cache=True, inline='always', _nrt=False)
def _outside(c, p, g, v, s, queue, waiting, pend, touched, limit, state, tables):
    """Value v leaves the cells of the other group of g's share s outside g; False on a
    contradiction."""
    gcells, gseg, pairg, segpos = tables[_GCELLS], tables[_GSEG], tables[_PAIRG], tables[_SEGPOS]
    i, side = gseg[g, s] >> 1, gseg[g, s] & 1
    other = pairg[i, 1 - side]
    outside = p[other, v] & ~segpos[i, 1 - side]
    while outside:
        low = outside & -outside
        outside ^= low
        cell = gcells[other, _popcount(low - 1)]
        if not _strike(c, p, cell, 1 << v, v, -1, queue, waiting, pend, touched, limit, state,
                       tables):
            return False
    return True


@njit(cache=True, inline='always', _nrt=False)
def _locked(c, p, g, v, queue, waiting, pend, touched, limit, state, tables):
    """Locked candidates for value v of group g: where its places all lie in g's share
    of another group, it leaves the rest of that group. False on a contradiction.

    The shares holding every place are found by intersecting, over the places, the
    shares each place lies in (segat), when g has at most MAX_SHARES of them.
    """
    gseg, segpos, segat, count = tables[_GSEG], tables[_SEGPOS], tables[_SEGAT], tables[_NGSEG][g]
    places = p[g, v]
    if count <= MAX_SHARES:
        shares = (1 << count) - 1
        rest = places
        while rest and shares:
            low = rest & -rest
            rest ^= low
            shares &= segat[g, _popcount(low - 1)]
        while shares:
            low = shares & -shares
            shares ^= low
            if not _outside(c, p, g, v, _popcount(low - 1), queue, waiting, pend, touched,
                            limit, state, tables):
                return False
        return True
    for s in range(count):
        if places & ~segpos[gseg[g, s] >> 1, gseg[g, s] & 1] == 0:
            if not _outside(c, p, g, v, s, queue, waiting, pend, touched, limit, state, tables):
                return False
    return True


@njit(cache=True, inline='always', _nrt=False)
def _pending(c, p, g, queue, waiting, pend, touched, limit, state, tables):
    """The rules for the values of group g left with few places: no place is a
    contradiction (-2 - g), one place a hidden single, a few (locked candidates) may
    lie where g meets another group. 0, or negative on a contradiction."""
    values = pend[g]
    pend[g] = 0
    while values:
        low = values & -values
        values ^= low
        v = _popcount(low - 1)
        q = p[g, v]
        if q & (q - 1) == 0:
            if q == 0:
                return -2 - g
            cell = tables[_GCELLS][g, _popcount(q - 1)]
            m = c[cell]
            if m != low and not _drop(c, p, cell, m ^ low, queue, waiting, pend, touched, limit,
                                      state, tables):
                return -1
        elif not _locked(c, p, g, v, queue, waiting, pend, touched, limit, state, tables):
            return -1
    return 0


@njit(cache=True, _nrt=False)
def _naked_subsets(c, p, g, free, queue, waiting, pend, touched, limit, state, tables):
    """Naked subsets of group g anchored at a cell: when as many unsolved cells as the
    cell has candidates hold only those candidates, no other cell may take them.
    0, or negative on a contradiction."""
    gcells, gsize = tables[_GCELLS], tables[_GSIZE]
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
                if not _drop(c, p, cell, mj & m, queue, waiting, pend, touched, limit, state,
                             tables):
                    return -1
    return 0


@njit(cache=True, _nrt=False)
def _hidden_subsets(c, p, g, free, spots, queue, waiting, pend, touched, limit, state, tables):
    """Hidden subsets of group g anchored at a value: when as many values as the value
    has places can go only to those places, those cells take no other value.
    0, or negative on a contradiction.

    Only values not yet placed count; spots[v] is value v's places among the unsolved cells.
    """
    gcells, gsize = tables[_GCELLS], tables[_GSIZE]
    n = spots.shape[0]
    for v in range(n):
        spots[v] = 0
    for k in range(gsize[g]):
        m = c[gcells[g, k]]
        if m & (m - 1) == 0:
            spots[_popcount(m - 1)] = -1  # placed: neither anchor nor member
    for k in range(gsize[g]):
        m = c[gcells[g, k]]
        if m & (m - 1):
            while m:
                low = m & -m
                m ^= low
                v = _popcount(low - 1)
                if spots[v] >= 0:
                    spots[v] |= 1 << k
    for v in range(n):
        here = spots[v]
        if here < 0:
            continue
        count = _popcount(here)
        if count < 2 or count >= free:
            continue
        values, inside = 0, 0
        for u in range(n):
            q = spots[u]
            if q > 0 and q & ~here == 0:
                values |= 1 << u
                inside += 1
        if inside > count:
            return -2 - g
        if inside < count:
            continue
        for k in range(gsize[g]):
            if here >> k & 1:
                cell = gcells[g, k]
                m = c[cell]
                if m & ~values:
                    if not _drop(c, p, cell, m & ~values, queue, waiting, pend, touched, limit,
                                 state, tables):
                        return -1
    return 0


@njit(cache=True, _nrt=False)
def _subsets(c, p, queue, waiting, pend, touched, spots, limit, state, tables):
    """Naked and hidden subsets in every touched group (touched cleared as it is read);
    0, or negative on a contradiction."""
    gcells, gsize, gfull = tables[_GCELLS], tables[_GSIZE], tables[_GFULL]
    for w in range(touched.shape[0]):
        bits = touched[w]
        touched[w] = 0
        while bits:
            low = bits & -bits
            bits ^= low
            g = 64 * w + _popcount(low - 1)
            free = np.int64(0)  # not the literal 0: that would compile both callees twice
            for k in range(gsize[g]):
                m = c[gcells[g, k]]
                if m & (m - 1):
                    free += 1
            if free < 3:
                continue
            code = _naked_subsets(c, p, g, free, queue, waiting, pend, touched, limit, state, tables)
            if code == 0 and gfull[g]:  # only a group of n cells must hold every value
                code = _hidden_subsets(c, p, g, free, spots, queue, waiting, pend, touched, limit,
                                       state, tables)
            if code < 0:
                return code
    return 0


@njit(cache=True, _nrt=False)
def _cages(c, p, queue, waiting, pend, touched, limit, state, tables):
    """One pass of the cage rule over every killer cage with a total, as mrv's
    cage_combinations: each cell keeps the digits of the combinations its cage can still
    form, a digit all of them need goes to its one place in the cage, and leaves the
    cells outside the cage of every group holding it. 1 if a candidate went, 0 if none,
    -1 on a contradiction (state[_CULPRIT]: a group left without a place for a value, or
    the cage's own group when no combination is left)."""
    kcells, ksize, kcombo, ncombo = tables[_KCELLS], tables[_KSIZE], tables[_KCOMBO], tables[_NCOMBO]
    kout, nout = tables[_KOUT], tables[_NOUT]
    changed = 0
    for k in range(ksize.shape[0]):
        size = ksize[k]
        allowed, needed = 0, -1
        for j in range(ncombo[k]):
            combo = kcombo[k, j]
            cover = 0
            for i in range(size):
                m = c[kcells[k, i]] & combo
                if m == 0:
                    cover = -1
                    break
                cover |= m
            if cover == combo:
                allowed |= combo
                needed &= combo
        if allowed == 0:
            state[_CULPRIT] = tables[_KGROUP][k]
            return -1
        for i in range(size):
            cell = kcells[k, i]
            drop = c[cell] & ~allowed
            if drop:
                if not _drop(c, p, cell, drop, queue, waiting, pend, touched, limit, state, tables):
                    return -1
                changed = 1
        rest = needed
        while rest:
            bit = rest & -rest
            rest ^= bit
            place = -1
            for i in range(size):
                if c[kcells[k, i]] & bit:
                    place = kcells[k, i] if place == -1 else -2
            if place >= 0 and c[place] != bit:
                if not _drop(c, p, place, c[place] ^ bit, queue, waiting, pend, touched, limit,
                             state, tables):
                    return -1
                changed = 1
        for i in range(nout[k]):
            cell = kout[k, i]
            drop = c[cell] & needed
            if drop:
                if not _drop(c, p, cell, drop, queue, waiting, pend, touched, limit, state, tables):
                    return -1
                changed = 1
    return changed


@njit(cache=True, _nrt=False)
def _any(words):
    for w in range(words.shape[0]):
        if words[w]:
            return True
    return False


@njit(cache=True, inline='always', _nrt=False)
def _next(waiting):
    """The first group with pending values (its mark cleared), or -1."""
    for w in range(waiting.shape[0]):
        marks = waiting[w]
        if marks:
            low = marks & -marks
            waiting[w] = marks ^ low
            return 64 * w + _popcount(low - 1)
    return -1


@njit(cache=True, _nrt=False)  # not inlined: a third less compile, the same speed (bench/README.md)
def _propagate(c, p, queue, waiting, pend, scratch, limit, state, tables, level):
    """Run the rules to a fixed point from the queued cells and the pending groups; the
    queue's final length (the cells fixed), or on a contradiction -1 (a cell lost its
    last value) or -2 - g (group g has no place left for a value or too few for a subset).

    level 0: naked and hidden singles; 1: and locked candidates (through limit, which
    lets a value with a few places mark its group); 2: and subsets, over the groups
    touched since they last ran. Killer cages (_cages) at every level.
    """
    words = (tables[_GSIZE].shape[0] + 63) >> 6
    touched, spots = scratch[:words], scratch[words:]
    head = 0
    while True:
        head = _naked(c, p, head, queue, waiting, pend, touched, limit, state, tables)
        if head < 0:
            return _failed(state)
        g = _next(waiting)
        if g >= 0:
            code = _pending(c, p, g, queue, waiting, pend, touched, limit, state, tables)
            if code < 0:
                return code if code < -1 else _failed(state)
            continue
        if tables[_KSIZE].shape[0]:  # killer cages: at every level, once the rules above rest
            code = _cages(c, p, queue, waiting, pend, touched, limit, state, tables)
            if code < 0:
                return _failed(state)
            if code:
                continue
        if level < 2:
            return head
        if not _any(touched):
            return head
        code = _subsets(c, p, queue, waiting, pend, touched, spots, limit, state, tables)
        if code < 0:
            return code if code < -1 else _failed(state)


@njit(cache=True, inline='always', _nrt=False)
def _failed(state):
    """The code of the contradiction just found: -2 - g if group g ran out of places for
    a value, else -1 (a cell ran out of candidates)."""
    return -1 if state[_CULPRIT] < 0 else -2 - state[_CULPRIT]


@njit(cache=True, _nrt=False)
def luby(i):
    """The i-th number (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ... (compiled, and
    called from Python too, between kernel calls).

    >>> [luby(i) for i in range(1, 11)]
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


class _Announce(event.Listener):
    """Says on stderr, once, that a compile has begun; remembers when."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.began: float | None = None

    def on_start(self, data: Any) -> None:  # noqa: ARG002 - numba's event listener passes the event's data
        if self.began is None:
            self.began = time.perf_counter()
            print(f"compiling {self.what} (first use; numba caches it for later runs) ...",
                  file=sys.stderr, flush=True)

    def on_end(self, data: Any) -> None:
        pass


def compile_kernels(what: str, kernels: Iterable[tuple[Any, Any]], *, wait: bool = True) -> bool:
    """Compile each (dispatcher, signature) not compiled in this process yet, or load it from
    numba's cache; then no other signature is compiled for it. When numba really compiles,
    stderr shows ``compiling WHAT (first use ...) ...`` and then ``compiling WHAT took N s``.

    One process at a time does it for each WHAT (compile_lock): another one waits until the
    first has compiled and cached the kernels, then loads them from the cache instead of
    compiling them again, and says that it waits. With ``wait=False`` a process that would
    have to wait does nothing and answers False (so it can compile something else first)."""
    todo = [(kernel, signature) for kernel, signature in kernels
            if signature.args not in kernel.signatures]
    if not todo:
        return True
    announce = _Announce(what)
    with compile_lock(what, wait=wait) as held:
        if not held:
            return False
        with _fast_cache.compiling(CACHE):  # verify, compile, seal; another compile's new files spared
            with event.install_listener("numba:compile", announce):
                for kernel, signature in todo:
                    kernel.compile(signature)
                    kernel.disable_compile()
    if announce.began is not None:  # a line of its own: parallel workers may both compile
        print(f"compiling {what} took {time.perf_counter() - announce.began:.1f} s",
              file=sys.stderr, flush=True)
    return True


WAIT_NOTICE_S = 1.0
"""Seconds of waiting for another process's compile before saying so on stderr."""


def lock_path(what: str) -> Path:
    """The lock file of these kernels in this checkout and numba cache: in the temporary
    folder, named for this user, this folder, NUMBA_CACHE_DIR and the kernels, so the
    processes that share a cache share a lock."""
    key = f"{os.getuid() if hasattr(os, 'getuid') else 0}:{Path(__file__).parent}:" \
          f"{os.environ.get('NUMBA_CACHE_DIR', '')}:{what}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"sudoku-methods-fast-{digest}.lock"


@contextlib.contextmanager
def compile_lock(what: str, *, wait: bool = True) -> Iterator[bool]:
    """Hold the machine-wide lock of these kernels (an exclusive flock on lock_path(what)),
    yielding True; with ``wait=False`` yield False at once when another process holds it. A
    process that waits more than WAIT_NOTICE_S says so on stderr, and how long it waited.
    Where flock is missing (not on Unix) or the lock file cannot be opened, there is no lock."""
    try:
        import fcntl  # noqa: PLC0415 - Unix only
        handle = open(lock_path(what), "a+")
    except (ImportError, OSError):
        yield True
        return
    with handle:
        started, said = time.perf_counter(), False
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not wait:
                    yield False
                    return
                if not said and time.perf_counter() - started > WAIT_NOTICE_S:
                    print(f"compiling {what}: waiting for another process that compiles it "
                          f"(lock {lock_path(what)}) ...", file=sys.stderr, flush=True)
                    said = True
                time.sleep(0.05)
        if said:
            print(f"compiling {what}: waited {time.perf_counter() - started:.1f} s; loading "
                  "what it compiled", file=sys.stderr, flush=True)
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
