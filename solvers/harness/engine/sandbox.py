"""Process hygiene for workers: a session of their own, death with the parent, a marker
every descendant inherits, killing a whole group and its strays, a memory limit.

A worker calls ``isolate`` first: it leads a new session (so its process group holds it
and every child it starts), asks Linux to kill it when its parent dies
(PR_SET_PDEATHSIG; elsewhere a watchdog thread polls the parent's pid), and puts
``MARKER=token`` in its environment. The parent kills a worker with ``kill_tree``: the
whole group, then any process whose environment still carries the token (a child
that left the group with setsid). A process that drops the marker and leaves the
session on purpose can escape; nothing short of a container stops that.
"""
from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

MARKER = "SUDOKU_COMPARE_WORKER"
"""The environment variable naming the worker a process descends from."""

_PR_SET_PDEATHSIG = 1


def isolate(parent_pid: int, token: str) -> None:
    """Make this process (a new worker) a session leader that dies with ``parent_pid``."""
    try:
        os.setsid()
    except OSError:  # already a group leader
        pass
    os.environ[MARKER] = token
    _drop_tracker()
    if not _death_signal():
        threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True).start()
    if os.getppid() != parent_pid:  # the parent died before the death signal was set
        os._exit(1)


def _drop_tracker() -> None:
    """Close the pipe to the parent's multiprocessing resource tracker, inherited by every
    spawned process: a backend writing garbage into it would upset the tracker. A worker
    that uses multiprocessing itself gets a tracker of its own."""
    from multiprocessing import resource_tracker  # noqa: PLC0415 - only in a worker, at its start

    tracker = getattr(resource_tracker, "_resource_tracker", None)
    fd = getattr(tracker, "_fd", None)
    if isinstance(fd, int):
        try:
            os.close(fd)
        except OSError:
            pass
        tracker._fd = None  # type: ignore[union-attr]  # _fd was read from it just above


def _death_signal() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(0.5)
    os.killpg(os.getpgrp(), signal.SIGKILL)


def kill_tree(pid: int, token: str) -> None:
    """SIGKILL the process group led by ``pid`` and every process marked with ``token``."""
    try:
        if os.getpgid(pid) == pid:
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:  # the group may outlive its leader
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, OSError):
        pass
    kill_marked(token)


def kill_marked(token: str) -> None:
    """SIGKILL every process marked with ``token`` or with a token under it (``token.N``)."""
    for stray in marked(token):
        try:
            os.kill(stray, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def marked(token: str) -> list[int]:
    """Pids of this user's processes whose environment has MARKER=token, or MARKER=token.N
    (Linux; elsewhere [])."""
    if not os.path.isdir("/proc/self"):
        return []
    wanted = f"{MARKER}={token}".encode()
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as handle:
                environ = handle.read()
        except OSError:
            continue
        if any(entry == wanted or entry.startswith(wanted + b".") for entry in environ.split(b"\0")):
            found.append(int(name))
    return found


def limit_memory(megabytes: float | None) -> None:
    """Cap this process's address space at its present size plus ``megabytes`` (RLIMIT_AS).

    The worker has already imported its backend's libraries (whose mapped size varies a
    lot between them), so the limit is what the run may add, not the process's total.
    """
    if megabytes is None:
        return
    import resource  # noqa: PLC0415 - POSIX only

    extra = int(megabytes * 1024 * 1024)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    soft = address_space() + extra
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def lift_memory_limit() -> None:
    """Undo ``limit_memory`` (the hard limit was never lowered)."""
    import resource  # noqa: PLC0415 - Unix only, and only when a memory limit is set

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (hard, hard))


def address_space() -> int:
    """This process's mapped bytes now (VmSize), or 0 where /proc is missing."""
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
