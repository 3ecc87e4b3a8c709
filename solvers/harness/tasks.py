"""The harness's shared data types, plain values that every layer imports downward:
which backend and options a run uses (Configuration), one run to do (Task), and what a run gave (Outcome).

Nothing here loads a backend or starts a process: ``engine.plugins.load_backend`` turns a
Configuration into a backend, in the worker that runs it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from models import Puzzle

from ..result import Status


@dataclass(frozen=True)
class Configuration:
    """A backend with options, under a label: ``name`` labels it in every table and record,
    ``backend`` is the registered backend (or the plugin's name), ``plugin`` the spec a worker
    imports a plugin from, ``options`` what the backend is called with."""

    name: str
    plugin: str | None = None
    backend: str = ""
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def backend_name(self) -> str:
        """The backend (or plugin) this configuration runs."""
        return self.backend or self.name

    @property
    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)

    def text(self) -> str:
        """The configuration in the shell-safe syntax the command line takes (options after
        ':'; without its label when the label is that text itself).

        >>> Configuration("ext", backend="sat", options=(("encoding", "extended"),)).text()
        'ext=sat:encoding=extended'
        """
        body = "".join([self.backend_name, *(f":{k}={show_value(v)}" for k, v in self.options)])
        return body if self.name in ("", body) else f"{self.name}={body}"


def show_value(value: Any) -> str:
    """An option value as the command line writes it (none, true, false, JSON, or its text)."""
    if isinstance(value, bool) or value is None:
        return "none" if value is None else str(value).lower()
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


@dataclass(frozen=True)
class Task:
    """One run: a backend on a puzzle, asked for up to max_solutions within time_limit seconds
    (and, if memory_limit is set, within that many MB more address space; if cpu_limit is set,
    within that many CPU seconds)."""

    solver: Configuration
    puzzle: Puzzle
    max_solutions: int = 1
    time_limit: float = 10.0
    repeat: int = 0
    """Which repetition of this (puzzle, configuration) this run is, from 0."""
    memory_limit: float | None = None
    cpu_limit: float | None = None

    @property
    def key(self) -> str:
        """Which workers may run this task: the built-in backends share; each plugin has its own.
        Under a memory limit, which caps a worker for good once a backend is loaded, each
        backend (and each limit) has workers of its own."""
        base = "" if self.solver.plugin is None else f"plugin:{self.solver.plugin}"
        if self.memory_limit is None:
            return base
        return f"{base or 'backend:' + self.solver.backend_name}|memory:{self.memory_limit:g}"


@dataclass
class Outcome:
    """What a run gave, as plain data: status, raw solutions, stats dict, message, wall and
    CPU seconds (timing.py's rules; cpu_s None when it could not be measured), whether it
    was its configuration's first run in a fresh worker (warmup: imports and caches are
    cold); then how it was measured: the run's own peak resident memory (MB, None if not
    measured), which limit ended it (timing.py: walltime, cputime, memory; None if none),
    and where and when it ran: host, worker process id, and its place in the order the
    runs were started (sequence, counted by the process that hands runs to workers)."""

    status: Status
    solutions: list[tuple[Any, ...]] = field(default_factory=list)
    complete: bool = False
    stats: dict[str, float | int] = field(default_factory=dict)
    message: str = ""
    time_s: float = 0.0
    cpu_s: float | None = None
    warmup: bool = False
    peak_memory_mb: float | None = None
    termination: str | None = None
    host: str = ""
    worker: int | None = None
    sequence: int | None = None


@dataclass(frozen=True)
class Experiment:
    """What a sweep runs, as the command line described it: puzzle paths x configurations x
    repetitions, under these limits, on this executor. Built once at the command-line boundary
    (commands/run.py); everything below reads this, never the parsed arguments."""

    paths: tuple[str, ...]
    configurations: tuple[Configuration, ...]
    time_limit: float
    unique: bool = False
    memory_limit: float | None = None
    cpu_limit: float | None = None
    repeat: int = 1
    seeds: int | None = None
    """--seeds K: the K repetitions run with solver seeds 0..K-1 (repeat is then K)."""
    seed: int | None = None
    par: float = 2.0
    exclude_warmup: bool = False
    plugins: tuple[str, ...] = ()
    input_format: str = "auto"
    hex16: bool = False
    executor: str = "local"
    jobs: int | None = None
    chunk_size: int | None = None
    count: int | None = None
    """--max-solutions: count and enumerate up to this many solutions."""

    @property
    def max_solutions(self) -> int:
        """What each run is asked for: --max-solutions, at least two with --unique (to tell
        a unique solution from several), else one."""
        return solutions_asked(self.count, self.unique)


def solutions_asked(count: int | None, unique: bool) -> int:
    """The solutions a run is asked for: ``count`` (--max-solutions) if given, at least two
    under --unique, else one.

    >>> solutions_asked(None, False), solutions_asked(None, True), solutions_asked(200, True)
    (1, 2, 200)
    """
    return max(count or 1, 2 if unique else 1)


@dataclass(frozen=True)
class Outputs:
    """Where a sweep's results go: the summary's format on stdout and the files asked for."""

    format: str = "table"
    json: str | None = None
    csv: str | None = None
    plot: str | None = None
    title: str = ""
    db: str | None = None
    resume: bool = False
    fail_on: tuple[str, ...] = ()
    """Categories besides wrong that make the exit status 1 (--fail-on), e.g. error, timeout."""
