"""What a backend declares about itself, as plain data: its options (type, range or choices,
default, one-line help), its counters, the constraint kinds it can express and what it needs
(a Python package, an external program).

A backend module defines ``DECLARATION = Declaration(...)`` near its top and imports its
solver library only inside ``solve`` (or in a private sibling module), so the declaration
can be read, and a configuration checked against it, without loading that library.
Option values are checked here, once, both from the command line's text (``parse``) and
from Python (``check``); a backend trusts what it is given.

>>> limit = Option("node_limit", "int", "give up after this many nodes", default=None, low=0)
>>> limit.parse("1000"), limit.parse("none")
(1000, None)
>>> limit.parse("-1")
Traceback (most recent call last):
...
solvers.options.OptionError: option 'node_limit' cannot be '-1'; valid: a whole number >= 0, or none
"""
from __future__ import annotations

import importlib.util
import math
import os
import shutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from . import jsonbounds

Kind = Literal["int", "float", "bool", "choice", "text", "path", "program", "json"]
"""int and float (within low..high), bool (true/false), choice (one of choices), text (any),
path (a file that exists), program (a known program's name, found on PATH, or a path to an
executable file), json (a JSON object, e.g. further solver parameters)."""

CONSTRAINT_KINDS = {"all-different": "groups of cells whose digits differ (rows, columns, "
                                     "boxes, regions, diagonals, cages' cells)",
                    "sum": "killer cages: the cage's digits add up to its total"}
"""The constraint kinds of the model a backend may support (models.Model.groups and .cages)."""

TRUE_WORDS, FALSE_WORDS = ("true", "yes", "on", "1"), ("false", "no", "off", "0")
WHOLE_LIMIT = 2 ** 63 - 1
"""The largest magnitude of an int or float option: a run's options are saved in its record."""
MAX_JSON_DEPTH = 32
"""How deep a json option may nest (it is saved inside a run's record, whose JSON is bounded)."""


class OptionError(ValueError):
    """An option or value a backend does not take; the message names it and what is valid."""


@dataclass(frozen=True)
class Option:
    """One option of a backend. ``default`` None means "none" is also a value (no limit,
    or the backend chooses: ``resolve`` records what it chose)."""

    name: str
    kind: Kind
    help: str
    default: Any = None
    choices: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None
    install: Mapping[str, str] = field(default_factory=dict)
    """For a program option: how to install each known program."""

    def __post_init__(self) -> None:
        if self.kind in ("choice", "program") and not self.choices:
            raise ValueError(f"option {self.name!r} of kind {self.kind} needs choices")
        if self.kind == "choice" and self.default is not None and self.default not in self.choices:
            raise ValueError(f"option {self.name!r}: default {self.default!r} is not a choice")

    @property
    def takes_none(self) -> bool:
        """Whether ``none`` is a valid value (a default of None, or a choice called none)."""
        return self.default is None or "none" in self.choices

    def valid(self) -> str:
        """What values are valid, in words (for errors and ``compare.py list``)."""
        none = ", or none" if self.default is None and "none" not in self.choices else ""
        if self.kind == "choice":
            return ", ".join(map(str, self.choices)) + none
        if self.kind == "program":
            return ", ".join(self.choices) + ", or a path to an executable" + none
        if self.kind in ("int", "float"):
            whole = "a whole number" if self.kind == "int" else "a number"
            bounds = [f">= {_shown(self.low)}"] if self.low is not None else []
            bounds += [f"<= {_shown(self.high)}"] if self.high is not None else []
            return f"{whole} {' and '.join(bounds)}".strip() + none
        return {"bool": "true, false", "text": "any text", "path": "a path to an existing file",
                "json": "a JSON object, e.g. {\"key\":1}"}[self.kind] + none

    def parse(self, text: str) -> Any:
        """The value the command line's text stands for; OptionError if it is not valid."""
        word = text.strip()
        if not word:
            raise self._error(text, "an empty value")
        if word.lower() == "none" and self.takes_none:
            return "none" if "none" in self.choices else None
        try:
            if self.kind == "int":
                return self.check(int(word.replace("_", "")))
            if self.kind == "float":
                return self.check(float(word))
            if self.kind == "bool":
                if word.lower() not in TRUE_WORDS + FALSE_WORDS:
                    raise self._error(text)
                return word.lower() in TRUE_WORDS
            if self.kind == "json":
                return self.check(jsonbounds.loads(word, max_depth=MAX_JSON_DEPTH))
        except ValueError:  # json.JSONDecodeError and OptionError too: the text is shown
            raise self._error(text) from None
        if self.kind == "choice":
            matches = [c for c in self.choices if str(c).lower() == word.lower()]
            if not matches:
                raise self._error(text)
            return matches[0]
        return self.check(word)

    def check(self, value: Any) -> Any:
        """The value, checked (a Python caller's or a parsed one); OptionError if not valid."""
        if value is None or (value == "none" and "none" in self.choices):
            if not self.takes_none:
                raise self._error(value)
            return value
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int) or not self._within(value):
                raise self._error(value)
        elif self.kind == "float":
            if (isinstance(value, bool) or not isinstance(value, (int, float))
                    or not math.isfinite(value) or not self._within(value)):
                raise self._error(value)
            value = float(value)
        elif self.kind == "bool":
            if not isinstance(value, bool):
                raise self._error(value)
        elif self.kind == "choice":
            if value not in self.choices or isinstance(value, bool) != isinstance(self.choices[0], bool):
                raise self._error(value)
        elif self.kind == "json":
            if not isinstance(value, dict) or jsonbounds.out_of_bounds(value, MAX_JSON_DEPTH):
                raise self._error(value)
        elif not isinstance(value, str) or not value:
            raise self._error(value)
        elif self.kind == "path" and not os.path.isfile(value):
            raise self._error(value, "no such file")
        elif self.kind == "program":
            return find_program(self, value)
        return value

    def _within(self, value: float) -> bool:
        """Within low..high, and within a 64-bit whole number (what records and databases hold)."""
        return (-WHOLE_LIMIT <= value <= WHOLE_LIMIT
                and (self.low is None or value >= self.low)
                and (self.high is None or value <= self.high))

    def _error(self, value: Any, found: str | None = None) -> OptionError:
        shown = found if found is not None else (repr(value) if isinstance(value, str) else
                                                 f"{value!r} ({type(value).__name__})")
        return OptionError(f"option {self.name!r} cannot be {shown}; valid: {self.valid()}")


