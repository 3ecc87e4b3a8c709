"""The human-style solver: apply the easiest technique that makes progress, and guess only
when none does.

Each round tries the techniques of TECHNIQUES in order (easiest first) and applies the first
step found, then starts again from the easiest. When no technique applies, it guesses: the
first cell with the fewest candidates takes each candidate in turn, and the same techniques
go on under that assumption until the board is solved or contradicts itself. Every moment
is recorded as an Event, so a caller can print the steps (explain) or rate the puzzle (rate).
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from models import Grid, Model

from .board import Board, Contradiction, Step, digits
from .cages import cage_combinations
from .colouring import simple_colouring
from .fish import fish
from .innies import innies_outies, innies_outies_several
from .intersections import locked_candidates
from .singles import hidden_single, naked_single
from .subsets import hidden_subset, naked_subset
from .wings import xy_wing, xyz_wing


@dataclass(frozen=True)
class Technique:
    """A technique's name, its difficulty weight (see docs/teaching.md) and its finder."""

    name: str
    weight: float
    find: Callable[[Board], Step | None]


TECHNIQUES: tuple[Technique, ...] = (
    Technique("hidden single", 1.2, hidden_single),
    Technique("naked single", 2.3, naked_single),
    Technique("cage combinations", 2.5, cage_combinations),
    Technique("innies and outies", 2.6, innies_outies),
    Technique("locked candidates", 2.6, locked_candidates),  # pointing 2.6, claiming 2.8
    Technique("innies and outies of several houses", 2.9, innies_outies_several),
    Technique("naked pair", 3.0, naked_subset(2)),
    Technique("X-wing", 3.2, fish(2)),
    Technique("hidden pair", 3.4, hidden_subset(2)),
    Technique("naked triple", 3.6, naked_subset(3)),
    Technique("swordfish", 3.8, fish(3)),
    Technique("hidden triple", 4.0, hidden_subset(3)),
    Technique("XY-wing", 4.2, xy_wing),
    Technique("XYZ-wing", 4.4, xyz_wing),
    Technique("naked quad", 5.0, naked_subset(4)),
    Technique("jellyfish", 5.2, fish(4)),
    Technique("hidden quad", 5.4, hidden_subset(4)),
    Technique("simple colouring", 5.6, simple_colouring),
)
"""Easiest first: the order the solver tries them in."""

WEIGHTS: dict[str, float] = {t.name: t.weight for t in TECHNIQUES} | {
    "pointing": 2.6, "claiming": 2.8, "guess": 7.0}
"""The difficulty weight of each step's technique (a locked-candidates step is named
'pointing' or 'claiming'); 'guess' is a decision with nothing else left to apply."""


@dataclass(frozen=True)
class Event:
    """One moment of the solve, at ``depth`` guesses deep.

    kind 'step' (``step``), 'guess' (``cell``, ``digit``, ``others``: the candidates still to
    try there), 'contradiction' (``why``: the Contradiction), 'backtrack' (``cell``,
    ``digit``: the guess taken back) or 'solved'."""

    kind: str
    depth: int
    step: Step | None = None
    cell: int = -1
    digit: int = 0
    others: tuple[int, ...] = ()
    why: Contradiction | None = None


@dataclass
class Solve:
    """What the solve found and did: solutions, every event, and how often each technique ran."""

    solutions: list[Grid] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    uses: Counter[str] = field(default_factory=Counter)
    guesses: int = 0
    complete: bool = True  # False when a limit stopped it before the search space was exhausted
    stopped: str = ""  # why, when it stopped early

    def technique_steps(self) -> list[Step]:
        """The steps before the first guess: the part a person solves by reasoning alone."""
        found = []
        for event in self.events:
            if event.kind == "guess":
                break
            if event.step is not None:
                found.append(event.step)
        return found


class _Stop(Exception):  # control flow, not an error
    pass


def solve(model: Model, *, max_solutions: int = 1, max_guesses: int | None = None,
          time_limit: float | None = None, record: bool = True,
          techniques: tuple[Technique, ...] = TECHNIQUES) -> Solve:
    """Solve by techniques (``techniques``, easiest first: TECHNIQUES unless a study leaves
    some out), guessing only when none applies; stop at ``max_solutions``."""
    result = Solve()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        board = Board.start(model)
    except Contradiction as clash:
        result.events.append(Event("contradiction", 0, why=clash))
        return result

    def note(event: Event) -> None:
        if record:  # a rating needs only the counts
            result.events.append(event)

    def search(board: Board, depth: int) -> None:
        if deadline is not None and time.monotonic() > deadline:
            result.stopped = "time limit reached"
            raise _Stop
        try:
            while True:
                board.check()
                if board.solved():
                    result.solutions.append(tuple(board.values))
                    note(Event("solved", depth))
                    if len(result.solutions) >= max_solutions:
                        raise _Stop
                    return
                step = next_step(board, techniques)
                if step is None:
                    break
                result.uses[step.technique] += 1
                note(Event("step", depth, step=step))
                board.apply(step)
        except Contradiction as why:
            note(Event("contradiction", depth, why=why))
            return
        cell = min((c for c, v in enumerate(board.values) if not v),
                   key=lambda c: board.cand[c].bit_count())
        options = digits(board.cand[cell])
        for number, digit in enumerate(options):
            if max_guesses is not None and result.guesses >= max_guesses:
                result.stopped = f"guess limit {max_guesses} reached"
                raise _Stop
            result.guesses += 1
            note(Event("guess", depth + 1, cell=cell, digit=digit, others=tuple(options[number + 1:])))
            child = board.copy()
            child.place(cell, digit)
            search(child, depth + 1)
            note(Event("backtrack", depth + 1, cell=cell, digit=digit))

    try:
        search(board, 0)
    except _Stop:
        result.complete = False
    return result


def next_step(board: Board, techniques: tuple[Technique, ...] = TECHNIQUES) -> Step | None:
    """The step of the easiest technique that applies now, or None."""
    for technique in techniques:
        step = technique.find(board)
        if step is not None:
            return step
    return None
