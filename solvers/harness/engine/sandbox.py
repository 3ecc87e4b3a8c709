"""Process hygiene for workers: a session of their own, death with the parent, a marker
every descendant inherits, killing each run's strays and a whole group, a hard memory limit.

A worker calls ``isolate`` first: it leads a new session (so its process group holds it
and every child it starts), asks Linux to kill it when its parent (the parent process, or
the fork server it was forked from, which ends with the parent: zygote.py) dies
(PR_SET_PDEATHSIG; elsewhere a watchdog thread polls the parent's pid), becomes the
subreaper of its descendants (PR_SET_CHILD_SUBREAPER: an orphan, even one that left the
session, is re-parented to the worker, not to init), gives up the capability to raise
a hard resource limit when it runs as root (CAP_SYS_RESOURCE), and puts
``MARKER=token`` in its environment. When a run ends, the parent kills whatever the run
left behind (``end_strays``: every descendant of the worker, its process group stopped
first so that nothing in it can fork meanwhile, repeated until none is left, for
children that re-fork); it kills a worker with ``kill_tree``: its strays, the whole
group, then any process whose environment still carries the token. The memory limit is
set by the parent from outside (``cap_memory``: soft and hard, so the run cannot raise
it). A process that clears the subreaper, leaves the session and drops the marker on
purpose can escape, and so can one that finds the fork server's socket (zygote.py) and asks
it for a process; nothing short of a container or a cgroup stops that.
"""
from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

from . import zygote

MARKER = "SUDOKU_COMPARE_WORKER"
"""The environment variable naming the worker a process descends from."""

_PR_SET_PDEATHSIG = 1
_PR_CAPBSET_DROP = 24
_PR_SET_CHILD_SUBREAPER = 36
_CAP_SYS_RESOURCE = 24
_CAPABILITY_VERSION_3 = 0x20080522
STRAY_ROUNDS = 200
"""Times end_strays looks again for descendants (children that re-fork race each look)."""
QUICK_LOOKS, QUICK_LOOK = 3, 32
"""end_strays first looks this many times at this many of the newest processes."""


def isolate(parent_pid: int, token: str, environ: dict[str, str] | None = None) -> None:
    """Make this process (a new worker) a session leader that dies with its parent, the
    subreaper of its descendants, unable to raise a hard limit, with ``environ`` (when given)
    as its environment. Its parent is ``parent_pid`` or a fork server (zygote.py) whose parent
    is ``parent_pid``; anything else means that ``parent_pid`` has died: the process exits."""
    try:
        os.setsid()
    except OSError:  # already a group leader
        pass
    if environ is not None:
        os.environ.clear()
        os.environ.update(environ)
    os.environ[MARKER] = token
    _drop_tracker()
    _leave_server()
    if not _death_signal():
        threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    if os.geteuid() == 0:
        _drop_capability(_CAP_SYS_RESOURCE)
    parent = os.getppid()  # read after the death signal was set: a parent that died before is seen here
    if parent != parent_pid:
        if parent_of(parent) != parent_pid:
            os._exit(1)
        zygote.take_residence(parent)  # forked from the server: hold what a fresh worker would


def parent_of(pid: int) -> int | None:
    """The parent of process ``pid`` as /proc shows it, or None (gone, or no /proc)."""
    row = _stat(pid)
    return None if row is None else row[1]


