"""Backends that try to get out of their run: above the memory limit, or past the run's end.

Each answers correctly. ``raises_memory_limit`` lifts its own RLIMIT_AS (soft, and hard if
it can) and allocates 800 MB: under --memory-limit 300 it must end as memory-out.
``burns_after_answer`` leaves a CPU-burning child after each answer, ``reforks`` a child that
forks a new child and exits, again and again (a new pid each time, a new session each
time): neither may outlive its run. Both check at the start of each run, with a short poll,
that nothing an earlier run left is alive, and answer an error naming what is.

Both give up by themselves after ``LIFETIME`` seconds, far longer than any test's run: a
test that fails (or a suite that is interrupted) must not leave a machine burning for hours
under everything that runs after it.
"""
from __future__ import annotations

import contextlib
import os
import resource
import subprocess
import sys
import time

from reference import solve as reference_solve  # the plugin's folder is on sys.path

from models import Model
from solvers.result import Result, Status

BURNER = "ESCAPE_BURNER"
REFORKER = "ESCAPE_REFORKER"
LIFETIME = 120.0
"""Seconds after which a burner or a re-forking chain ends on its own (a safety net only)."""


def alive(mark: str) -> list[int]:
    """Pids of live (not zombie) processes with ``mark`` in their command line."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                if mark.encode() not in handle.read().split(b"\0"):
                    continue
            with open(f"/proc/{name}/stat", "rb") as handle:
                if handle.read().rsplit(b")", 1)[1].split()[0] in (b"Z", b"X"):
                    continue
        except OSError:
            continue
        found.append(int(name))
    return found


def _left_over(mark: str) -> Result | None:
    """An error naming the processes an earlier run left, if any outlive a short poll."""
    for _ in range(20):
        found = alive(mark)
        if not found:
            return None
        time.sleep(0.05)
    return Result(Status.ERROR, message=f"processes of an earlier run still alive: {found}")


def raises_memory_limit(model: Model, **kwargs: object) -> Result:
    """Raises its RLIMIT_AS as far as it is let, then touches 800 MB, then answers."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    for wanted in ((hard, hard), (resource.RLIM_INFINITY, resource.RLIM_INFINITY)):
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, wanted)
    block = bytearray(800 * 1024 * 1024)
    for offset in range(0, len(block), 4096):
        block[offset] = 1
    return reference_solve(model, **kwargs)


def burns_after_answer(model: Model, **kwargs: object) -> Result:
    """Leaves a child that burns CPU (for LIFETIME seconds unless killed), and answers at once."""
    left = _left_over(BURNER)
    if left is not None:
        return left
    burn = f"import time\nend = time.monotonic() + {LIFETIME}\nwhile time.monotonic() < end: pass"
    subprocess.Popen([sys.executable, "-c", burn, BURNER], stdin=subprocess.DEVNULL)
    return reference_solve(model, **kwargs)


REFORK = """
import os, sys, time
os.closerange(3, 1024)
end = time.time() + float(sys.argv[3])
while time.time() < end:
    if os.fork():
        os._exit(0)
    os.setsid()
    with open(sys.argv[2], "w") as beat:
        beat.write(str(os.getpid()))
    time.sleep(0.001)
"""


def beating(path: str, seconds: float = 0.3) -> bool:
    """Whether some process keeps rewriting the heartbeat file ``path`` (a re-forking child
    changes pid faster than a look through /proc can find it; its heartbeat cannot hide)."""
    def beat() -> tuple[int, str]:
        try:
            with open(path) as handle:
                return os.fstat(handle.fileno()).st_mtime_ns, handle.read()
        except OSError:
            return 0, ""

    first = beat()
    time.sleep(seconds)
    return beat() != first


def reforks(model: Model, *, beat: str = "", **kwargs: object) -> Result:
    """Leaves a child that keeps forking a successor into a session of its own and exiting,
    each one rewriting the heartbeat file ``beat`` (an option)."""
    if beating(beat):
        return Result(Status.ERROR, message="the re-forking child of an earlier run is alive")
    subprocess.Popen([sys.executable, "-c", REFORK, REFORKER, beat, str(LIFETIME)], stdin=subprocess.DEVNULL)
    for _ in range(200):  # until it has re-forked at least once
        if beating(beat, 0.05):
            break
    return reference_solve(model, **kwargs)
