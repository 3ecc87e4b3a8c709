"""SIGTERM and SIGHUP handled like Ctrl-C: the run stops, its workers are ended, what
finished is kept, and the exit status is 128 + the signal's number (130 for Ctrl-C).

>>> exit_status_for(None)
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


def exit_status_for(status: int | None) -> int:
    """The exit status of an interrupted command: 128 + the last stop signal, else 130."""
    return 128 + received[-1] if received else 130


def quiet_stdout() -> None:
    """After a broken pipe on stdout: send the rest of stdout to /dev/null, quietly."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
