"""Progress of the long commands (run, solve, ladder, rate, generate, study; explain and tree
while a solve runs long) on stderr, never on stdout: on a terminal a bar with the total and
the time left; otherwise (a log, a pipe, CI) a plain line every tenth of the work or every
PLAIN_EVERY_S seconds, whichever comes first, e.g. ``solving: 120/400 runs, 30%, about 1 min
10 s left``.

The time left leaves out what is not work: numba's first compile of ``fast`` (a worker's
loading and preparing of a backend, reported with each outcome as ``load_s``; ladder's
compile, timed with ``paused``), which would otherwise make the estimate jump to many minutes
while the compile runs and fall back after it.

The total is counted before the work starts (count_runs: the puzzles of each file counted
by the same reader, times the configurations and repetitions); where it cannot be known
(standard input, a FIFO) the line says how many so far. Work that turns out not to be
needed (a bad puzzle, a run a resumed sweep already holds) is taken off the total.
"""
from __future__ import annotations

import contextlib
import os
import stat
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any, TextIO

from models import count_puzzles

PLAIN_EVERY_S = 10.0
"""The longest a plain progress line waits when less than a tenth of the work got done."""
FALLBACK_SIZE = (80, 24)
"""The terminal's columns and lines where it reports 0 (as a new pseudo-terminal, some
containers and CI runners do) and COLUMNS or LINES says nothing: tqdm draws nothing at
all on a terminal of 0 lines."""


def terminal_size(stream: TextIO) -> tuple[int, int]:
    """The terminal's (columns, lines); where it reports 0, COLUMNS and LINES, else FALLBACK_SIZE."""
    try:
        reported = os.get_terminal_size(stream.fileno())
        columns, lines = reported.columns, reported.lines
    except (AttributeError, ValueError, OSError):
        columns, lines = 0, 0
    return (_or_environment(columns, "COLUMNS", FALLBACK_SIZE[0]),
            _or_environment(lines, "LINES", FALLBACK_SIZE[1]))


def _or_environment(reported: int, name: str, fallback: int) -> int:
    if reported > 0:
        return reported
    try:
        return max(int(os.environ.get(name, "")), 1)
    except ValueError:
        return fallback


def duration(seconds: float) -> str:
    """A span of time as people say it: '8.2 s', '1 min 10 s', '2 h 5 min'.

    >>> [duration(s) for s in (0.01, 0.4, 8.2, 70, 3725)]
    ['under 0.1 s', '0.4 s', '8.2 s', '1 min 10 s', '1 h 2 min']
    """
    if seconds < 0.05:
        return "under 0.1 s"
    if seconds < 9.95:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


def count_runs(paths: Sequence[str], fmt: str, hex16: bool, per_puzzle: int) -> int | None:
    """The runs a sweep over these files will make: their puzzles (good and bad, counted
    by the reader without parsing) times ``per_puzzle``; None when one of them is standard
    input or a FIFO (read once only) or cannot be read (the sweep itself will say why)."""
    puzzles = 0
    for path in paths:
        try:
            if path == "-" or stat.S_ISFIFO(os.stat(path).st_mode):
                return None
            puzzles += count_puzzles(path, fmt=fmt, hex16=hex16)
        except OSError:
            return None
    return puzzles * per_puzzle