def find_program(option: Option, value: str) -> str:
    """A program option's value, checked: a known name must be on PATH (else how to install
    it), anything else must be an executable file (a path, or a name on PATH)."""
    hints = option.install
    path = shutil.which(value)
    if value in option.choices and path is None:
        raise OptionError(f"option {option.name!r}: program {value!r} is not on PATH"
                          + (f"; install it: {hints[value]}" if value in hints else "")
                          + f"; valid: {option.valid()}")
    if path is None or not os.access(path, os.X_OK) or not os.path.isfile(path):
        raise OptionError(f"option {option.name!r}: {value!r} is neither a known program "
                          f"nor an executable file; valid: {option.valid()}")
    return value


def node_limit(what: str) -> Option:
    """The shared work budget: give up after this many of what the backend counts as a node."""
    return Option("node_limit", "int", f"give up (status unknown, or solved and incomplete) "
                  f"after this many {what}; none: no limit", default=None, low=0)


def seed(how: str) -> Option:
    """The shared seed option: none keeps the backend's usual order; a number randomises it."""
    return Option("seed", "int", f"a whole number: {how}; none: the usual order", default=None, low=0)


@dataclass(frozen=True)
class Reach:
    """How far a backend gets within the contract tests' budget (about a second of CPU a case),
    said in puzzle terms, so that tests/test_backends.py picks each backend's cases and their
    tier without knowing any backend by name. A case past its reach runs in the soak tier only
    (tests/tiers.py), with ``budget`` among the options; a run that spends that budget is
    skipped, saying so."""

    largest: int = 25
    """The largest grid side it solves within the budget."""
    hardness: int = 2
    """The hardest cases it solves within the budget, on the tests' scale: 0 puzzles with
    plenty of givens (little search), 1 the hard 9x9 puzzles (17 clues, top95, hardest) and
    variants, where a search without inference runs for minutes, 2 the hardest cases the
    tests hold."""
    solutions: int = 200
    """The solutions it lists within the budget (one that re-solves per solution lists fewer)."""
    budget: Mapping[str, Any] = field(default_factory=dict)
    """Options the tests run it with (a work budget, e.g. ``node_limit``), so that a case past
    its reach stops rather than runs on."""

    def takes(self, side: int, hardness: int, solutions: int = 1) -> bool:
        """Whether a case (its grid side, hardness, solutions to list) is within reach.

        >>> Reach(largest=9, hardness=0).takes(9, 0), Reach(largest=9, hardness=0).takes(16, 0)
        (True, False)
        """
        return side <= self.largest and hardness <= self.hardness and solutions <= self.solutions


