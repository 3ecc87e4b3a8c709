"""Peak memory of one run, not of its worker's lifetime.

Linux keeps a process's resident high-water mark (VmHWM in /proc/PID/status); writing 5 to
/proc/PID/clear_refs resets it to the present resident size. The worker resets it just
before a run and reads it just after, so a run that allocates 200 MB shows 200 MB more and
the next run in the same worker does not. Where the reset is refused, the fallback is the
lifetime peak (ru_maxrss), used only when the run raised it (else None: not measured).
Children the run waited for count through their own peak (RUSAGE_CHILDREN), when it rose.
The reset only lowers the mark to what the process holds: what an earlier run left
resident (a library it imported, a cache for a larger grid) would still count, which is
why each configuration and grid side has workers of its own (tasks.Task.key).
"""
from __future__ import annotations

import os
import resource

KIB = 1024.0


def reset_peak(pid: int | str = "self") -> bool:
    """Reset the process's resident high-water mark; whether that worked."""
    try:  # os.open and os.write: a third of open()'s cost, once a run
        fd = os.open(f"/proc/{pid}/clear_refs", os.O_WRONLY)
        try:
            os.write(fd, b"5")
        finally:
            os.close(fd)
        return True
    except OSError:
        return False


def high_water_mb(pid: int | str = "self") -> float | None:
    """The process's resident high-water mark (VmHWM) in MB, or None where it cannot be read."""
    try:  # bytes, one read, one search: read once per run
        fd = os.open(f"/proc/{pid}/status", os.O_RDONLY)
        try:
            data = os.read(fd, 65536)
        finally:
            os.close(fd)
        start = data.find(b"\nVmHWM:")
        if start >= 0:
            return int(data[start + 7:data.index(b"\n", start + 1)].split()[0]) / KIB
    except (OSError, ValueError, IndexError):
        pass
    return None


def _maxrss_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / KIB  # kilobytes on Linux


class PeakMemory:
    """The peak resident memory (MB) of the span from construction to ``peak_mb()``."""

    def __init__(self) -> None:
        self.reset = reset_peak()
        self.own_before = _maxrss_mb(resource.RUSAGE_SELF)
        self.children_before = _maxrss_mb(resource.RUSAGE_CHILDREN)

    def peak_mb(self) -> float | None:
        own = high_water_mb() if self.reset else None
        if own is None:
            after = _maxrss_mb(resource.RUSAGE_SELF)
            own = after if after > self.own_before else None
        children = _maxrss_mb(resource.RUSAGE_CHILDREN)
        found = [v for v in (own, children if children > self.children_before else None) if v is not None]
        return round(max(found), 3) if found else None
