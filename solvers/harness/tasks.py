"""The harness's shared data types, plain values that every layer imports downward:
which backend and options a run uses (Configuration), one run to do (Task), what a run gave
(Outcome), the judge's verdict on it (Category), and what a run's record holds (RUN_FIELDS:
every field's name, type, unit and meaning, defined once; the database schema, the CSV and
JSON columns, the checks of every stored value, ``--where`` and the docs' field table are
all made from it).

Nothing here loads a backend or starts a process: ``engine.plugins.load_backend`` turns a
Configuration into a backend, in the worker that runs it.
"""
from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from models import Puzzle

from ..result import COUNTERS, Status


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


@functools.lru_cache(maxsize=4096)
def _worker_key(solver: Configuration, n: int, memory_limit: float | None) -> str:
    """Task.key, worked out once per (configuration, side, memory limit): the runner asks
    for it several times a run."""
    plugin = "" if solver.plugin is None else f"plugin:{solver.plugin}|"
    unseeded = replace(solver, options=tuple(o for o in solver.options if o[0] != "seed"))
    key = f"{plugin}{unseeded.text()}|n={n}"
    return key if memory_limit is None else f"{key}|memory:{memory_limit:g}"


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
    count: bool = False
    """Count mode (--count): count every solution, sending back a sample of max_solutions."""

    @property
    def key(self) -> str:
        """Which workers may run this task: those of its configuration on grids of its side,
        and no other, so that a run's peak memory is its own (what another backend, or this
        one on a larger grid, loaded into a worker never counts: bench/bench_memory.py
        measures it); a plugin's carry its spec, and under a memory limit, which caps a
        worker for good, the limit. A solver seed is not part of it: ``--seeds`` repeats one
        configuration under K seeds, as ``--repeat`` repeats it.

        >>> from models import Geometry, Puzzle
        >>> Task(Configuration("mrv", options=(("seed", 3),)), Puzzle(Geometry.for_size(4), (0,) * 16)).key
        'mrv|n=4'
        """
        return _worker_key(self.solver, self.puzzle.geometry.n, self.memory_limit)


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
    count: int | None = None
    """Count mode: the solutions the run counted (``solutions`` then holds a sample of them)."""
    load_s: float = 0.0
    """Seconds the worker spent loading and preparing the backend (fast's compile) just before
    this run, outside its clocks: progress leaves it out of the time left."""


JUDGE_BUDGET_S = 10.0
"""Seconds the judge may spend on one claim by default (encoding, solving, proof checking)."""
JUDGE_MEMORY_MB = 2048.0
"""Address space (MB) the judge's process may add for a check, by default."""


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
    counting: bool = False
    """--count: each run counts every solution, sending back a sample of COUNT_SAMPLE."""
    judge_budget: float = JUDGE_BUDGET_S
    """--judge-budget: seconds the judge may spend on one claim (judge_process.py)."""
    judge_memory: float = JUDGE_MEMORY_MB
    """--judge-memory: MB the judge's process may add for a check."""
    first: int | None = None
    """--first N: only the first N puzzles of each file (bad ones counted, as --puzzle counts)."""
    sample: int | None = None
    """--sample K: K puzzles of each file drawn at random with sample_seed (kept in file order)."""
    sample_seed: int = 0
    batch: bool = False
    """--batch: each file solved by the configurations' batch entries (commands/batch.py)."""

    @property
    def max_solutions(self) -> int:
        """What each run is asked for: --max-solutions, at least two with --unique (to tell
        a unique solution from several), else one; with --count, the sample it sends back."""
        return COUNT_SAMPLE if self.counting else solutions_asked(self.count, self.unique)


COUNT_SAMPLE = 16
"""Solutions a counting run sends back (and the judge verifies) of all it counted."""


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
    columns: tuple[str, ...] | None = None
    """The summary's columns by name (('all',) for every one); None: those that fit."""
    explain_columns: bool = False
    """Say what each shown column is (on stderr, after the table)."""


class Category(StrEnum):
    """The harness's verdict on one run (like BenchExec's categories); results/judge.py decides it."""

    CORRECT = "correct"
    UNCHECKED = "unchecked"
    """An answer whose solutions verify but whose asked-for claim of completeness (no
    solution, unique, a count) neither another method family confirmed nor the judge could
    check in its budget: BenchExec's correct-unconfirmed, never counted solved."""
    WRONG = "wrong"
    TIMEOUT = "timeout"
    UNKNOWN = "unknown"
    ERROR = "error"
    MEMORY_OUT = "memory-out"
    UNSUPPORTED = "unsupported"