def _stat(pid: int) -> tuple[str, int, int, int] | None:
    """A process's state, parent, process group and session from /proc, or None."""
    try:
        handle = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
        try:
            data = os.read(handle, 4096)
        finally:
            os.close(handle)
        fields = data.rsplit(b")", 1)[1].split(None, 5)
        return fields[0].decode(), int(fields[1]), int(fields[2]), int(fields[3])
    except (OSError, ValueError, IndexError):
        return None


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(option, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def _drop_capability(number: int) -> bool:
    """Drop a capability from this process for good (effective, permitted, inheritable and
    the bounding set its programs would get it back from); whether that worked (Linux)."""
    if not sys.platform.startswith("linux"):
        return False
    _prctl(_PR_CAPBSET_DROP, number)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        header, data = _CapHeader(_CAPABILITY_VERSION_3, 0), (_CapData * 2)()
        if libc.capget(ctypes.byref(header), data) != 0:
            return False
        word, bit = divmod(number, 32)
        for field in ("effective", "permitted", "inheritable"):
            setattr(data[word], field, getattr(data[word], field) & ~(1 << bit))
        return bool(libc.capset(ctypes.byref(header), data) == 0)
    except (OSError, AttributeError):
        return False


def _drop_tracker() -> None:
    """Close the pipe to the parent's multiprocessing resource tracker, inherited by every
    spawned process: a backend writing garbage into it would upset the tracker. A worker
    that uses multiprocessing itself gets a tracker of its own."""
    from multiprocessing import resource_tracker  # noqa: PLC0415 - only in a worker, at its start

    tracker = getattr(resource_tracker, "_resource_tracker", None)
    fd = getattr(tracker, "_fd", None)
    if isinstance(fd, int):
        with contextlib.suppress(OSError):
            os.close(fd)
        tracker._fd = None  # type: ignore[union-attr]  # _fd was read from it just above


def _leave_server() -> None:
    """Close this process's copy of the fork server's pipe (zygote.py), which a fork from the
    server inherits: held, it would keep the server alive after the parent died, and written
    to, it would end the server and every worker forked from it. The server is forgotten too:
    a backend that uses multiprocessing's fork server starts one of its own."""
    from multiprocessing import forkserver  # noqa: PLC0415 - only in a worker, at its start

    server = getattr(forkserver, "_forkserver", None)
    fd = getattr(server, "_forkserver_alive_fd", None)
    if isinstance(fd, int):
        with contextlib.suppress(OSError):
            os.close(fd)
    for name in ("_forkserver_alive_fd", "_forkserver_address", "_forkserver_pid"):
        if hasattr(server, name):
            setattr(server, name, None)


def _death_signal() -> bool:
    return _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _watch_parent(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(0.5)
    os.killpg(os.getpgrp(), signal.SIGKILL)


def kill_tree(pid: int, token: str) -> None:
    """SIGKILL the worker ``pid``, every descendant of it, its process group and every process
    marked with ``token``."""
    end_strays(pid)
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


def reap_children() -> bool:
    """Collect every child of this process that has ended (killed strays, orphans handed to
    this subreaper); whether any child is still alive."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True


def process_table(since: int = 0, freeze: int | None = None,
                  newest: int | None = None) -> dict[int, tuple[str, int, int, int]]:
    """Every process /proc shows (with a pid of at least ``since``; only the ``newest`` if
    given): pid -> (state, parent, process group, session); {} where there is no /proc.
    Read newest first; with ``freeze``, each process read whose parent, group or session
    is that pid is stopped at once (a child that keeps re-forking is among the newest, and
    is caught before it forks again)."""
    table = {}
    try:
        pids = sorted((int(name) for name in os.listdir("/proc") if name.isdigit()), reverse=True)
    except OSError:
        return {}
    for pid in pids[:newest]:
        if pid < since:
            break
        row = _stat(pid)
        if row is None:
            continue
        table[pid] = row
        if freeze is not None and freeze in row[1:] and pid != freeze:
            _signal(pid, signal.SIGSTOP)
    return table


def strays(pid: int, table: dict[int, tuple[str, int, int, int]]) -> list[int]:
    """The live processes of ``table`` (zombies left out) that descend from ``pid`` or share
    its session or process group, ``pid`` itself left out."""
    children: dict[int, list[int]] = {}
    for child, (_, parent, _, _) in table.items():
        children.setdefault(parent, []).append(child)
    found, stack = set(), list(children.get(pid, []))
    while stack:
        child = stack.pop()
        if child not in found:
            found.add(child)
            stack.extend(children.get(child, []))
    found.update(p for p, (_, _, group, session) in table.items() if pid in (group, session))
    return sorted(p for p in found - {pid} if table[p][0] not in ("Z", "X"))


def end_strays(pid: int, rounds: int = STRAY_ROUNDS, *, quick: bool = True) -> int:
    """Kill every process the worker ``pid`` has left behind: its descendants (it is their
    subreaper, so an orphan stays one) and the rest of its session and group. Its group is
    stopped first (a stopped process cannot fork, and the kernel stops a whole group at
    once), and each other group found too; the search is repeated until it finds nothing,
    at most ``rounds`` times. A child that re-forks into a new session each time races the
    search, so after the first look only processes newer than those found are read (pids
    grow; a last full look covers a wrap-around), which takes a fraction of a full look.
    The worker is continued; the number of processes killed. ``quick``: first take a few
    quick looks at the newest processes (when the worker says it has children)."""
    for _ in range(QUICK_LOOKS if quick else 0):  # stop a re-forking child first: it is among the newest
        process_table(freeze=pid, newest=QUICK_LOOK)
    table = process_table(freeze=pid)
    found = strays(pid, table)
    if not found:
        return 0
    stopped = _signal_group(pid, signal.SIGSTOP)
    killed: set[int] = set()
    try:
        for attempt in range(rounds):
            groups = {table[p][2] for p in found if p in table} - {pid, os.getpgrp()}
            for group in groups:
                _signal_group(group, signal.SIGSTOP)
            for stray in found:
                _signal(stray, signal.SIGSTOP)
            for group in groups:
                _signal_group(group, signal.SIGKILL)
            for stray in found:
                _signal(stray, signal.SIGKILL)
            killed.update(found)
            table = process_table(since=min(found), freeze=pid)
            found = strays(pid, table)
            if not found:
                table = process_table(freeze=pid)
                found = strays(pid, table)
                if not found:
                    break
            if attempt > 20:
                time.sleep(0.001)  # a killed process takes a moment to go
    finally:
        if stopped:
            _signal(pid, signal.SIGCONT)
    return len(killed)


def _signal(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, number)


def _signal_group(group: int, number: int) -> bool:
    if group <= 1:
        return False
    try:
        os.killpg(group, number)
        return True
    except (ProcessLookupError, PermissionError, OSError):
        return False


def kill_marked(token: str) -> None:
    """SIGKILL every process marked with ``token`` or with a token under it (``token.N``)."""
    for stray in marked(token):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(stray, signal.SIGKILL)


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


def memory_cap(pid: int | str, megabytes: float) -> int:
    """The address space (bytes) a run of ``megabytes`` may have in the process: its size
    now plus that."""
    return address_space(pid) + int(megabytes * 1024 * 1024)


def cap_memory(pid: int, megabytes: float) -> bool:
    """Cap another process's address space (RLIMIT_AS), soft and hard, at its present size
    plus ``megabytes``; whether that could be done from here (Linux's prlimit). A hard
    limit is for good: the process cannot raise it, nor can anything without the
    CAP_SYS_RESOURCE a worker gives up."""
    import resource  # noqa: PLC0415 - POSIX only

    prlimit = getattr(resource, "prlimit", None)
    if prlimit is None:
        return False
    if address_space(pid) == 0:
        return False  # no /proc to size it by
    try:
        cap = memory_cap(pid, megabytes)
        _, hard = prlimit(pid, resource.RLIMIT_AS)
        cap = cap if hard == resource.RLIM_INFINITY else min(cap, hard)
        prlimit(pid, resource.RLIMIT_AS, (cap, cap))
    except (OSError, ValueError):
        return False
    return True


def limit_memory(megabytes: float | None) -> None:
    """Cap this process's address space, soft and hard, at its present size plus
    ``megabytes`` (RLIMIT_AS), where the parent could not (``cap_memory``).

    The worker has already imported its backend's libraries (whose mapped size varies a
    lot between them), so the limit is what the run may add, not the process's total.
    """
    if megabytes is None:
        return
    import resource  # noqa: PLC0415 - POSIX only

    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = memory_cap("self", megabytes)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def address_space(pid: int | str = "self") -> int:
    """A process's mapped bytes now (VmSize), or 0 where /proc is missing."""
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
