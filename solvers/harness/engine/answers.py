"""A worker's answer checked field by field (type and range) before the harness takes it.

What comes down the result channel is JSON a backend could have written itself
(channel.py), and what a results database holds was written by some earlier program: the
harness believes none of it until it is checked here, once, where it enters. Every
value must fit what the harness does with it next and what the run record's definition
(tasks.RUN_FIELDS) says of its field: a count is an integer SQLite's INTEGER holds (below
2**63), a time a finite number of seconds no run reaches, a float finite (JSON has no NaN
or infinity). The first value that does not is an
``AnswerError`` naming the field and the value (cut short); ``outcome_from`` turns that
into an ``error`` for that run alone.

>>> answer = {"status": "solved", "solutions": [], "stats": {"nodes": 2 ** 64 - 1}, "time_s": 0.1}
>>> outcome_from(answer, max_solutions=1, cells=16).message
"malformed answer from the worker: stat 'nodes' = 18446744073709551615 is not an integer from 0 to 2**63 - 1"
"""
from __future__ import annotations

import math
from typing import Any

from ...result import COUNTERS, Status
from ..tasks import MAX_COUNT, MAX_SECONDS, RUN_FIELD, TIME_STATS, Outcome

MAX_INTEGER = MAX_COUNT
"""The largest count kept: SQLite's INTEGER is 64 bits, signed."""
MAX_STATS = 64
"""Entries one answer's stats may have (the vocabulary has 14)."""
MAX_NAME = 64
"""Characters a stat's name may have."""
MESSAGE_CHARS = 2000
"""The longest message kept from a worker."""
TERMINATIONS = (None, "memory", "answer-size")
"""What a worker may say ended its run (the other limits are the harness's to judge)."""
STORED_TERMINATIONS = (None, *RUN_FIELD["termination"].among)
"""What a stored outcome may say ended its run (the harness judged it before storing)."""
STAMPED = tuple(name for name in Outcome.__dataclass_fields__ if name not in (
    "status", "solutions", "complete", "stats", "message", "time_s", "cpu_s", "warmup", "peak_memory_mb",
    "termination", "load_s", "count"))
"""What the harness stamps on an outcome (where and when it ran): kept in a stored one only,
each checked against its field's definition (``load_s`` is never stored)."""
MAX_HOST = 255
"""Characters a stored outcome's host name may have."""
MAX_KEPT_CELLS = 1_000_000
"""Cells of grids the harness keeps from one answer (12,345 grids of a 9x9, 1,600 of a 25x25):
what a run's record, the judge and a saved file hold of it. An answer with more keeps its
first grids up to this, says so in its message, and no longer claims they are all there are."""


class AnswerError(ValueError):
    """A field of an answer that is not what it must be; the message names it and its value."""


def shown(value: Any) -> str:
    """A value as an error message quotes it: its repr, cut to 40 characters (a huge integer
    by its number of digits, never converted whole).

    >>> shown(10 ** 400), shown("x" * 100)
    ('an integer of 401 digits', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...")
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"an integer of {len(str(abs(value))) if value.bit_length() < 4000 else 'over 1200'} digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int too long to print, or a deep structure
        text = f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:40] + "..."


def count(field: str, value: Any) -> int:
    """An integer from 0 to MAX_INTEGER (not a bool), or AnswerError naming ``field``."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_INTEGER:
        return value
    raise AnswerError(f"{field} = {shown(value)} is not an integer from 0 to 2**63 - 1")


