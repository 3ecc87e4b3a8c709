"""A backend that fails at random, for the chaos test: the fault is chosen from the puzzle's
givens (``fault_of``), so the test knows each run's fault and what its outcome must be."""
from __future__ import annotations

import hashlib
import os
import signal
import time

from reference import solve as reference_solve

from models import Model
from solvers.result import Result, Stats, Status

# fault -> share of runs (out of 1000); the slow ones (a limit to wait out) are kept rare
FAULTS = {"answer": 640, "raise": 90, "exit": 40, "kill": 30, "garbage": 50, "huge": 40,
          "nan": 40, "not_result": 40, "sleep": 15, "stall": 15}


def fault_of(givens: tuple[int, ...], seed: str) -> str:
    """The fault for a puzzle, from a hash of its givens and the seed."""
    digest = hashlib.sha256(f"{seed}:{givens}".encode()).digest()
    draw = int.from_bytes(digest[:4], "big") % 1000
    for fault, share in FAULTS.items():
        if draw < share:
            return fault
        draw -= share
    return "answer"


def _write_pipes(data: bytes) -> None:
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 2:
            try:
                if os.path.realpath(f"/proc/self/fd/{name}").startswith("pipe:") or \
                        os.readlink(f"/proc/self/fd/{name}").startswith("pipe:"):
                    os.write(fd, data)
            except OSError:
                pass


def solve(model: Model, *, max_solutions: int = 1, seed: str = "0", **kwargs: object) -> Result:
    fault = fault_of(model.givens, seed)
    if fault == "raise":
        raise RuntimeError("chaos: raised")
    if fault == "exit":
        os._exit(7)
    if fault == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if fault == "garbage":
        _write_pipes(b"\x00\x01chaos garbage")
    if fault == "huge":
        answer = reference_solve(model, max_solutions=1)
        return Result(Status.SOLVED, answer.solutions * 1000, False, answer.stats)
    if fault == "nan":
        return Result(Status.SOLVED, [], False, Stats(nodes=float("nan")))
    if fault == "not_result":
        return "solved"  # type: ignore[return-value]  # the point: not a Result
    if fault in ("sleep", "stall"):
        if fault == "stall":
            _write_pipes(b"SKR1")
        time.sleep(3600)
    return reference_solve(model, max_solutions=max_solutions)
