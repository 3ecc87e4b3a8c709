"""A finding made small: its failure re-checked on each candidate through the engine (the same
kind, and for an exception the same type; for a broken relation the same relation), a
smaller grid tried first, then ddmin over the puzzle's parts (shrink.py).

A smaller grid: for each side below the finding's (smallest first), a few fresh instances
of the same family and verdict, in the same mode, with a mutant by the same relation; the
first that fails the same way is shrunk instead of the original.
"""
from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from models import Puzzle

from ...generate.instances import VERDICTS, random_instance
from ..tasks import Configuration
from .cases import mutants_of
from .findings import Finding
from .oracles import failure_of
from .relations import Mutant, answer_of, mutant_for, violated
from .shrink import Part, shrink
from .trials import Trial, Trials

SMALLER_TRIES = 12
"""Fresh instances tried at each smaller side."""


@dataclass(frozen=True)
class Target:
    """What a candidate must do to fail the same way: the configuration, the references (a
    hang needs one of them to answer), the mode, the failure's signature, and for a broken
    relation its mutant of the puzzle being shrunk."""

    solver: Configuration
    references: tuple[Configuration, ...]
    mode: str
    signature: str
    relation: Mutant | None = None


def failure(target: Target, trials: Trials, puzzle: Puzzle) -> str | None:
    """How the puzzle fails the same way, in words, or None if it does not."""
    label = target.solver.name
    if target.relation is not None:
        mutant = mutant_for(target.relation, puzzle)
        if mutant is None:
            return None
        first, second = trials.judge([Trial(puzzle, (target.solver,), target.mode),
                                      Trial(mutant.puzzle, (target.solver,), target.mode)])
        before, after = answer_of(first.outcomes[label]), answer_of(second.outcomes[label])
        return violated(mutant, before, after) if before and after else None
    hang = target.signature == "hang"
    configurations = (target.solver, *target.references) if hang else (target.solver,)
    (one,) = trials.judge([Trial(puzzle, configurations, target.mode)])
    run = one.runs[label]
    found = failure_of(run.category, run.reason, answered_elsewhere=one.answered(label))
    return found.detail if found is not None and found.signature == target.signature else None


class Check:
    """The test a candidate puzzle must pass to fail the same way (the words of each failure kept)."""

    def __init__(self, target: Target, trials: Trials):
        self.target, self.trials = target, trials
        self.details: dict[Puzzle, str] = {}

    def __call__(self, puzzle: Puzzle) -> bool:
        detail = failure(self.target, self.trials, puzzle)
        if detail is not None:
            self.details[puzzle] = detail
        return detail is not None


def minimise(finding: Finding, trials: Trials, sizes: Sequence[int], budget_s: float) -> None:
    """Shrink the finding in place within ``budget_s`` seconds: ``puzzle`` (and ``mutant``),
    ``tests``, ``minimal`` and ``shrink_s`` are set. A smaller side is tried before ddmin with
    the instance's family and verdict, and again after it with the shrunk puzzle's family
    (every verdict in turn): a bug found on a 15x15 X killer may need only the X."""
    started = time.monotonic()
    deadline = started + budget_s
    target = Target(finding.solver, finding.references, finding.mode, finding.signature, finding.mutant)
    if not Check(target, trials)(finding.original):
        finding.detail += " (it did not fail again when checked before shrinking: not shrunk)"
        finding.puzzle, finding.shrink_s, finding.tests = finding.original, time.monotonic() - started, 1
        return
    smaller, tests = _smaller(finding, target, trials, sizes, deadline, finding.original.n,
                              finding.family, (finding.verdict,))
    start, target = smaller or (finding.original, target)
    shrunk, made, minimal, check = _ddmin(start, target, trials, deadline)
    tests += made + 1
    family = family_of(shrunk)
    if smaller is None and family != finding.family and minimal:
        again, tried = _smaller(finding, target, trials, sizes, deadline, shrunk.n, family, VERDICTS)
        tests += tried
        if again is not None:
            target = again[1]
            shrunk, made, minimal, check = _ddmin(again[0], target, trials, deadline)
            tests += made
    finding.puzzle = shrunk
    finding.shrunk_detail = check.details.get(shrunk) or failure(target, trials, shrunk) or ""
    finding.mutant = None if target.relation is None else mutant_for(target.relation, shrunk)
    finding.tests, finding.minimal = tests, minimal
    finding.shrink_s = time.monotonic() - started


def _ddmin(start: Puzzle, target: Target, trials: Trials, deadline: float) -> tuple[Puzzle, int, bool, Check]:
    """shrink.py's ddmin on one puzzle (a relation's emptied cell kept); the shrunk puzzle, the
    tests, whether it is 1-minimal, and the check (with the words of each failure)."""
    pinned: list[Part] = []
    if target.relation is not None and target.relation.relation == "one given less":
        pinned = [("given", target.relation.cell or 0)]
    check = Check(target, trials)
    shrunk, made, minimal = shrink(start, check, pinned=pinned, deadline=deadline)
    return shrunk, made, minimal, check


def family_of(puzzle: Puzzle) -> str:
    """The variant family a puzzle belongs to (instances.FAMILIES)."""
    if puzzle.geometry.latin and puzzle.regions is None:
        return "latin"
    if puzzle.cages:
        return "killer"
    if puzzle.regions is not None:
        return "jigsaw"
    if puzzle.rules or puzzle.extra_regions:
        return "extra"
    return "x" if puzzle.diagonals else "standard"


def _smaller(finding: Finding, target: Target, trials: Trials, sizes: Sequence[int], deadline: float,
             below: int, family: str, verdicts: Sequence[str]) -> tuple[tuple[Puzzle, Target] | None, int]:
    """A puzzle of a side below ``below`` that fails the same way (and its target), or None;
    and the instances tried: SMALLER_TRIES fresh instances of the family at each side,
    smallest first, the verdicts in turn."""
    tried = 0
    for size in sorted(side for side in sizes if side < below):
        for attempt in range(SMALLER_TRIES):
            if time.monotonic() > deadline:
                return None, tried
            rng = random.Random(f"fuzz/{finding.seed}/smaller/{family}/{size}/{attempt}")
            instance = random_instance(rng, size, family, verdicts[attempt % len(verdicts)])
            chosen = None
            if target.relation is not None:
                chosen = next((mutant for mutant in mutants_of(instance, rng)
                               if mutant.relation == target.relation.relation), None)
                if chosen is None:
                    continue
            tried += 1
            candidate = replace(target, relation=chosen)
            if Check(candidate, trials)(instance.puzzle):
                return (instance.puzzle, candidate), tried
    return None, tried
