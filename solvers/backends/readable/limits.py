"""When a readable search stops: enough solutions, the clock, or a budget of nodes.

Shared by the three readable twins; each passes how often its fast twin looks at the
clock, so both stop at the same node.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager


class Stop(Exception):
    """Ends the whole search from any depth: enough solutions, or a limit hit."""


class Limits:
    """The limits of one search, and which of them (if any) ended it."""

    def __init__(self, max_solutions: int, start: float, time_limit: float | None,
                 node_limit: int | None, clock_every: int) -> None:
        self.max_solutions, self.node_limit, self.clock_every = max_solutions, node_limit, clock_every
        self.deadline = None if time_limit is None else start + time_limit
        self.limit_hit = self.budget_hit = False

    def check(self, nodes: int) -> None:
        """Raise Stop before the next node if a limit is reached (the fast twins' test)."""
        if nodes == self.node_limit:
            self.budget_hit = True
            raise Stop
        if (self.deadline is not None and not nodes % self.clock_every
                and time.perf_counter() > self.deadline):
            self.limit_hit = True
            raise Stop


@contextmanager
def recursion_room(depth: int) -> Iterator[None]:
    """Let a search recurse once per cell on the largest grids, then restore the limit."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 2 * depth + 1000))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)
