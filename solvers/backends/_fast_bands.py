"""The 9x9 kernel of ``fast``: per-digit bitboards over the grid's three bands.

Layout. The standard grid is three bands of 27 cells (rows 3b..3b+2). Inside band b the
cell of row r (0-2) and column c (0-8) is bit 9r + c, so its index in the grid is
27b + bit. A state is one int64 row of the stack: word 3d + b holds the cells of band b
where digit d + 1 is still possible (a placed cell keeps its digit's bit), word 27 + b the
band's cells not placed yet, and three words the guess made from it.

Rules, run to a fixed point after the givens and after every guess:

- band configurations: digit d sits once in each row of a band and once in each of its
  boxes, so the (row, box) pairs it takes form one of the six permutations of three; a
  "triad" (the three cells where a row meets a box) that no permutation left open can use
  is struck. One table look-up does pointing and claiming (locked candidates) and all
  else one band tells about one digit;
- stack configurations: the same for the columns of each stack of three boxes;
- hidden singles: a digit left with one cell in a row or a column goes there (one cell
  in a box is a row single once the band rule has run);
- naked singles: a cell left with one digit takes it.

Placing digit d strikes the other digits from its cells and d from the cells' rows,
columns and boxes; every word that changes marks its digit for another look, so the
rules react to what changed. A digit with a row, column or box left empty, or an open
cell left without a digit, is a contradiction.

Search: two-way branching on a cell with two candidates (the first in grid order; with
none, the first cell with the fewest): the guess places its lower digit in a copy of the
state one row down the stack; when that subtree is done (refuted, or its solutions
counted) the digit is struck from the cell in the state itself, which the rules then
carry on from (with two candidates, the other digit is placed at once). ``nodes`` counts
the guesses, ``backtracks`` the guesses taken back; the kernel pauses before a guess once
a node budget is spent, and stops when its solution buffer is full, and resumes from
where it stopped.

The tables are module constants that numba compiles in; the kernels allocate nothing and
are compiled without numba's reference counting.
"""
from __future__ import annotations

import itertools
import time

import numpy as np
from numba import njit, types

from models import Model

from ..result import Result, Stats, Status, finish, stop_message
from ._fast_drive import Drive, drive
from ._fast_kernels import (
    _I8,
    _U8,
    CONTRADICTION,
    EXHAUSTED,
    FULL,
    LATE,
    PAUSED,
    SLICE,
    _cycles,
    _popcount,
    compile_kernels,
)

_BANDS = 27
"""Words 0-26: digit d's cells in band b at 3d + b."""
_OPEN = 27
"""Words 27-29: each band's cells not placed yet."""
_GUESS_BAND, _GUESS_BIT, _GUESS_DIGIT = 30, 31, 32
"""The guess made from this state: its band, its cell's bit, its digit (0-8)."""
WIDTH = 33
"""Words per state."""
DEPTH = 82
"""Rows of the stack: every guess places a cell, so 81 guesses at most, plus the root."""
ALL = (1 << 27) - 1

# Slots of the state array shared with Python.
(_NODES, _BACKTRACKS, _PROPAGATIONS, _FIXED, _FOUND, _STARTED, _RESUME, _DEPTH) = range(8)
SLOTS = 8
_CHOOSE, _BACK = 0, 1
"""Where a paused search resumes: guess from the current depth, or take back a guess."""


