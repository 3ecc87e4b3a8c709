"""What a searching backend did, step by step: one event schema, a recorder, and words.

The readable backends (``solvers.backends.readable``: backtrack, mrv and dlx) take
``trace=Trace()`` and append one event per step. An event is a plain dict, so it
goes to JSON lines as it is; every event has ``kind`` and ``depth`` (the number of
decisions on the current path). The kinds and their other keys:

=============  ==============================================================
start          n, box_rows, box_cols, givens (list), diagonals, regions (list
               or null), solver: the puzzle, so a trace file stands alone; and
               cages ([cells, total or null] each), rules, extra_regions (optional)
place          cell, value, rule ('naked single', 'hidden single'), group
               (hidden single: the group where the value had one place);
               explanation (optional): the step's own sentence (the human solver's);
               links (optional): a chain's links, as for eliminate
eliminate      value, cells (list), rule ('locked candidates'), group (where
               the value is locked), other (the group it is removed from);
               killer cages: rule 'cage combinations' (other: the cage too) or
               'cage digits' (other: a group holding the cage), with total,
               combinations (the digit sets the cage can still make) and removed
               (the [cell, value] pairs taken out; value is the first one's);
               the human solver (solvers/human): rule is its technique ('naked
               pair', 'X-wing', ...), removed as above, explanation its sentence, and
               for a chain links (optional): [cells, digit, cells, digit, strong] each,
               a link between two nodes (a digit in one cell or a few), strong or weak
decide         cell, value, alternatives (list of [cell, value] still to try
               here), rule ('first empty cell', 'fewest candidates', 'two
               places', 'fewest rows'), group (two places: the group; fewest
               rows: the dlx column), forced (true when the branch had one
               option only: a forced move, not a choice; optional, absent in
               traces written before it)
contradiction  rule ('no candidate': cell; 'no place': value, group; 'no
               row': column (dlx); 'givens clash': message; 'no combination':
               group (a cage), total); cells: the cells of what it names (the
               cell, or the group's cells; optional, absent in older traces)
backtrack      cell, value: the decision at this depth is taken back, with
               everything after it
solved         count: solutions found so far
=============  ==============================================================

Cells are numbered 0..n*n-1 in reading order; :func:`describe` names them r3c5.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from html import escape
from pathlib import Path
from typing import Any, TextIO

from models import Cage, Geometry, Model, Puzzle, grid_svg
from models.geometry import MAX_SIZE
from models.lines import BadLine, iter_lines
from models.symbols import symbol

Event = dict[str, Any]

#: Keys each kind of event must have (besides kind and depth).
SCHEMA: dict[str, tuple[str, ...]] = {
    "start": ("n", "box_rows", "box_cols", "givens", "diagonals", "regions", "solver"),
    "place": ("cell", "value", "rule"),
    "eliminate": ("value", "cells", "rule", "group", "other"),
    "decide": ("cell", "value", "alternatives", "rule"),
    "contradiction": ("rule",),
    "backtrack": ("cell", "value"),
    "solved": ("count",),
}


class TraceError(ValueError):
    """A trace event or file that does not follow the schema; says where and what."""


class Trace:
    """The events of one solve, in order."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def emit(self, kind: str, depth: int, **fields: Any) -> None:
        """Append one event."""
        self.events.append({"kind": kind, "depth": depth, **fields})

    def _repr_html_(self) -> str:
        """The grid as the trace leaves it, each filled cell coloured by how it was filled,
        and what the search did, as a notebook shows a trace."""
        if not self.events or self.events[0]["kind"] != "start":
            return f"<p>a trace of {len(self.events)} events, without its start</p>"
        values, how = final_cells(self.events)
        kinds = Counter(event["kind"] for event in self.events)
        words = (f"{self.events[0]['solver']}: {len(self.events) - 1:,} steps, "
                 f"{kinds['decide']:,} decisions, {kinds['contradiction']:,} contradictions, "
                 f"{kinds['backtrack']:,} backtracks" + (", solved" if kinds["solved"] else ""))
        key = " ".join(f'<span style="background:{colour};padding:0 4px">{escape(name)}</span>'
                       for name, colour in FILLS.items() if name in how)
        return (f"<p>{escape(words)}<br>{key}</p>"
                + grid_svg(puzzle_of(self.events[0]), values, [FILLS.get(h, "") for h in how]))

    def start(self, model: Model, solver: str) -> None:
        """The first event: the puzzle itself."""
        puzzle = model.puzzle
        self.emit("start", 0, n=puzzle.n, box_rows=puzzle.geometry.box_rows,
                  box_cols=puzzle.geometry.box_cols, givens=list(puzzle.givens),
                  diagonals=puzzle.diagonals,
                  regions=None if puzzle.regions is None else list(puzzle.regions), solver=solver,
                  cages=[[list(cage.cells), cage.total] for cage in puzzle.cages],
                  rules=list(puzzle.rules), extra_regions=[list(r) for r in puzzle.extra_regions])


