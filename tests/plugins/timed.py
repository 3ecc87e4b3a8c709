"""Planted backends for the timing and scoring tests: each answers correctly (from the
reference solver) but in a planted time, or says it ran out of time."""
from __future__ import annotations

import time

from reference import solve as reference_solve  # the plugin's folder is on sys.path

from models import Model
from solvers.result import Result, Stats, Status


def slow(model: Model, *, seconds: float = 0.0, **kwargs: object) -> Result:
    """Sleeps ``seconds`` (an option: ``slow:seconds=0.2``), then answers correctly."""
    time.sleep(float(seconds))
    return reference_solve(model, **kwargs)


def late(model: Model, *, time_limit: float | None = None, **kwargs: object) -> Result:
    """Answers correctly, but only after its limit (within the runner's grace before a kill)."""
    time.sleep((time_limit or 1.0) * 1.15)
    return reference_solve(model, **kwargs)


def gives_up(model: Model, **kwargs: object) -> Result:
    """Says at once that its time ran out."""
    return Result(Status.TIMEOUT, [], False, Stats(nodes=1), message="planted timeout")
