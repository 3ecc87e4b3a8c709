"""Timing rules, one place: what a run's wall and CPU time are, and what counts as a timeout.

* Wall and CPU time are read in the worker over the same span, the backend's call and
  nothing else: wall first and CPU second at the start, CPU first and wall second at the
  end, so the CPU span lies inside the wall span (``Clocks``). CPU time is the worker's
  own (all its threads) plus any child processes it waited for. No garbage collection
  runs inside the span (``collector_paused``: bench/README.md measures why). The clocks
  are read through references taken when this module is imported, before any backend
  is: a backend that replaces ``time.perf_counter`` (or ``os.times``, ``getrusage``...)
  does not move them.
* The parent checks those numbers against its own (``judged_times``): its wall clock
  from handing the task over to the answer's arrival, and the worker's CPU as /proc
  counts it over the same span. The parent's wall clock decides whether a run was late;
  the worker's (finer) numbers are recorded when they agree with the parent's within
  ``WALL_SLACK`` / ``CPU_SLACK``, the parent's otherwise, with a note saying so.
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
import gc
import os
import resource
import signal
import time
from collections.abc import Iterator
from dataclasses import replace

from ...result import Status
from ..tasks import Outcome

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
_wall_clock = time.perf_counter
_own_cpu = time.process_time
_usage = resource.getrusage
_CHILDREN = resource.RUSAGE_CHILDREN
WALL_SLACK = (0.1, 0.1)
"""How far below the parent's wall span a worker's wall time may be (seconds, share of the
span): the hand-over and a busy parent's delay before it reads the answer."""
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
    ``children_s`` is the part of ``cpu_s`` used by child processes the span waited for."""

    def __init__(self) -> None:
        self.wall_s = self.cpu_s = self.children_s = 0.0
        self._wall = self._own = self._children = 0.0

    def start(self) -> None:
        self._wall = _wall_clock()
        self._own, self._children = _own_cpu(), children_cpu()

    def stop(self) -> None:
        own, children = _own_cpu(), children_cpu()
        self.wall_s = _wall_clock() - self._wall
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


def judged_times(outcome: Outcome, wall: tuple[float, float], cpu: tuple[float, float] | None,
                 worker_children: float | None, children_clean: bool) -> Outcome:
    """The outcome with the times the record keeps, checked against the parent's readings:
    ``wall`` from handing the task over to the answer's arrival (at least, at most: a
    parent busy judging another run reads an answer late, and knows only between which
    of its looks it came), ``cpu`` what /proc says the worker used meanwhile (its own,
    its waited-for children's; None if unread).

    The worker's times stand when they fit: wall inside the parent's span and not further
    below its least value than WALL_SLACK; its own CPU within CPU_SLACK of /proc's, its children's not
    above /proc's (nor below, when ``children_clean``: no strays of an earlier run were
    reaped meanwhile). Otherwise both become the parent's readings and the message says
    what the worker claimed.

    >>> from solvers.harness.tasks import Outcome
    >>> honest = judged_times(Outcome(Status.SOLVED, time_s=0.5, cpu_s=0.49), (0.52, 0.52), (0.5, 0.0), 0.0, True)
    >>> honest.time_s, honest.cpu_s, honest.message
    (0.5, 0.49, '')
    >>> forged = judged_times(Outcome(Status.SOLVED, time_s=2e-05, cpu_s=1e-05), (2.6, 2.6), (0.01, 0.0), 0.0, True)
    >>> forged.time_s, forged.cpu_s, forged.message
    (2.6, 0.01, "the worker's clocks said 2e-05 s (CPU 1e-05 s); the harness measured 2.6 s (CPU 0.01 s)")
    """
    least, most = wall
    fits = outcome.time_s <= most + 0.001 and within(outcome.time_s, least, WALL_SLACK)
    measured_cpu = None if cpu is None else cpu[0] + cpu[1]
    if cpu is not None and outcome.cpu_s is not None and worker_children is not None:
        own, children = outcome.cpu_s - worker_children, worker_children
        fits = fits and within(own, cpu[0], CPU_SLACK) and within(cpu[0], own, CPU_SLACK)
        fits = fits and within(cpu[1], children, CPU_SLACK)
        fits = fits and (not children_clean or within(children, cpu[1], CPU_SLACK))
    elif cpu is not None:
        fits = False  # a worker that measured no CPU, or would not say whose it was
    if fits:
        return outcome
    claimed = f"{outcome.time_s:.3g} s" + ("" if outcome.cpu_s is None else f" (CPU {outcome.cpu_s:.3g} s)")
    found = f"{most:.3g} s" + ("" if measured_cpu is None else f" (CPU {measured_cpu:.3g} s)")
    note = f"the worker's clocks said {claimed}; the harness measured {found}"
    return replace(outcome, time_s=most, cpu_s=measured_cpu if cpu is not None else outcome.cpu_s,
                   message=f"{outcome.message}; {note}" if outcome.message else note)


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
