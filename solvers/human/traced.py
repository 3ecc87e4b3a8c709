"""The human-style solve in the trace vocabulary (solvers/trace.py) and as a Result, so that
``explain``, ``render`` and ``replay`` show it like the readable searches.

Each step becomes a 'place' or an 'eliminate' event whose rule is the technique and whose
``explanation`` is the step's sentence; eliminations also list every (cell, digit) they
remove under ``removed``, and a chain its links under ``links`` (for the pictures: each
[cells, digit, cells, digit, strong]). A guess is a 'decide' event (rule 'fewest candidates').
"""
from __future__ import annotations

import time

from models import Model

from ..result import Result, Stats, finish
from ..trace import Trace
from .solver import Event
from .solver import solve as human_solve

NAME = "human"


def solve(model: Model, *, max_solutions: int = 1, time_limit: float | None = None,
          node_limit: int | None = None, trace: Trace | None = None, unique: bool = False) -> Result:
    """Solve like a person (guesses count as nodes, limited by node_limit) and record the trace;
    ``unique``: the puzzle is known to have one solution (uniqueness techniques allowed)."""
    start = time.perf_counter()
    done = human_solve(model, max_solutions=max_solutions, max_guesses=node_limit,
                       time_limit=time_limit, unique=unique)
    if trace is not None:
        trace.start(model, NAME)
        solved = 0
        groups = {group.name: list(group.cells) for group in model.groups}
        for event in done.events:
            solved += event.kind == "solved"
            kind, depth, fields = _kind_and_fields(event, solved)
            if kind == "contradiction" and "cell" in fields:  # the cells it names, for replay
                fields["cells"] = [fields["cell"]]
            elif kind == "contradiction" and fields.get("group") in groups:
                fields["cells"] = groups[str(fields["group"])]
            trace.emit(kind, depth, **fields)
    stats = Stats(nodes=done.guesses, backtracks=sum(e.kind == "backtrack" for e in done.events),
                  propagations=sum(done.uses.values()),
                  solve_time=time.perf_counter() - start)
    timed_out = done.stopped.startswith("time")
    message = "" if not done.stopped or timed_out else done.stopped.replace("guess", "node")
    return finish(done.solutions, done.complete, stats, limit_hit=timed_out,
                  budget_hit=bool(done.stopped) and not timed_out, message=message)


def _kind_and_fields(event: Event, solved: int) -> tuple[str, int, dict[str, object]]:
    """(kind, depth, fields) of the trace event for one solver event."""
    depth = event.depth
    if event.kind == "step" and event.step is not None:
        step = event.step
        links = {"links": [[list(k.cells), k.digit, list(k.to_cells), k.to_digit, k.strong]
                           for k in step.links]} if step.links else {}
        if step.placements:
            cell, digit = step.placements[0]
            return "place", depth, {"cell": cell, "value": digit, "rule": step.technique,
                                    "group": step.group, "explanation": step.text, **links}
        removed = [list(pair) for pair in step.eliminations]
        return "eliminate", depth, {"value": removed[0][1], "cells": sorted({c for c, _ in removed}),
                                    "rule": step.technique, "group": step.group, "other": "",
                                    "removed": removed, "explanation": step.text, **links}
    if event.kind == "guess":
        return "decide", depth, {"cell": event.cell, "value": event.digit, "rule": "fewest candidates",
                                 "alternatives": [[event.cell, d] for d in event.others],
                                 "forced": False}  # a guess comes only where no single applies
    if event.kind == "contradiction" and event.why is not None:
        fields = dict(event.why.where) or {"rule": "givens clash", "message": event.why.reason}
        return "contradiction", depth, fields
    if event.kind == "backtrack":
        return "backtrack", depth, {"cell": event.cell, "value": event.digit}
    return "solved", depth, {"count": solved}