def _tables() -> tuple[np.ndarray, ...]:
    """The look-up tables the rules use (each indexed by a 9-bit pattern, or a cell's bit), in
    the narrowest types that hold them: 9 KB in all, so they stay in the first-level cache
    between calls from Python."""
    triads = np.zeros(512, np.uint8)      # a row's 9 bits -> which of its 3 triads hold any
    singles = np.zeros(512, np.uint16)    # 9 bits -> themselves if exactly one is set, else 0
    allowed = np.zeros(512, np.uint16)    # 3x3 triads held (bit 3r + j) -> those some permutation uses
    spread = np.zeros(512, np.uint32)     # 3x3 triads (bit 3r + j) -> their cells in a band
    columns = np.zeros(512, np.uint32)    # 9 columns -> their cells in a band
    for x in range(512):
        triads[x] = sum(1 << j for j in range(3) if x >> 3 * j & 7)
        singles[x] = x if bin(x).count("1") == 1 else 0
        spread[x] = sum(7 << (9 * (t // 3) + 3 * (t % 3)) for t in range(9) if x >> t & 1)
        columns[x] = sum(0x40201 << c for c in range(9) if x >> c & 1)
    for perm in itertools.permutations(range(3)):
        bits = sum(1 << (3 * r + perm[r]) for r in range(3))
        for x in range(512):
            if x & bits == bits:
                allowed[x] |= bits
    peers = np.zeros(27, np.uint32)       # a cell's bit -> the other cells of its row, box and column in the band
    for bit in range(27):
        r, c = divmod(bit, 9)
        box = sum(1 << (9 * rr + cc) for rr in range(3) for cc in range(3 * (c // 3), 3 * (c // 3) + 3))
        peers[bit] = ((0x1FF << 9 * r) | box | (0x40201 << c)) & ~(1 << bit)
    return triads, singles, allowed, spread, columns, peers


_TRIADS, _SINGLES, _ALLOWED, _SPREAD, _COLUMNS, _PEERS = _tables()


@njit(cache=True, inline='always', _nrt=False)
def _place(s, d, b, cells):
    """Place digit d on cells (a mask of band b) in state s: the other digits leave those
    cells, d leaves their peers. The words that changed, as a 27-bit mask (bit 3d + b)."""
    s[_OPEN + b] &= ~cells
    peers, rest = 0, cells
    while rest:
        low = rest & -rest
        rest ^= low
        peers |= _PEERS[_popcount(low - 1)]
    changed = 0
    for e in range(9):
        k = 3 * e + b
        w = s[k]
        # two placed cells that see each other strike each other: a contradiction found later
        n = w & ~(peers if e == d else cells)
        changed |= (n != w) << k
        s[k] = n
    column = _COLUMNS[(cells | cells >> 9 | cells >> 18) & 0x1FF]
    for other in range(3):
        k = 3 * d + other
        w = s[k]
        n = w if other == b else w & ~column
        changed |= (n != w) << k
        s[k] = n
    return changed


@njit(cache=True, inline='always', _nrt=False)
def _band(w):
    """The band rule on one word: the cells of triads that no (row, box) permutation uses
    leave; 0 when none is left (a row or box of the band has no place for the digit)."""
    held = _TRIADS[w & 0x1FF] | _TRIADS[w >> 9 & 0x1FF] << 3 | _TRIADS[w >> 18 & 0x1FF] << 6
    return w & _SPREAD[_ALLOWED[held]]


@njit(cache=True, inline='always', _nrt=False)
def _row_singles(w):
    """The cells of a band word alone in their row."""
    return _SINGLES[w & 0x1FF] | _SINGLES[w >> 9 & 0x1FF] << 9 | _SINGLES[w >> 18 & 0x1FF] << 18


@njit(cache=True, inline='always', _nrt=False)
def _folded(w):
    """The columns of a band word that hold the digit (9 bits)."""
    return (w | w >> 9 | w >> 18) & 0x1FF


@njit(cache=True, inline='always', _nrt=False)
def _doubles(w):
    """The columns where the band word holds the digit in two rows or three."""
    r0, r1, r2 = w & 0x1FF, w >> 9 & 0x1FF, w >> 18 & 0x1FF
    return (r0 & r1) | (r0 & r2) | (r1 & r2)


@njit(cache=True, _nrt=False)
def _stack(s, d):
    """The stack rule on digit d's three words, then (when it struck nothing) its column
    singles placed. The words changed (a mask), or -1 on a contradiction."""
    k = 3 * d
    w0, w1, w2 = s[k], s[k + 1], s[k + 2]
    f0, f1, f2 = _folded(w0), _folded(w1), _folded(w2)
    a0 = _ALLOWED[(f0 & 7) | (f1 & 7) << 3 | (f2 & 7) << 6]
    a1 = _ALLOWED[(f0 >> 3 & 7) | (f1 >> 3 & 7) << 3 | (f2 >> 3 & 7) << 6]
    a2 = _ALLOWED[(f0 >> 6) | (f1 >> 6) << 3 | (f2 >> 6) << 6]
    if a0 == 0 or a1 == 0 or a2 == 0:
        return -1
    n0 = w0 & _COLUMNS[(a0 & 7) | (a1 & 7) << 3 | (a2 & 7) << 6]
    n1 = w1 & _COLUMNS[(a0 >> 3 & 7) | (a1 >> 3 & 7) << 3 | (a2 >> 3 & 7) << 6]
    n2 = w2 & _COLUMNS[(a0 >> 6) | (a1 >> 6) << 3 | (a2 >> 6) << 6]
    changed = (n0 != w0) << k | (n1 != w1) << (k + 1) | (n2 != w2) << (k + 2)
    if changed:
        s[k], s[k + 1], s[k + 2] = n0, n1, n2
        return changed
    once = (f0 ^ f1 ^ f2) & ~(f0 & f1 & f2)  # columns held in one band only
    new0 = _COLUMNS[once & ~_doubles(w0)] & w0 & s[_OPEN]
    new1 = _COLUMNS[once & ~_doubles(w1)] & w1 & s[_OPEN + 1]
    new2 = _COLUMNS[once & ~_doubles(w2)] & w2 & s[_OPEN + 2]
    if new0:
        changed |= _place(s, d, 0, new0)
    if new1:
        changed |= _place(s, d, 1, new1)
    if new2:
        changed |= _place(s, d, 2, new2)
    return changed


@njit(cache=True, _nrt=False)
def _naked(s):
    """Place every open cell left with one digit; the words this changed, or -1 when an
    open cell has none left."""
    changed = 0
    for b in range(3):
        open_ = s[_OPEN + b]
        if open_ == 0:
            continue
        one, two = 0, 0
        for d in range(9):
            w = s[3 * d + b]
            two |= one & w
            one |= w
        if open_ & ~one:
            return -1
        single = open_ & ~two
        if single:
            for d in range(9):
                cells = s[3 * d + b] & single
                if cells:
                    changed |= _place(s, d, b, cells)
    return changed


@njit(cache=True, _nrt=False)
def _propagate(s, dirty):
    """Run the rules on state s to a fixed point from the words marked in dirty (a 27-bit
    mask); False on a contradiction. The band rule and row singles run on each changed
    word at once, naked singles when no word waits, the stack rule and column singles on
    the digits that changed when nothing else is left."""
    digits = 0
    while True:
        while dirty:
            low = dirty & -dirty
            dirty ^= low
            k = _popcount(low - 1)
            w = _band(s[k])
            if w == 0:
                return False
            s[k] = w
            d, b = k // 3, k % 3
            digits |= 1 << d
            new = _row_singles(w) & s[_OPEN + b]
            if new:
                dirty |= _place(s, d, b, new)
        dirty = _naked(s)
        if dirty < 0:
            return False
        while dirty == 0 and digits:
            low = digits & -digits
            digits ^= low
            dirty = _stack(s, _popcount(low - 1))
            if dirty < 0:
                return False
        if dirty == 0:
            return True


@njit(cache=True, inline='always', _nrt=False)
def _open_cells(s):
    return _popcount(s[_OPEN]) + _popcount(s[_OPEN + 1]) + _popcount(s[_OPEN + 2])


@njit(cache=True, _nrt=False)
def _choose(s):
    """Set the guess of state s (open, no contradiction): among the open cells with two
    candidates, the one with the most open peers (the first such in grid order), and its
    lower digit; with none, the first open cell with the fewest candidates."""
    best_score, best_band, best_bit = -1, 0, 0
    for b in range(3):
        one, two, three = 0, 0, 0
        for d in range(9):
            w = s[3 * d + b]
            three |= two & w
            two |= one & w
            one |= w
        pairs = s[_OPEN + b] & two & ~three
        while pairs:
            low = pairs & -pairs
            pairs ^= low
            bit = _popcount(low - 1)
            column = 0x40201 << (bit % 9)
            score = (_popcount(s[_OPEN + b] & _PEERS[bit]) - _popcount(s[_OPEN + b] & column)
                     + _popcount(s[_OPEN] & column) + _popcount(s[_OPEN + 1] & column)
                     + _popcount(s[_OPEN + 2] & column))
            if score > best_score:
                best_score, best_band, best_bit = score, b, low
    if best_score < 0:
        best_count = 10
        for b in range(3):
            rest = s[_OPEN + b]
            while rest:
                low = rest & -rest
                rest ^= low
                count = 0
                for d in range(9):
                    count += (s[3 * d + b] & low) != 0
                if count < best_count:
                    best_count, best_band, best_bit = count, b, low
    for d in range(9):
        if s[3 * d + best_band] & best_bit:
            s[_GUESS_BAND], s[_GUESS_BIT], s[_GUESS_DIGIT] = best_band, best_bit, d
            return


@njit(cache=True, _nrt=False)
def _record(s, sols, state):
    """Write the solved state s as digits into the next row of sols."""
    row = sols[state[_FOUND]]
    for d in range(9):
        for b in range(3):
            w = s[3 * d + b]
            while w:
                low = w & -w
                w ^= low
                row[27 * b + _popcount(low - 1)] = d + 1
    state[_FOUND] += 1


@njit(cache=True, _nrt=False)
def _begin(givens, s):
    """The root state from the givens (uint8, 0 an empty cell), propagated; False if they
    contradict each other (or a given is not a digit 1-9)."""
    for k in range(_BANDS):
        s[k] = ALL
    s[_OPEN], s[_OPEN + 1], s[_OPEN + 2] = ALL, ALL, ALL
    for cell in range(81):
        value = givens[cell]
        if value:
            if value > 9:
                return False
            b = cell // 27
            bit = 1 << (cell - 27 * b)
            if not s[3 * (value - 1) + b] & bit & s[_OPEN + b]:
                return False
            _place(s, value - 1, b, bit)
    return _propagate(s, s[_OPEN] | ALL)


@njit(cache=True, _nrt=False)
def _search(stack, sols, state, stop):
    """Search on from where the last call stopped until sols is full, stop guesses have been
    made in all, or the space is exhausted; FULL, PAUSED or EXHAUSTED."""
    d, nodes, backtracks = state[_DEPTH], state[_NODES], state[_BACKTRACKS]
    propagations = state[_PROPAGATIONS]
    resume = state[_RESUME]
    code = EXHAUSTED
    while True:
        if resume == _CHOOSE:  # stack[d] is propagated, open and consistent: guess
            if nodes >= stop:
                code = PAUSED
                break
            s = stack[d]
            _choose(s)
            child = stack[d + 1]
            for k in range(_GUESS_BAND):
                child[k] = s[k]
            nodes += 1
            d += 1
            before = _open_cells(child)
            ok = _propagate(child, _place(child, s[_GUESS_DIGIT], s[_GUESS_BAND], s[_GUESS_BIT]))
            s = child
            before -= 1
        else:  # the subtree of stack[d] is done: take back the guess that led to it
            if d == 0:
                break
            d -= 1
            backtracks += 1
            s = stack[d]
            digit = s[_GUESS_DIGIT]
            s[3 * digit + s[_GUESS_BAND]] &= ~s[_GUESS_BIT]
            before = _open_cells(s)
            ok = _propagate(s, 1 << (3 * digit + s[_GUESS_BAND]))
        if not ok:
            resume = _BACK
            continue
        left = _open_cells(s)
        propagations += before - left
        if left:
            resume = _CHOOSE
            continue
        _record(s, sols, state)
        resume = _BACK
        if state[_FOUND] == sols.shape[0]:
            code = FULL
            break
    state[_DEPTH], state[_NODES], state[_BACKTRACKS] = d, nodes, backtracks
    state[_PROPAGATIONS], state[_RESUME] = propagations, resume
    return code


@njit(cache=True, _nrt=False)
def _start(givens, stack, sols, state):
    """Set up the root from the givens (every slot of state cleared first); CONTRADICTION,
    EXHAUSTED (solved by the rules alone, the solution recorded) or PAUSED (a search must
    follow)."""
    for k in range(SLOTS):
        state[k] = 0
    state[_STARTED] = 1
    root = stack[0]
    if not _begin(givens, root):
        return CONTRADICTION
    given = 0
    for cell in range(81):
        given += givens[cell] != 0
    state[_FIXED] = 81 - given - _open_cells(root)
    state[_PROPAGATIONS] = state[_FIXED]
    if _open_cells(root) == 0:
        _record(root, sols, state)
        return EXHAUSTED
    state[_DEPTH], state[_RESUME] = 0, _CHOOSE
    return PAUSED


@njit(cache=True, _nrt=False)
def _kernel(givens, stack, sols, state, stop):
    """Solve from the givens on the first call (state[_STARTED] 0: the other slots need not
    be cleared), then search until sols is full, stop guesses have been made in all, or the
    space is exhausted; resumable (as fast's general kernel). Solutions found are
    sols[:state[_FOUND]]."""
    if state[_STARTED] == 0:
        code = _start(givens, stack, sols, state)
        if code != PAUSED:
            return code
    return _search(stack, sols, state, stop)


KERNEL = _I8(types.Bytes(_U8, 1, "C", readonly=True), _I8[:, ::1], _U8[:, ::1], _I8[::1], _I8)
"""The kernel's signature: the givens as 81 bytes, the stack, solutions, state, node stop."""


@njit(cache=True, _nrt=False)
def _batch(givens, stack, sols, state, stop, cycle_limit, grids, counts):
    """Solve every row of givens in turn, counting to sols' rows, each within stop guesses and
    (cycle_limit > 0) that many processor cycles: each puzzle's solutions into grids, and
    its count, the kernel's last answer (LATE past the limit), its guesses and its cycles
    into counts. The guesses of all."""
    total = 0
    for i in range(givens.shape[0]):
        begin = _cycles()
        code = _start(givens[i], stack, sols, state)
        while code == PAUSED and state[_NODES] < stop:
            code = _search(stack, sols, state, min(stop, state[_NODES] + SLICE))
            if code == PAUSED and cycle_limit > 0 and _cycles() - begin > cycle_limit:
                code = LATE
        found = state[_FOUND]
        for k in range(found):
            for cell in range(81):
                grids[i, k, cell] = sols[k, cell]
        counts[i, 0], counts[i, 1], counts[i, 2] = found, code, state[_NODES]
        counts[i, 3] = _cycles() - begin
        total += state[_NODES]
    return total


BATCH = _I8(_U8[:, ::1], _I8[:, ::1], _U8[:, ::1], _I8[::1], _I8, _I8, _U8[:, :, ::1], _I8[:, ::1])
"""The batch kernel's signature: every puzzle's givens, the stack, a solution buffer, state,
guesses and cycles allowed per puzzle, every solution found, (count, answer, guesses,
cycles) rows."""


# ------------------------------------------------------------------ Python around the kernels

FIRST_CHUNK = 1024
"""Guesses in the first call (a guess takes about a microsecond: most puzzles need one call)."""
MAX_BUFFER = 64
"""Solutions one kernel call can hold before it hands them over."""

_PREPARED: set[str] = set()


def prepare(batch: bool = False, wait: bool = True) -> bool:
    """Compile (or load from numba's cache) the 9x9 kernel, or with batch its batch entry;
    with ``wait=False``, False when another process is compiling it (nothing done)."""
    kind = "batch" if batch else "single"
    if kind not in _PREPARED:
        if not compile_kernels("fast's 9x9 kernel", [(_batch, BATCH) if batch else (_kernel, KERNEL)],
                               wait=wait):
            return False
        _PREPARED.add(kind)
    return True


_FREE: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
"""Stacks, solution buffers and state arrays of finished calls, taken while in use (so
calls never share)."""


def _work() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A stack, a solution buffer and a state array, reused from a finished call when one is free."""
    return _FREE.pop() if _FREE else (np.empty((DEPTH, WIDTH), np.int64),
                                      np.empty((MAX_BUFFER, 81), np.uint8), np.empty(SLOTS, np.int64))


class _Search:
    """The band kernel as the chunked driver sees it (_fast_drive.Chunked)."""

    __slots__ = ("givens", "sols", "stack", "state")

    def __init__(self, givens: bytes, stack: np.ndarray, sols: np.ndarray, state: np.ndarray) -> None:
        self.givens, self.stack, self.sols, self.state = givens, stack, sols, state

    @property
    def nodes(self) -> int:
        return int(self.state[_NODES])

    def run(self, stop: int) -> int:
        return int(_kernel(self.givens, self.stack, self.sols, self.state, stop))

    def take(self) -> list[tuple[int, ...]]:
        count = int(self.state[_FOUND])
        self.state[_FOUND] = 0
        return [tuple(row) for row in self.sols[:count].tolist()]

    def make_room(self, wanted: int) -> None:
        self.sols = self.sols[:min(len(self.sols), wanted)]

    def grow(self) -> None:
        raise AssertionError("the band kernel never asks for room")

    def paused(self) -> None:
        """Nothing to do between chunks (no restarts)."""


def _go_on(search: _Search, code: int, wanted: int, deadline: float | None,
           node_limit: int | None) -> Drive:
    """The chunked driver from where the first call stopped (code) until wanted more
    solutions are found or the search ends."""
    search.state[_FOUND] = 0
    if code == FULL:
        search.make_room(wanted)
    return drive(search, wanted, deadline, node_limit, FIRST_CHUNK)


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          node_limit: int | None = None) -> Result:
    """Solve a standard 9x9 model with the band kernel; count up to max_solutions solutions.

    Most puzzles need one kernel call, made at once (a time limit of 0 excepted); the
    chunked driver takes over when the search goes on. Kept lean: on the 17-clue set the
    Python here costs about as much as the kernel."""
    start = time.perf_counter()
    if "single" not in _PREPARED:
        prepare()
    work = _work()
    stack, buffer, state = work
    try:
        state[_STARTED] = 0
        sols = buffer[:max_solutions] if max_solutions < MAX_BUFFER else buffer
        givens = bytes(model.givens)
        code, found = PAUSED, []
        if time_limit is None or time_limit > 0:
            first = FIRST_CHUNK if node_limit is None or node_limit > FIRST_CHUNK else node_limit
            code = _kernel(givens, stack, sols, state, first)
            found = [tuple(row) for row in sols[:state[_FOUND]].tolist()]
        limit_hit = budget_hit = False
        if code == PAUSED or (code == FULL and len(found) < max_solutions):
            more, code, limit_hit, budget_hit = _go_on(
                _Search(givens, stack, sols, state), code, max_solutions - len(found),
                None if time_limit is None else start + time_limit, node_limit)
            found += more
        nodes, backtracks, propagations, fixed = state[:4].tolist()
    finally:
        _FREE.append(work)
    stats = Stats(0.0, None, time.perf_counter() - start, nodes, backtracks, propagations,
                  fixed_cells=fixed)
    if code == CONTRADICTION:
        return finish([], True, stats, limit_hit=False, message="the givens contradict each other")
    if code == EXHAUSTED and found:
        return Result(Status.SOLVED, found, True, stats)
    return finish(found, code == EXHAUSTED, stats, limit_hit=limit_hit, budget_hit=budget_hit,
                  message=stop_message(limit_hit, budget_hit))


def solve_batch(givens: np.ndarray, max_solutions: int, node_limit: int | None,
                cycle_limit: int) -> tuple[np.ndarray, np.ndarray]:
    """Every row of givens (uint8[puzzles, 81], checked by the caller) in one compiled call,
    counting each to max_solutions (1 to MAX_BUFFER) within node_limit guesses and
    cycle_limit cycles (0: none): every solution found (uint8[puzzles, max_solutions, 81],
    zeros past each count) and (count, kernel answer, guesses, cycles) rows."""
    prepare(batch=True)
    work = _work()
    stack, buffer, state = work
    grids = np.zeros((len(givens), max_solutions, 81), np.uint8)
    counts = np.zeros((len(givens), 4), np.int64)
    try:
        _batch(givens, stack, buffer[:max_solutions], state,
               (1 << 62) if node_limit is None else node_limit, cycle_limit, grids, counts)
    finally:
        _FREE.append(work)
    return grids, counts