# ---------------------------------------------------------------- the run record, defined once

MAX_COUNT = 2 ** 63 - 1
"""The largest count kept: SQLite's INTEGER is 64 bits, signed."""
MAX_SECONDS = 1e9
"""No run takes 30 years: a time past this is a forgery or a broken clock."""
MAX_MEGABYTES = 1e12
"""Peak memory above an exabyte is no measurement."""
SHAPE = "[0-9]{1,2}x[0-9]{1,2}"
"""A grid's size or box shape as text: rows x columns, such as 9x9 or 2x3."""
TIME_STATS = ("wall_time", "encode_time", "solve_time")
"""The stats that are seconds (result.Stats); the rest of the vocabulary is COUNTERS."""
OWN_TIME = ("encode_time", "solve_time")
"""The stats that make a backend's own time for its call (``backend_s``)."""
OWN_SLACK = (1e-4, 1e-3)
"""How far past the harness's time over the call a backend's own time may go (seconds, share):
its clock read in a different order, rounded."""


def backend_seconds(stats: Mapping[str, Any] | None, time_s: float | None = None, *,
                    capped: bool = False) -> float | None:
    """A backend's own time for its call, as it reported it: its encode_time plus solve_time
    (either alone when it reports one); None when it reports neither, and, given the
    harness's ``time_s`` over the call, when it claims longer than that (impossible: it was
    measured inside the call). ``capped``: the run counts at the limit (a timeout), so its
    own time is capped there as its CPU time is.

    >>> backend_seconds({"encode_time": 0.1, "solve_time": 0.2}), backend_seconds({"nodes": 3})
    (0.30000000000000004, None)
    >>> backend_seconds({"solve_time": 0.5}, 0.4), backend_seconds({"solve_time": 12.0}, 10.0, capped=True)
    (None, 10.0)
    """
    parts = [stats.get(name) for name in OWN_TIME] if stats else []
    numbers = [float(part) for part in parts if isinstance(part, (int, float)) and not isinstance(part, bool)]
    if not numbers or any(part < 0 for part in numbers):
        return None
    own = float(sum(numbers))
    if time_s is None:
        return own
    if capped:
        return min(own, time_s)
    return own if own_time_fits(own, time_s) else None


def own_time_fits(own: float, time_s: float) -> bool:
    """Whether a backend's own time for its call fits inside the harness's ``time_s`` over it
    (OWN_SLACK allowed for the clocks' rounding)."""
    return own <= time_s * (1 + OWN_SLACK[1]) + OWN_SLACK[0]


class Kind(StrEnum):
    """What a field's values are: each kind is one SQL type and one check."""

    TEXT = "text"
    WHOLE = "whole number"
    NUMBER = "number"
    FLAG = "true or false"
    OBJECT = "JSON object"
    GRIDS = "list of grids"
    STATS = "times and counters"


SQL_TYPES = {Kind.TEXT: "TEXT", Kind.WHOLE: "INTEGER", Kind.NUMBER: "REAL", Kind.FLAG: "INTEGER",
             Kind.OBJECT: "TEXT", Kind.GRIDS: "TEXT", Kind.STATS: "TEXT"}
"""A kind's column type in the results database (the JSON kinds are stored as JSON text)."""
CSV, JSON, DATABASE = "csv", "json", "database"
RECORD = frozenset({CSV, JSON, DATABASE})
"""Where a field appears: the per-run CSV, the saved JSON's runs, the results database's runs table."""


