"""Conflict-driven clause learning for ``fast`` (``learning='conflicts'``): numba kernels.

The puzzle is read in the direct encoding: one Boolean variable per (cell, value),
``var = cell * n + value - 1``, and one exactly-one constraint per cell (over its values)
and per (group, value) (over the group's cells; at-most-one only for a group smaller
than n). These constraints are propagated natively through two counters each (members
true, members false), checked as each value is set, and each inference keeps a lazy
reason:

- a variable set true sets the others of its constraints false (naked single, and the
  value leaving the peers); the reason of each is the one true variable;
- a constraint with every member false but one sets that one true (a cell with one
  candidate left, a hidden single); the reason is the constraint's other members;
- a constraint with every member false, or two true, is a conflict.

Each constraint's counters, size and at-least-one flag sit in one 16-byte record, and each
variable's row gives its count of constraints and then the constraints, so a value set reads
one cache line per constraint. The functions a propagation or an analysis calls most often
are inlined by numba (``_inline``): a call of a compiled function passes each array it
takes as several machine words, a cost that dominated the kernel's profile at call sites.

Whenever level 0 has grown (the givens, then learnt units), each constraint is compacted
to its open members, so the scans above pass over open members only (CaDiCaL likewise
drops the literals false at the root from its clauses).

On a conflict the first-UIP clause is learnt (literals ``cell=value`` / ``cell!=value``),
minimised recursively (MiniSat's test), shrunk (each lower level's several literals
replaced by that level's first unique implication point, where the clause implies it:
Fleury and Biere's all-UIP shrinking), stored with its LBD and propagated with two
watched literals; the search jumps back to the clause's second-highest level. Each
literal's watches are a contiguous list of (clause, blocker literal) entries in one
pool, a binary clause flagged so that its blocker, its other literal, is all it reads.
A full list moves to the pool's free end with twice the room; with none left, the pool
is packed in place (through a spare pool of the same size), so propagation allocates
nothing; the driver grows the pool with the clause rows, and a reduction lays the lists
out afresh. Branching is VSIDS over the variables. Restarts alternate, as CaDiCaL's modes
do, between Glucose's rule (focused mode: the recent clauses' LBD above the mean, for
proofs) and the Luby sequence (stable mode, for finding a solution), for growing
stretches of conflicts. Decisions are ``cell=value``. Two levers, off by default (they
moved the Frisch isomorphs' conflicts within their spread): stable mode may decide each
variable as it stood in the longest trail without a conflict since the last rephase
(CaDiCaL's target phases), else by its rephased phase, the best such trail's and true in
turn, rephased after 1,000 conflicts, then 2,000 more, 3,000 more and so on; and once a
solution is found the search may stay in focused mode with no target phases, what is left
being the proof that no other solution exists. Every 2,000 conflicts (300 more each time after,
Glucose's schedule) the search restarts, drops the clauses satisfied at level 0 and the
worse half of the other learnt clauses (by LBD, then length), never a clause of LBD 3 or
less; a learnt clause met in conflict
analysis takes the number of levels it now spans when that is lower (Glucose's dynamic
LBD). The levers are read at run time (Tuning). A solution is recorded and blocked by the
clause of its decisions' negations (kept for good), so counting goes on to any
``max_solutions``; a conflict at level 0 ends the search (complete).

Every learnt clause follows by resolution from the constraints and the blocking clauses,
so it removes no solution not yet found: the answers and counts are those of the
depth-first search (tests/test_fast_learning.py compares them).

The kernel runs in chunks of decisions and can be resumed, as ``fast``'s is; Python
looks at the clock and the node budget between chunks, and grows the clause store when
the kernel asks for room.
"""
from __future__ import annotations

import time
from functools import lru_cache
from typing import Annotated, NamedTuple

import numpy as np
from numba import njit, types

from models import Model

from ..result import Result, Stats, finish, stop_message
from ._fast_drive import drive
from ._fast_kernels import _I4, _I8, _U8, CONTRADICTION, EXHAUSTED, FULL, GROW, PAUSED, field_types, luby

RESTART_UNIT = 100
"""Stable mode: conflicts between restarts, times the Luby sequence."""
FIRST_MODE = 1000
"""Conflicts in the first focused mode (Glucose restarts: when the last clauses' LBD, a
moving average, is 25% above the mean so far), then as many in stable mode (Luby
restarts), then twice as many of each, and so on, as CaDiCaL alternates its modes."""
DECAY = 0.95
"""VSIDS: the activity bump grows by 1 / DECAY at every conflict."""
FIRST_LEARNT_BOUND = 20000
"""Learnt clauses kept before the first reduction; the bound grows by a tenth each time."""
FIRST_CHUNK = 256
"""Decisions in the first call of the kernel; then the chunks double (_fast_drive)."""

# Reason kinds.
_DECISION, _AMO, _ALO, _CLAUSE = 0, 1, 2, 3
# Rows of the int8 variable table and of the int32 variable table (see _Search).
_VALUE, _KIND, _SEEN, _TARGET, _BEST, _PHASE = range(6)
_VB_ROWS = _PHASE + 1
(_LEVEL, _RID, _TRAIL, _TLIM, _HEAP, _HPOS, _LEARNT, _BUF, _KEEP, _STACK, _TOUCHED, _SBUF,
 _SWALK) = range(13)
_VI_ROWS = _SWALK + 1
# Slots of the int64 state array.
(_TLEN, _QHEAD, _DLEVEL, _NCL, _USED, _NODES, _CONFLICTS, _LEARNED, _RESTARTS, _PROPS,
 _FIXED, _STARTED, _FOUND, _HSIZE, _NEXT_RESTART, _BOUND, _CKIND, _CID, _CVAR, _BACKTRACKS,
 _LIVE, _STAMP, _SIZE, _PENDING, _STABLE, _MODE_END, _SWITCHES, _UNIT, _FIRST_MODE,
 _KEEP_LBD, _REDUCE_EVERY, _NEXT_REDUCE, _REDUCE_STEP, _DYNAMIC, _STEP, _COMPACT,
 _COMPACTED, _WTOP, _PACKS, _SHRINK, _SHRUNK, _TARGETS, _TARGET_AT, _BEST_AT, _REPHASE_EVERY,
 _NEXT_REPHASE, _REPHASES, _NEGATED, _FOCUS) = range(49)
_SLOTS = _FOCUS + 1
_HEAD = 2
"""A stored clause's literals follow its length and its index (its header), so a watch
entry's code, 2 * (where its literals start) + (1 if binary), reaches both in one read."""
# Columns of the watch lists' table (a row per literal, padded to 16 bytes): offset and
# capacity in the pool, in entries, and length.
_WOFF, _WLEN, _WCAP = range(3)
# Columns of a constraint's record (members true, members false, members, 1 if at least one
# member must be true): one row of 16 bytes, what a value set reads of each constraint.
_NTRUE, _NFALSE, _CSIZE, _ATLEAST = range(4)
# Slots of the float state array.
_INC, _DECAY, _FAST_LBD, _LBD_SUM, _MARGIN = 0, 1, 2, 3, 4