FILLS = {"naked single": "#b9e3f7", "hidden single": "#c8ecd4", "decision": "#ffd9a8",
         "forced": "#f3c7de"}
"""How a cell was filled, as the notebook display colours it (render's colours)."""


def final_cells(events: Iterable[Event]) -> tuple[list[int], list[str]]:
    """The values of the grid after the last event, and per cell how it got its value
    ('given', 'decision', 'forced', the rule that placed it, or '' while empty); a backtrack takes back
    everything since its decision."""
    events = iter(events)
    start = next(events)
    values = list(start["givens"])
    how = ["given" if value else "" for value in values]
    before: dict[int, tuple[list[int], list[str]]] = {}  # depth -> the grid before its decision
    for event in events:
        kind = event["kind"]
        if kind in ("place", "decide"):
            if kind == "decide":
                before[event["depth"]] = (values[:], how[:])
            values[event["cell"]] = event["value"]
            how[event["cell"]] = (str(event["rule"]) if kind == "place"
                                  else "forced" if event.get("forced") else "decision")
        elif kind == "backtrack" and event["depth"] in before:
            values, how = before.pop(event["depth"])
    return values, how


def _integer(value: Any) -> bool:
    return type(value) is int and abs(value) <= MAX_TRACE_INT


def _integers(value: Any) -> bool:
    return isinstance(value, list) and all(_integer(x) for x in value)


def _pairs(value: Any) -> bool:
    return isinstance(value, list) and all(_integers(x) and len(x) == 2 for x in value)


def _links(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(k, list) and len(k) == 5 and _integers(k[0]) and _integer(k[1]) and _integers(k[2])
        and _integer(k[3]) and type(k[4]) is bool and k[0] and k[2] for k in value)


def _cages(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(c, list) and len(c) == 2 and _integers(c[0]) and (c[1] is None or _integer(c[1]))
        for c in value)


MAX_TRACE_INT = 10 ** 9
"""The largest number a trace field holds (a cell, value, count or cage total is far smaller)."""
FIELD_TYPES: dict[str, tuple[str, Any]] = {
    "depth": ("an integer", _integer), "n": ("an integer", _integer),
    "box_rows": ("an integer", _integer), "box_cols": ("an integer", _integer),
    "cell": ("an integer", _integer), "value": ("an integer", _integer),
    "count": ("an integer", _integer),
    "total": ("an integer or null", lambda v: v is None or _integer(v)),
    "givens": ("a list of integers", _integers), "cells": ("a list of integers", _integers),
    "regions": ("null or a list of integers", lambda v: v is None or _integers(v)),
    "diagonals": ("true or false", lambda v: type(v) is bool),
    "forced": ("true or false", lambda v: type(v) is bool),
    "alternatives": ("a list of [cell, value] pairs", _pairs),
    "removed": ("a list of [cell, value] pairs", _pairs),
    "links": ("a list of [cells, digit, cells, digit, strong] links", _links),
    "combinations": ("a list of lists of integers", lambda v: isinstance(v, list) and all(map(_integers, v))),
    "cages": ("a list of [cells, total] pairs", _cages),
    "extra_regions": ("a list of lists of integers", lambda v: isinstance(v, list) and all(map(_integers, v))),
    "rules": ("a list of strings", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)),
    "group": ("a string or null", lambda v: v is None or isinstance(v, str)),
}
"""What each field of an event must be (any other field: a string); checked as a trace is read."""
CELL_FIELDS = ("cell",)
"""The fields naming one cell: 0..n*n-1 of the start event's grid."""


def check_event(event: Any, where: str = "event") -> Event:
    """The event if it follows SCHEMA and FIELD_TYPES; TraceError naming what is wrong otherwise."""
    if not isinstance(event, dict) or not isinstance(event.get("kind"), str) or event["kind"] not in SCHEMA:
        kinds = ", ".join(SCHEMA)
        raise TraceError(f"{where}: not a trace event (a JSON object whose kind is one of {kinds})")
    missing = [key for key in ("depth", *SCHEMA[event["kind"]]) if key not in event]
    if missing:
        raise TraceError(f"{where}: {event['kind']} event lacks {', '.join(missing)}")
    for key, value in event.items():
        what, fits = FIELD_TYPES.get(key, ("a string", lambda v: isinstance(v, str)))
        if not fits(value):
            shown = json.dumps(value)
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            raise TraceError(f"{where}: {event['kind']} event's {key} must be {what}, not {shown}")
    return event