@dataclass(frozen=True)
class RunField:
    """One field of a run's record: its name, kind, meaning and unit; whether it may be empty
    (``null``), the range a number must lie in, the values a text may take (``among``), where
    it appears (``places``) and whether it says which run this is rather than what it gave."""

    name: str
    kind: Kind
    meaning: str
    unit: str = ""
    null: bool = False
    low: float = 0
    high: float = MAX_COUNT
    among: tuple[str, ...] = ()
    places: frozenset[str] = RECORD
    identity: bool = False
    pattern: str = ""
    """For a text: a regular expression the whole value must match ('' for any text)."""

    @property
    def numeric(self) -> bool:
        """Whether ``--where`` compares it as a number (flags too: true is 1)."""
        return self.kind in (Kind.WHOLE, Kind.NUMBER, Kind.FLAG)

    @property
    def sql_type(self) -> str:
        return SQL_TYPES[self.kind]

    def fits(self, value: Any) -> bool:
        """Whether ``value`` (a JSON value, or a database value with its JSON decoded) is one
        this field may hold."""
        return self.null if value is None else _FITS[self.kind](self, value)

    def expected(self) -> str:
        """What a value of this field must be, in words.

        >>> RUN_FIELD["time_s"].expected(), RUN_FIELD["status"].expected()[:17]
        ('a number from 0 to 1e+09', 'one of solved, un')
        """
        if self.kind is Kind.TEXT:
            what = ("one of " + ", ".join(self.among) if self.among
                    else f"text matching {self.pattern}" if self.pattern else "text")
        elif self.kind in (Kind.WHOLE, Kind.NUMBER):
            what = f"a {self.kind.value} from {self.low:g} to {self.high:.3g}"
        elif self.kind is Kind.STATS:
            what = "a JSON object whose times and counters are numbers"
        else:
            what = {Kind.FLAG: "0 or 1 (false or true)", Kind.OBJECT: "a JSON object",
                    Kind.GRIDS: "a JSON list of grids as text"}[self.kind]
        return what + (" or null" if self.null else "")


def _in_range(value: Any, low: float, high: float) -> bool:
    """A number (an int or a float, not a bool) from low to high (a NaN is in no range)."""
    return type(value) in (int, float) and low <= value <= high


def _stats_fit(value: Any) -> bool:
    return isinstance(value, dict) and all(
        value.get(name) is None or _in_range(value[name], -float(MAX_COUNT), float(MAX_COUNT))
        for name in (*TIME_STATS, *COUNTERS))


_FITS: dict[Kind, Callable[[RunField, Any], bool]] = {
    Kind.TEXT: lambda f, v: (type(v) is str and (not f.among or v in f.among)
                             and (not f.pattern or re.fullmatch(f.pattern, v) is not None)),
    Kind.WHOLE: lambda f, v: type(v) is int and f.low <= v <= f.high,
    Kind.NUMBER: lambda f, v: _in_range(v, f.low, f.high),
    Kind.FLAG: lambda _f, v: v is True or v is False or (type(v) is int and v in (0, 1)),
    Kind.OBJECT: lambda _f, v: type(v) is dict,
    Kind.GRIDS: lambda _f, v: type(v) is list and all(type(grid) is str for grid in v),
    Kind.STATS: lambda _f, v: _stats_fit(v),
}
"""Each kind's check of a value that is not None."""


