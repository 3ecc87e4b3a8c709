"""SIGTERM and SIGHUP handled like Ctrl-C: the run stops, its workers are ended, what
finished is kept, and the exit status is 128 + the signal's number (130 for Ctrl-C).
A closed stdout or stderr (``| head``) never stops a command from writing its files:
stderr is guarded (``guard_stderr``), stdout quieted where the summary is printed.

>>> exit_status_for()
130
"""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any, TextIO

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
received: list[int] = []
"""The stop signals received so far in this process (the last one sets the exit status)."""


def _stop(signum: int, _frame: FrameType | None) -> None:
    received.append(signum)
    raise KeyboardInterrupt(signal.Signals(signum).name)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise KeyboardInterrupt, as Ctrl-C does."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {signum: signal.signal(signum, _stop) for signum in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in old.items():
            signal.signal(signum, handler)


def exit_status_for() -> int:
    """The exit status of an interrupted command: 128 + the last stop signal, else 130."""
    return 128 + received[-1] if received else 130


def quiet_stdout() -> None:
    """After a broken pipe on stdout: send the rest of stdout to /dev/null, quietly."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


class _GuardedStream:
    """A text stream whose first broken pipe sends the rest to /dev/null instead of raising."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._silence()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._silence()

    def _silence(self) -> None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, self._stream.fileno())
        finally:
            os.close(devnull)
        try:
            self._stream.flush()  # what was waiting now goes to /dev/null
        except BrokenPipeError:
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def guard_stderr() -> Iterator[None]:
    """Within the block, a closed stderr is silenced rather than raising BrokenPipeError, so a
    message about one file written never stops the next from being written."""
    original = sys.stderr
    sys.stderr = _GuardedStream(original)  # type: ignore[assignment,unused-ignore]  # a stand-in with the writes guarded
    try:
        yield
    finally:
        sys.stderr = original


def reopen_closed_streams() -> None:
    """Give a closed standard stream (``2>&-``, ``>&-``, ``<&-``) /dev/null in its place, so
    no file the command opens later takes its number (a worker's stderr would write into it)
    and a message to it is dropped rather than failing the command. Called first by the
    command line."""
    for fd, name, mode in ((0, "stdin", os.O_RDONLY), (1, "stdout", os.O_WRONLY), (2, "stderr", os.O_WRONLY)):
        try:
            os.fstat(fd)
            continue
        except OSError:
            pass
        devnull = os.open(os.devnull, mode)
        if devnull != fd:
            os.dup2(devnull, fd)
            os.close(devnull)
        if getattr(sys, name) is None:  # the process's own stream, never closed
            setattr(sys, name, open(fd, "r" if fd == 0 else "w", encoding="utf-8", closefd=False))  # noqa: SIM115 - it stays open as sys's stream
