"""Planted backends for the timing and scoring tests: each answers correctly (from the
reference solver) but in a planted time, or says it ran out of time."""
from __future__ import annotations

import os
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


def spins(model: Model, *, seconds: float = 60.0, **kwargs: object) -> Result:
    """Burns CPU for ``seconds`` of its own CPU time (never looking at a limit), then answers."""
    start = time.process_time()
    while time.process_time() - start < float(seconds):
        pass
    return reference_solve(model, **kwargs)


def sleeps_in_bursts(model: Model, *, seconds: float = 0.05, **kwargs: object) -> Result:
    """Alternates short CPU bursts and sleeps for about ``seconds``: CPU well under wall."""
    deadline = time.perf_counter() + float(seconds)
    while time.perf_counter() < deadline:
        burst = time.process_time()
        while time.process_time() - burst < 0.001:
            pass
        time.sleep(0.002)
    return reference_solve(model, **kwargs)


KEPT: list[bytearray] = []


ALLOCATED: list[bool] = []


def allocates(model: Model, *, megabytes: int = 200, first_only: bool = False, **kwargs: object) -> Result:
    """Touches ``megabytes`` of fresh memory (every page), frees it, then answers; with
    ``first_only`` only in its process's first run."""
    if first_only and ALLOCATED:
        return reference_solve(model, **kwargs)
    ALLOCATED.append(True)
    block = bytearray(int(megabytes) * 1024 * 1024)
    for offset in range(0, len(block), 4096):
        block[offset] = 1
    del block
    return reference_solve(model, **kwargs)


def ships(model: Model, *, copies: int = 1, seconds: float = 0.0, own: float | None = None,
          max_solutions: int = 1, **kwargs: object) -> Result:
    """Sleeps ``seconds``, then answers the reference solution ``copies`` times (at most the
    solutions asked for: a big answer to send back), saying its own solve took ``own`` seconds
    (default: the time it really took)."""
    start = time.perf_counter()
    time.sleep(float(seconds))
    answer = reference_solve(model, max_solutions=1, **kwargs)
    answer.solutions = answer.solutions * min(int(copies), max_solutions)
    answer.stats.solve_time = time.perf_counter() - start if own is None else float(own)
    return answer


def tells_environment(model: Model, **kwargs: object) -> Result:
    """Fails with the value of ZYGOTE_PROBE in its environment as the message (tests/test_zygote.py)."""
    raise RuntimeError(f"ZYGOTE_PROBE={os.environ.get('ZYGOTE_PROBE', 'unset')}")
