"""The one list of backends. Adding a backend is one module plus one row in BACKENDS
(solvers/backends/_template.py is a module to copy).

A backend module defines ``DECLARATION`` (solvers/options.py: its options, counters,
constraint kinds and what it needs, as data) and
``solve(model, *, max_solutions=1, time_limit=None, **options) -> Result``, and imports its
solver library only inside ``solve`` (or a private sibling module), so that the declaration
is read, and a configuration checked, without loading that library. ``Backend.solve`` is the
one validated entry: the shared limits and every option are checked there, once, and a
backend function is never called past it. A module with work to do once per process before
its first run (fast compiles its kernels) defines ``prepare(**options)``, which the harness's
worker calls before any clock starts.
"""
from __future__ import annotations

import importlib
import math
import sys
import time
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from models import Model, Puzzle, as_model

from .encodings.symmetry import relabelled
from .options import Declaration, Option, OptionError
from .result import COUNT_ALL, COUNTERS, SAMPLE, Result, Solve, Stats, unsupported

SolveFunction = Solve
"""A backend's solve function: the contract (result.Solve)."""


class UnknownBackendError(KeyError):
    """A backend name that is not registered; the message lists the valid ones."""

    def __str__(self) -> str:
        return str(self.args[0])


class BackendUnavailableError(ImportError):
    """A registered backend whose package (or program) is missing; the message says how to install it."""


