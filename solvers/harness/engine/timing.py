"""Timing rules, one place: what a run's wall and CPU time are, and what counts as a timeout.

* One clock: a run's ``time_s`` is the harness's wall time over the backend's call and
  nothing else (not the hand-over, not sending the solutions back). The worker stamps the
  call's start and end on ``time.monotonic`` (on Linux CLOCK_MONOTONIC, the same clock in
  the parent and every worker), wall first and CPU second at the start, CPU first and wall
  second at the end, so the CPU span lies inside the wall span (``Clocks``). CPU time is
  the worker's own (all its threads) plus any child processes it waited for. No garbage
  collection runs inside the span (``collector_paused``: bench/README.md measures why).
  The clocks are read through references taken when this module is imported, before any
  backend is: a backend that replaces ``time.monotonic`` (or ``os.times``,
  ``getrusage``...) in its own module does not move them.
* The backend's own time (its ``encode_time`` plus ``solve_time``, as it reported them) is
  a field of its own (``backend_s``, tasks.backend_seconds), never the run's time: it was
  measured inside the call, so it cannot be longer than ``time_s``; a backend that says
  otherwise has its number left out and the run's message says so.
* The parent checks the worker's stamps against its own clock (``judged_times``): it knows
  when it handed the task over and between which of its looks the worker's two marks
  arrived (``started``, written just before the call; ``finished``, written just after it
  with the stamps; the answer, with the solutions, comes after that and is not timed). The
  stamps must lie inside what the parent saw: a worker claiming more than that is
  impossible, and one claiming much less (beyond ``WALL_SLACK``) is not believed either;
  its CPU time must agree with /proc's count within ``CPU_SLACK``. A run that fails a check
  is recorded at the parent's own (longer) readings, with a note saying what the worker
  claimed. The parent's clock decides whether a run was late.
* A run killed from outside has the CPU its worker used as /proc read it just before the
  kill (``proc_cpu_seconds``, in clock ticks of 10 ms), or None where that cannot be read:
  never a made-up 0.0. ``cpu_s`` None means "not measured" everywhere.
* ``--cpu-limit`` is enforced by the kernel's per-process CPU timer (ITIMER_PROF, set by
  the worker around the call, its signal left at its default action: the worker ends);
  the parent reads that death as a timeout at the CPU limit.
* A run that ends after its limit (wall, or CPU when one is set) is a timeout whatever it
  returned, and is recorded AT the wall limit, its CPU capped at the CPU limit (the wall
  limit when none is set); so is a backend's own TIMEOUT and a worker killed after the
  grace period. ``termination`` says which limit ended it, in BenchExec's words:
  ``walltime`` or ``cputime`` (``memory`` for a memory-out). The grace the runner allows
  before killing never reaches a score.
"""
from __future__ import annotations

import contextlib
import copy
import gc
import os
import resource
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

from ...result import Status
from ..tasks import Outcome, backend_seconds, own_time_fits

LATE_STATUSES = (Status.SOLVED, Status.UNSAT, Status.UNKNOWN, Status.TIMEOUT)
"""Statuses turned into a timeout at the limit when the run took longer than its limit."""
WALLTIME, CPUTIME, MEMORY = "walltime", "cputime", "memory"
"""What ended a run early (BenchExec's ``terminationreason`` words)."""
ANSWER_SIZE = "answer-size"
"""What ended a run whose answer was too large to send back (an error that fails the exit
status: ``--count`` counts without sending the grids)."""
CPU_LIMIT_SIGNALS = (signal.SIGPROF, signal.SIGXCPU)
"""A worker killed by one of these was stopped by its CPU limit."""