def check_in_grid(event: Event, n: int, where: str) -> None:
    """TraceError unless the event's cells and values lie in an n x n grid."""
    cells = [event[k] for k in CELL_FIELDS if k in event] + list(event.get("cells", []))
    values = [event["value"]] if "value" in event else []
    for key in ("alternatives", "removed"):
        cells += [cell for cell, _ in event.get(key, [])]
        values += [value for _, value in event.get(key, [])]
    for tail, digit, head, to_digit, _ in event.get("links", []):
        cells += [*tail, *head]
        values += [digit, to_digit]
    if any(not 0 <= cell < n * n for cell in cells):
        raise TraceError(f"{where}: {event['kind']} event names a cell outside the {n}x{n} grid "
                         f"(cells are 0..{n * n - 1})")
    if any(not 1 <= value <= n for value in values):
        raise TraceError(f"{where}: {event['kind']} event names a value outside 1..{n}")
    if event["depth"] < 0:
        raise TraceError(f"{where}: {event['kind']} event's depth is negative")


def write_jsonl(events: Iterable[Event], out: TextIO) -> None:
    """One JSON object per line."""
    for event in events:
        out.write(json.dumps(event, separators=(",", ":")) + "\n")


def read_jsonl(path: str | Path) -> list[Event]:
    """The events of a JSON-lines trace; TraceError with the line on a bad one."""
    return read_trace(path)[0]


def read_trace(path: str | Path, keep: int | None = None) -> tuple[list[Event], int]:
    """The first ``keep`` events of a JSON-lines trace (all when None) and how many it holds;
    every event is checked (its fields' types, its cells and values in the start event's
    grid), TraceError with the line on a bad one. Lines are read with models.lines' cap, so
    a file without line ends is an error, never read whole."""
    events: list[Event] = []
    count, n = 0, 0
    with open(path, "rb") as stream:
        for number, line in enumerate(iter_lines(stream, str(path)), 1):
            if isinstance(line, BadLine):
                raise TraceError(str(line))
            if not line.strip():
                continue
            where = f"{path}, line {number}"
            try:
                event = json.loads(line)
            except (json.JSONDecodeError, RecursionError) as error:
                raise TraceError(f"{where}: not JSON: {getattr(error, 'msg', 'nested too deeply')}") from None
            check_event(event, where)
            if count == 0:
                n = _start_side(event, where)
            else:
                check_in_grid(event, n, where)
            count += 1
            if keep is None or len(events) < keep:
                events.append(event)
    if not events:
        raise TraceError(f"{path}: a trace starts with a 'start' event (the puzzle)")
    return events, count


def _start_side(event: Event, where: str) -> int:
    """The side n of a trace's start event, checked against its puzzle."""
    if event["kind"] != "start":
        raise TraceError(f"{where}: a trace starts with a 'start' event (the puzzle)")
    n = event["n"]
    if event["box_rows"] * event["box_cols"] != n or not 1 <= n <= MAX_SIZE:
        raise TraceError(f"{where}: the start event's n {n} is not box_rows x box_cols "
                         f"({event['box_rows']} x {event['box_cols']}) of a grid up to {MAX_SIZE}")
    puzzle_of(event, where)
    return int(n)


def puzzle_of(start: Event, where: str = "the start event") -> Puzzle:
    """The puzzle a start event describes; TraceError if it describes none."""
    regions = start["regions"]
    try:  # the variant keys are optional: traces written before them have none
        cages = tuple(Cage(tuple(cells), total) for cells, total in start.get("cages") or ())
        return Puzzle(Geometry.of(start["box_rows"], start["box_cols"]), tuple(start["givens"]),
                      bool(start["diagonals"]), None if regions is None else tuple(regions),
                      cages=cages, rules=tuple(start.get("rules") or ()),
                      extra_regions=tuple(tuple(r) for r in start.get("extra_regions") or ()))
    except (TypeError, ValueError) as error:
        raise TraceError(f"{where}: the start event does not describe a puzzle: {error}") from None


def cell_name(cell: int, n: int) -> str:
    """r3c5: row and column, 1-based."""
    row, col = divmod(cell, n)
    return f"r{row + 1}c{col + 1}"


def _cells(cells: Iterable[int], n: int) -> str:
    return ", ".join(cell_name(c, n) for c in cells)


