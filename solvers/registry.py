"""The one list of backends. Adding a backend is one module plus one entry in BACKENDS.

A backend module defines
``solve(model, *, max_solutions=1, time_limit=None, **options) -> Result``
and may define ``ENCODINGS`` (a tuple of names, the first the default), ``OPTIONS``
(option name -> one-line help), ``CHOICES`` (option name -> its valid values, where
they are few) and ``COUNTERS`` (Stats counter -> what this backend
counts as one; the general meanings are ``result.COUNTERS``). Its third-party package is
imported inside the module, so a missing package only disables that backend. A module that
needs something other than a package (an external program) may define ``unavailable()``,
returning why it cannot run here (with the install hint) or None, and one with work to do
once per process before its first run (fast compiles its kernels) ``prepare(**options)``,
which the harness's worker calls before any clock starts.
The arguments every backend shares are checked here, once, before the backend runs.
"""
from __future__ import annotations

import importlib
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from types import ModuleType
from typing import Any

from models import Model, Puzzle, as_model

from .result import COUNTERS, Result

SolveFunction = Callable[..., Result]


class UnknownBackendError(KeyError):
    """A backend name that is not registered; the message lists the valid ones."""

    def __str__(self) -> str:
        return str(self.args[0])


class BackendUnavailableError(ImportError):
    """A registered backend whose package (or program) is missing; the message says how to install it."""


@dataclass(frozen=True)
class Backend:
    """A named solving method and how to load it."""

    name: str
    description: str
    module: str = ""
    package: str | None = None          # distribution to pip-install, None for pure Python
    imports: str | None = None          # module whose absence means the package is missing
    interruptible: bool = True          # honours time_limit from inside
    function: SolveFunction | None = field(default=None, compare=False)

    @staticmethod
    def from_function(name: str, function: SolveFunction, description: str = "plugin") -> Backend:
        """A backend made from any callable with the common solve signature."""
        return Backend(name, description, function=function, interruptible=False)

    def load(self) -> SolveFunction:
        """The solve function; BackendUnavailableError if its package (or program) is missing."""
        if self.function is not None:
            return self.function
        module = self._module()
        reason = getattr(module, "unavailable", lambda: None)()
        if reason:
            raise BackendUnavailableError(f"backend {self.name!r} is unavailable: {reason}")
        solve: SolveFunction = module.solve
        return solve

    def _module(self) -> ModuleType:
        loaded = sys.modules.get(self.module)  # every call after the first: no import machinery
        if loaded is not None:
            return loaded
        try:
            return importlib.import_module(self.module)
        except (ImportError, OSError) as error:
            unavailable = self._unavailable(error)
            if unavailable is None:
                raise
            raise unavailable from error

    def _unavailable(self, error: ImportError | OSError) -> BackendUnavailableError | None:
        """What a failed import means: the package is missing (how to install it), the
        package is there but will not load (no wheel for this platform, a broken or
        mismatched binary, a missing dependency of it: unavailable, with the reason), or
        the toolkit's own code is at fault (None: the error stands)."""
        missing = (getattr(error, "name", None) or "").split(".")[0]
        if not self.imports or missing in ("solvers", "models"):
            return None
        if isinstance(error, ModuleNotFoundError) and missing == self.imports:
            return BackendUnavailableError(f"backend {self.name!r} needs the package "
                                           f"{self.package!r}: pip install {self.package}")
        return BackendUnavailableError(f"backend {self.name!r} is unavailable: importing "
                                       f"{self.package!r} failed: {type(error).__name__}: {error}")

    def prepare(self, options: dict[str, Any]) -> None:
        """The module's one-off work before runs with these options (its ``prepare``, if any)."""
        if self.function is None:
            getattr(self._module(), "prepare", _nothing)(**options)

    @property
    def available(self) -> bool:
        """Whether the backend's package can be imported (and what else it needs is there)."""
        try:
            self.load()
        except BackendUnavailableError:
            return False
        return True

    @property
    def encodings(self) -> tuple[str, ...]:
        return () if self.function is not None else tuple(getattr(self._module(), "ENCODINGS", ()))

    @property
    def options(self) -> dict[str, str]:
        return {} if self.function is not None else dict(getattr(self._module(), "OPTIONS", {}))

    @property
    def counters(self) -> dict[str, str]:
        """Stats counter -> what this backend counts as one."""
        if self.function is not None:
            return {}
        counters = dict(getattr(self._module(), "COUNTERS", {}))
        unknown = set(counters) - set(COUNTERS)
        if unknown:
            raise ValueError(f"backend {self.name!r} names counters outside the vocabulary: "
                             f"{', '.join(sorted(unknown))}")
        return counters

    @property
    def version(self) -> str:
        """The version of the backend's package, or 'built-in'."""
        if self.package is None:
            return "built-in" if self.function is None else "plugin"
        try:
            return metadata.version(self.package)
        except metadata.PackageNotFoundError:
            return "not installed"

    def solve(self, puzzle_or_model: Puzzle | Model, *, max_solutions: int = 1,
              time_limit: float | None = None, **options: Any) -> Result:
        """Check the shared arguments, solve, and fill in the wall time around the whole call."""
        check_limits(max_solutions, time_limit)
        self.check_options(options)
        model = as_model(puzzle_or_model)
        start = time.perf_counter()
        result = self.load()(model, max_solutions=max_solutions, time_limit=time_limit, **options)
        result.stats.wall_time = time.perf_counter() - start
        return result

    def check_options(self, options: dict[str, Any]) -> None:
        """ValueError naming the valid options and encodings if one is unknown (plugins: any)."""
        if self.function is not None:
            return
        valid = self.options
        unknown = sorted(set(options) - set(valid))
        if unknown:
            raise ValueError(f"backend {self.name!r} has no option {', '.join(map(repr, unknown))}; "
                             f"valid: {', '.join(valid) or 'none'}")
        choices = {**self.choices, **({"encoding": self.encodings} if self.encodings else {})}
        for name, value in options.items():
            if name in choices and value not in choices[name]:
                raise ValueError(f"unknown {self.name} {name} {value!r}; "
                                 f"valid: {', '.join(map(str, choices[name]))}")

    @property
    def choices(self) -> dict[str, tuple[Any, ...]]:
        """Option name -> its valid values, for the options that take one of a few."""
        return {} if self.function is not None else dict(getattr(self._module(), "CHOICES", {}))