class Tuning(NamedTuple):
    """The search's levers, read at run time (one compile serves every setting); the
    defaults are the measured best (bench/bench_learning_frisch.py --tuning)."""

    decay: float = DECAY
    restart_unit: int = RESTART_UNIT
    first_mode: int = FIRST_MODE
    margin: float = 0.8
    """Focused mode restarts when the recent LBD times margin exceeds the mean."""
    bound: int = FIRST_LEARNT_BOUND
    keep_lbd: int = 3
    """Learnt clauses of this LBD or less are never dropped."""
    reduce_every: int = 2000
    """0: reduce at a restart past the bound; else every reduce_every conflicts, then
    reduce_every + reduce_step more each time (Glucose's schedule)."""
    reduce_step: int = 300
    dynamic_lbd: bool = True
    """Recompute the LBD of a learnt clause met in conflict analysis; keep it if lower."""
    compact: bool = True
    """Drop the members fixed at level 0 from the constraints whenever level 0 grows."""
    shrink: bool = True
    """Shrink each learnt clause: the literals of one lower level replaced by that level's
    first unique implication point where the clause implies it (Fleury and Biere 2021)."""
    target_phases: bool = False
    """Stable mode decides each variable as it was in the longest trail without a conflict
    since the last rephase (CaDiCaL's target phases); else true (``cell=value``). Off: on
    the 36 Frisch isomorphs it moved conflicts within the isomorphs' spread (bench/README)."""
    focus_after_solution: bool = False
    """Once a solution is found, focused mode for good and no target phases: what is left,
    counting to two, is a proof that no other solution exists (stable mode and target
    phases are made to find solutions). Off, as target_phases."""
    rephase_every: int = 1000
    """With target phases: rephase after this many conflicts, then twice, three times as many and so on: the
    phase of the variables no target names becomes the best trail's, then true, in turn;
    0: never."""


_plain = njit(cache=True, _nrt=False)
"""For the kernels that allocate nothing: compiled without numba's reference counting,
which otherwise puts an atomic count on every array passed or taken from a tuple (a third
of the time on a 9x9 puzzle's propagation).

Numba compiles a function once for each tuple of argument types it is called with, and a
whole-number constant has a type of its own (a literal). A counter that starts at a
constant and is then passed on can reach the callee as that literal while the caller's
types are still being inferred, and the callee (and what it calls) is compiled once more
for it: the counters passed to _minimise, _shrink and _shrink_level start as int64 values,
which took 3 s off the first use's compile (35.9 s of CPU against 38.9 s, side by side)."""

_inline = njit(cache=True, _nrt=False, inline="always")
"""For the hot functions called from a few places (_make_false, _watches, _reason,
_redundant, _bump): inlined by numba into their callers, so that a call does not pass every
array of its arguments (each some seven to nine machine words, most of them on the stack).
Measured on the Frisch 25x25 isomorphs: 0.8x the CPU a conflict, the same search."""


# ------------------------------------------------------------------ assignment and heap

@_plain
def _lit_value(lit, vb):
    """1 true, 0 false, -1 unassigned; lit = 2 * var (var true) or 2 * var + 1 (var false)."""
    v = vb[_VALUE, lit >> 1]
    if v < 0:
        return -1
    return v ^ (lit & 1)


@_plain
def _put(var, val, kind, rid, vb, vi, st):
    """Give var its value at the current level, with its reason, at the end of the trail."""
    vb[_VALUE, var] = val
    vb[_KIND, var] = kind
    vi[_RID, var] = rid
    vi[_LEVEL, var] = st[_DLEVEL]
    vi[_TRAIL, st[_TLEN]] = var
    st[_TLEN] += 1


@_plain
def _make_true(var, kind, rid, vb, vi, cons, st):
    """Set var true and count it; True (a conflict) if a constraint now has two true."""
    cmem, cnt, vcons = cons
    _put(var, 1, kind, rid, vb, vi, st)
    if kind != _DECISION:
        st[_PROPS] += 1
    owners = vcons[var, 0] + 1
    for j in range(1, owners):
        cnt[vcons[var, j], _NTRUE] += 1
    for j in range(1, owners):
        k = vcons[var, j]
        if cnt[k, _NTRUE] > 1:
            for i in range(cnt[k, _CSIZE]):
                z = cmem[k, i]
                if z != var and vb[_VALUE, z] == 1:
                    return _conflict(_AMO, z, var, st)
    return False


@_inline
def _make_false(var, kind, rid, vb, vi, cons, st):
    """Set var false and count it; a constraint left with one possible member sets it true
    (a hidden single, or a cell's last candidate) at once. True on a conflict."""
    cmem, cnt, vcons = cons
    _put(var, 0, kind, rid, vb, vi, st)
    owners = vcons[var, 0] + 1
    for j in range(1, owners):
        cnt[vcons[var, j], _NFALSE] += 1
    for j in range(1, owners):
        k = vcons[var, j]
        if cnt[k, _ATLEAST] == 0 or cnt[k, _NTRUE] > 0 or cnt[k, _NFALSE] < cnt[k, _CSIZE] - 1:
            continue
        if cnt[k, _NFALSE] == cnt[k, _CSIZE]:
            return _conflict(_ALO, k, -1, st)
        for i in range(cnt[k, _CSIZE]):
            y = cmem[k, i]
            if vb[_VALUE, y] < 0:
                if _make_true(y, _ALO, k, vb, vi, cons, st):
                    return True
                break
    return False


@_plain
def _assign(lit, kind, rid, vb, vi, cons, st):
    """Make lit true at the current level with its reason; True on a conflict."""
    if lit & 1:
        return _make_false(lit >> 1, kind, rid, vb, vi, cons, st)
    return _make_true(lit >> 1, kind, rid, vb, vi, cons, st)


@_plain
def _conflict(kind, rid, var, st):
    st[_CKIND], st[_CID], st[_CVAR] = kind, rid, var
    return True


@_plain
def _heap_up(heap, hpos, act, i):
    var = heap[i]
    while i > 0:
        parent = (i - 1) >> 1
        if act[heap[parent]] >= act[var]:
            break
        heap[i] = heap[parent]
        hpos[heap[i]] = i
        i = parent
    heap[i] = var
    hpos[var] = i


@_plain
def _heap_down(heap, hpos, act, i, size):
    var = heap[i]
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and act[heap[child + 1]] > act[heap[child]]:
            child += 1
        if act[heap[child]] <= act[var]:
            break
        heap[i] = heap[child]
        hpos[heap[i]] = i
        i = child
    heap[i] = var
    hpos[var] = i


@_plain
def _heap_insert(var, vi, act, st):
    size = st[_HSIZE]
    vi[_HEAP, size] = var
    vi[_HPOS, var] = size
    st[_HSIZE] = size + 1
    _heap_up(vi[_HEAP], vi[_HPOS], act, size)


