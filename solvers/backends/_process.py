"""Running a solver program as a killable process (the dimacs and minizinc backends).

The program leads a process group of its own, so a time limit kills it and every process
it started (MiniZinc's driver starts the solver's own executable); it dies with the process
that started it (Linux's PR_SET_PDEATHSIG), and the harness's worker kills whatever else
its run leaves behind.
"""
from __future__ import annotations

import ctypes
import os
import signal
import subprocess

GRACE = 1.0
"""Seconds a program that stops itself at a time limit (MiniZinc's --time-limit) gets past
it to print its last lines before its group is killed."""


def execute(command: list[str], timeout: float | None) -> tuple[int | None, str, str]:
    """Run in a new process group: (exit code, stdout, stderr); the code is None when the
    group was killed at the timeout, and what the program printed before is kept."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               stdin=subprocess.DEVNULL, preexec_fn=_own_group)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        out, err = kill_group(process)
        return None, out, err
    except BaseException:
        kill_group(process)
        raise
    return process.returncode, out, err


def _own_group() -> None:
    """In the child: lead a new process group, and die with the parent (Linux)."""
    os.setpgid(0, 0)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def kill_group(process: subprocess.Popen[str]) -> tuple[str, str]:
    """Kill the program's whole process group, reap it, and return what it had printed."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    out, err = process.communicate()
    return out or "", err or ""
