"""How many runs a worker is handed in one message (a chunk), from how long its key's runs take.

A run handed over alone costs a round trip: the parent sends it, the worker waits for it,
the parent is woken for it. Runs of a few hundred microseconds (``fast`` on a 9x9) spend
more time there than in the solver, so runs of one key that are quick go to a worker
several at a time, and the worker answers each as it ends (worker.py). Every run keeps its
own marks, clocks, limit and record: the parent knows which run of the chunk is current and
since when, kills the worker when that run passes its limit (and grace), and gives the runs
of the chunk not yet started to a fresh worker (runner.py).

The chunk holds about CHUNK_SECONDS of work by the mean of the key's runs so far (one run
until a run of that key has been seen), so a chunk holds back the runs after it by a
fraction of a second at most; a plugin, and a key whose run left a process alive (whose
strays the parent must stop the worker to end), are handed one run at a time.

When one job runs several configurations, their runs are compared, and they run by turns,
a chunk of one, then a chunk of the next: a chunk then holds INTERLEAVED_SECONDS of work,
so that a configuration's runs are never a long block of time apart from the other's. With
chunks of CHUNK_SECONDS, an A/A run of 4x4 puzzles (one configuration twice, 200 runs of
0.15 ms) ran in a handful of blocks of 60 runs each, and a burst of load on the CPU over one
block made the same configuration slower on 19 of 20 puzzles.
"""
from __future__ import annotations

CHUNK_SECONDS = 0.05
"""The work, by the runs so far, one chunk holds."""
INTERLEAVED_SECONDS = 0.002
"""The work one chunk holds when one job runs several configurations by turns."""
MAX_CHUNK = 64
"""The most runs in one chunk."""
WEIGHT = 0.2
"""The weight of the latest run in a key's running mean of run times."""


class ChunkSizes:
    """Each worker key's running mean of run seconds, and the chunk size it gives.

    >>> sizes = ChunkSizes()
    >>> sizes.size("fast/9"), sizes.seen("fast/9", 0.0005, children=False), sizes.size("fast/9")
    (1, None, 64)
    >>> _ = [sizes.seen("mrv/9", 0.01, children=False) for _ in range(40)]
    >>> sizes.size("mrv/9")
    5
    >>> sizes.size("fast/9", interleaved=True)
    4
    >>> sizes.seen("dimacs/9", 0.0001, children=True), sizes.size("dimacs/9")
    (None, 1)
    """

    def __init__(self) -> None:
        self.mean: dict[str, float] = {}
        self.alone: set[str] = set()

    def seen(self, key: str, seconds: float, *, children: bool) -> None:
        """Note a run of the key: its seconds, and whether it left a process alive."""
        if children or key.startswith("plugin:"):
            self.alone.add(key)
        before = self.mean.get(key)
        self.mean[key] = seconds if before is None else (1 - WEIGHT) * before + WEIGHT * seconds

    def size(self, key: str, *, interleaved: bool = False) -> int:
        """How many runs of the key to hand a worker at once (``interleaved``: one job runs
        several configurations by turns)."""
        mean = self.mean.get(key)
        if mean is None or key in self.alone:
            return 1
        seconds = INTERLEAVED_SECONDS if interleaved else CHUNK_SECONDS
        return max(1, min(MAX_CHUNK, int(seconds / max(mean, 1e-9))))
