"""The human-style solver: apply the easiest technique that makes progress, and guess only
when none does.

Each round tries the techniques of TECHNIQUES in order (easiest first, as Sudoku Explainer
does) and applies the first step found, then starts again from the easiest. Techniques of one
*pool* (the chains, whose weight grows with their length) are weighed together, as SE sorts
its chains: the lightest step of the pool is taken. The uniqueness techniques (unique
rectangles, BUG+1) assume the puzzle has one solution and run only when the caller says that
is known (``unique=True``). When no technique applies, it guesses: the first cell with the
fewest candidates takes each candidate in turn, and the same techniques go on under that
assumption until the board is solved or contradicts itself. Every moment is recorded as an
Event, so a caller can print the steps (explain) or rate the puzzle (rate).
"""
from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from models import Grid, Model

from .als import als_xy_wing, als_xz
from .board import Board, Contradiction, Step, digits
from .cages import cage_combinations
from .chains import aic, x_chain, xy_chain
from .colouring import simple_colouring
from .empty_rectangle import empty_rectangle
from .finned_fish import finned_fish
from .fish import fish
from .forcing import forcing_chains, nishio
from .innies import innies_outies, innies_outies_several
from .intersections import locked_candidates
from .kites import skyscraper, turbot_fish, two_string_kite
from .nets import forcing_nets, forcing_nets_plus
from .scale import BASE
from .singles import hidden_single, naked_single
from .subsets import hidden_subset, naked_subset
from .sue_de_coq import sue_de_coq
from .uniqueness import bug_plus_one, unique_rectangle
from .wings import xy_wing, xyz_wing


@dataclass(frozen=True)
class Technique:
    """A technique's name, its difficulty weight (scale.BASE: the lightest step it can make)
    and its finder. A ``bounded`` finder is called as ``find(board, below)`` and returns its
    lightest step lighter than ``below`` (its steps' weights vary: a chain's with its length);
    ``unique``: it assumes the puzzle has one solution."""

    name: str
    find: Callable[..., Step | None]
    bounded: bool = False
    unique: bool = False

    @property
    def weight(self) -> float:
        return BASE[self.name]


TECHNIQUES: tuple[Technique, ...] = (
    Technique("hidden single", hidden_single),  # 1.2 in a box or region, 1.5 in a line
    Technique("naked single", naked_single),
    Technique("cage combinations", cage_combinations),
    Technique("innies and outies", innies_outies),
    Technique("locked candidates", locked_candidates),  # pointing 2.6, claiming 2.8
    Technique("innies and outies of several houses", innies_outies_several),
    Technique("naked pair", naked_subset(2)),
    Technique("X-wing", fish(2)),
    Technique("hidden pair", hidden_subset(2)),
    Technique("naked triple", naked_subset(3)),
    Technique("swordfish", fish(3)),
    Technique("hidden triple", hidden_subset(3)),
    Technique("skyscraper", skyscraper),
    Technique("two-string kite", two_string_kite),
    Technique("turbot fish", turbot_fish),
    Technique("XY-wing", xy_wing),
    Technique("empty rectangle", empty_rectangle),
    Technique("finned fish", finned_fish, bounded=True),
    Technique("XYZ-wing", xyz_wing),
    Technique("unique rectangle", unique_rectangle, unique=True),
    Technique("simple colouring", simple_colouring, bounded=True),
    Technique("X-chain", x_chain, bounded=True),  # named patterns above win a tie with it
    Technique("ALS-XZ", als_xz, bounded=True),
    Technique("naked quad", naked_subset(4)),
    Technique("jellyfish", fish(4)),
    Technique("hidden quad", hidden_subset(4)),
    Technique("BUG+1", bug_plus_one, unique=True),
    Technique("XY-loop", xy_chain, bounded=True),  # XY-loops 6.5, XY-chains and remote pairs 7.0
    Technique("AIC", aic, bounded=True),
    Technique("ALS-XY-wing", als_xy_wing, bounded=True),
    Technique("Sue de Coq", sue_de_coq, bounded=True),
    Technique("Nishio forcing chain", nishio),
    Technique("cell forcing chain", forcing_chains),  # and region forcing chains
    Technique("forcing net", forcing_nets),
    Technique("forcing net with basic techniques", forcing_nets_plus),
)
"""Easiest first: the order the solver tries them in (SE's)."""

NETS = ("forcing net", "forcing net with basic techniques")
"""The last resort before a guess, left out under a guess: once trial and error has begun, a
branch is tried to its end with everything lighter (and the nets on every branch would make the
hardest puzzles many times slower to rate)."""

