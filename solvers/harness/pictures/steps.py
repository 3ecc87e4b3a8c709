"""A trace replayed on a board: what the grid looks like after each event, and what changed.

The board holds each cell's value, how it got there ('given', 'decision', 'forced' for a
branch with one option, or the rule that placed it), and the candidates that rules removed beyond the peers' values
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

HOWS = ("given", "decision", "forced", "naked single", "hidden single")


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
    """Each event after start, with the board after it (a copy of its own) and what it changed."""
    events = iter(events)
    board = Board.start(next(events))
    for event, change in changes(board, events):
        yield event, board.copy(), change


def changes(board: Board, events: Iterable[Event]) -> Iterator[tuple[Event, Change]]:
    """Each event with what it changed, applied to board in place. A decision at depth d marks
    the undo log; the backtrack at depth d takes back everything logged since, so the whole
    trace costs time in proportion to its events, however large the grid."""
    log: list[tuple[int, int, str] | tuple[int, int]] = []  # (cell, old value, old how) or
    marks: dict[int, int] = {}                                # (cell, value) ruled out; depth -> log length
    for event in events:
        kind = event["kind"]
        if kind in ("place", "decide"):
            if kind == "decide":
                marks[event["depth"]] = len(log)
            cell = event["cell"]
            how = (event["rule"] if kind == "place"
                   else "forced" if event.get("forced") else "decision")
            old = (board.values[cell], board.how[cell])
            log.append((cell, *old))
            board.values[cell], board.how[cell] = event["value"], how
            new = (board.values[cell], board.how[cell])
            yield event, Change(((cell, *old, *new),) if old != new else ())
        elif kind == "eliminate":
            pairs = event.get("removed") or [(cell, event["value"]) for cell in event["cells"]]
            fresh = sorted({(cell, value) for cell, value in pairs} - board.removed)
            board.removed.update(fresh)
            log.extend(fresh)
            yield event, Change((), tuple(fresh))
        elif kind == "backtrack" and event["depth"] in marks:
            mark = marks.pop(event["depth"])
            for deeper in [d for d in marks if d > event["depth"]]:
                del marks[deeper]
            yield event, _take_back(board, log, mark)
        else:
            yield event, Change(())


def _take_back(board: Board, log: list[tuple[int, int, str] | tuple[int, int]], mark: int) -> Change:
    """Undo the log's entries after mark, newest first; what that changed."""
    before: dict[int, tuple[int, str]] = {}
    back = []
    for entry in reversed(log[mark:]):
        if len(entry) == 3:
            cell, value, how = entry
            before.setdefault(cell, (board.values[cell], board.how[cell]))
            board.values[cell], board.how[cell] = value, how
        else:
            board.removed.discard(entry)
            back.append(entry)
    del log[mark:]
    cells = tuple((cell, *before[cell], board.values[cell], board.how[cell]) for cell in sorted(before)
                  if before[cell] != (board.values[cell], board.how[cell]))
    return Change(cells, (), tuple(sorted(back)))


def named_cells(event: Event, model: Model) -> tuple[int, ...]:
    """The cells a contradiction names (its cell, or the cells of its row, column, box, cage
    or dlx column), to mark on the grid; () for any other event or when nothing is named.
    Traces written before contradictions carried their cells are read by the cell or group name."""
    if event["kind"] != "contradiction":
        return ()
    if "cells" in event:
        return tuple(event["cells"])
    if "cell" in event:
        return (event["cell"],)
    named = [group.cells for group in model.groups if group.name == event.get("group")]
    return tuple(named[0]) if named else ()


def final_board(events: Iterable[Event]) -> Board:
    """The board after the last event (the solution, when the solve stopped at it)."""
    events = iter(events)
    board = Board.start(next(events))
    for _ in changes(board, events):
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