@_plain
def _heap_pop(vi, act, st):
    heap, hpos = vi[_HEAP], vi[_HPOS]
    top = heap[0]
    size = st[_HSIZE] - 1
    st[_HSIZE] = size
    hpos[top] = -1
    if size > 0:
        heap[0] = heap[size]
        hpos[heap[0]] = 0
        _heap_down(heap, hpos, act, 0, size)
    return top


@_inline
def _bump(var, vi, act, fst):
    act[var] += fst[_INC]
    if act[var] > 1e100:
        for k in range(act.shape[0]):
            act[k] *= 1e-100
        fst[_INC] *= 1e-100
    if vi[_HPOS, var] >= 0:
        _heap_up(vi[_HEAP], vi[_HPOS], act, vi[_HPOS, var])


@_plain
def _backjump(level, vb, vi, act, cons, st):
    """Undo every assignment above level."""
    if st[_DLEVEL] <= level:
        return
    cnt, vcons = cons[1], cons[2]
    stop = vi[_TLIM, level]
    for i in range(st[_TLEN] - 1, stop - 1, -1):
        var = vi[_TRAIL, i]
        column = _NFALSE - vb[_VALUE, var]  # _NTRUE for a true variable
        for j in range(1, vcons[var, 0] + 1):
            cnt[vcons[var, j], column] -= 1
        vb[_VALUE, var] = -1
        if vi[_HPOS, var] < 0:
            _heap_insert(var, vi, act, st)
    st[_BACKTRACKS] += st[_DLEVEL] - level
    st[_PENDING] = 0  # a conflict met at the level left is undone with it
    st[_TLEN] = stop
    st[_QHEAD] = stop
    st[_DLEVEL] = level


# ------------------------------------------------------------------ propagation

@_plain
def _compact(vb, cons, st):
    """At level 0, propagated to a fixed point: each constraint keeps only its unassigned
    members (its counters back to zero), one with a true member none at all. The members
    fixed at level 0 are never undone and never enter a learnt clause, so the scans of a
    constraint (propagation, reasons, minimisation) pass over the open ones only; at the
    root of a Frisch 25x25 that is about a quarter of them."""
    cmem, cnt = cons[0], cons[1]
    for k in range(cnt.shape[0]):
        live = 0
        for i in range(cnt[k, _CSIZE]):
            y = cmem[k, i]
            if vb[_VALUE, y] == 1:
                live = 0  # satisfied for good: every other member is false at level 0
                break
            if vb[_VALUE, y] < 0:
                cmem[k, live] = y
                live += 1
        cnt[k, _CSIZE], cnt[k, _NTRUE], cnt[k, _NFALSE] = live, 0, 0
    st[_COMPACTED] = st[_TLEN]


@_plain
def _constraints(x, vb, vi, cons, st):
    """x was set true: the other members of its constraints become false (naked single,
    and its value leaving the peers); True on a conflict."""
    cmem, cnt, vcons = cons
    for j in range(1, vcons[x, 0] + 1):
        k = vcons[x, j]
        for i in range(cnt[k, _CSIZE]):
            y = cmem[k, i]
            if y != x and vb[_VALUE, y] < 0:
                if _make_false(y, _AMO, x, vb, vi, cons, st):
                    return True
    return False


@_inline
def _watches(false_lit, vb, vi, cons, db, st):
    """The clauses watching false_lit, which just became false, in its contiguous list of
    (clause code, blocker) entries; the entries kept are packed down as they are read
    (MiniSat's two indices). A clause's watches are its first two literals, in either
    order. True on a conflict."""
    clits, wat, wl = db[0], db[2], db[3]
    n = wl[false_lit, _WLEN]
    i = j = 0
    while i < n:
        base = 2 * wl[false_lit, _WOFF]  # re-read: a push below may move the pool's lists
        code, blocker = wat[base + 2 * i], wat[base + 2 * i + 1]
        i += 1
        value = _lit_value(blocker, vb)
        if value == 1:
            if j < i - 1:  # (an entry already in its place is not written again)
                wat[base + 2 * j], wat[base + 2 * j + 1] = code, blocker
            j += 1
            continue
        start = code >> 1  # where the clause's literals start, its length and index before them
        if code & 1:  # a binary clause: its blocker is its other literal
            wat[base + 2 * j], wat[base + 2 * j + 1] = code, blocker
            j += 1
            c = clits[start - 1]
            if value == 0:
                return _stop(false_lit, i, j, n, wl, wat, _conflict(_CLAUSE, c, -1, st))
            if _assign(blocker, _CLAUSE, c, vb, vi, cons, st):
                return _stop(false_lit, i, j, n, wl, wat, True)
            continue
        w = 0 if clits[start] == false_lit else 1  # where the false watch is (read, not moved)
        first = clits[start + 1 - w]
        if first != blocker and _lit_value(first, vb) == 1:
            wat[base + 2 * j], wat[base + 2 * j + 1] = code, first
            j += 1
            continue
        pick = -1  # a replacement: the first literal not false (the clause's length is before it)
        for k in range(2, clits[start - 2]):
            if _lit_value(clits[start + k], vb) != 0:
                pick = k
                break
        if pick >= 0:
            lit = clits[start + pick]
            clits[start + w], clits[start + pick] = lit, false_lit
            room = wl[lit, _WLEN]
            if room < wl[lit, _WCAP]:  # the common case inline, no call
                at = 2 * (wl[lit, _WOFF] + room)
                wat[at], wat[at + 1] = code, first
                wl[lit, _WLEN] = room + 1
            else:
                _push(lit, code, first, db, st)
            continue
        wat[base + 2 * j], wat[base + 2 * j + 1] = code, first
        j += 1
        c = clits[start - 1]
        if _lit_value(first, vb) == 0:
            return _stop(false_lit, i, j, n, wl, wat, _conflict(_CLAUSE, c, -1, st))
        if _assign(first, _CLAUSE, c, vb, vi, cons, st):
            return _stop(false_lit, i, j, n, wl, wat, True)
    wl[false_lit, _WLEN] = j
    return False


@_plain
def _stop(lit, i, j, n, wl, wat, answer):
    """Leave lit's list with the entries not yet read (i to n) after the j kept; answer."""
    base = 2 * wl[lit, _WOFF]
    for k in range(i, n):
        wat[base + 2 * j], wat[base + 2 * j + 1] = wat[base + 2 * k], wat[base + 2 * k + 1]
        j += 1
    wl[lit, _WLEN] = j
    return answer


@_plain
def _push(lit, code, blocker, db, st):
    """Append the entry (code, blocker) to lit's watch list. A full list moves to the
    pool's free end with twice the room; with no room left there, the pool is packed
    first (_pack leaves a free entry in every list). Allocates nothing."""
    wat, wl = db[2], db[3]
    n = wl[lit, _WLEN]
    if n == wl[lit, _WCAP]:
        cap = 2 * n + 4
        if st[_WTOP] + cap > wat.shape[0] // 2:
            _pack(db, st)
        else:
            old, new = 2 * wl[lit, _WOFF], 2 * st[_WTOP]
            for k in range(2 * n):
                wat[new + k] = wat[old + k]
            wl[lit, _WOFF], wl[lit, _WCAP] = st[_WTOP], cap
            st[_WTOP] += cap
    at = 2 * (wl[lit, _WOFF] + n)
    wat[at], wat[at + 1] = code, blocker
    wl[lit, _WLEN] = n + 1


