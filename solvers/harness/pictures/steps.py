"""A trace replayed on a board: what the grid looks like after each event, and what changed.

The board holds each cell's value, how it got there ('given', 'decision', or the rule
that placed it), and the candidates that rules removed beyond the peers' values
(locked candidates). A cell's candidates are shown as a student pencils them: the
values no peer holds, less those removals. A decision at depth d remembers the board
just before it; the backtrack at depth d restores it. ``render`` draws the last board,
``replay`` steps through the changes forward and back.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from models import Model

from ...trace import Event, puzzle_of

HOWS = ("given", "decision", "naked single", "hidden single")


@dataclass
class Board:
    """The grid at one moment of a solve."""

    model: Model
    values: list[int]
    how: list[str]  # per cell: one of HOWS, or '' while empty
    removed: set[tuple[int, int]] = field(default_factory=set)  # (cell, value) ruled out

    @staticmethod
    def start(event: Event) -> Board:
        """The board of a start event: only the givens."""
        model = Model.from_puzzle(puzzle_of(event))
        givens = list(model.givens)
        return Board(model, givens, ["given" if v else "" for v in givens])

    def copy(self) -> Board:
        return Board(self.model, self.values[:], self.how[:], set(self.removed))

    def candidates(self, cell: int) -> list[int]:
        """The values the cell may still take, as pencilled: [] for a filled cell."""
        if self.values[cell]:
            return []
        taken = {self.values[p] for p in self.model.peers[cell]}
        return [v for v in range(1, self.model.n + 1)
                if v not in taken and (cell, v) not in self.removed]


@dataclass(frozen=True)
class Change:
    """What one event changed: cells as (cell, old value, old how, new value, new how),
    and the (cell, value) candidates it ruled out or brought back."""

    cells: tuple[tuple[int, int, str, int, str], ...]
    ruled_out: tuple[tuple[int, int], ...] = ()
    brought_back: tuple[tuple[int, int], ...] = ()


def replay(events: Iterable[Event]) -> Iterator[tuple[Event, Board, Change]]:
    """Each event after start, with the board after it and what it changed."""
    events = iter(events)
    board = Board.start(next(events))
    before: dict[int, Board] = {}  # depth -> the board just before that depth's decision
    for event in events:
        kind = event["kind"]
        old = board
        if kind in ("place", "decide"):
            if kind == "decide":
                before[event["depth"]] = board.copy()
            board = board.copy()
            cell = event["cell"]
            board.values[cell] = event["value"]
            board.how[cell] = "decision" if kind == "decide" else event["rule"]
        elif kind == "eliminate":
            board = board.copy()
            pairs = event.get("removed") or [(cell, event["value"]) for cell in event["cells"]]
            board.removed.update((cell, value) for cell, value in pairs)
        elif kind == "backtrack" and event["depth"] in before:
            board = before.pop(event["depth"]).copy()
        yield event, board, _change(old, board)


def _change(old: Board, new: Board) -> Change:
    if old is new:
        return Change(())
    cells = tuple((c, old.values[c], old.how[c], new.values[c], new.how[c])
                  for c in range(len(new.values))
                  if old.values[c] != new.values[c] or old.how[c] != new.how[c])
    return Change(cells, tuple(sorted(new.removed - old.removed)),
                  tuple(sorted(old.removed - new.removed)))


def final_board(events: Iterable[Event]) -> Board:
    """The board after the last event (the solution, when the solve stopped at it)."""
    events = list(events)
    board = Board.start(events[0])
    for _, board, _ in replay(events):  # noqa: B007 - the last board is the answer
        pass
    return board


def cage_sides(cells: tuple[int, ...], n: int) -> dict[int, tuple[bool, bool, bool, bool]]:
    """Per cell of a cage, whether its top, right, bottom and left edges are the cage's border
    (the neighbour there lies outside the cage), which is where setters draw the dashes.

    >>> cage_sides((0, 1), 3)[0]
    (True, False, True, True)
    """
    inside = set(cells)

    def out(row: int, col: int) -> bool:
        return not (0 <= row < n and 0 <= col < n) or row * n + col not in inside

    sides = {}
    for cell in cells:
        row, col = divmod(cell, n)
        sides[cell] = (out(row - 1, col), out(row, col + 1), out(row + 1, col), out(row, col - 1))
    return sides


def cage_corner(cells: tuple[int, ...]) -> int:
    """The cell where a cage's total is written: its top-left one (first in reading order)."""
    return min(cells)
