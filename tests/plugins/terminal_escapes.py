"""Plugins whose words are terminal escape sequences: an exception message, a Result
message, and raw writes to stdout and stderr (print, os.write, a child process) that
would clear the screen, recolour it, retitle the window, rewrite the line and reverse it,
if printed raw. The harness must print them escaped; ``floods`` writes far more than it
forwards of a run."""
from __future__ import annotations

import os
import subprocess
import sys

from reference import solve  # the plugin's folder is on sys.path (at its end)

from models import Model
from solvers.result import Result, Status

ATTACK = "\x1b[2J\x1b[31mRED\x1b]0;pwned\x07\r\x08\u202eevil\x9b1m"
JUNK = bytes(range(256))
"""Every byte once: C0 controls, DEL, and bytes that are not UTF-8."""
FLOOD_BYTES = 5 * 1024 * 1024


def raises(model: Model, *, max_solutions: int = 1, time_limit: float | None = None, **options: object) -> Result:
    raise RuntimeError(f"raised {ATTACK}")


def says(model: Model, *, max_solutions: int = 1, time_limit: float | None = None, **options: object) -> Result:
    return Result(Status.ERROR, message=f"said {ATTACK}")


def prints(model: Model, **options: object) -> Result:
    """Writes the attack and binary junk through every way out of a process, then answers."""
    print(f"print-stdout {ATTACK}")  # left in stdout's buffer: written when the worker exits
    sys.stderr.write(f"sys-stderr {ATTACK}\n")
    sys.stderr.flush()
    os.write(2, b"os-write-2 " + ATTACK.encode() + b"\njunk " + JUNK + b"\n")
    os.write(1, b"os-write-1 " + ATTACK.encode() + b"\n")
    subprocess.run([sys.executable, "-c", f"import os; os.write(1, b'child ' + {ATTACK.encode()!r} + b'\\n'); "
                    f"os.write(2, b'child-err ' + {JUNK!r} + b'\\n')"], check=True, stdin=subprocess.DEVNULL)
    return solve(model, **options)


def floods(model: Model, **options: object) -> Result:
    """Writes FLOOD_BYTES (half to stdout, half to stderr), then answers."""
    block = b"FLOOD \x1b[2J" * 1024 + b"\n"
    written = 0
    while written < FLOOD_BYTES:
        part = block[:FLOOD_BYTES - written]
        data = memoryview(part)
        while data:
            data = data[os.write(1 + (written // len(block)) % 2, data):]
        written += len(part)
    return solve(model, **options)
