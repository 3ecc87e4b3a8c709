"""Metamorphic relations: what a puzzle's answer says about its mutant's, whatever the answers are.

A run that claims its solutions are all there are (``complete``, or no solution) gives an
exact set; any other solved run a lower bound (its solutions exist). Between a puzzle P
and its mutant M:

- a symmetry maps P's solutions one to one onto M's: the same verdict, the same count,
  and (when both sets are exact) M's solutions are P's mapped;
- one given more, taken from a solution of P: M still has a solution, and its solutions
  are exactly P's that hold that digit there;
- one given less: M keeps every solution of P (the count never goes down), and P's
  solutions are exactly M's that hold the removed digit there.

Each check uses only what the two answers commit to, so a relation is violated only when
at least one of the answers is false.

>>> from models import parse_puzzle
>>> P = parse_puzzle("1234341221434321")
>>> M = Mutant("one given less", "r1c1 emptied", P.with_givens((0,) + P.givens[1:]), cell=0, digit=1)
>>> print(violated(M, Answer(frozenset({P.givens}), True), Answer(frozenset(), True)))
the original claims exactly one solution, but its mutant (r1c1 emptied), which keeps every \
solution, claims no solution (no solution with 1 at r1c1)
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from models import Grid, Puzzle

from ...result import Status
from ..tasks import Outcome
from .mutators import Symmetry, preserves

RELATIONS = ("symmetry", "one given more", "one given less")


@dataclass(frozen=True)
class Mutant:
    """A puzzle made from another by one relation: which, in words what changed, the puzzle,
    and what the relation needs (the symmetry; the cell given or emptied, and its digit)."""

    relation: str
    what: str
    puzzle: Puzzle
    symmetry: Symmetry | None = None
    cell: int | None = None
    digit: int = 0


@dataclass(frozen=True)
class Answer:
    """What one run commits to: these solutions exist, and (``exact``) there are no others."""

    solutions: frozenset[Grid]
    exact: bool


def answer_of(outcome: Outcome) -> Answer | None:
    """The run's commitment, or None when it gave no answer (a timeout, an error...)."""
    if outcome.status == Status.UNSAT:
        return Answer(frozenset(), True)
    if outcome.status == Status.SOLVED:
        return Answer(frozenset(tuple(s) for s in outcome.solutions), outcome.complete)
    return None


def violated(mutant: Mutant, original: Answer, changed: Answer) -> str | None:
    """How the two answers break the mutant's relation, in words; None if they do not."""
    if mutant.relation == "symmetry":
        assert mutant.symmetry is not None
        expected = frozenset(mutant.symmetry.grid(s) for s in original.solutions)
        if _agree(expected, original.exact, changed):
            return None
        same = len(expected) == len(changed.solutions) and original.exact == changed.exact
        return (f"the original {_says(original)}, but its mutant ({mutant.what}) {_says(changed)}"
                + (", not the original's mapped" if same else ""))
    assert mutant.cell is not None
    at = f"with {mutant.digit} at r{mutant.cell // mutant.puzzle.n + 1}c{mutant.cell % mutant.puzzle.n + 1}"
    if mutant.relation == "one given more":
        expected = frozenset(s for s in original.solutions if s[mutant.cell] == mutant.digit)
        if not (changed.exact and not changed.solutions) and _agree(expected, original.exact, changed):
            return None
        return (f"the original {_says(original)} ({_count_of(len(expected), original.exact)} {at}), "
                f"but its mutant ({mutant.what}) {_says(changed)}")
    expected = frozenset(s for s in changed.solutions if s[mutant.cell] == mutant.digit)
    if not (original.solutions and changed.exact and not changed.solutions) and \
            _agree(expected, changed.exact, original):
        return None
    return (f"the original {_says(original)}, but its mutant ({mutant.what}), which keeps every "
            f"solution, {_says(changed)} ({_count_of(len(expected), changed.exact)} {at})")


def _agree(expected: frozenset[Grid], expected_exact: bool, got: Answer) -> bool:
    """Whether an answer agrees with the solutions another answer implies for it: no implied
    solution missing from a complete answer, no solution outside a complete implication."""
    if got.exact and expected - got.solutions:
        return False
    return not (expected_exact and got.solutions - expected)


def _says(answer: Answer) -> str:
    count = _count_of(len(answer.solutions), answer.exact)
    return f"claims {count}" if answer.exact else f"found {count}"


def _count_of(count: int, exact: bool) -> str:
    if exact:
        return {0: "no solution", 1: "exactly one solution"}.get(count, f"exactly {count} solutions")
    return f"at least {count} solution{'' if count == 1 else 's'}"


def mutant_for(mutant: Mutant, puzzle: Puzzle) -> Mutant | None:
    """The same relation, with the same symmetry or the same cell and digit, made from another
    puzzle (one being shrunk); None where it does not apply (the symmetry no longer
    preserves the puzzle, the cell is given, or holds no given to empty)."""
    if mutant.relation == "symmetry":
        assert mutant.symmetry is not None
        if not preserves(puzzle, mutant.symmetry):
            return None
        return replace(mutant, puzzle=mutant.symmetry.apply(puzzle))
    assert mutant.cell is not None
    givens = list(puzzle.givens)
    if mutant.relation == "one given more":
        if givens[mutant.cell]:
            return None
        givens[mutant.cell] = mutant.digit
    else:
        if givens[mutant.cell] != mutant.digit:
            return None
        givens[mutant.cell] = 0
    return replace(mutant, puzzle=puzzle.with_givens(tuple(givens)))
