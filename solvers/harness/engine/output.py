r"""What a worker prints (its stdout, its stderr, its children's), forwarded to this process's
stderr escaped, labelled and bounded.

A backend can write anything to its file descriptors 1 and 2: print(), a C library, a child
process. A worker points both at a pipe of its own (worker.py), never at a terminal, and a
thread of the parent (``OutputForwarder``) reads that pipe with ``os.read`` as fast as the
worker writes, so the worker never waits on the parent, nor the parent on it. What arrives
is decoded (bytes that are not UTF-8 shown as ``\xff``), passed through
``terminal.printable`` keeping newlines and tabs (every other control character and escape
sequence shown as ``\x1b``...), each line led by ``[label]`` (the configuration the worker
is running, ``[worker]`` before its first), at most ``RUN_BYTES`` of each run, then one
line saying how many bytes more were dropped. The thread ends when every writer (the
worker and its children) has closed the pipe, or soon after ``close`` (the worker ended,
a stray that escaped it still holding the pipe).

>>> import os
>>> reader, writer = os.pipe()
>>> shown = []
>>> forwarder = OutputForwarder(reader, shown.append, limit=23)
>>> forwarder.run_started("mine")
>>> _ = os.write(writer, b"hi \x1b]0;owned\x07\n\xff or \x1b[2J and more")
>>> os.close(writer)
>>> forwarder.close()
>>> print("".join(shown), end="")
[mine] hi \x1b]0;owned\x07
[mine] \xff or \x1b[2J
[mine] ... 9 more bytes of this run's output dropped (at most 23 bytes of a run's are shown)
"""
from __future__ import annotations

import codecs
import os
import select
import sys
import threading
from collections.abc import Callable

from .terminal import printable

RUN_BYTES = 64 * 1024
"""Bytes of each run's output forwarded; the rest is read and counted, never shown."""
POLL_SECONDS = 0.25
"""How often a reader waiting on a quiet pipe looks whether it has been closed."""
_CHUNK = 65536
_LAST_READS = 16
"""Reads a closed forwarder still makes (a stray that escaped may write for ever)."""


def write_stderr(text: str) -> None:
    """Write to this process's stderr (whatever sys.stderr is now, if any) and flush it."""
    if sys.stderr is not None:
        sys.stderr.write(text)
        sys.stderr.flush()


class OutputForwarder:
    """Reads a worker's output pipe ``fd`` (owned: closed when done) in a daemon thread and
    hands its lines, escaped and labelled, to ``write`` (this process's stderr), at most
    ``limit`` bytes of each run."""

    def __init__(self, fd: int, write: Callable[[str], None] = write_stderr, *, limit: int = RUN_BYTES):
        self._fd, self._write, self._limit = fd, write, limit
        self._label = self._next_label = "worker"
        self._runs = self._seen = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")("backslashreplace")
        self._line = ""
        self._kept = self._dropped = 0
        self._silent = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, name=f"worker output {fd}", daemon=True)
        self._thread.start()

    def run_started(self, label: str) -> None:
        """What the worker writes from now on belongs to a new run of configuration ``label``
        (never blocks: the reading thread takes the change up)."""
        self._next_label = printable(label)
        self._runs += 1

    def close(self, timeout: float = 2.0) -> None:
        """Stop reading once the pipe is empty and wait (up to ``timeout`` s, on a loaded
        machine) for what was read to be written; called when the worker has been ended, so
        the pipe is at its end at once (or within POLL_SECONDS when an escaped stray holds it)."""
        self._stop.set()
        self._thread.join(timeout)

    @property
    def reading(self) -> bool:
        """Whether the reading thread is still running."""
        return self._thread.is_alive()

    def _read(self) -> None:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        last_reads = _LAST_READS
        try:
            while last_reads > 0:
                if not poller.poll(POLL_SECONDS * 1000):
                    if self._stop.is_set():
                        break
                    continue
                try:
                    data = os.read(self._fd, _CHUNK)
                except OSError:
                    break
                if not data:
                    break
                self._take(data)
                if self._stop.is_set():
                    last_reads -= 1
            self._end_run()
        finally:
            os.close(self._fd)

    def _take(self, data: bytes) -> None:
        if self._seen != self._runs:  # a new run since the last read
            self._end_run()
            self._seen, self._label = self._runs, self._next_label
        shown = data[:max(0, self._limit - self._kept)]
        self._kept += len(shown)
        self._dropped += len(data) - len(shown)
        if shown:
            *lines, self._line = (self._line + self._decoder.decode(shown)).split("\n")
            self._emit(lines)

    def _end_run(self) -> None:
        """Write the run's unfinished line and how much of its output was dropped."""
        rest = self._line + self._decoder.decode(b"", final=True)
        lines = [rest] if rest else []
        if self._dropped:
            lines.append(f"... {self._dropped} more bytes of this run's output dropped "
                         f"(at most {self._limit} bytes of a run's are shown)")
        self._emit(lines)
        self._line, self._kept, self._dropped = "", 0, 0

    def _emit(self, lines: list[str]) -> None:
        if not lines or self._silent:
            return
        try:
            self._write("".join(f"[{self._label}] {printable(line, lines=True)}\n" for line in lines))
        except (OSError, ValueError):  # stderr closed or gone: read on, write no more
            self._silent = True