@_plain
def _pack(db, st):
    """Pack every watch list to the pool's front, literal by literal, each with room for
    half its length again and two entries more (through the spare pool, copied back); the
    lists moved away leave holes that this reclaims."""
    wat, wl, spare = db[2], db[3], db[4]
    top = 0
    for lit in range(wl.shape[0]):
        old, n = 2 * wl[lit, _WOFF], wl[lit, _WLEN]
        for k in range(2 * n):
            spare[2 * top + k] = wat[old + k]
        wl[lit, _WOFF], wl[lit, _WCAP] = top, n + n // 2 + 2
        top += n + n // 2 + 2
    for k in range(2 * top):
        wat[k] = spare[k]
    st[_WTOP] = top
    st[_PACKS] += 1


@_plain
def _propagate(vb, vi, cons, db, st):
    """Process the trail from its queue head to a fixed point; True on a conflict (or if
    the last assignment made outside met one)."""
    if st[_PENDING]:
        st[_PENDING] = 0
        return True
    while st[_QHEAD] < st[_TLEN]:
        x = vi[_TRAIL, st[_QHEAD]]
        st[_QHEAD] += 1
        if vb[_VALUE, x] == 1 and _constraints(x, vb, vi, cons, st):
            return True
        if _watches(2 * x + vb[_VALUE, x], vb, vi, cons, db, st):
            return True
    return False


# ------------------------------------------------------------------ conflict analysis

@_inline
def _reason(kind, rid, skip, cons, db, buf):
    """The variables of a reason (or conflict) other than skip, into buf; their count."""
    if kind == _AMO:
        buf[0] = rid
        return 1
    count = 0
    if kind == _ALO:
        cmem, cnt = cons[0], cons[1]
        for i in range(cnt[rid, _CSIZE]):
            y = cmem[rid, i]
            if y != skip:
                buf[count] = y
                count += 1
    elif kind == _CLAUSE:
        clits, cinfo = db[0], db[1]
        start = cinfo[rid, 0]
        for i in range(cinfo[rid, 1]):
            y = clits[start + i] >> 1
            if y != skip:
                buf[count] = y
                count += 1
    return count


@_plain
def _analyze(vb, vi, act, stamps, cons, db, st, fst):
    """The first-UIP clause of the conflict in st into vi[_LEARNT] (asserting literal first,
    a literal of the jump level second); its length."""
    seen, level, trail, learnt, buf = vb[_SEEN], vi[_LEVEL], vi[_TRAIL], vi[_LEARNT], vi[_BUF]
    here = st[_DLEVEL]
    count = _reason(st[_CKIND], st[_CID], -1, cons, db, buf)
    if st[_CKIND] == _AMO:
        buf[count] = st[_CVAR]
        count += 1
    size, path, i = np.int64(1), 0, st[_TLEN] - 1  # int64 from the start: see _plain
    while True:
        for j in range(count):
            y = buf[j]
            if seen[y] == 0 and level[y] > 0:
                seen[y] = 1
                _bump(y, vi, act, fst)
                if level[y] >= here:
                    path += 1
                else:
                    learnt[size] = 2 * y + vb[_VALUE, y]
                    size += 1
        while seen[trail[i]] == 0:
            i -= 1
        p = trail[i]
        i -= 1
        seen[p] = 0
        path -= 1
        if path == 0:
            break
        if st[_DYNAMIC] and vb[_KIND, p] == _CLAUSE:
            _update_lbd(vi[_RID, p], vi, stamps, db, st)
        count = _reason(vb[_KIND, p], vi[_RID, p], p, cons, db, buf)
    learnt[0] = 2 * p + vb[_VALUE, p]
    return _minimise(size, vb, vi, stamps, cons, db, st)


@_plain
def _update_lbd(c, vi, stamps, db, st):
    """Glucose's dynamic LBD: a learnt clause (not a kept or blocking one) met as a reason
    takes the number of levels its literals now span, when that is lower."""
    clits, cinfo = db[0], db[1]
    if c < 0 or cinfo[c, 2] <= st[_KEEP_LBD]:
        return
    st[_STAMP] += 1
    start, distinct = cinfo[c, 0], 0
    for j in range(cinfo[c, 1]):
        lv = vi[_LEVEL, clits[start + j] >> 1]
        if stamps[lv] != st[_STAMP]:
            stamps[lv] = st[_STAMP]
            distinct += 1
    if distinct + 1 < cinfo[c, 2]:
        cinfo[c, 2] = distinct


@_inline
def _redundant(y, vb, vi, stamps, cons, db, st, touched):
    """Whether the literal of y follows from the clause's other literals through reasons
    (MiniSat's recursive test); marks what it proves (2) in seen, listed in vi[_TOUCHED]
    from touched on. The new end of that list, negative if y is needed."""
    seen, level, buf, stack = vb[_SEEN], vi[_LEVEL], vi[_BUF], vi[_STACK]
    stack[0], top, first = y, 1, touched
    while top > 0:
        top -= 1
        u = stack[top]
        count = _reason(vb[_KIND, u], vi[_RID, u], u, cons, db, buf)
        for k in range(count):
            z = buf[k]
            if seen[z] or level[z] == 0:
                continue
            if vb[_KIND, z] == _DECISION or stamps[level[z]] != st[_STAMP]:
                for t in range(first, touched):
                    seen[vi[_TOUCHED, t]] = 0
                return -1
            seen[z] = 2
            vi[_TOUCHED, touched] = z
            touched += 1
            stack[top] = z
            top += 1
    return touched


@_plain
def _minimise(size, vb, vi, stamps, cons, db, st):
    """Drop the literals implied by the others through reasons; clear the marks; put a
    literal of the highest remaining level second. The new length."""
    seen, level, learnt, keep = vb[_SEEN], vi[_LEVEL], vi[_LEARNT], vi[_KEEP]
    st[_STAMP] += 1
    for j in range(size):
        keep[j] = learnt[j]
        stamps[level[learnt[j] >> 1]] = st[_STAMP]
    out, touched = np.int64(1), np.int64(0)  # int64 from the start: see _plain
    for j in range(1, size):
        y = learnt[j] >> 1
        if vb[_KIND, y] != _DECISION:
            end = _redundant(y, vb, vi, stamps, cons, db, st, touched)
            if end >= 0:
                touched = end
                continue
        learnt[out] = learnt[j]
        out += 1
    if st[_SHRINK] and out > 2:
        out, touched = _shrink(out, touched, vb, vi, stamps, cons, db, st)
    for j in range(1, size):
        seen[keep[j] >> 1] = 0
    for t in range(touched):
        seen[vi[_TOUCHED, t]] = 0
    best = 1
    for j in range(2, out):
        if level[learnt[j] >> 1] > level[learnt[best] >> 1]:
            best = j
    if out > 1:
        learnt[1], learnt[best] = learnt[best], learnt[1]
    return out