def amount(field: str, value: Any, most: float) -> float:
    """A finite number from 0 to ``most`` (an int or a float, not a bool), as a float."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if isinstance(value, int):
            if 0 <= value <= most:
                return float(value)
        elif math.isfinite(value) and 0 <= value <= most:
            return value
    raise AnswerError(f"{field} = {shown(value)} is not a finite number from 0 to {most:g}")


def checked_stats(value: Any) -> dict[str, int | float]:
    """A backend's stats: at most MAX_STATS entries named by short strings; a counter of the
    vocabulary (result.COUNTERS) or any other integer a count, a time (TIME_STATS) finite
    seconds, anything else a finite number that fits a count."""
    if not isinstance(value, dict):
        raise AnswerError(f"stats = {shown(value)} is not a mapping")
    if len(value) > MAX_STATS:
        raise AnswerError(f"stats with {len(value)} entries, at most {MAX_STATS} allowed")
    stats: dict[str, int | float] = {}
    for name, number in value.items():
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
            raise AnswerError(f"a stat named {shown(name)}: not a name of 1 to {MAX_NAME} characters")
        if name in TIME_STATS:
            stats[name] = amount(f"stat {name!r}", number, MAX_SECONDS)
        elif type(number) is int and 0 <= number <= MAX_INTEGER:  # count()'s test inline: most stats
            stats[name] = number
        elif name in COUNTERS or (isinstance(number, int) and not isinstance(number, bool)):
            stats[name] = count(f"stat {name!r}", number)
        else:
            stats[name] = amount(f"stat {name!r}", number, float(MAX_INTEGER))
    return stats


def check_answer(data: Any, max_solutions: int, cells: int, *, stored: bool = False,
                 counting: bool = False) -> Outcome:
    """The answer as an Outcome when every field is what it should be; AnswerError naming the
    first that is not. ``cells`` is the grid's size (a solution holds at most 4 times that:
    the checker, not this, says whether it is a solution). ``stored``: an outcome the
    harness stamped and saved (results database), which may also say which limit ended it
    and where it ran (host, worker, sequence)."""
    if not isinstance(data, dict):
        raise AnswerError(f"an answer of type {type(data).__name__}")
    raw_status = data.get("status")
    try:
        status = Status(raw_status) if isinstance(raw_status, str) else None
    except ValueError:
        status = None
    if status is None:
        raise AnswerError(f"unknown status {shown(raw_status)}")
    solutions = data.get("solutions", [])
    if not isinstance(solutions, list) or len(solutions) > max_solutions:
        raise AnswerError(f"{len(solutions) if isinstance(solutions, list) else 'no list of'} "
                          f"solutions, at most {max_solutions} asked for")
    for solution in solutions:
        if not isinstance(solution, list) or len(solution) > 4 * cells or not (
                not solution or set(map(type, solution)) == {int}):
            raise AnswerError("a solution that is not a list of integers of the grid's size")
    stats = checked_stats(data.get("stats", {}))
    time_s = amount("time_s", data.get("time_s", 0.0), RUN_FIELD["time_s"].high)
    cpu, peak = data.get("cpu_s"), data.get("peak_memory_mb")
    cpu_s = None if cpu is None else amount("cpu_s", cpu, RUN_FIELD["cpu_s"].high)
    peak_mb = None if peak is None else amount("peak_memory_mb", peak, RUN_FIELD["peak_memory_mb"].high)
    complete, warmup, message = data.get("complete", False), data.get("warmup", False), data.get("message", "")
    for name, value, kind in (("complete", complete, bool), ("warmup", warmup, bool), ("message", message, str)):
        if not isinstance(value, kind):
            raise AnswerError(f"{name} = {shown(value)} is not a {kind.__name__}")
    termination = data.get("termination")
    if termination not in (STORED_TERMINATIONS if stored else TERMINATIONS) or (
            termination == "memory" and status != Status.MEMORY_OUT) or (
            termination == "answer-size" and status != Status.ERROR):
        raise AnswerError(f"termination {shown(termination)} is not one a worker may report")
    kept, complete, message = (([tuple(s) for s in solutions], complete, message[:MESSAGE_CHARS]) if stored
                               else kept_solutions(solutions, cells, complete, message[:MESSAGE_CHARS]))
    outcome = Outcome(status, kept, complete, stats, message, time_s, cpu_s, warmup, peak_mb, termination,
                      count=_count_of(data, status, len(solutions), counting, stored))
    if stored:
        for name in STAMPED:  # one an older compare.py did not stamp reads as the field's default
            value = data.get(name, Outcome.__dataclass_fields__[name].default)
            if not RUN_FIELD[name].fits(value) or (isinstance(value, str) and len(value) > MAX_HOST):
                raise AnswerError(f"{name} = {shown(value)} is not {RUN_FIELD[name].expected()}")
            setattr(outcome, name, value if value is not None or name != "host" else "")
    return outcome


def _count_of(data: dict[str, Any], status: Status, solutions: int, counting: bool, stored: bool) -> int | None:
    """A counting run's count: a whole number no smaller than its sample (0 for "no
    solution"), required when it counted and answered; None when it did not count (a stored
    outcome may be either)."""
    value = data.get("count")
    if value is None:
        if counting and status in (Status.SOLVED, Status.UNSAT):
            raise AnswerError(f"no count from a counting run that answered {status.value}")
        return None
    if not (counting or stored):
        raise AnswerError(f"count = {shown(value)} from a run that was not counting")
    found = count("count", value)
    if found < solutions or (status == Status.UNSAT and found):
        raise AnswerError(f"count = {found} with {solutions} solutions and status {status.value}")
    return found


def kept_solutions(solutions: list[list[int]], cells: int, complete: bool,
                   message: str) -> tuple[list[tuple[int, ...]], bool, str]:
    """The grids kept of an answer (at most MAX_KEPT_CELLS cells of them, at least one grid),
    whether the answer still claims they are all, and its message: when grids are dropped,
    the claim goes (a claim about grids the harness does not hold cannot be judged) and the
    message says how many were returned and kept."""
    room = max(1, MAX_KEPT_CELLS // max(1, cells))
    if len(solutions) <= room:
        return [tuple(s) for s in solutions], complete, message
    note = (f"[the backend returned {len(solutions):,} grids: the first {room:,} are kept and judged "
            f"(at most {MAX_KEPT_CELLS:,} cells of grids per run)"
            + ("; its claim that they are all is not judged]" if complete else "]"))
    return [tuple(s) for s in solutions[:room]], False, f"{note} {message}".strip()[:MESSAGE_CHARS]


def outcome_from(data: Any, max_solutions: int, cells: int) -> Outcome:
    """check_answer, with a malformed answer an error Outcome naming the first thing wrong
    (more solutions than asked, a NaN time, a count too large to keep, ...)."""
    try:
        return check_answer(data, max_solutions, cells)
    except AnswerError as problem:
        return Outcome(Status.ERROR, message=f"malformed answer from the worker: {problem}")