def _nothing(**_options: Any) -> None:
    """The prepare of a backend that needs none."""


def check_limits(max_solutions: int, time_limit: float | None) -> None:
    """The checks every backend shares: ValueError on a bad count or limit."""
    if isinstance(max_solutions, bool) or not isinstance(max_solutions, int) or max_solutions < 1:
        raise ValueError(f"max_solutions must be a whole number of at least 1, not {max_solutions!r}")
    if time_limit is not None and not (isinstance(time_limit, (int, float))
                                       and math.isfinite(time_limit) and time_limit >= 0):
        raise ValueError(f"time_limit must be a finite number of seconds >= 0, or None, "
                         f"not {time_limit!r}")


BACKENDS: dict[str, Backend] = {b.name: b for b in (
    Backend("backtrack", "the seeds' recursive backtracker: first empty cell, values 1..n",
            "solvers.backends.backtrack"),
    Backend("mrv", "constraint propagation (singles + locked candidates) with MRV search on bitmasks",
            "solvers.backends.mrv"),
    Backend("cpsat", "OR-tools CP-SAT: AllDifferent on integers, or Boolean exactly-one",
            "solvers.backends.cpsat", package="ortools", imports="ortools"),
    Backend("sat", "CNF encodings (Lynce & Ouaknine, Kwon & Jain) solved by pycosat",
            "solvers.backends.sat", package="pycosat", imports="pycosat"),
    Backend("csp", "python-constraint: AllDifferentConstraint per group",
            "solvers.backends.csp", package="python-constraint2", imports="constraint", interruptible=False),
    Backend("dlx", "exact cover: Knuth's Algorithm X with dancing links, rows (cell, value)",
            "solvers.backends.dlx"),
    Backend("mip", "integer programming: 0-1 model solved by HiGHS, uniqueness by a no-good cut",
            "solvers.backends.mip", package="highspy", imports="highspy"),
    Backend("pysat", "python-sat CDCL engines (CaDiCaL, Glucose, MiniSat, ...) over the CNF encodings, "
            "warm and incremental; propagation-only modes", "solvers.backends.pysat",
            package="python-sat", imports="pysat"),
    Backend("dimacs", "any external DIMACS SAT solver on PATH (kissat, cadical, minisat, picosat, "
            "glucose, or a path), run as a killable process", "solvers.backends.dimacs"),
    Backend("fast", "mrv's propagation and MRV search compiled with numba (bitmasks, flat int arrays)",
            "solvers.backends.fast", package="numba", imports="numba"),
)}


def get(name: str) -> Backend:
    """The backend called name; UnknownBackendError lists the valid names."""
    try:
        return BACKENDS[name]
    except KeyError:
        raise UnknownBackendError(
            f"unknown backend {name!r}; valid backends: {', '.join(BACKENDS)}") from None


def names() -> list[str]:
    """Every registered backend, in registry order."""
    return list(BACKENDS)


def available_names() -> list[str]:
    """The registered backends whose packages are present."""
    return [name for name, backend in BACKENDS.items() if backend.available]


def solve(name: str, puzzle_or_model: Puzzle | Model, **kwargs: Any) -> Result:
    """Shortcut: ``solve('mrv', puzzle, max_solutions=2)``."""
    return get(name).solve(puzzle_or_model, **kwargs)