class Progress:
    """Counts finished work and shows it on ``stream`` (stderr): a tqdm bar on a terminal,
    plain lines otherwise. Use as a context manager; ``advance`` per piece of work, or call
    it as run_tasks' ``on_outcome(number, outcome)``."""

    def __init__(self, total: int | None, *, what: str = "solving", unit: str = "run",
                 stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic,
                 enabled: bool = True):
        self.total, self.what, self.unit = total, what, unit
        self.stream = stream if stream is not None else sys.stderr
        self.clock, self.done = clock, 0
        self.started = self._said_at = clock()
        self.excluded = 0.0
        """Seconds of the elapsed time that were not work (a compile), left out of the time left."""
        self.parallel = 1
        """Workers running at once: a worker's loading time is 1/parallel of the sweep's."""
        self._said_step, self._said_done, self._ended = 0, 0, False
        self._bar: Any = None
        self.plain = False
        if not enabled:
            return
        if self.stream.isatty():
            from tqdm import tqdm  # noqa: PLC0415 - only the command line shows progress

            columns, lines = terminal_size(self.stream)
            self._bar = tqdm(total=total, unit=unit, desc=what, file=self.stream, leave=False,
                             ncols=columns, nrows=lines, dynamic_ncols=False)
        else:
            self.plain = True

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close(finished=kind is None)

    def __call__(self, _number: int = 0, outcome: object = None) -> None:
        self.excluded += (getattr(outcome, "load_s", 0.0) or 0.0) / max(self.parallel, 1)
        self.advance()

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Time spent inside is not work (a compile): left out of the time left."""
        began = self.clock()
        try:
            yield
        finally:
            self.excluded += self.clock() - began

    def advance(self, count: int = 1) -> None:
        """``count`` more pieces of work finished."""
        self.done += count
        if self._bar is not None:
            self._bar.update(count)
        elif self.plain and self._due():
            self._say()

    def shrink(self, count: int) -> None:
        """Take ``count`` pieces of work off the total (not needed after all)."""
        if self.total is None or count <= 0:
            return
        self.total = max(self.total - count, self.done)
        if self._bar is not None:
            self._bar.total = self.total
            self._bar.refresh()

    def note(self, text: str) -> None:
        """A line for the user that does not break the bar."""
        if self._bar is not None:
            self._bar.write(text, file=self.stream)
        else:
            print(text, file=self.stream, flush=True)

    def close(self, finished: bool = True) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self.plain and finished and self.done != self._said_done:
            self._ended = True
            self._say()
        self.plain = False

    def line(self) -> str:
        """The plain line for now: 'solving: 120/400 runs, 30%, about 1 min 10 s left'."""
        elapsed = self.clock() - self.started
        units = self.unit if (self.total or self.done) == 1 else f"{self.unit}s"
        if not self.total:
            so_far = "took" if self._ended else "so far,"
            return f"{self.what}: {self.done:,} {units} {so_far} {duration(elapsed)}"
        share = f"{self.done:,}/{self.total:,} {units}, {100 * self.done // self.total}%"
        if self.done >= self.total:
            return f"{self.what}: {share}, took {duration(elapsed)}"
        if not self.done:
            return f"{self.what}: {share}"
        left = max(elapsed - self.excluded, 0.0) / self.done * (self.total - self.done)
        said = duration(left)
        return f"{self.what}: {share}, {said if said.startswith('under') else 'about ' + said} left"

    def _due(self) -> bool:
        step = 10 * self.done // self.total if self.total else 0
        if step > self._said_step or self.clock() - self._said_at >= PLAIN_EVERY_S:
            self._said_step = step
            return True
        return False

    def _say(self) -> None:
        self._said_at, self._said_done = self.clock(), self.done
        print(self.line(), file=self.stream, flush=True)


class SolveWatch:
    """Plain lines on stderr while one traced solve (explain, tree) runs long: its steps so far,
    its decisions against the budget and its time against the limit, e.g. ``explain: 409,600
    steps, 5,120 of at most 100,000 decisions, 4.2 s of the 10 s limit (42%)``: the first after
    NOTICE_S, then every PLAIN_EVERY_S; nothing for a solve that ends quickly."""

    NOTICE_S = 2.0

    def __init__(self, what: str, limit_s: float | None, budget: int | None, *,
                 stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic):
        self.what, self.limit_s, self.budget = what, limit_s, budget
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.started = clock()
        self._next = self.started + self.NOTICE_S
        self.said = 0

    def tick(self, steps: int, decisions: int) -> None:
        """The solve's count so far; a line when one is due."""
        now = self.clock()
        if now < self._next:
            return
        self._next = now + PLAIN_EVERY_S
        self.said += 1
        print(self.line(steps, decisions, now - self.started), file=self.stream, flush=True)

    def line(self, steps: int, decisions: int, elapsed: float) -> str:
        """'explain: 409,600 steps, 5,120 of at most 100,000 decisions, 4.2 s of the 10 s limit (42%)'."""
        shares = []
        budget = f" of at most {self.budget:,}" if self.budget else ""
        if self.budget:
            shares.append(decisions / self.budget)
        limit = f" of the {self.limit_s:g} s limit" if self.limit_s else ""
        if self.limit_s:
            shares.append(elapsed / self.limit_s)
        share = f" ({min(max(shares), 1.0):.0%} of what it may take)" if shares else ""
        return (f"{self.what}: {steps:,} steps, {decisions:,}{budget} decisions, "
                f"{duration(elapsed)}{limit}{share}")
