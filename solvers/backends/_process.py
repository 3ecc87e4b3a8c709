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
import signal
import subprocess
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


def _own_group(death_signal: int) -> None:
    """In the child: lead a new process group, and get death_signal when the parent dies (Linux)."""
    os.setpgid(0, 0)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, death_signal)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def kill_tree(process: subprocess.Popen[str]) -> tuple[str, str]:
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
    return out or "", err or ""


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