@_plain
def _shrink(out, touched, vb, vi, stamps, cons, db, st):
    """Shrinking (Fleury and Biere 2021): the minimised clause's literals below the
    conflict's level, taken level by level from the lowest, each level's several literals
    replaced by the one literal of its first unique implication point when the clause's
    other literals (or the ones they imply) and that point imply them all. Marks made
    are listed from touched on for clearing; the new length and end of that list."""
    learnt, level = vi[_LEARNT], vi[_LEVEL]
    for j in range(2, out):  # by level, lowest first (insertion sort: a few dozen literals)
        lit, k = learnt[j], j
        while k > 1 and level[learnt[k - 1] >> 1] > level[lit >> 1]:
            learnt[k] = learnt[k - 1]
            k -= 1
        learnt[k] = lit
    kept, j = 1, np.int64(1)  # int64 from the start: see _plain
    while j < out:
        lv, end = level[learnt[j] >> 1], j + 1
        while end < out and level[learnt[end] >> 1] == lv:
            end += 1
        uip = -1
        if end - j > 1:
            uip, touched = _shrink_level(lv, j, end, touched, vb, vi, stamps, cons, db, st)
        if uip >= 0:
            learnt[kept] = 2 * uip + vb[_VALUE, uip]
            kept += 1
            st[_SHRUNK] += end - j - 1
        else:
            for k in range(j, end):
                learnt[kept] = learnt[k]
                kept += 1
        j = end
    return kept, touched


@_plain
def _shrink_level(lv, j, end, touched, vb, vi, stamps, cons, db, st):
    """The variable of level lv's first unique implication point for the clause literals
    learnt[j:end] (all of level lv), walking that level's trail back from its end, or -1
    where a reason reaches below lv to a variable neither in the clause nor implied by it
    (nor redundant by MiniSat's test). Walk marks are 3, listed in vi[_SWALK] with their
    former mark to restore on failure; on success the new ones join the touched list."""
    seen, level, trail, buf, walk = vb[_SEEN], vi[_LEVEL], vi[_TRAIL], vi[_SBUF], vi[_SWALK]
    marked = 0
    for k in range(j, end):
        y = vi[_LEARNT, k] >> 1
        walk[marked] = 4 * y + seen[y]
        marked += 1
        seen[y] = 3
    left, i, uip = end - j, vi[_TLIM, lv] - 1, -1
    while uip < 0:
        p = trail[i]
        i -= 1
        if seen[p] != 3:
            continue
        left -= 1
        if left == 0:
            uip = p
            break
        if vb[_KIND, p] == _DECISION:
            break
        count = _reason(vb[_KIND, p], vi[_RID, p], p, cons, db, buf)
        for k in range(count):
            z = buf[k]
            if level[z] == lv:
                if seen[z] != 3:
                    walk[marked] = 4 * z + seen[z]
                    marked += 1
                    seen[z] = 3
                    left += 1
            elif level[z] > 0 and seen[z] == 0:
                end_of = -1
                if vb[_KIND, z] != _DECISION:
                    end_of = _redundant(z, vb, vi, stamps, cons, db, st, touched)
                if end_of < 0:
                    left = -1  # the level cannot be shrunk
                    break
                touched = end_of
                seen[z] = 2
                vi[_TOUCHED, touched] = z
                touched += 1
        if left < 0:
            break
    for k in range(marked):
        y, before = walk[k] >> 2, walk[k] & 3
        if uip < 0:
            seen[y] = before
        elif before == 0:
            vi[_TOUCHED, touched] = y
            touched += 1
    return uip, touched


@_plain
def _lbd(size, vi, stamps, st):
    """The number of distinct decision levels among the learnt clause's literals."""
    st[_STAMP] += 1
    distinct = 0
    for j in range(size):
        lv = vi[_LEVEL, vi[_LEARNT, j] >> 1]
        if stamps[lv] != st[_STAMP]:
            stamps[lv] = st[_STAMP]
            distinct += 1
    return distinct


@_plain
def _store(lits, size, lbd, db, st):
    """Add a clause of two literals or more, watching its first two; its index."""
    clits, cinfo = db[0], db[1]
    c, start = st[_NCL], st[_USED] + _HEAD
    clits[start - 2], clits[start - 1] = size, c
    for j in range(size):
        clits[start + j] = lits[j]
    cinfo[c, 0], cinfo[c, 1], cinfo[c, 2] = start, size, lbd
    code = 2 * start + (size == 2)
    _push(lits[0], code, lits[1], db, st)
    _push(lits[1], code, lits[0], db, st)
    st[_NCL] = c + 1
    st[_USED] = start + size
    if lbd > 0:
        st[_LIVE] += 1
    return c


@_plain
def _learn(size, lbd, vb, vi, act, cons, db, st):
    """Jump back to the learnt clause's second level and assert its first literal."""
    learnt = vi[_LEARNT]
    if size == 1:
        _backjump(0, vb, vi, act, cons, st)
        c = -1
    else:
        _backjump(vi[_LEVEL, learnt[1] >> 1], vb, vi, act, cons, st)
        c = _store(learnt, size, lbd, db, st)
    st[_PENDING] = _assign(learnt[0], _CLAUSE, c, vb, vi, cons, st)
    st[_LEARNED] += 1


# ------------------------------------------------------------------ restarts, reduction

@njit(cache=True)
def _doomed(vb, db, st):
    """Which clauses a reduction drops: every clause satisfied at level 0 (its true literal
    is never undone), then the worse half of the other learnt clauses (higher LBD, then
    longer), never one of LBD keep_lbd or less nor a blocking clause (LBD 0)."""
    clits, cinfo = db[0], db[1]
    count = st[_NCL]
    drop = np.zeros(count, np.uint8)
    key = np.empty(count, np.int64)
    learnt = 0
    for c in range(count):
        key[c] = cinfo[c, 2] * (1 << 32) + cinfo[c, 1]
        for j in range(cinfo[c, 1]):
            if _lit_value(clits[cinfo[c, 0] + j], vb) == 1:
                drop[c] = 1
                break
        if drop[c] == 0 and cinfo[c, 2] > st[_KEEP_LBD]:
            learnt += 1
    order = np.argsort(key)
    dropped = 0
    for j in range(count - 1, -1, -1):
        c = order[j]
        if dropped >= learnt // 2:
            break
        if drop[c] == 0 and cinfo[c, 2] > st[_KEEP_LBD]:
            drop[c] = 1
            dropped += 1
    return drop