_TICK = os.sysconf("SC_CLK_TCK")
"""The clock ticks a second /proc counts CPU time in."""
_wall_clock = time.monotonic
_own_cpu = time.process_time
_usage = resource.getrusage
_CHILDREN = resource.RUSAGE_CHILDREN
WALL_SLACK = (0.1, 0.1)
"""How far below the least the parent saw of a call a worker's wall time may be (seconds,
share): a mark written, then the worker paused by a loaded machine before its clock read."""
STAMP_SLACK = 0.002
"""How far outside what the parent saw a worker's stamps may lie (seconds): the two
processes read one clock, so only the order of reading it and writing a mark."""
SHIPPING = (0.5, 1e-5)
"""The longest the answer may take after the ``finished`` mark (seconds, and seconds per
value of its solutions: building and sending the frame); an answer later than that makes
the parent's whole span from hand-over to answer the call's reading (a backend that wrote
a false ``finished`` mark early does not hide its work as shipping)."""
CPU_SLACK = (0.05, 0.1)
"""How far from /proc's count a worker's CPU time may be (seconds, share): two 10 ms
ticks, and the CPU of taking the task and sending the answer."""


def children_cpu() -> float:
    """CPU seconds used so far by this process's finished (waited-for) children."""
    children = _usage(_CHILDREN)
    return children.ru_utime + children.ru_stime


def cpu_clock_resolution(samples: int = 200) -> float:
    """The CPU clock's resolution, measured: the smallest step it was seen to take (at least
    what the platform declares). The rule "CPU time never exceeds wall time by more than
    this" holds for single-threaded backends."""
    declared = time.get_clock_info("process_time").resolution
    steps: list[float] = []
    last = time.process_time()
    while len(steps) < samples:
        now = time.process_time()
        if now != last:
            steps.append(now - last)
            last = now
    return max(declared, min(steps))