WEIGHTS: dict[str, float] = dict(BASE)
"""The weight of each step's technique, or the lightest weight of a chain (scale.BASE; a
locked-candidates step is named 'pointing' or 'claiming'); 'guess' is a decision with nothing
else left to apply."""


def weight_of(step: Step) -> float:
    """The step's difficulty: its own weight, or its technique's."""
    return step.weight or WEIGHTS[step.technique]


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
    peak: dict[str, float] = field(default_factory=dict)  # technique -> its heaviest step
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
          techniques: tuple[Technique, ...] = TECHNIQUES, unique: bool = False) -> Solve:
    """Solve by techniques (``techniques``, easiest first: TECHNIQUES unless a study leaves
    some out), guessing only when none applies; stop at ``max_solutions``. ``unique``: the
    puzzle is known to have one solution, so the uniqueness techniques may be used."""
    result = Solve()
    if not unique:
        techniques = tuple(t for t in techniques if not t.unique)
    try:
        board = Board.start(model)
    except Contradiction as clash:
        result.events.append(Event("contradiction", 0, why=clash))
        return result
    search = _Search(result, techniques, max_solutions, max_guesses, time_limit, record)
    try:
        search.down(board, 0)
    except _Stop:
        result.complete = False
    return result


class _Search:
    """The steps, then a guess where none applies (every technique but the nets under a guess,
    so a branch is followed to its end), recorded in ``result``."""

    def __init__(self, result: Solve, techniques: tuple[Technique, ...], max_solutions: int,
                 max_guesses: int | None, time_limit: float | None, record: bool) -> None:
        self.result, self.techniques, self.record = result, techniques, record
        self.under_guess = tuple(t for t in techniques if t.name not in NETS)
        self.max_solutions, self.max_guesses = max_solutions, max_guesses
        self.deadline = None if time_limit is None else time.monotonic() + time_limit

    def note(self, event: Event) -> None:
        if self.record:  # a rating needs only the counts
            self.result.events.append(event)

    def out_of_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.result.stopped = "time limit reached"
            raise _Stop

    def deduce(self, board: Board, depth: int) -> bool:
        """Steps until none applies (True: guess now), the grid is solved or a contradiction."""
        result = self.result
        try:
            while True:
                self.out_of_time()
                board.check()
                if board.solved():
                    result.solutions.append(tuple(board.values))
                    self.note(Event("solved", depth))
                    if len(result.solutions) >= self.max_solutions:
                        raise _Stop
                    return False
                step = next_step(board, self.techniques if depth == 0 else self.under_guess)
                if step is None:
                    return True
                result.uses[step.technique] += 1
                result.peak[step.technique] = max(result.peak.get(step.technique, 0.0), weight_of(step))
                self.note(Event("step", depth, step=step))
                board.apply(step)
        except Contradiction as why:
            self.note(Event("contradiction", depth, why=why))
            return False

    def down(self, board: Board, depth: int) -> None:
        """Deduce, then guess on the cell with fewest candidates, each digit in turn."""
        self.out_of_time()
        if not self.deduce(board, depth):
            return
        cell = min((c for c, v in enumerate(board.values) if not v),
                   key=lambda c: board.cand[c].bit_count())
        options = digits(board.cand[cell])
        for number, digit in enumerate(options):
            if self.max_guesses is not None and self.result.guesses >= self.max_guesses:
                self.result.stopped = f"guess limit {self.max_guesses} reached"
                raise _Stop
            self.result.guesses += 1
            self.note(Event("guess", depth + 1, cell=cell, digit=digit, others=tuple(options[number + 1:])))
            child = board.copy()
            child.place(cell, digit)
            self.down(child, depth + 1)
            self.note(Event("backtrack", depth + 1, cell=cell, digit=digit))


def next_step(board: Board, techniques: tuple[Technique, ...] = TECHNIQUES) -> Step | None:
    """The lightest step of any technique, as SE takes it (the first of equal weight, in the
    order of ``techniques``); a technique whose lightest step cannot beat the best found so far
    is not asked."""
    best: Step | None = None
    heaviest = float("inf")
    for technique in techniques:
        if technique.weight >= heaviest:
            continue
        step = technique.find(board, heaviest) if technique.bounded else technique.find(board)
        if step is not None and weight_of(step) < heaviest:
            best, heaviest = step, weight_of(step)
    return best
