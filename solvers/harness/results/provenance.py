"""Provenance saved in every JSON document: what ran, where, with which versions and settings.

Enough to tell whether a figure can be trusted and reproduced: the commit and whether the
tree was clean (no changed tracked file, no untracked source file: ``clean``), the CPU's
model name and flags, and each package's version and build (the wheel's tags, who installed
it, where from, and a digest of its RECORD: two builds of one version differ there).
"""
from __future__ import annotations

import datetime
import hashlib
import json
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
    """The environment (environment()), the machine's load average (1, 5, 15 minutes) when
    the sweep started and, if ``ended``, now as it ended, and the run's limit, repetitions,
    seed and configurations."""
    return {
        **environment(),
        "load": {"started": load_started, "ended": load_average() if ended else None},
        "limit_s": limit, "repeat": repeat, "seed": seed,
        "configurations": [describe(ref) for ref in solvers],
        "backends": {ref.name: _backend(ref) for ref in solvers},
    }


def environment() -> dict[str, Any]:
    """When, with which code (toolkit version, git commit, dirty and clean flags), Python,
    packages (versions, and builds) and on which machine (host, CPU model and flags, cores)."""
    return {
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "toolkit": {"name": "sudoku-methods", "version": __version__, "git": git_state(ROOT)},
        "python": {"version": platform.python_version(),
                   "implementation": platform.python_implementation(),
                   "compiler": platform.python_compiler()},
        "packages": {name: package_version(name) for name in PACKAGES},
        "builds": {name: package_build(name) for name in PACKAGES},
        "machine": {"host": socket.gethostname(), "platform": platform.platform(),
                    "machine": platform.machine(), "cpu": cpu_model(), "cpu_flags": cpu_flags(),
                    "cores": os.cpu_count(), "usable_cores": default_jobs()},
    }


def load_average() -> list[float] | None:
    """The machine's load average over 1, 5 and 15 minutes, or None where there is none."""
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:
        return None


SOURCE = ("compare.py", "models/", "solvers/", "bench/", "tests/")
"""Where the code that makes a figure lives: an untracked .py file there makes a tree unclean."""


OUTPUTS = (".json", ".png", ".svg")
"""What the bench scripts write into bench/ (the kept figures): a changed one makes no tree
unclean, or one benchmark's outputs would mark the next one's as written from changed code."""


def git_state(root: Path) -> dict[str, Any] | None:
    """The commit, whether tracked files changed (``dirty``; bench/'s kept outputs and the
    prose (.md) do not count, ``outputs`` names the changed ones that do not), the untracked
    source files (.py under SOURCE) and whether the tree was ``clean`` (neither), or None
    outside a git checkout."""
    if not (root / ".git").exists():
        return None
    try:
        commit = _git(root, "rev-parse", "HEAD").strip()
        changed = _git(root, "diff", "HEAD", "--name-only").split("\n")
        others = _git(root, "ls-files", "--others", "--exclude-standard", "--", *SOURCE).split("\n")
    except (OSError, subprocess.SubprocessError):
        return None
    outputs = sorted(name for name in changed if name and _is_output(name))
    dirty = any(name and not _is_output(name) for name in changed)
    untracked = sorted(name for name in others if name.endswith(".py"))
    return {"commit": commit, "dirty": dirty, "untracked": untracked[:20], "outputs": outputs[:20],
            "clean": not dirty and not untracked}


def _is_output(name: str) -> bool:
    """Whether a tracked file is a kept benchmark output or prose, not what makes a figure."""
    return name.endswith(".md") or (name.startswith("bench/") and name.endswith(OUTPUTS))


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                          check=True, timeout=10).stdout


def cpu_model() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo), else what platform says."""
    return _cpuinfo("model name") or platform.processor() or platform.machine()


def cpu_flags() -> str | None:
    """The CPU's feature flags as /proc/cpuinfo lists them (Linux; None elsewhere): which
    instructions a compiled kernel (numba's, a SAT solver's) could use."""
    return _cpuinfo("flags")


def _cpuinfo(key: str) -> str | None:
    """The first value of ``key`` in /proc/cpuinfo, or None."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                name, _, value = line.partition(":")
                if name.strip().lower() == key:
                    return value.strip()
    except OSError:
        pass
    return None


def package_version(name: str) -> str | None:
    """An installed package's version, or None."""
    from importlib import metadata  # noqa: PLC0415 - a third of start-up: only saving a run needs it
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def package_build(name: str) -> dict[str, Any] | None:
    """How an installed package was built and installed: its wheel's tags (or None for a
    source build), the installer, the URL it came from (pip's direct_url.json, if any) and
    the first 16 hex digits of its RECORD's SHA-256 (which lists every installed file's
    digest, so two builds of one version differ there); None when it is not installed."""
    from importlib import metadata  # noqa: PLC0415 - see package_version
    try:
        dist = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return None
    wheel = dist.read_text("WHEEL") or ""
    tags = [line.split(":", 1)[1].strip() for line in wheel.splitlines() if line.startswith("Tag:")]
    record = dist.read_text("RECORD")
    direct = dist.read_text("direct_url.json")
    try:
        source = json.loads(direct).get("url") if direct else None
    except ValueError:
        source = None
    return {"tags": tags or None, "installer": (dist.read_text("INSTALLER") or "").strip() or None,
            "source": source,
            "record_sha256": hashlib.sha256(record.encode()).hexdigest()[:16] if record else None}


def _backend(ref: Configuration) -> dict[str, Any]:
    if ref.plugin is not None:
        return {"version": "plugin", "package": None, "plugin": ref.plugin}
    backend = registry.get(ref.backend or ref.name)
    return {"version": backend.version, "package": backend.package, "plugin": None}