@dataclass(frozen=True)
class Backend:
    """A named solving method: where its module is, and (plugins) its function."""

    name: str
    description: str
    module: str = ""
    function: SolveFunction | None = field(default=None, compare=False)

    @staticmethod
    def from_function(name: str, function: SolveFunction, description: str = "plugin") -> Backend:
        """A backend made from any callable with the common solve signature (no declaration:
        its options are passed as given)."""
        return Backend(name, description, function=function)

    @property
    def declaration(self) -> Declaration:
        """What the backend declares (its module is light: no solver library is imported)."""
        if self.function is not None:
            return Declaration()
        declaration = getattr(self._module(), "DECLARATION", None)
        if not isinstance(declaration, Declaration):
            raise TypeError(f"backend module {self.module} has no DECLARATION (solvers/options.py)")
        unknown = set(declaration.counters) - set(COUNTERS)
        if unknown:
            raise ValueError(f"backend {self.name!r} names counters outside the vocabulary: "
                             f"{', '.join(sorted(unknown))}")
        return declaration

    def unavailable(self) -> str | None:
        """Why this backend cannot run here (a package or program missing: how to install
        it), or None; nothing is imported to find out."""
        if self.function is not None:
            return None
        return self.declaration.unavailable()

    def load(self, options: dict[str, Any] | None = None) -> SolveFunction:
        """The backend's own solve function; BackendUnavailableError if its package (or a
        program these options need) is missing. Call ``solve`` to run it: that checks what
        it is given."""
        if self.function is not None:
            return self.function
        reason = self.declaration.unavailable(options)
        if reason:
            raise BackendUnavailableError(f"backend {self.name!r} is unavailable: {reason}")
        function: SolveFunction = self._module().solve
        return function

    def _module(self) -> ModuleType:
        loaded = sys.modules.get(self.module)  # every call after the first: no import machinery
        return loaded if loaded is not None else importlib.import_module(self.module)

    @property
    def batch(self) -> bool:
        """Whether the backend has a batch entry (``solve_batch``: many puzzles of one layout
        in one call, as ``run --batch`` uses); plugins have none."""
        return self.function is None and callable(getattr(self._module(), "solve_batch", None))

    def solve_batch(self, model: Model, givens: Any, *, max_solutions: int = 1,
                    time_limit: float | None = None, **options: Any) -> Any:
        """The batch entry, checked as ``solve`` is (the limits, every option; the time limit
        is each puzzle's): the module's answer, one row per row of givens (fast: its Batch).
        ValueError for an option the backend's batch entry cannot take."""
        check_limits(max_solutions, time_limit)
        if not self.batch:
            raise ValueError(f"backend {self.name!r} has no batch entry")
        resolved = self.check_options(options)
        self.load(resolved)
        return self._module().solve_batch(model, givens, max_solutions=max_solutions,
                                          time_limit=time_limit, **resolved)

    def needs(self, puzzle_or_model: Puzzle | Model, options: dict[str, Any]) -> Any:
        """What ``prepare`` must do for this puzzle under these options (the module's light
        ``needs``: fast's kernel for a kind of puzzle), or None when nothing depends on the
        puzzle; the harness loads a worker again, before the clock, for a new need."""
        if self.function is not None:
            return None
        needs = getattr(self._module(), "needs", None)
        if needs is None:
            return None
        return needs(as_model(puzzle_or_model), **self.check_options(options))

    def prepare(self, options: dict[str, Any], model: Model | None = None) -> None:
        """The module's one-off work before runs with these options (its ``prepare``, if any),
        for puzzles like this model when one is given (a module with ``needs``)."""
        if self.function is None:
            module = self._module()
            prepare = getattr(module, "prepare", _nothing)
            if model is not None and hasattr(module, "needs"):
                prepare(**options, model=model)
            else:
                prepare(**options)

    @property
    def available(self) -> bool:
        """Whether the backend's package (or program) is there; imports nothing heavy."""
        return self.unavailable() is None

    def family(self, options: dict[str, Any] | None = None) -> str:
        """The method family of its runs with these options (``Declaration.family``): the
        judge lets a claim be confirmed only by another family's answer. A plugin's is ""
        (untrusted: it confirms nothing); a backend that declares none is its own family."""
        if self.function is not None:
            return ""
        return self.declaration.family_of(self.check_options(options or {})) or self.name

    @property
    def package(self) -> str | None:
        return self.declaration.package

    @property
    def interruptible(self) -> bool:
        """Whether it honours time_limit from inside (plugins: assumed not)."""
        return self.function is None and self.declaration.interruptible

    @property
    def encodings(self) -> tuple[str, ...]:
        return self.declaration.encodings

    @property
    def options(self) -> dict[str, Option]:
        """Option name -> its declaration (plugins: none declared, any accepted)."""
        return self.declaration.by_name

    @property
    def counters(self) -> dict[str, str]:
        """Stats counter -> what this backend counts as one."""
        return dict(self.declaration.counters)

    @property
    def version(self) -> str:
        """The version of the backend's package, or 'built-in'; reads metadata, imports nothing."""
        if self.function is not None:
            return "plugin"
        if self.package is None:
            return "built-in"
        # importlib.metadata costs a third of compare.py's start-up (its email parsers): only
        # the commands that show versions pay for it
        from importlib import metadata  # noqa: PLC0415 - heavy, needed by list and provenance only
        try:
            return metadata.version(self.package)
        except metadata.PackageNotFoundError:
            return "not installed"

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Every option with the value a run uses (given, default, or chosen for the user);
        OptionError naming the option and what is valid. Plugins: the options as given."""
        if self.function is not None:
            return dict(options)
        try:
            return self.declaration.check(options)
        except OptionError as error:
            raise OptionError(f"backend {self.name!r}: {error}") from None

    def solve(self, puzzle_or_model: Puzzle | Model, *, max_solutions: int = 1,
              time_limit: float | None = None, **options: Any) -> Result:
        """The one validated entry: check the shared limits and the options, say UNSUPPORTED for
        a constraint kind the backend does not declare, solve, and time the whole call."""
        check_limits(max_solutions, time_limit)
        resolved = self.check_options(options)
        function = self.load(resolved)
        model = as_model(puzzle_or_model)
        start = time.perf_counter()
        missing = self._unsupported(model)
        if missing:
            result = unsupported(self.declaration.unsupported or f"backend {self.name!r} does "
                                 f"not support {missing} constraints")
        else:
            try:
                result = function(model, max_solutions=max_solutions, time_limit=time_limit,
                                  **resolved)
            except (ImportError, OSError) as error:
                unavailable = self._import_failure(error)
                if unavailable is None:
                    raise
                raise unavailable from error
        if isinstance(result, Result) and isinstance(result.stats, Stats):  # a plugin may return anything
            result.stats.wall_time = time.perf_counter() - start
            result.puzzle = result.puzzle or model.puzzle
        return result

    def count(self, puzzle_or_model: Puzzle | Model, *, time_limit: float | None = None,
              sample: int = SAMPLE, **options: Any) -> Result:
        """Count every solution without keeping them: the Result's ``count``, its solutions a
        sample of at most ``sample`` (complete: the count is all there are). The module's
        ``count`` (same options as its solve) does it, on the puzzle with its first group fixed
        when relabelling the digits keeps it (encodings/symmetry.py); a plugin is asked for every solution
        (max_solutions=COUNT_ALL) and its distinct grids are counted; a backend with no
        ``count`` says UNSUPPORTED."""
        check_limits(sample, time_limit)
        resolved = self.check_options(options)
        function = self.load(resolved)
        model = as_model(puzzle_or_model)
        start = time.perf_counter()
        missing = self._unsupported(model)
        counter = getattr(self._module(), "count", None) if self.function is None else None
        if missing:
            result = unsupported(self.declaration.unsupported or f"backend {self.name!r} does not "
                                 f"support {missing} constraints")
        elif self.function is None and counter is None:
            result = unsupported(f"backend {self.name!r} cannot count (no count mode)")
        elif counter is not None:
            reduced = relabelled(model)
            result = counter(model if reduced is None else reduced.model, time_limit=time_limit,
                             sample=sample, **resolved)
            if reduced is not None and isinstance(result, Result) and isinstance(result.count, int):
                result.count *= reduced.factor
                result.message = (f"{result.message}; " if result.message else "") + (
                    f"counted with the first group fixed to 1..{model.n}, x {reduced.factor:,} relabellings")
        else:
            result = function(model, max_solutions=COUNT_ALL, time_limit=time_limit, **resolved)
            if isinstance(result, Result) and isinstance(result.solutions, list):
                distinct = list(dict.fromkeys(map(tuple, result.solutions)))
                result.count, result.solutions = len(distinct), distinct[:sample]
        if isinstance(result, Result) and isinstance(result.stats, Stats):
            result.stats.wall_time = time.perf_counter() - start
            result.puzzle = result.puzzle or model.puzzle
        return result

    def _import_failure(self, error: ImportError | OSError) -> BackendUnavailableError | None:
        """What a failed import of the solver library (inside solve) means: the package is
        missing, or there but will not load (no wheel for this platform, a broken binary, a
        missing dependency of it), with the reason; None when the toolkit's own code is at
        fault or the library had loaded (the error stands)."""
        imports = None if self.function is not None else self.declaration.imports
        missing = (getattr(error, "name", None) or "").split(".")[0]
        if not imports or imports in sys.modules or missing in ("solvers", "models"):
            return None
        package = self.declaration.package
        if isinstance(error, ModuleNotFoundError) and missing == imports:
            return BackendUnavailableError(f"backend {self.name!r} needs the package "
                                           f"{package!r}: {self.declaration.install}")
        return BackendUnavailableError(f"backend {self.name!r} is unavailable: importing "
                                       f"{package!r} failed: {type(error).__name__}: {error}")

    def _unsupported(self, model: Model) -> str | None:
        if self.function is not None:
            return None
        kinds = self.declaration.constraints
        if model.cages and "sum" not in kinds:
            return "sum (killer cage)"
        return None


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
    Backend("backtrack", "textbook search: first empty cell, values 1..n, undo on failure",
            "solvers.backends.backtrack"),
    Backend("mrv", "propagation (singles, locked candidates; or bounds, arc, singleton consistency) "
            "and MRV search", "solvers.backends.mrv"),
    Backend("cpsat", "OR-tools CP-SAT, Boolean exactly-one or integer AllDifferent", "solvers.backends.cpsat"),
    Backend("sat", "CNF (four encodings) solved by pycosat", "solvers.backends.sat"),
    Backend("csp", "python-constraint: AllDifferent per group", "solvers.backends.csp"),
    Backend("dlx", "exact cover: Knuth's Algorithm X with dancing links", "solvers.backends.dlx"),
    Backend("mip", "integer programming: a 0-1 model solved by HiGHS", "solvers.backends.mip"),
    Backend("pysat", "python-sat's CDCL engines (CaDiCaL, Glucose, MiniSat...) on the same CNF",
            "solvers.backends.pysat"),
    Backend("dimacs", "any external DIMACS SAT solver on PATH, run as a killable process",
            "solvers.backends.dimacs"),
    Backend("fast", "mrv's method compiled with numba; a 9x9 kernel of its own; clause learning on large grids",
            "solvers.backends.fast"),
    Backend("minizinc", "the model in MiniZinc, solved by Gecode or any solver MiniZinc lists",
            "solvers.backends.minizinc"),
    Backend("asp", "answer set programming: choice rules, cardinality constraints, `#sum`; clingo",
            "solvers.backends.asp"),
    Backend("choco", "Choco's all-different (its consistency level an option) and sum, no JVM",
            "solvers.backends.choco"),
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