def describe(event: Event, n: int) -> str:
    """One event in words, for a student."""
    kind, rule = event["kind"], event.get("rule")
    if kind in ("place", "eliminate") and isinstance(event.get("explanation"), str):
        return str(event["explanation"])  # the human-style solver words its own steps
    v = symbol(event["value"]) if event.get("value") else ""
    if kind == "start":
        return f"start: a {n}x{n} puzzle with {sum(1 for g in event['givens'] if g)} givens"
    if kind == "place":
        where = cell_name(event["cell"], n)
        if rule == "hidden single":
            return f"hidden single: {v} can go only in {where} within {event['group']}"
        return f"naked single: {where} = {v}, its only candidate left"
    if kind == "eliminate" and rule == "cage combinations":
        values, verb = _values(event)
        return f"{_cage_words(event)}, so {values} {verb} {_cells(event['cells'], n)}"
    if kind == "eliminate" and rule == "cage digits":
        values, verb = _values(event)
        return (f"{_cage_words(event)}, so {values} must be in the cage and {verb} "
                f"{_cells(event['cells'], n)} in {event['other']}")
    if kind == "eliminate":
        return (f"locked candidates: {v} in {event['group']} lies in {event['other']}, "
                f"so removed from {_cells(event['cells'], n)}")
    if kind == "decide" and event.get("forced"):
        return _forced(event, n, v)
    if kind == "decide":
        return _decision(event, n, v)
    if kind == "contradiction":
        return "contradiction: " + _contradiction(event, n)
    if kind == "backtrack":
        return f"backtrack: take back {cell_name(event['cell'], n)} = {v} (depth {event['depth']})"
    if kind == "solved":
        return f"solved: every cell is filled (solution {event['count']})"
    raise TraceError(f"unknown event kind {kind!r}")


def _values(event: Event) -> tuple[str, str]:
    """The values an elimination removes (its 'removed' pairs' values, or its one value), and
    'leaves' or 'leave' to agree with them."""
    values = sorted({v for _, v in event.get("removed") or ()}) or [event["value"]]
    return ", ".join(symbol(v) for v in values), "leaves" if len(values) == 1 else "leave"


def _cage_words(event: Event) -> str:
    """'cage 17 in two cells (cage 3): only 8 and 9' or '... : 1+2+7 or 1+3+6'."""
    combos = event.get("combinations") or []
    size = len(combos[0]) if combos else 0
    cells = NUMBER_WORDS.get(size, str(size))
    if len(combos) == 1:
        digits = [symbol(d) for d in combos[0]]
        only = " and ".join([", ".join(digits[:-1]), digits[-1]] if len(digits) > 1 else digits)
    else:
        only = " or ".join("+".join(symbol(d) for d in combo) for combo in combos)
    plural = "cell" if size == 1 else "cells"
    return f"cage {event.get('total')} in {cells} {plural} ({event['group']}): only {only}"


NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                8: "eight", 9: "nine"}


def _decision(event: Event, n: int, v: str) -> str:
    where, rule, left = cell_name(event["cell"], n), event["rule"], event["alternatives"]
    if rule == "two places":
        why = f"{v} has two places left in {event['group']}"
        rest = f"; then {_cells((c for c, _ in left), n)}" if left else "; the last place"
    elif rule == "fewest rows":
        why = f"'{event['group']}' has the fewest rows left"
        rest = (f"; {_left(len(left), 'row')} to try: "
                + ", ".join(f"{cell_name(c, n)} = {symbol(x)}" for c, x in left)
                if left else "; the last row")
    else:
        why = {"first empty cell": "the first empty cell",
               "fewest candidates": "a cell with the fewest candidates"}.get(rule, str(rule))
        rest = (f"; {_left(len(left), 'value')} to try: {', '.join(symbol(x) for _, x in left)}"
                if left else "; no other value left here")
    return f"decision at depth {event['depth']}: try {where} = {v} ({why}{rest})"


def _left(count: int, thing: str) -> str:
    """'1 value left' or '3 values left': a count that cannot be read as one of the values."""
    return f"{count} {thing}{'' if count == 1 else 's'} left"


def _forced(event: Event, n: int, v: str) -> str:
    """A branch with one option: the search takes it without choosing."""
    where = cell_name(event["cell"], n)
    if event["rule"] == "fewest rows":
        why = f"the only row left to cover '{event['group']}'"
    elif event["rule"] == "first empty cell":
        why = "the only value that fits the first empty cell"
    else:
        why = "its only candidate left"
    return f"forced at depth {event['depth']}: {where} = {v} ({why}; nothing else to try)"


def _contradiction(event: Event, n: int) -> str:
    rule = event["rule"]
    if rule == "no candidate":
        return f"{cell_name(event['cell'], n)} has no candidate left"
    if rule == "no place":
        return f"{symbol(event['value'])} has no place left in {event['group']}"
    if rule == "no row":
        return f"no row left to cover '{event['column']}'"
    if rule == "givens clash":
        return str(event.get("message", "the givens clash"))
    if rule == "no combination":
        return (f"no combination of different digits left in {event['group']} can make "
                f"its total {event.get('total')}")
    return str(rule)


def numbered(events: Iterable[Event], n: int, max_steps: int | None = None) -> Iterator[str]:
    """The events after start as numbered sentences, at most max_steps of them."""
    number = 0
    for event in events:
        if event["kind"] == "start":
            continue
        number += 1
        if max_steps is not None and number > max_steps:
            return
        indent = "  " * min(event["depth"], 20)
        yield f"{number:>5}. {indent}{describe(event, n)}"
