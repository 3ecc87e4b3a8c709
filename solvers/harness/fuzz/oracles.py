"""What makes a judged run a finding, and of which kind.

The judge (results/judge.py) has already checked every solution with the independent
checker and every claim of completeness against the other runs on the puzzle and, where
none confirms it, by its reference method. On top of its categories:

- ``wrong``: the judge's verdict (an invalid solution, or a claim refuted);
- ``crash``: the worker died under the run, or its result channel broke;
- ``malformed``: an answer that is no proper Result (wrong types, too many solutions...);
- ``error``: the backend raised an exception (its type is part of the finding: shrinking
  keeps the same exception);
- ``hang``: no answer within the limit, on a puzzle another configuration answered within
  it (any run past the limit, when nothing else ran on the puzzle);
- ``metamorphic``: two answers that break a relation (relations.py), found by the campaign.

A run that gave up (unknown), or cannot express the puzzle (unsupported), is no finding.

>>> failure_of("error", "ValueError: bad box (at mine.py:3 in solve)", answered_elsewhere=True)
Failure(kind='error', detail='ValueError: bad box (at mine.py:3 in solve)', signature='error ValueError')
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..tasks import Category

KINDS = ("wrong", "crash", "malformed", "error", "hang", "metamorphic")
_CRASH = ("worker process died", "result channel:")
_MALFORMED = ("malformed answer", "backend returned")
_EXCEPTION = re.compile(r"([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning)?):")


@dataclass(frozen=True)
class Failure:
    """A finding's kind, what happened in words, and what shrinking must keep (the kind, and
    for an exception its type)."""

    kind: str
    detail: str
    signature: str


def failure_of(category: str, reason: str, *, answered_elsewhere: bool) -> Failure | None:
    """The finding a run of this category (the judge's, with its reason) is, if any.
    ``answered_elsewhere``: another configuration answered the same puzzle within the limit,
    or no other ran on it (a timeout then counts as a hang)."""
    if category == Category.WRONG:
        return Failure("wrong", reason, "wrong")
    if category == Category.TIMEOUT:
        return Failure("hang", reason, "hang") if answered_elsewhere else None
    if category != Category.ERROR:
        return None
    if reason.startswith(_CRASH):
        return Failure("crash", reason, "crash")
    if reason.startswith(_MALFORMED):
        return Failure("malformed", reason, "malformed")
    match = _EXCEPTION.match(reason)
    return Failure("error", reason, f"error {match.group(1)}" if match else "error")