@njit(cache=True)
def _reduce(vb, db, st):
    """At level 0: drop the clauses _doomed names, pack the others to the store's front and
    rebuild the watch lists."""
    clits, cinfo = db[0], db[1]
    drop = _doomed(vb, db, st)
    kept, used = 0, 0
    for c in range(st[_NCL]):
        if drop[c]:
            continue
        start, size = cinfo[c, 0], cinfo[c, 1]
        used += _HEAD
        clits[used - 2], clits[used - 1] = size, kept
        for j in range(size):
            clits[used + j] = clits[start + j]
        cinfo[kept, 0], cinfo[kept, 1], cinfo[kept, 2] = used, size, cinfo[c, 2]
        kept += 1
        used += size
    st[_NCL], st[_USED] = kept, used
    st[_LIVE] = 0
    for c in range(kept):
        if cinfo[c, 2] > 0:
            st[_LIVE] += 1
    _rewatch(db, st)


@_plain
def _rewatch(db, st):
    """Lay the watch lists out afresh, literal by literal, each with half its length again
    of room (then two entries more); a clause watches its first two literals."""
    clits, cinfo, wat, wl = db[0], db[1], db[2], db[3]
    for lit in range(wl.shape[0]):
        wl[lit, _WLEN] = 0
    for c in range(st[_NCL]):
        for w in range(2):
            wl[clits[cinfo[c, 0] + w], _WLEN] += 1
    top = 0
    for lit in range(wl.shape[0]):
        n = wl[lit, _WLEN]
        wl[lit, _WOFF], wl[lit, _WCAP], wl[lit, _WLEN] = top, n + n // 2 + 2, 0
        top += n + n // 2 + 2
    st[_WTOP] = top
    for c in range(st[_NCL]):
        start = cinfo[c, 0]
        code = 2 * start + (cinfo[c, 1] == 2)
        for w in range(2):
            lit = clits[start + w]
            at = 2 * (wl[lit, _WOFF] + wl[lit, _WLEN])
            wat[at], wat[at + 1] = code, clits[start + 1 - w]
            wl[lit, _WLEN] += 1


@_plain
def _schedule(st):
    """The next restart: in stable mode after RESTART_UNIT times the next Luby number of
    conflicts; in focused mode (Glucose) the conflict count it waits from."""
    st[_NEXT_RESTART] = st[_CONFLICTS]
    if st[_STABLE]:
        st[_NEXT_RESTART] += st[_UNIT] * luby(st[_RESTARTS] + 1)


