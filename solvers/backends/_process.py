"""Running a solver program as a killable process (the dimacs and minizinc backends).

The program leads a process group of its own and dies with the process that started it
(Linux's PR_SET_PDEATHSIG). At a time limit it is killed with everything it started, even a
child in a group of its own: MiniZinc's driver starts the solver's executable (fzn-gecode)
in a new process group, which a SIGKILL of the driver's group would leave running, so the
descendants are found first (through /proc) and killed with it. The harness's worker also
kills whatever else a run leaves behind.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

GRACE = 1.0
"""Seconds a program that stops itself at a time limit (MiniZinc's --time-limit) gets past
it to print its last lines before it is killed."""


def execute(command: list[str], timeout: float | None, *,
            death_signal: int = signal.SIGKILL) -> tuple[int | None, str, str]:
    """Run in a new process group: (exit code, stdout, stderr); the code is None when it was
    killed at the timeout, and what it printed before is kept. ``death_signal`` is what it
    gets if this process dies first (SIGTERM lets a driver such as minizinc stop its solver)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               stdin=subprocess.DEVNULL, preexec_fn=lambda: _own_group(death_signal))
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        out, err = kill_tree(process)
        return None, out, err
    except BaseException:
        kill_tree(process)
        raise
    return process.returncode, out, err


def stream_lines(command: list[str], timeout: float | None, on_line: Callable[[str], None], *,
                 death_signal: int = signal.SIGKILL, stderr_tail: int = 2000) -> tuple[int | None, str]:
    """execute, but each line the program prints on stdout goes to ``on_line`` as it comes and
    nothing of stdout is kept (memory bounded by the longest line, however much it prints):
    (exit code, the last ``stderr_tail`` characters of stderr); the code is None when it was
    killed at the timeout. stderr goes to a temporary file, so a chatty program never blocks."""
    deadline = None if timeout is None else time.monotonic() + timeout
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL,
                                   preexec_fn=lambda: _own_group(death_signal))
        assert process.stdout is not None
        try:
            code = _pump(process, process.stdout.fileno(), deadline, on_line)
        except BaseException:
            kill_tree(process)
            raise
        errors.seek(0, os.SEEK_END)
        errors.seek(max(0, errors.tell() - stderr_tail))
        return code, errors.read().decode(errors="replace")


def _pump(process: subprocess.Popen[bytes], fd: int, deadline: float | None,
          on_line: Callable[[str], None]) -> int | None:
    """Hand each whole line read from ``fd`` on until it closes (then the exit code) or the
    deadline passes (then the program is killed: None)."""
    pending = b""
    while True:
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            kill_tree(process)
            return None
        if not select.select([fd], [], [], remaining)[0]:
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            if pending:
                on_line(pending.decode(errors="replace"))
            return process.wait()
        *lines, pending = (pending + chunk).split(b"\n")
        for line in lines:
            on_line(line.decode(errors="replace"))


def _own_group(death_signal: int) -> None:
    """In the child: lead a new process group, and get death_signal when the parent dies (Linux)."""
    os.setpgid(0, 0)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, death_signal)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def kill_tree(process: subprocess.Popen[str] | subprocess.Popen[bytes]) -> tuple[str, str]:
    """Kill the program, its process group and every process it started (their groups too),
    reap it, and return what it had printed."""
    _signal_group(process.pid, signal.SIGSTOP)  # its group forks nothing more meanwhile
    for pid in descendants(process.pid):
        try:
            group = os.getpgid(pid)
        except ProcessLookupError:
            continue
        if group != os.getpgrp():
            _signal_group(group, signal.SIGKILL)
        _signal(pid, signal.SIGKILL)
    _signal_group(process.pid, signal.SIGKILL)
    out, err = process.communicate()
    return _text(out), _text(err)


def _text(printed: str | bytes | None) -> str:
    return printed.decode(errors="replace") if isinstance(printed, bytes) else printed or ""


def descendants(root: int) -> list[int]:
    """The processes descended from ``root`` (children first), read from /proc; [] elsewhere."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = entry.read_text()
        except OSError:
            continue
        parent = int(text[text.rindex(")") + 2:].split()[1])
        parents.setdefault(parent, []).append(int(entry.parent.name))
    found, frontier = [], [root]
    while frontier:
        children = [child for pid in frontier for child in parents.get(pid, ())]
        found += children
        frontier = children
    return found


def _signal_group(group: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, number)


def _signal(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, number)
