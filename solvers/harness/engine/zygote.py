"""How the harness's own processes (workers, the judge's process) are started.

On Linux they are forked from a server process (multiprocessing's 'forkserver'), a fresh
interpreter started once per process that runs sweeps, that has imported only what a worker
needs before its backend (PRELOADED; the judge's process imports its own modules after the
fork) and nothing any backend imports: each worker then costs a fork
instead of an interpreter's start and those imports (about 0.15 s of CPU a worker). Elsewhere
each is a fresh interpreter ('spawn'). Either way a worker starts from the same clean state:
no backend library loaded, no run's leftovers, this process's working folder, import path and
environment as they are when the worker starts (the environment is handed to the worker,
which takes it as its own in sandbox.isolate: the server's is that of its start).

The server is a child of this process and ends when this process does (its end of a pipe
closes), and a worker forked from it dies with it (sandbox.isolate accepts the server as a
worker's parent only when the server's parent is this process). The server ignores Ctrl-C
as multiprocessing sets it up; a worker is in a session of its own either way.
"""
from __future__ import annotations

import ctypes
import multiprocessing
import os
import sys
from multiprocessing import forkserver
from multiprocessing.context import ForkServerContext, SpawnContext

PRELOADED = ("solvers.harness.engine.worker",)
"""What the server imports once, for every process forked from it: what a spawned worker
imports before its backend (models included), never a backend's library, nor what only the
judge's process needs (its memory would count in every worker's peaks)."""
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
PRESENT = 1 << 63
"""A page's entry in /proc/PID/pagemap: bit 63 set when the page is resident."""


def forking() -> bool:
    """Whether processes are forked from the server here: Linux, with /proc to check parents
    and to read which pages a process holds."""
    return (sys.platform.startswith("linux") and os.access("/proc/self/pagemap", os.R_OK)
            and "forkserver" in multiprocessing.get_all_start_methods())


def context() -> ForkServerContext | SpawnContext:
    """The multiprocessing context the harness starts its processes with."""
    if not forking():
        return multiprocessing.get_context("spawn")
    server = multiprocessing.get_context("forkserver")
    server.set_forkserver_preload(list(PRELOADED))
    return server


def ensure_running() -> None:
    """Start the server now, where processes are forked from it (else the first worker
    starts it); it runs, and this process holds its pipes, until this process ends."""
    if forking():
        context()  # sets what the server preloads, before it starts
        forkserver.ensure_running()


def take_residence(server: int) -> int:
    """Make resident in this process (just forked from ``server``) every page of a file mapping
    that the server holds resident; the number of pages touched.

    A fork copies the page tables of a process's own (anonymous) memory but not those of its
    file mappings (the interpreter's and its libraries' code): they are mapped again as they
    are touched. Without this, a forked worker's resident memory, and so each run's peak
    (memory.py), would be a few MB less than a spawned worker's, by how much of the
    interpreter the run happens to touch. With it, the worker holds what a fresh interpreter
    that imported the same modules holds."""
    try:
        with open("/proc/self/maps") as handle:
            maps = handle.read().splitlines()
        pagemap = os.open(f"/proc/{server}/pagemap", os.O_RDONLY)
    except OSError:
        return 0
    touched = 0
    try:
        for line in maps:
            fields = line.split(maxsplit=5)
            if len(fields) < 6 or not fields[5].startswith("/") or fields[5].startswith("/dev/") \
                    or not fields[1].startswith("r"):
                continue
            start, end = (int(bound, 16) for bound in fields[0].split("-"))
            entries = memoryview(os.pread(pagemap, (end - start) // PAGE * 8, start // PAGE * 8)).cast("Q")
            for index, entry in enumerate(entries):
                if entry & PRESENT:
                    ctypes.c_char.from_address(start + index * PAGE).value  # noqa: B018 - the read maps it
                    touched += 1
    except (OSError, ValueError, TypeError):
        pass
    finally:
        os.close(pagemap)
    return touched