@_plain
def _switch(st):
    """Swap focused and stable mode; each pair of modes lasts twice the one before."""
    st[_SWITCHES] += 1
    st[_STABLE] ^= 1
    st[_MODE_END] = st[_CONFLICTS] + st[_FIRST_MODE] * (1 << min(st[_SWITCHES] // 2, 30))
    _schedule(st)


@njit(cache=True)
def _restart(vb, vi, act, cons, db, st):
    st[_RESTARTS] += 1
    _backjump(0, vb, vi, act, cons, st)
    if st[_REDUCE_EVERY] == 0:
        if st[_LIVE] > st[_BOUND]:
            _reduce(vb, db, st)
            st[_BOUND] += st[_BOUND] // 10
    elif st[_CONFLICTS] >= st[_NEXT_REDUCE]:
        _reduce(vb, db, st)
        st[_REDUCE_STEP] += st[_STEP]
        st[_NEXT_REDUCE] = st[_CONFLICTS] + st[_REDUCE_EVERY] + st[_REDUCE_STEP]
    _schedule(st)


# ------------------------------------------------------------------ the search

@_plain
def _begin(givens, vb, vi, cons, db, st):
    """Assign the givens at level 0 and propagate; False if they contradict each other."""
    n = st[_SIZE]
    for cell in range(givens.shape[0]):
        if givens[cell]:
            lit = 2 * (cell * n + givens[cell] - 1)
            if _lit_value(lit, vb) == 0:
                return False
            if _lit_value(lit, vb) < 0 and _assign(lit, _DECISION, -1, vb, vi, cons, st):
                return False
    props = st[_PROPS]
    if _propagate(vb, vi, cons, db, st):
        return False
    st[_FIXED] = st[_PROPS] - props
    return True


@_plain
def _record(vb, sols, st):
    """Write the full assignment as values into the next row of sols."""
    n = st[_SIZE]
    row = sols[st[_FOUND]]
    for cell in range(row.shape[0]):
        for v in range(n):
            if vb[_VALUE, cell * n + v] == 1:
                row[cell] = v + 1
                break
    st[_FOUND] += 1


@_plain
def _block(vb, vi, act, cons, db, st):
    """Exclude the solution just found by the clause of its decisions' negations; False
    if it had no decision (then nothing else is left)."""
    top = st[_DLEVEL]
    if top == 0:
        return False
    if st[_FOCUS]:
        _focus(st)
    learnt = vi[_LEARNT]
    for j in range(top):
        var = vi[_TRAIL, vi[_TLIM, top - 1 - j]]
        learnt[j] = 2 * var + vb[_VALUE, var]
    if top == 1:
        _backjump(0, vb, vi, act, cons, st)
        c = -1
    else:
        _backjump(top - 1, vb, vi, act, cons, st)
        c = _store(learnt, top, 0, db, st)
    st[_PENDING] = _assign(learnt[0], _CLAUSE, c, vb, vi, cons, st)
    return True


@_plain
def _focus(st):
    """A solution was found: focused mode (Glucose's restarts) for good, target phases off."""
    st[_TARGETS] = 0
    st[_STABLE] = 0
    st[_MODE_END] = 1 << 62
    _schedule(st)


@_plain
def _decide(vb, vi, act, cons, st):
    """Set the unassigned variable of highest activity true at a new level; False if every
    variable is assigned."""
    var = -1
    while st[_HSIZE] > 0:
        var = _heap_pop(vi, act, st)
        if vb[_VALUE, var] < 0:
            break
        var = -1
    if var < 0:
        return False
    st[_NODES] += 1
    vi[_TLIM, st[_DLEVEL]] = st[_TLEN]
    st[_DLEVEL] += 1
    lit = 2 * var  # cell=value
    if st[_STABLE] and st[_TARGETS]:
        phase = vb[_TARGET, var]
        if phase < 0:
            phase = vb[_PHASE, var]
        lit += 1 - phase  # cell!=value where the phase is false
        st[_NEGATED] += 1 - phase
    st[_PENDING] = _assign(lit, _DECISION, -1, vb, vi, cons, st)
    return True


@_plain
def _remember(vb, vi, st):
    """Target and best phases (CaDiCaL's): the values of the trail before the conflict's
    level when it is the longest without a conflict since the last rephase (the target in
    stable mode only, where decisions follow it)."""
    free = vi[_TLIM, st[_DLEVEL] - 1]
    if st[_STABLE] and free > st[_TARGET_AT]:
        _copy_phases(_TARGET, free, vb, vi)
        st[_TARGET_AT] = free
    if free > st[_BEST_AT]:
        _copy_phases(_BEST, free, vb, vi)
        st[_BEST_AT] = free


@_plain
def _copy_phases(row, free, vb, vi):
    """vb[row]: each variable's value in the trail's first free entries, -1 for the rest."""
    for var in range(vb.shape[1]):
        vb[row, var] = -1
    for i in range(free):
        var = vi[_TRAIL, i]
        vb[row, var] = vb[_VALUE, var]


@_plain
def _rephase(vb, st):
    """The phase stable decisions take where no target names one becomes the best trail's
    (its gaps true) and all true (the original phase) in turn, as CaDiCaL rephases (its
    random walk and inverted phase not built); target and best start again. The next
    rephase comes rephase_every conflicts later than the last one did."""
    best = st[_REPHASES] % 2 == 0
    for var in range(vb.shape[1]):
        phase = vb[_BEST, var] if best else 1
        vb[_PHASE, var] = 1 if phase < 0 else phase
    st[_REPHASES] += 1
    st[_TARGET_AT] = 0
    if best:
        st[_BEST_AT] = 0
    st[_NEXT_REPHASE] = st[_CONFLICTS] + st[_REPHASE_EVERY] * (st[_REPHASES] + 1)


@njit(cache=True)
def _on_conflict(vb, vi, act, stamps, cons, db, st, fst):
    """Learn from the conflict in st, jump back, and restart when due; False at level 0."""
    st[_CONFLICTS] += 1
    if st[_DLEVEL] == 0:
        return False
    if st[_TARGETS]:
        _remember(vb, vi, st)
        if st[_REPHASE_EVERY] and st[_CONFLICTS] >= st[_NEXT_REPHASE]:
            _rephase(vb, st)
    size = _analyze(vb, vi, act, stamps, cons, db, st, fst)
    lbd = _lbd(size, vi, stamps, st)
    _learn(size, lbd, vb, vi, act, cons, db, st)
    fst[_INC] /= fst[_DECAY]
    fst[_FAST_LBD] += (lbd - fst[_FAST_LBD]) / 32
    fst[_LBD_SUM] += lbd
    if st[_CONFLICTS] >= st[_MODE_END]:
        _switch(st)
    if st[_STABLE]:
        due = st[_CONFLICTS] >= st[_NEXT_RESTART]
    else:  # Glucose: the recent clauses are worse than the average so far
        due = (st[_CONFLICTS] - st[_NEXT_RESTART] >= 50
               and fst[_FAST_LBD] * fst[_MARGIN] > fst[_LBD_SUM] / st[_CONFLICTS])
    if st[_REDUCE_EVERY] and st[_CONFLICTS] >= st[_NEXT_REDUCE]:
        due = True  # the clauses are compacted at level 0, where none is a reason
    if due:
        _restart(vb, vi, act, cons, db, st)
    return True


_F8 = types.float64
_CONS = types.Tuple((_I4[:, ::1], _I4[:, ::1], _I4[:, ::1]))
_STORE = types.Tuple((_I4[::1], _I4[:, ::1], _I4[::1], _I4[:, ::1], _I4[::1]))


class _Search(NamedTuple):
    """The arrays of one search, in the kernel's argument order (after the givens)."""

    vb: Annotated[np.ndarray, types.int8[:, ::1]]  # [_VB_ROWS, vars]: value (-1 unassigned),
                                                   # reason kind, analysis mark, target,
                                                   # best and rephased phase (-1: none)
    vi: Annotated[np.ndarray, _I4[:, ::1]]         # [_VI_ROWS, vars + 1]: level, reason id,
                                                   # trail, level starts, heap, heap positions,
                                                   # learnt clause, reason buffer, a copy of the
                                                   # learnt clause, a stack and the marks to
                                                   # clear of the minimisation
    act: Annotated[np.ndarray, _F8[::1]]           # [vars]: VSIDS activity
    stamps: Annotated[np.ndarray, _I8[::1]]        # [vars + 1]: per level, the last LBD count
                                                   # that met it


_KERNEL = _I8(_U8[::1], *field_types(_Search), _CONS, _STORE, _U8[:, ::1], _I8[::1], _F8[::1], _I8)
"""The kernel's signature: givens, the search arrays, constraints, clause store, solutions,
state, float state, node stop."""


@njit(cache=True)
def _kernel(givens, vb, vi, act, stamps, cons, db, sols, st, fst, node_stop):
    """Search until sols is full, node_stop decisions have been made in all, the clause
    store needs room, or the space is exhausted; resumable. Solutions are sols[:st[_FOUND]]."""
    if st[_STARTED] == 0:
        st[_STARTED] = 1
        if not _begin(givens, vb, vi, cons, db, st):
            return CONTRADICTION
    room = vi.shape[1] + 1 + _HEAD  # variables + 4: a clause as long as the trail, its
    # header and a spare
    while True:
        if st[_USED] + room > db[0].shape[0] or st[_NCL] + 1 >= db[1].shape[0]:
            return GROW
        if _propagate(vb, vi, cons, db, st):
            if not _on_conflict(vb, vi, act, stamps, cons, db, st, fst):
                return EXHAUSTED
            continue
        if st[_DLEVEL] == 0 and st[_COMPACT] and st[_TLEN] > st[_COMPACTED]:
            _compact(vb, cons, st)
        if st[_NODES] >= node_stop and st[_TLEN] < vb.shape[1]:
            return PAUSED  # (with every variable assigned, the solution is taken first)
        if _decide(vb, vi, act, cons, st):
            continue
        _record(vb, sols, st)
        if not _block(vb, vi, act, cons, db, st):
            return EXHAUSTED
        if st[_FOUND] == sols.shape[0]:
            return FULL


# ------------------------------------------------------------------ tables and the driver

@lru_cache(maxsize=32)
def _constraint_tables(n: int, num_cells: int, groups: tuple[tuple[int, ...], ...]
                       ) -> tuple[np.ndarray, ...]:
    """Each exactly-one constraint's variables, and its record (counters at zero, size,
    at-least-one flag: _NTRUE, _NFALSE, _CSIZE, _ATLEAST); each variable's count of constraints
    then the constraints (cells first, then (group, value) pairs), a row padded to a power
    of two entries so that it never straddles a cache line."""
    size = max([n] + [len(g) for g in groups])
    count = num_cells + len(groups) * n
    cmem = np.zeros((count, size), np.int32)
    records = np.zeros((count, 4), np.int32)
    owners: list[list[int]] = [[] for _ in range(num_cells * n)]
    for cell in range(num_cells):
        cmem[cell, :n] = np.arange(cell * n, cell * n + n)
        records[cell, _CSIZE], records[cell, _ATLEAST] = n, 1
    for g, group in enumerate(groups):
        for v in range(n):
            k = num_cells + g * n + v
            members = [cell * n + v for cell in group]
            cmem[k, :len(members)] = members
            records[k, _CSIZE], records[k, _ATLEAST] = len(members), len(group) == n
    for k in range(count):
        for var in cmem[k, :records[k, _CSIZE]]:
            owners[var].append(k)
    width = 1 << max(len(o) for o in owners).bit_length()  # at least the count and the most
    vcons = np.zeros((num_cells * n, width), np.int32)
    for var, ks in enumerate(owners):
        vcons[var, 0] = len(ks)
        vcons[var, 1:len(ks) + 1] = ks
    return cmem, records, vcons


def _states(tune: Tuning, n: int, variables: int) -> tuple[np.ndarray, np.ndarray]:
    """The search's integer and float state, its levers set from tune (checked here)."""
    counts = (tune.restart_unit, tune.first_mode, tune.bound, tune.reduce_every + 1,
              tune.reduce_step + 1, tune.rephase_every + 1)
    if tune.keep_lbd < 0 or min(counts) < 1 or not 0 < tune.decay < 1:
        raise ValueError(f"learning tuning out of range (keep_lbd >= 0, counts >= 1, "
                         f"0 < decay < 1): {tune}")
    st = np.zeros(_SLOTS, np.int64)
    st[_SIZE], st[_HSIZE] = n, variables
    st[_BOUND], st[_MODE_END], st[_FIRST_MODE] = tune.bound, tune.first_mode, tune.first_mode
    st[_UNIT], st[_KEEP_LBD] = tune.restart_unit, tune.keep_lbd
    st[_REDUCE_EVERY] = st[_NEXT_REDUCE] = tune.reduce_every
    st[_DYNAMIC], st[_STEP] = tune.dynamic_lbd, tune.reduce_step
    st[_COMPACT], st[_SHRINK] = tune.compact, tune.shrink
    st[_TARGETS], st[_REPHASE_EVERY] = tune.target_phases, tune.rephase_every
    st[_NEXT_REPHASE], st[_FOCUS] = tune.rephase_every, tune.focus_after_solution
    return st, np.array([1.0, tune.decay, 0.0, 0.0, tune.margin])


def _new_search(variables: int) -> _Search:
    vb = np.full((_VB_ROWS, variables), -1, np.int8)
    vb[_SEEN] = 0
    vb[_PHASE] = 1
    vi = np.zeros((_VI_ROWS, variables + 1), np.int32)
    vi[_HEAP, :variables] = np.arange(variables)
    vi[_HPOS, :variables] = np.arange(variables)
    return _Search(vb, vi, np.zeros(variables), np.zeros(variables + 1, np.int64))


def _pool_entries(clauses: int, variables: int) -> int:
    """Watch entries the pool holds for a store of this many clause rows (at most two
    watches each, W in all): packed in the middle of a propagation, the lists hold at most
    2W entries (the list being read keeps the entries it moved until it is done) with half
    again and two more per literal of room, so a push finds room after packing at worst;
    twice that, so packing stays rare."""
    return 2 * (3 * (2 * clauses + 2) + 4 * variables) + 8


def _new_store(variables: int, lits: int, clauses: int) -> tuple[np.ndarray, ...]:
    """An empty clause store: literals (each clause's after its header: length, index),
    (start, length, LBD) per clause, the watch pool (clause code, blocker per entry; code =
    2 * start + 1 for a binary clause, 2 * start for a longer one), each
    literal's (offset, length, capacity) in it, and a spare pool for packing."""
    pool = 2 * _pool_entries(clauses, variables)
    return (np.zeros(lits, np.int32), np.zeros((clauses, 3), np.int32),
            np.zeros(pool, np.int32), np.zeros((2 * variables, 4), np.int32),
            np.zeros(pool, np.int32))


def _grown(db: tuple[np.ndarray, ...], st: np.ndarray, variables: int) -> tuple[np.ndarray, ...]:
    """The clause store with twice the room where the kernel ran short (its test: fewer
    than variables + 4 free literals, or fewer than 2 free clause rows), the watch pool
    grown with the clause rows (the lists keep their offsets)."""
    clits, cinfo, wat, wl, spare = db
    if st[_USED] + variables + 2 + _HEAD > len(clits):
        clits = np.concatenate([clits, np.zeros(len(clits), np.int32)])
    if st[_NCL] + 1 >= len(cinfo):
        cinfo = np.concatenate([cinfo, np.zeros_like(cinfo)])
        pool = 2 * _pool_entries(len(cinfo), variables)
        wat = np.concatenate([wat, np.zeros(pool - len(wat), np.int32)])
        spare = np.zeros(pool, np.int32)
    return clits, cinfo, wat, wl, spare


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          node_limit: int | None = None, tuning: Tuning | None = None) -> Result:
    """Solve by conflict-driven clause learning; count up to max_solutions solutions
    (tuning: the levers, for benchmarks and tests; None, the defaults)."""
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    n, cells = model.n, model.num_cells
    variables = cells * n
    tables = _constraint_tables(n, cells, tuple(g.cells for g in model.groups))
    # the members and records copied: the search counts in the records, and the level-0
    # compaction edits both
    cons = (tables[0].copy(), tables[1].copy(), tables[2])
    search = _new_search(variables)
    db = _new_store(variables, max(1 << 16, 16 * variables), 1 << 12)
    st, fst = _states(tuning or Tuning(), n, variables)
    givens = np.frombuffer(bytearray(model.givens), np.uint8)
    sols = np.empty((min(max_solutions, 64), cells), np.uint8)
    found, code, limit_hit, budget_hit = drive(
        _Learning(givens, search, cons, db, sols, st, fst, variables), max_solutions, deadline,
        node_limit, FIRST_CHUNK)
    stats = Stats(nodes=int(st[_NODES]), backtracks=int(st[_BACKTRACKS]),
                  conflicts=int(st[_CONFLICTS]), restarts=int(st[_RESTARTS]),
                  propagations=int(st[_PROPS]), fixed_cells=int(st[_FIXED]),
                  solve_time=time.perf_counter() - start)
    if code == CONTRADICTION:
        return finish([], True, stats, limit_hit=False, message="the givens contradict each other")
    message = stop_message(limit_hit, budget_hit)
    return finish(found, code == EXHAUSTED, stats, limit_hit=limit_hit, budget_hit=budget_hit,
                  message=message)


class _Learning:
    """The learning kernel as the chunked driver sees it (_fast_drive.Chunked)."""

    __slots__ = ("cons", "db", "fst", "givens", "search", "sols", "st", "variables")

    def __init__(self, givens: np.ndarray, search: _Search, cons: tuple[np.ndarray, ...],
                 db: tuple[np.ndarray, ...], sols: np.ndarray, st: np.ndarray, fst: np.ndarray,
                 variables: int) -> None:
        self.givens, self.search, self.cons, self.db = givens, search, cons, db
        self.sols, self.st, self.fst, self.variables = sols, st, fst, variables

    @property
    def nodes(self) -> int:
        return int(self.st[_NODES])

    def run(self, stop: int) -> int:
        return _kernel(self.givens, *self.search, self.cons, self.db, self.sols, self.st,
                       self.fst, stop)

    def take(self) -> list[tuple[int, ...]]:
        count = self.st[_FOUND]
        self.st[_FOUND] = 0
        return [tuple(row) for row in self.sols[:count].tolist()]

    def make_room(self, wanted: int) -> None:
        self.sols = self.sols[:min(len(self.sols), wanted)]

    def grow(self) -> None:
        self.db = _grown(self.db, self.st, self.variables)

    def paused(self) -> None:
        """Nothing to do: restarts happen inside the kernel."""
