"""When a key's next worker is worth starting, and which CPU a one-at-a-time pool's workers use.

Starting a worker costs a fork (zygote.py) or a fresh interpreter, and its backend's import
(0.01-0.2 s of CPU for a pure-Python backend, about 1 s for `fast`: numba's import and its
registries). A run of a few
quick runs is over before a second worker of its key could even be ready, so a second worker
would only add that cost. The rule is the ski-rental one: a key's next worker starts once that
key's runs have waited, in all, as long as starting one of its workers takes (measured on its
workers: from the spawn to the backend loaded, capped at START_CAP). While waiting, what was
paid is at most twice what starting at once would have cost; a short run of quick runs never
pays for a second interpreter; a long run of slow runs gets its workers after one start-up's
worth of waiting. Waiting counts only while every live worker of the key is running (not
loading): a second worker would have to load as well. A key without a live worker that can
take the task (none yet, or only retiring ones) starts one at once.

Placement: a pool that runs one task at a time (``jobs`` 1, the setting for timing
comparisons) keeps all its workers on one CPU, so that configurations compared in one run
share the CPU, and what else runs on the machine slows them alike; otherwise the scheduler
keeps each worker where it last ran, and a configuration's worker that shares a core with a
busy neighbour reads systematically slower (an A/A run once read 177 against 106 us a run).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

START_CAP = 2.0
"""The most a worker's start-up counts for, in seconds: the first worker of `fast` on a fresh
machine also compiles (minutes), which a later worker, loading the compiled kernels, does not."""
START_FLOOR = 0.02
"""The least it counts for: waits shorter than this are not worth a decision."""


@dataclass
class StartPolicy:
    """Per key: what starting a worker costs, and how long its runs have waited for one."""

    cost: dict[str, float] = field(default_factory=dict)
    """The latest measured start-up of a worker of each key (spawn to loaded), capped."""
    waited: dict[str, float] = field(default_factory=dict)
    """Seconds the key's runs have waited, with a slot free, while its workers ran others."""
    blocked: tuple[str, float] | None = None
    """The key whose task waits at the head of the queue, and since when it was last counted."""

    def loaded(self, key: str, seconds: float) -> None:
        """A worker of ``key`` became ready ``seconds`` after it was spawned."""
        self.cost[key] = min(START_CAP, max(START_FLOOR, seconds))

    def may_start(self, key: str, now: float) -> bool:
        """Whether a new worker of ``key`` should start now, its task waiting with a slot free
        while the key's live workers all run; counts the wait since the last look."""
        if self.blocked is not None and self.blocked[0] == key:
            self.waited[key] = self.waited.get(key, 0.0) + now - self.blocked[1]
        self.blocked = (key, now)
        if self.waited.get(key, 0.0) < self.cost.get(key, START_CAP):
            return False
        self.waited[key], self.blocked = 0.0, None
        return True

    def not_blocked(self) -> None:
        """The head task went to a worker (or waits for one still loading): no wait counts
        until may_start is asked again."""
        self.blocked = None

    def next_look(self, now: float) -> float | None:
        """When the waiting key would have waited its start-up's worth (time.monotonic), or None."""
        if self.blocked is None or self.blocked[0] not in self.cost:
            return None
        key, since = self.blocked
        return max(now, since + self.cost[key] - self.waited.get(key, 0.0))


def shared_cpu(jobs: int) -> int | None:
    """The CPU a pool of ``jobs`` 1 keeps its workers on (the highest this process may use:
    the first is the likeliest to serve interrupts), or None: more jobs, or no affinity API."""
    if jobs != 1 or not hasattr(os, "sched_getaffinity"):
        return None
    return max(os.sched_getaffinity(0), default=None)


def pin(pid: int, cpu: int | None) -> bool:
    """Keep process ``pid`` on ``cpu`` (its children inherit it); whether that was done."""
    if cpu is None:
        return False
    try:
        os.sched_setaffinity(pid, {cpu})
    except OSError:  # the process is gone, or the system refuses
        return False
    return True