_KEPT = frozenset({JSON, DATABASE})
_SWEEP = frozenset({DATABASE})
RUN_FIELDS: tuple[RunField, ...] = (
    RunField("sweep", Kind.WHOLE, "the sweep (one invocation) that wrote the run", places=_SWEEP, identity=True),
    RunField("limit_s", Kind.NUMBER, "the run's time limit", "s", places=_SWEEP, high=MAX_SECONDS,
             identity=True),
    RunField("max_solutions", Kind.WHOLE, "the solutions the run was asked for (2 under --unique)",
             low=1, places=_SWEEP, identity=True),
    RunField("file", Kind.TEXT, "the puzzle file, its path as given", identity=True),
    RunField("index", Kind.WHOLE, "the puzzle's place in its file, from 0 (bad puzzles counted; "
             "the command line's puzzle K is index K-1)", identity=True),
    RunField("line", Kind.WHOLE, "the file line the puzzle starts on", null=True, identity=True),
    RunField("n", Kind.WHOLE, "the grid's side (9 for 9x9)", "cells", low=1, identity=True),
    RunField("box", Kind.TEXT, "the box shape, rows x columns", null=True, identity=True, pattern=SHAPE),
    RunField("variant", Kind.TEXT, "the puzzle's variant (standard, x, jigsaw, killer, latin, ...)",
             null=True, identity=True),
    RunField("configuration", Kind.TEXT, "the configuration's label", identity=True),
    RunField("backend", Kind.TEXT, "the registered backend (or plugin) it runs", null=True, identity=True),
    RunField("options", Kind.OBJECT, "the options the backend was called with", null=True, identity=True),
    RunField("repeat", Kind.WHOLE, "which repetition of this puzzle and configuration, from 0",
             identity=True),
    RunField("order", Kind.WHOLE, "its place in the order its puzzle and repetition's configurations "
             "were dispatched, from 0 (empty in runs saved before it)", null=True),
    RunField("status", Kind.TEXT, "what the backend said", among=tuple(Status)),
    RunField("category", Kind.TEXT, "the judge's verdict", among=tuple(Category)),
    RunField("time_s", Kind.NUMBER, "wall-clock time of the backend's call, measured by the harness "
             "(the hand-over and the sending back of solutions left out; a timeout counts at the "
             "limit)", "s", high=MAX_SECONDS),
    RunField("cpu_s", Kind.NUMBER, "CPU time of the run's process and its children, capped at the "
             "limit (empty when not measured, never 0)", "s", null=True, high=MAX_SECONDS),
    RunField("backend_s", Kind.NUMBER, "the backend's own time for the call as it reported it "
             "(encode plus solve time; empty when it reports neither or claims longer than time_s, "
             "which it cannot; capped at the limit as time_s is)", "s", null=True, high=MAX_SECONDS),
    RunField("warmup", Kind.FLAG, "its configuration's first run in a fresh worker (imports and caches cold)"),
    RunField("peak_memory_mb", Kind.NUMBER, "the run's own peak resident memory (empty when not measured)",
             "MB", null=True, high=MAX_MEGABYTES),
    RunField("termination", Kind.TEXT, "which limit ended the run (empty when none did; answer-size: "
             "its answer was too large to send back)", null=True,
             among=("walltime", "cputime", "memory", "answer-size")),
    RunField("host", Kind.TEXT, "the machine it ran on", null=True),
    RunField("worker", Kind.WHOLE, "the worker's process id", null=True),
    RunField("sequence", Kind.WHOLE, "the order the runs were started in, from 0", null=True),
    RunField("proof", Kind.TEXT, "the judge's check of a claim of completeness: proved, confirmed (by "
             "another method family), unchecked, or not asked (claimed, but not what the run was "
             "asked: not checked); empty when the run claims none", null=True),
    RunField("verified_solutions", Kind.WHOLE, "the distinct solutions of the run the checker verified",
             null=True),
    RunField("count", Kind.WHOLE, "count mode (--count): the solutions the run counted (its solutions "
             "are a sample of them); empty otherwise", "solutions", null=True),
    *(RunField(name, Kind.WHOLE, meaning, "count", null=True) for name, meaning in COUNTERS.items()),
    RunField("seed", Kind.WHOLE, "the solver seed from the options (--seeds; empty without one)",
             null=True, places=frozenset({CSV, JSON}), identity=True),
    RunField("puzzle", Kind.TEXT, "the puzzle in line format", places=_KEPT),
    RunField("size", Kind.TEXT, "the grid's size, e.g. 9x9", places=_KEPT, pattern=SHAPE),
    RunField("solver", Kind.TEXT, "the configuration's label (as older files name it)", places=_KEPT),
    RunField("solutions", Kind.GRIDS, "the solutions returned, in line format", places=_KEPT),
    RunField("complete", Kind.FLAG, "whether the backend exhausted its search (so its solutions are all "
             "there are)", places=_KEPT),
    RunField("stats", Kind.STATS, "the backend's times and counters as it gave them", null=True, places=_KEPT),
    RunField("message", Kind.TEXT, "what the backend said, in words", null=True, places=_KEPT),
    RunField("claim", Kind.TEXT, "what the run claims, in words (a unique solution, no solution, ...)",
             null=True, places=_KEPT),
    RunField("reason", Kind.TEXT, "why the judge decided its category", null=True, places=_KEPT),
    RunField("load_s", Kind.NUMBER, "seconds the worker spent loading and preparing the backend just "
             "before the run (numba's compile of fast), outside its clocks; not recorded: progress "
             "leaves it out of the time left", "s", places=frozenset()),
)
"""Every field of a run's record, in the order of the columns."""
RUN_FIELD = {run_field.name: run_field for run_field in RUN_FIELDS}


def fields_in(place: str) -> tuple[RunField, ...]:
    """The fields that appear in one place (CSV, JSON or DATABASE), in column order."""
    return tuple(run_field for run_field in RUN_FIELDS if place in run_field.places)
