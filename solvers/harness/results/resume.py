"""``--resume``: what a sweep's runs mean, and the refusal of a resume that would change it.

A resumed sweep skips the runs a results database holds and judges its new runs together
with them, so both must mean the same thing. A sweep saves its identity with its options:
the limits (time, CPU, memory), the solutions asked for (--unique, --max-solutions), the
input layout (--input-format, --hex), whether --seeds set the solver seeds, each
configuration's backend, options and plugin file (by its SHA-256), and each input file's
SHA-256. A resume whose identity differs from a sweep already in the database, in any of
these, is refused before anything runs (exit 2), saying what changed; adding configurations,
puzzle files or repetitions is a resume like any other. Each run's key holds the same things
(database.task_key), and a puzzle read from standard input or a FIFO, which cannot be hashed
beforehand, is checked run by run: a recorded run of the same file, puzzle, configuration,
repetition, limit and solutions asked for whose key differs stops the sweep (exit 2).
"""
from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Sequence
from typing import Any

from ..engine.plugins import plugin_digest
from ..tasks import Experiment

SETTINGS = {"timeout_s": "the time limit (--timeout)", "cpu_limit_s": "the CPU limit (--cpu-limit)",
            "memory_limit_mb": "the memory limit (--memory-limit)",
            "max_solutions": "the solutions asked for (--unique, --max-solutions)",
            "fmt": "the input layout (--input-format)", "hex": "--hex", "seeds": "--seeds"}
"""The settings every sweep of one database shares: key in the saved options -> its words."""


def sweep_identity(experiment: Experiment, paths: Sequence[str]) -> dict[str, Any]:
    """What the runs of this sweep mean, saved with its options (``identity``)."""
    return {
        "settings": settings_of({"timeout_s": experiment.time_limit, "cpu_limit_s": experiment.cpu_limit,
                                 "memory_limit_mb": experiment.memory_limit,
                                 "max_solutions": experiment.max_solutions, "fmt": experiment.input_format,
                                 "hex": experiment.hex16, "seeds": bool(experiment.seeds)}),
        "configurations": {c.name: {"backend": c.backend_name, "options": [[k, v] for k, v in c.options],
                                    "plugin": c.plugin,
                                    "plugin_sha256": plugin_digest(c.plugin) if c.plugin else None}
                           for c in experiment.configurations},
        "files": {path: file_digest(path) for path in paths},
    }


def settings_of(options: dict[str, Any]) -> dict[str, Any]:
    """The shared settings of a sweep's saved options (older sweeps saved these keys too)."""
    found = {key: options.get(key) for key in SETTINGS}
    found["timeout_s"] = None if found["timeout_s"] is None else float(found["timeout_s"])
    found["seeds"] = bool(found["seeds"])
    return found


def file_digest(path: str) -> str | None:
    """The SHA-256 of an input file's bytes; None for standard input or a FIFO (read once)."""
    try:
        if path == "-" or stat.S_ISFIFO(os.stat(path).st_mode):
            return None
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
        return digest.hexdigest()
    except OSError:
        return None


def refusal(sweeps: Sequence[dict[str, Any]], identity: dict[str, Any], database: str) -> str:
    """Why resuming into a database holding these sweeps would mix unlike runs ('' when it
    would not): the first difference from any sweep before, in words."""
    for sweep in sweeps:
        options = sweep.get("options") or {}
        before = options.get("identity") or {"settings": settings_of(options)}
        when = f"the sweep of {sweep.get('started', '?')} in {database}"
        problem = (_settings_changed(before.get("settings") or {}, identity["settings"])
                   or _configuration_changed(before.get("configurations") or {}, identity["configurations"])
                   or _file_changed(before.get("files") or {}, identity["files"]))
        if problem:
            return (f"--resume would mix unlike runs: {problem}, against {when}; resume with the "
                    "same settings and inputs, or give a new --db file")
    return ""


def _settings_changed(before: dict[str, Any], now: dict[str, Any]) -> str:
    for key, words in SETTINGS.items():
        if key in before and before[key] != now[key]:
            return f"{words} is {_shown(now[key])} now, {_shown(before[key])} before"
    return ""


def _configuration_changed(before: dict[str, Any], now: dict[str, Any]) -> str:
    for label, meaning in now.items():
        old = before.get(label)
        if old is None:
            continue  # a configuration added: its runs are new
        for key, words in (("backend", "its backend"), ("options", "its options"), ("plugin", "its plugin"),
                           ("plugin_sha256", "its plugin file's contents")):
            if old.get(key) != meaning[key]:
                return f"configuration {label!r} changed ({words})"
    return ""


def _file_changed(before: dict[str, Any], now: dict[str, Any]) -> str:
    for path, digest in now.items():
        if path in before and before[path] != digest and digest is not None and before[path] is not None:
            return f"{path} has changed since (its contents differ)"
    return ""


def _shown(value: Any) -> str:
    return "none" if value is None else f"{value:g}" if isinstance(value, float) else str(value)
