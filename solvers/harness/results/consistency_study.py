"""Simonis's study: how many puzzles each level of consistency settles with no search.

Each level is a configuration of ``mrv`` with ``search='none'``: the givens are propagated
to that level's fixed point and nothing is guessed. A puzzle is *settled* when that fixes
every cell. The levels are ordered by definition along the chains in CHAINS (what a
weaker level prunes, a stronger one prunes too), so their counts must never fall along a
chain, puzzle by puzzle: :func:`chain_breaks` says where they do (a bug, never a finding).
"""
from __future__ import annotations

import itertools
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from models import Model, Puzzle, verify

from ... import registry
from ...result import Status

LEVELS = {  # level -> what it is, in Simonis's terms where he has one
    "naked": "forward checking + naked singles (Simonis's FC)",
    "singles": "naked and hidden singles",
    "locked": "singles + locked candidates",
    "bounds": "bounds consistency on each all-different (BC)",
    "gac": "generalised arc consistency on each all-different (HAC)",
    "sac": "singleton arc consistency: gac + shaving",
}
DEFAULT_LEVELS = tuple(LEVELS)
CHAINS = (("naked", "singles", "locked"), ("singles", "gac"), ("bounds", "gac", "sac"))


@dataclass(frozen=True)
class Outcome:
    """One puzzle at one level: settled (every cell fixed), the open cells it fixed, of how many."""

    settled: bool
    fixed: int
    open_cells: int
    seconds: float
    wrong: bool = False  # settled on a grid the checker rejects (a bug)


@dataclass
class SetResult:
    """One puzzle set: its name and, per level, the outcome of each puzzle (in file order)."""

    name: str
    outcomes: dict[str, list[Outcome]]

    def settled(self, level: str) -> int:
        return sum(o.settled for o in self.outcomes[level])

    def mean_fixed(self, level: str) -> float:
        return statistics.fmean(o.fixed for o in self.outcomes[level])

    def fixed_share(self, level: str) -> float:
        """The open cells fixed, as a share of all open cells of the set."""
        fixed = sum(o.fixed for o in self.outcomes[level])
        return fixed / max(1, sum(o.open_cells for o in self.outcomes[level]))


def settle(puzzle: Puzzle, level: str) -> Outcome:
    """Propagate one puzzle's givens at one level, with no search."""
    model = Model.from_puzzle(puzzle)
    start = time.perf_counter()
    result = registry.get("mrv").solve(model, inference=level, search="none")
    seconds = time.perf_counter() - start
    open_cells = sum(1 for value in puzzle.givens if not value)
    settled = result.status is Status.SOLVED
    wrong = settled and not verify(puzzle, result.solutions[0]).ok
    return Outcome(settled and not wrong, result.stats.fixed_cells or 0, open_cells, seconds, wrong)


def measure(name: str, puzzles: Sequence[Puzzle], levels: Sequence[str],
            progress: Callable[[str], None] = lambda _: None,
            settled: Callable[[], None] = lambda: None) -> SetResult:
    """Every puzzle of one set at every level; ``settled`` is called after each puzzle,
    ``progress`` with a line after each level."""
    outcomes: dict[str, list[Outcome]] = {}
    for level in levels:
        start = time.perf_counter()
        outcomes[level] = []
        for puzzle in puzzles:
            outcomes[level].append(settle(puzzle, level))
            settled()
        progress(f"{name}: {level} done in {time.perf_counter() - start:.1f} s")
    return SetResult(name, outcomes)


def chain_breaks(result: SetResult) -> list[str]:
    """Where a stronger level fixed fewer cells, or settled a puzzle less, than a weaker one."""
    breaks = []
    for chain in CHAINS:
        present = [level for level in chain if level in result.outcomes]
        for weaker, stronger in itertools.pairwise(present):
            for index, (w, s) in enumerate(zip(result.outcomes[weaker], result.outcomes[stronger])):
                if s.fixed < w.fixed or (w.settled and not s.settled):
                    breaks.append(f"{result.name} puzzle {index + 1}: {stronger} fixed {s.fixed} cells, "
                                  f"{weaker} {w.fixed}")
    return breaks


def as_json(results: Sequence[SetResult]) -> dict[str, Any]:
    """The per-puzzle outcomes, for the bench script's figure and for checking by hand."""
    return {"study": "consistency", "levels": LEVELS, "chains": CHAINS,
            "sets": [{"name": r.name, "puzzles": len(next(iter(r.outcomes.values()), [])),
                      "levels": {level: {"settled": r.settled(level),
                                         "mean_fixed": r.mean_fixed(level),
                                         "fixed_share": r.fixed_share(level),
                                         "fixed": [o.fixed for o in outcomes],
                                         "open": [o.open_cells for o in outcomes]}
                                 for level, outcomes in r.outcomes.items()}}
                     for r in results]}