@dataclass(frozen=True)
class Declaration:
    """Everything the harness, the tests and the docs need to know about a backend before
    loading it."""

    options: tuple[Option, ...] = ()
    counters: Mapping[str, str] = field(default_factory=dict)
    """Stats counter -> what this backend counts as one (result.COUNTERS: the vocabulary)."""
    constraints: frozenset[str] = frozenset({"all-different"})
    """The constraint kinds it expresses (CONSTRAINT_KINDS); a model with others is UNSUPPORTED."""
    unsupported: str = ""
    """Why the constraint kinds it lacks cannot be expressed (the UNSUPPORTED result's message)."""
    package: str | None = None
    """The distribution to pip-install, None for pure Python."""
    extra: str | None = None
    """The toolkit's extra that installs ``package`` (pyproject.toml), when the toolkit does
    not require it: the unavailable message names it."""
    imports: str | None = None
    """The module whose absence means the package is missing."""
    program: str = ""
    """A program outside Python it runs, in words with how to get it (``missing`` checks for it)."""
    interruptible: bool = True
    """Whether it honours time_limit from inside (else the harness kills it from outside)."""
    resolve: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """What the backend would choose for the user, made explicit (every value given):
    cheap, no solver library, run before the run so the record says what ran."""
    facts: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """Facts about a resolved configuration worth recording (a program's path and version)."""
    missing: Callable[[dict[str, Any]], str | None] | None = None
    """Why the backend cannot run here with these (resolved) options, e.g. no program on
    PATH when none is named, or None."""
    family: str | Callable[[dict[str, Any]], str] = ""
    """Its method family: runs of one family share their method (a compiled twin, a readable
    twin, one CNF formula), so their agreement is no independent evidence and the judge
    never lets one confirm another's claim. A name, or a function of the resolved options
    (the CNF backends: the encoding); "" puts the backend in a family of its own."""
    notes: str = ""
    """What else a reader of the backend table should know, in a few words (the README's
    notes column)."""
    reach: Reach = field(default_factory=Reach)
    """How far it gets within the contract tests' budget."""
    traces: str | None = None
    """The module of its readable twin, which records each step as trace events (explain,
    render, replay, tree); None if it records none."""

    def __post_init__(self) -> None:
        names = [option.name for option in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"an option is declared twice: {names}")
        unknown = set(self.constraints) - set(CONSTRAINT_KINDS)
        if unknown:
            raise ValueError(f"unknown constraint kinds {sorted(unknown)}; valid: {list(CONSTRAINT_KINDS)}")

    def family_of(self, options: Mapping[str, Any]) -> str:
        """The method family of a run with these (resolved) options; "" when the backend
        declares none (its own family, named by the caller)."""
        return self.family(dict(options)) if callable(self.family) else self.family

    @property
    def by_name(self) -> dict[str, Option]:
        return {option.name: option for option in self.options}

    def option(self, name: str) -> Option:
        """The option called name; OptionError naming the valid ones."""
        try:
            return self.by_name[name]
        except KeyError:
            valid = ", ".join(self.by_name) or "none (this backend takes no options)"
            raise OptionError(f"unknown option {name!r}; valid: {valid}") from None

    def parse(self, items: Iterable[tuple[str, str]]) -> dict[str, Any]:
        """Options from the command line's ``(name, text)`` pairs, each typed by its declaration;
        OptionError on an unknown or repeated option or a bad value."""
        options: dict[str, Any] = {}
        for name, text in items:
            option = self.option(name)
            if name in options:
                raise OptionError(f"option {name!r} is given twice")
            options[name] = option.parse(text)
        return options

    def check(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Every option with the value a run uses: the given ones checked, the defaults for
        the rest, then what ``resolve`` chooses for the user; OptionError on a bad one."""
        given = {name: self.option(name).check(value) for name, value in options.items()}
        full = {option.name: option.default for option in self.options} | given
        return self.resolve(full) if self.resolve is not None else full

    def unavailable(self, options: Mapping[str, Any] | None = None) -> str | None:
        """Why this backend cannot run here with these options (default: its defaults): its
        package or a program is missing (and how to install it), or None. The package is
        looked up without importing it."""
        if self.imports and importlib.util.find_spec(self.imports) is None:
            return f"needs the package {self.package!r}: {self.install}"
        resolved = self.check(options or {})  # OptionError for a value only resolve can refuse
        return None if self.missing is None else self.missing(resolved)

    @property
    def install(self) -> str:
        """How to install its package: the toolkit's extra when it has one, else the package.

        >>> Declaration(package="python-sat", extra="pysat").install
        "pip install 'sudoku-methods[pysat]' (or pip install python-sat)"
        """
        if self.extra:
            return f"pip install 'sudoku-methods[{self.extra}]' (or pip install {self.package})"
        return f"pip install {self.package}"

    @property
    def nodes(self) -> str:
        """What its ``nodes`` are, in a few words (its counter's meaning up to any parenthesis);
        '' when it counts none.

        >>> Declaration(counters={"nodes": "decisions (values tried)"}).nodes
        'decisions'
        """
        return self.counters.get("nodes", "").split(" (")[0]

    @property
    def encodings(self) -> tuple[str, ...]:
        """The choices of the ``encoding`` option, the default first; () if it has none."""
        option = self.by_name.get("encoding")
        if option is None:
            return ()
        return (option.default, *(c for c in option.choices if c != option.default))


def _shown(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)
