"""Provenance saved in every JSON document: what ran, where, with which versions and settings."""
from __future__ import annotations

import datetime
import os
import platform
import socket
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ... import __version__, registry
from ..engine.configs import describe
from ..engine.runner import default_jobs
from ..tasks import Configuration

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = ("ortools", "pycosat", "python-constraint2", "python-sat", "highspy", "numba",
            "tabulate", "tqdm", "matplotlib", "dask", "distributed")


def provenance(solvers: Sequence[Configuration], *, limit: float, repeat: int,
               seed: int | None, load_started: list[float] | None = None,
               ended: bool = True) -> dict[str, Any]:
    """Toolkit version, git commit and dirty flag (from a checkout), Python, packages,
    host and CPU model, the machine's load average (1, 5, 15 minutes) when the sweep started
    and, if ``ended``, now as it ended, and the run's limit, repetitions, seed and
    configurations."""
    return {
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "toolkit": {"name": "sudoku-methods", "version": __version__, "git": git_state(ROOT)},
        "python": {"version": platform.python_version(),
                   "implementation": platform.python_implementation()},
        "packages": {name: package_version(name) for name in PACKAGES},
        "load": {"started": load_started, "ended": load_average() if ended else None},
        "machine": {"host": socket.gethostname(), "platform": platform.platform(),
                    "machine": platform.machine(),
                    "cpu": cpu_model(), "cores": os.cpu_count(), "usable_cores": default_jobs()},
        "limit_s": limit, "repeat": repeat, "seed": seed,
        "configurations": [describe(ref) for ref in solvers],
        "backends": {ref.name: _backend(ref) for ref in solvers},
    }


def load_average() -> list[float] | None:
    """The machine's load average over 1, 5 and 15 minutes, or None where there is none."""
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:
        return None


def git_state(root: Path) -> dict[str, Any] | None:
    """The commit and whether tracked files changed, or None outside a git checkout."""
    if not (root / ".git").exists():
        return None
    try:
        commit = _git(root, "rev-parse", "HEAD").strip()
        dirty = bool(_git(root, "status", "--porcelain", "--untracked-files=no").strip())
    except (OSError, subprocess.SubprocessError):
        return None
    return {"commit": commit, "dirty": dirty}


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                          check=True, timeout=10).stdout


def cpu_model() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo), else what platform says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def package_version(name: str) -> str | None:
    """An installed package's version, or None."""
    from importlib import metadata  # noqa: PLC0415 - a third of start-up: only saving a run needs it
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _backend(ref: Configuration) -> dict[str, Any]:
    if ref.plugin is not None:
        return {"version": "plugin", "package": None, "plugin": ref.plugin}
    backend = registry.get(ref.backend or ref.name)
    return {"version": backend.version, "package": backend.package, "plugin": None}
