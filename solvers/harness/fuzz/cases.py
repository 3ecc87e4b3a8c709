"""A case: one generated instance, the mode it is run in, and its mutants; and what its
judged runs reveal.

Case ``i`` of seed ``S`` draws everything from ``random.Random("fuzz/S/i")``: its size
(smaller sides more often: SIZE_WEIGHT), its variant family, the verdict it
aims at, its mode, the instance (solvers/generate/instances.py) and its mutants (a
symmetry of its structure, one given more taken from its solution, one given less). So
the same seed gives the same cases, whatever the solvers answer.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from models import Puzzle

from ...generate.instances import VERDICTS, Instance, random_instance
from ..tasks import Configuration
from .mutators import random_symmetry, with_given, without_given
from .oracles import Failure, failure_of
from .relations import Mutant, answer_of, violated
from .trials import Judged, Trial

SIZE_WEIGHT = 1.5
"""A side n is drawn with weight n ** -1.5: of the default sides, a third of the instances
are 4x4, 18% 6x6, 10% 9x9, 4% 16x16 (small grids are cheap to make and to shrink, and
show most bugs; every side still comes up within the first minute)."""
VERDICT_WEIGHTS = (4, 3, 3)
"""How often each verdict (unique, several, none) is aimed at."""


@dataclass(frozen=True)
class Case:
    """One instance, its mode and its mutants; ``seed`` is 'S/i' (the campaign's seed, the
    case's number)."""

    seed: str
    instance: Instance
    mode: str
    mutants: tuple[Mutant, ...]

    @property
    def puzzles(self) -> list[Puzzle]:
        """The instance's puzzle, then each mutant's."""
        return [self.instance.puzzle, *(mutant.puzzle for mutant in self.mutants)]

    def trials(self, configurations: tuple[Configuration, ...]) -> list[Trial]:
        """One trial per puzzle of the case, every configuration on it."""
        return [Trial(puzzle, configurations, self.mode) for puzzle in self.puzzles]


@dataclass(frozen=True)
class Spotted:
    """A failure seen in a case: whose, which, on which puzzle (and, for a broken relation,
    the mutant of that puzzle)."""

    solver: str
    failure: Failure
    puzzle: Puzzle
    mutant: Mutant | None = None


def draw_case(seed: int, number: int, sizes: Sequence[int], families: Sequence[str],
              modes: Sequence[str]) -> Case:
    """Case ``number`` of the campaign with this seed."""
    text = f"{seed}/{number}"
    rng = random.Random(f"fuzz/{text}")
    size = rng.choices(sizes, weights=[n ** -SIZE_WEIGHT for n in sizes])[0]
    family = rng.choice(families)
    verdict = rng.choices(VERDICTS, weights=VERDICT_WEIGHTS)[0]
    mode = rng.choice(modes)
    instance = random_instance(rng, size, family, verdict)
    return Case(text, instance, mode, mutants_of(instance, rng))


def mutants_of(instance: Instance, rng: random.Random) -> tuple[Mutant, ...]:
    """A symmetry (when the structure has one), one given more from the instance's solution
    (when it has one) and one given less (when it has a given)."""
    puzzle, mutants = instance.puzzle, []
    symmetry = random_symmetry(puzzle, rng)
    if symmetry is not None:
        mutants.append(Mutant("symmetry", symmetry.name, symmetry.apply(puzzle), symmetry))
    if instance.solution is not None and (more := with_given(puzzle, instance.solution, rng)):
        cell, digit = more[1], instance.solution[more[1]]
        mutants.append(Mutant("one given more", f"{cell_name(puzzle, cell)}={digit} from a solution",
                              more[0], cell=cell, digit=digit))
    if less := without_given(puzzle, rng):
        cell = less[1]
        mutants.append(Mutant("one given less", f"{cell_name(puzzle, cell)} emptied", less[0], cell=cell,
                              digit=puzzle.givens[cell]))
    return tuple(mutants)


def cell_name(puzzle: Puzzle, cell: int) -> str:
    """'r3c4' for a cell."""
    return f"r{cell // puzzle.n + 1}c{cell % puzzle.n + 1}"


def examine(case: Case, judged: Sequence[Judged], references: frozenset[str] = frozenset()) -> list[Spotted]:
    """Every failure the case's judged trials show (one per configuration and puzzle), then
    every relation broken between the instance's answer and a mutant's, for configurations
    with no failure on either. A reference (its label in ``references``) that runs past the
    limit is slow, not a finding: only its wrong answers, crashes and errors are."""
    spotted: list[Spotted] = []
    flagged: set[tuple[str, int]] = set()
    for place, one in enumerate(judged):
        for label, run in one.runs.items():
            failure = failure_of(run.category, run.reason, answered_elsewhere=one.answered(label))
            if failure is not None and not (label in references and failure.kind == "hang"):
                spotted.append(Spotted(label, failure, one.trial.puzzle))
                flagged.add((label, place))
    for place, mutant in enumerate(case.mutants, start=1):
        for label in judged[0].runs:
            if (label, 0) in flagged or (label, place) in flagged:
                continue
            before, after = answer_of(judged[0].outcomes[label]), answer_of(judged[place].outcomes[label])
            broken = before and after and violated(mutant, before, after)
            if broken:
                spotted.append(Spotted(label, Failure("metamorphic", broken, f"metamorphic {mutant.relation}"),
                                       case.instance.puzzle, mutant))
    return spotted
