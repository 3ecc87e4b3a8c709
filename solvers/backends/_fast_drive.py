"""The chunked driver both of ``fast``'s searches share.

A search kernel runs until a number of decisions in all, and can be resumed. The driver
calls it in chunks (the first small, then doubling up to CHUNK), and between two calls
looks at the clock and the node budget, collects the solutions found, and lets the
search make room or restart. The clock is looked at before every call, so a deadline
already past does no work.
"""
from __future__ import annotations

import time
from typing import NamedTuple, Protocol

from ._fast_kernels import CONTRADICTION, EXHAUSTED, FULL, GROW, PAUSED

CHUNK = 4096
"""Decisions between two looks at the clock, once the chunks have grown."""


class Chunked(Protocol):
    """A resumable search as the driver sees it."""

    @property
    def nodes(self) -> int:
        """Decisions made so far."""

    def run(self, stop: int) -> int:
        """Search on until stop decisions in all (or earlier); the kernel's answer."""

    def take(self) -> list[tuple[int, ...]]:
        """The solutions the last call found (then forgotten)."""

    def make_room(self, wanted: int) -> None:
        """The last call filled its solution buffer: go on for at most wanted more."""

    def grow(self) -> None:
        """The last call asked for more room (GROW)."""

    def paused(self) -> None:
        """The last call stopped at its chunk's end (a search may restart here)."""


class Drive(NamedTuple):
    """What the driver ends with."""

    found: list[tuple[int, ...]]
    code: int          # the last kernel answer
    limit_hit: bool    # the clock stopped the search
    budget_hit: bool   # the node budget stopped it


def drive(search: Chunked, max_solutions: int, deadline: float | None,
          node_limit: int | None, first_chunk: int) -> Drive:
    """Run the search in chunks until max_solutions are found, the space is exhausted,
    the givens contradict each other, the deadline passes or node_limit decisions are made."""
    found: list[tuple[int, ...]] = []
    chunk, code, nodes = first_chunk, PAUSED, search.nodes
    run, take = search.run, search.take  # bound once: most 9x9 puzzles need one call
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            return Drive(found, code, True, False)
        stop = nodes + chunk if node_limit is None else min(nodes + chunk, node_limit)
        code = run(stop)
        chunk = min(CHUNK, 2 * chunk)
        found += take()
        if code == EXHAUSTED or code == CONTRADICTION or len(found) >= max_solutions:
            return Drive(found[:max_solutions], code, False, False)
        nodes = search.nodes
        if code == FULL:
            search.make_room(max_solutions - len(found))
        elif code == GROW:
            search.grow()
        elif node_limit is not None and nodes >= node_limit:
            return Drive(found, code, False, True)
        else:
            search.paused()