class Clocks:
    """Wall and CPU seconds over one span; the CPU span nested inside the wall span.
    ``children_s`` is the part of ``cpu_s`` used by child processes the span waited for;
    ``span`` the wall stamps of its start and end (time.monotonic, the parent's clock too)."""

    def __init__(self) -> None:
        self.wall_s = self.cpu_s = self.children_s = 0.0
        self.span = (0.0, 0.0)
        self._wall = self._own = self._children = 0.0

    def start(self) -> None:
        self._wall = _wall_clock()
        self._own, self._children = _own_cpu(), children_cpu()

    def stop(self) -> None:
        own, children = _own_cpu(), children_cpu()
        end = _wall_clock()
        self.span = (self._wall, end)
        self.wall_s = end - self._wall
        self.children_s = children - self._children
        self.cpu_s = own - self._own + self.children_s


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection inside the block: collect first (outside the timed span), disable
    during, re-enable after (as ``timeit`` does). The worker freezes what it imported
    (``gc.freeze``) so the collection before each run is short."""
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextlib.contextmanager
def cpu_limited(seconds: float | None) -> Iterator[None]:
    """Within the block this process ends (SIGPROF, default action) once it has used
    ``seconds`` of CPU (all its threads; not its children): the kernel enforces it."""
    if seconds is None:
        yield
        return
    old = signal.signal(signal.SIGPROF, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def proc_cpu_seconds(pid: int | str = "self") -> float | None:
    """CPU seconds a process has used (user + system, its own and its waited-for children's),
    as /proc/PID/stat counts them (clock ticks); None where that cannot be read."""
    split = proc_cpu_split(pid)
    return None if split is None else split[0] + split[1]


def proc_cpu_split(pid: int | str = "self") -> tuple[float, float] | None:
    """A process's own CPU seconds (all its threads) and its waited-for children's, as
    /proc/PID/stat counts them (clock ticks); None where that cannot be read."""
    try:  # os.open and os.read: a third of open()'s cost, read once per run and hand-over
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
        try:
            data = os.read(fd, 4096)
        finally:
            os.close(fd)
        fields = data.rsplit(b")", 1)[1].split()
        own, children = (int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14]))
        return own / _TICK, children / _TICK
    except (OSError, ValueError, IndexError):
        return None


def within(value: float, reference: float, slack: tuple[float, float]) -> bool:
    """Whether ``value`` is no further below ``reference`` than the slack allows."""
    return value >= reference - slack[0] - slack[1] * reference


Window = tuple[float, float]
"""Between which two of the parent's looks (time.monotonic) a message arrived: after the
first, by the second."""


@dataclass(frozen=True)
class Seen:
    """What the parent saw of one run on its own clock: when it handed the task over
    (``sent``), when the worker's ``started`` mark, its ``finished`` mark and its answer
    arrived (None: no such mark came before the answer), the stamps of the call the
    ``finished`` mark carried (``span``), and how many values the answer's solutions hold."""

    sent: float
    answered: Window
    started: Window | None = None
    finished: Window | None = None
    span: tuple[float, float] | None = None
    values: int = 0

    @property
    def shipping_believed(self) -> bool:
        """Whether the answer came soon enough after the ``finished`` mark to be only the
        solutions' sending (SHIPPING)."""
        if self.finished is None:
            return False
        allowed = SHIPPING[0] + SHIPPING[1] * self.values
        return self.answered[0] - self.finished[1] <= allowed

    def call(self) -> tuple[float, float, float]:
        """The least and the most the call can have taken by the parent's clock, and the
        latest it can have ended: from the ``finished`` mark when it came (and the answer
        soon after it), else from the answer, hand-over and shipping included."""
        end = self.finished if self.shipping_believed and self.finished is not None else self.answered
        began = self.started[1] if self.started is not None else self.sent
        return max(0.0, end[0] - began), max(0.0, end[1] - self.sent), end[1]


def judged_times(outcome: Outcome, seen: Seen, cpu: tuple[float, float] | None,
                 worker_children: float | None, children_clean: bool) -> Outcome:
    """The outcome with the times the record keeps, checked against the parent's readings:
    ``seen`` (its clock), ``cpu`` what /proc says the worker used from the hand-over to the
    answer (its own, its waited-for children's; None if unread).

    The worker's times stand when they fit: its stamps inside what the parent saw (from the
    hand-over to the ``finished`` mark's arrival: more is impossible), its wall time not
    further below the least the parent saw than WALL_SLACK; its own CPU not above /proc's
    count and not below it by more than CPU_SLACK and the wall time the answer took to come
    after the ``finished`` mark; its children's not above /proc's (nor below, when
    ``children_clean``: no strays of an earlier run were reaped meanwhile). Otherwise both
    become the parent's readings (the most it saw) and the message says what the worker
    claimed. A backend's own time longer than the call is noted too (tasks.backend_seconds
    leaves it out of the record).

    >>> from solvers.harness.tasks import Outcome
    >>> seen = Seen(sent=0.0, started=(0.0, 0.25), finished=(0.75, 0.75), answered=(1.5, 1.5),
    ...             span=(0.25, 0.75), values=25 * 161_280)
    >>> honest = judged_times(Outcome(Status.SOLVED, time_s=0.5, cpu_s=0.49), seen, (1.4, 0.0), 0.0, True)
    >>> honest.time_s, honest.cpu_s, honest.message
    (0.5, 0.49, '')
    >>> forged = Seen(sent=0.0, answered=(2.6, 2.6), finished=(2.6, 2.6), span=(0.5, 0.50002))
    >>> claimed = judged_times(Outcome(Status.SOLVED, time_s=2e-05, cpu_s=1e-05), forged, (0.01, 0.0), 0.0, True)
    >>> claimed.time_s, claimed.cpu_s, claimed.message
    (2.6, 0.01, "the worker's clocks said 2e-05 s (CPU 1e-05 s); the harness measured 2.6 s (CPU 0.01 s)")
    """
    least, most, ended = seen.call()
    claim, notes = outcome.time_s, []
    if seen.span is not None:
        start, end = seen.span
        claim = end - start
        if not seen.sent - STAMP_SLACK <= start <= end <= ended + STAMP_SLACK:
            notes.append(f"impossible: the call's stamps lie outside the {most:.3g} s the harness saw")
    fits = not notes and claim <= most + STAMP_SLACK and within(claim, least, WALL_SLACK)
    measured_cpu = None if cpu is None else cpu[0] + cpu[1]
    if cpu is not None and outcome.cpu_s is not None and worker_children is not None:
        own, children = outcome.cpu_s - worker_children, worker_children
        shipping = max(0.0, seen.answered[1] - seen.finished[0]) if seen.shipping_believed and \
            seen.finished is not None else 0.0
        fits = fits and within(own + shipping, cpu[0], CPU_SLACK) and within(cpu[0], own, CPU_SLACK)
        fits = fits and within(cpu[1], children, CPU_SLACK)
        fits = fits and (not children_clean or within(children, cpu[1], CPU_SLACK))
    elif cpu is not None:
        fits = False  # a worker that measured no CPU, or would not say whose it was
    if fits:
        judged = outcome
        if seen.span is not None:  # a copy with the stamps' time (copy.copy: a fraction of replace's cost)
            judged = copy.copy(outcome)
            judged.time_s = claim
        return _own_time_noted(judged)
    claimed = f"{claim:.3g} s" + ("" if outcome.cpu_s is None else f" (CPU {outcome.cpu_s:.3g} s)")
    found = f"{most:.3g} s" + ("" if measured_cpu is None else f" (CPU {measured_cpu:.3g} s)")
    notes.append(f"the worker's clocks said {claimed}; the harness measured {found}")
    note = "; ".join(notes)
    return _own_time_noted(replace(
        outcome, time_s=most, cpu_s=measured_cpu if cpu is not None else outcome.cpu_s,
        message=f"{outcome.message}; {note}" if outcome.message else note))


def _own_time_noted(outcome: Outcome) -> Outcome:
    """The outcome, its message noting a backend's own time longer than the call (impossible:
    it was measured inside the call; the record leaves it out)."""
    own = backend_seconds(outcome.stats, None)
    if own is None or own_time_fits(own, outcome.time_s):
        return outcome
    note = (f"the backend's own clock said {own:.3g} s, longer than the {outcome.time_s:.3g} s "
            "the harness measured around the call: not kept")
    return replace(outcome, message=f"{outcome.message}; {note}" if outcome.message else note)


def enforce_limit(outcome: Outcome, limit: float, cpu_limit: float | None = None,
                  wall: float | None = None) -> Outcome:
    """The outcome as scored: a timeout at the limit when over either limit, or a TIMEOUT of its own.
    ``wall``, when given, is the harness's own reading of the run's wall time (the least it
    can be): it decides whether the run was late, beside the outcome's ``time_s``.

    >>> from solvers.harness.tasks import Outcome
    >>> late = enforce_limit(Outcome(Status.SOLVED, [(1,)], time_s=1.3, cpu_s=1.2), 1.0)
    >>> late.status.value, late.time_s, late.cpu_s, late.solutions, late.termination
    ('timeout', 1.0, 1.0, [], 'walltime')
    >>> enforce_limit(Outcome(Status.TIMEOUT, time_s=0.7), 1.0).time_s
    1.0
    >>> enforce_limit(Outcome(Status.SOLVED, time_s=0.7), 1.0).status.value
    'solved'
    >>> hog = enforce_limit(Outcome(Status.SOLVED, [(1,)], time_s=0.7, cpu_s=1.4), 5.0, cpu_limit=1.0)
    >>> hog.status.value, hog.time_s, hog.cpu_s, hog.termination
    ('timeout', 5.0, 1.0, 'cputime')
    """
    if outcome.status not in LATE_STATUSES:
        return outcome
    cap = cpu_limit if cpu_limit is not None else limit
    cpu = None if outcome.cpu_s is None else min(outcome.cpu_s, cap)
    if outcome.status == Status.TIMEOUT:
        return replace(outcome, time_s=limit, cpu_s=cpu, solutions=[], complete=False,
                       termination=outcome.termination or WALLTIME)
    over_cpu = cpu_limit is not None and outcome.cpu_s is not None and outcome.cpu_s > cpu_limit
    took = max(outcome.time_s, wall if wall is not None else 0.0)
    if took <= limit and not over_cpu:
        return outcome
    if over_cpu:
        message = (f"returned {outcome.status.value} after {outcome.cpu_s:.3g} s of CPU, past the "
                   f"CPU limit of {cpu_limit:g} s: counted as a timeout")
    else:
        message = (f"returned {outcome.status.value} after {took:.3g} s, "
                   f"past the limit of {limit:g} s: counted as a timeout")
    return replace(outcome, status=Status.TIMEOUT, time_s=limit, cpu_s=cpu, solutions=[],
                   complete=False, message=message, termination=CPUTIME if over_cpu else WALLTIME)
