"""Plugins whose words are terminal escape sequences: an exception message and a Result
message that would clear the screen, recolour it, retitle the window, rewrite the line
and reverse it, if printed raw. The harness must print them escaped."""
from __future__ import annotations

from models import Model
from solvers.result import Result, Status

ATTACK = "\x1b[2J\x1b[31mRED\x1b]0;pwned\x07\r\x08\u202eevil\x9b1m"


def raises(model: Model, *, max_solutions: int = 1, time_limit: float | None = None, **options: object) -> Result:
    raise RuntimeError(f"raised {ATTACK}")


def says(model: Model, *, max_solutions: int = 1, time_limit: float | None = None, **options: object) -> Result:
    return Result(Status.ERROR, message=f"said {ATTACK}")
