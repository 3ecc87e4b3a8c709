"""Which MiniZinc is here and which solver configurations it can run (the minizinc backend's
``solver`` option is checked against this): ``minizinc --version`` and ``--solvers-json``,
asked once per program found on PATH.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..options import OptionError

PROGRAM = "minizinc"
INSTALL = ("apt-get install minizinc (Debian and Ubuntu: brings Gecode), or the MiniZinc "
           "bundle from https://www.minizinc.org/software.html")
MINIMUM_VERSION = (2, 6)
"""--json-stream came with MiniZinc 2.6."""
DEFAULT_SOLVER = "gecode"


@dataclass(frozen=True)
class Configuration:
    """One solver configuration MiniZinc lists (``minizinc --solvers-json``)."""

    id: str
    name: str
    version: str
    flags: tuple[str, ...] = ()
    default: bool = False
    """Whether MiniZinc marks it as its default solver."""
    problem: str = ""
    """Why it cannot run here ('' when it can)."""

    @property
    def short(self) -> str:
        """The last part of its id ('gecode' for org.gecode.gecode)."""
        return self.id.rsplit(".", 1)[-1]

    def names(self) -> set[str]:
        """What ``solver=`` may call it: its id, the id's last part, its name (any case)."""
        return {self.id.lower(), self.short.lower(), self.name.lower()}


def installed() -> tuple[str, tuple[Configuration, ...]]:
    """MiniZinc's version line and its solver configurations; ('', ()) without the program
    (looked up on PATH at every call, so a changed PATH is seen; asked once per program)."""
    return _asked(shutil.which(PROGRAM))


@cache
def _asked(path: str | None) -> tuple[str, tuple[Configuration, ...]]:
    if path is None:
        return "", ()
    version = _run_quietly([path, "--version"])
    listing = _run_quietly([path, "--solvers-json"])
    try:
        entries = json.loads(listing)
    except ValueError:
        entries = []
    return _version_line(version), tuple(_configuration(e) for e in entries if isinstance(e, dict))


def _run_quietly(command: list[str]) -> str:
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=30, check=False,
                              stdin=subprocess.DEVNULL).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""


def _version_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if "version" in line), "")


def version_of(line: str) -> tuple[int, ...]:
    found = re.search(r"version (\d+)\.(\d+)", line)
    return (int(found.group(1)), int(found.group(2))) if found else ()


def _configuration(entry: dict[str, Any]) -> Configuration:
    version = str(entry.get("version", ""))
    problem = ("it is a graphical tool" if entry.get("isGUIApplication") else
               f"it needs {' '.join(entry['requiredFlags'])}" if entry.get("requiredFlags") else
               "MiniZinc cannot load its library (its version is unknown)" if "unknown" in version else "")
    extra = entry.get("extraInfo")
    default = isinstance(extra, dict) and extra.get("isDefault") is True
    return Configuration(str(entry.get("id", "")), str(entry.get("name", "")), version,
                         tuple(str(f) for f in entry.get("stdFlags", ())), default, problem)


def find_configuration(solver: str) -> Configuration:
    """The usable configuration ``solver`` names; OptionError listing the usable ones."""
    _, configurations = installed()
    usable = [c for c in configurations if not c.problem]
    named = [c for c in configurations if solver.lower() in c.names()]
    valid = ", ".join(f"{c.short} ({c.name} {c.version})" for c in usable) or "none"
    if not named:
        raise OptionError(f"option 'solver': MiniZinc lists no solver configuration {solver!r}; "
                          f"valid here: {valid}")
    if named[0].problem:
        raise OptionError(f"option 'solver': MiniZinc lists {named[0].name} but cannot run it: "
                          f"{named[0].problem}; valid here: {valid}")
    return named[0]


def default_configuration() -> Configuration | None:
    """gecode if MiniZinc can run it here, else MiniZinc's default, else None."""
    usable = [c for c in installed()[1] if not c.problem]
    preferred = [c for c in usable if DEFAULT_SOLVER in c.names()] + [c for c in usable if c.default]
    return preferred[0] if preferred else None
