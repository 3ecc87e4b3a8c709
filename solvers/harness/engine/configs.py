"""Configurations: a backend with options, written once and used by every command.

The syntax, for ``--solvers`` and everywhere else a list of configurations is asked for::

    [LABEL=]BACKEND[:OPTION=VALUE[:OPTION=VALUE...]]   separated by commas

e.g. ``sat:encoding=extended,cpsat:encoding=boolean:workers=2,mrv`` or
``ext=sat:encoding=extended``: nothing in it needs quoting in a shell. ``;`` between
options is accepted too (quoted). Each value is typed by the option's declaration
(solvers/options.py), so ``none`` is a word where the option's choices include it, and a
wrong type, a value out of range, an unknown or repeated option, an empty item, or a
missing package or program is a ConfigurationError naming the configuration, the option
and what is valid, before anything runs. A plugin declares nothing: its values are typed
from their text (a number, true, false, none, a JSON object or list, or else text).
The label (by default the configuration's text in the ``:`` form) names it in every table
and record; the same backend may appear any number of times with different options.
"""
from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from ... import registry
from ...options import OptionError
from ..tasks import Configuration
from .plugins import PluginError, parse_spec
from .runner import check_loads

SEPARATORS = ":;"
"""Between options: ':' (shell-safe, what the toolkit prints) or ';'."""


class ConfigurationError(ValueError):
    """A configuration that names an unknown backend, option or value; says what is valid."""


def parse(text: str) -> list[Configuration]:
    """Every configuration in a comma-separated list; ConfigurationError on a bad one.

    >>> [c.name for c in parse("sat:encoding=extended, cpsat:encoding=boolean;workers=2,mrv")]
    ['sat:encoding=extended', 'cpsat:encoding=boolean:workers=2', 'mrv']
    """
    return resolve(text, add_plugins=False)


def parse_one(text: str, plugins: dict[str, Configuration] | None = None) -> Configuration:
    """One ``[LABEL=]BACKEND[:OPTION=VALUE...]``, its values typed and checked against the
    backend's declaration (a plugin's: typed from their text).

    >>> parse_one("cpsat:encoding=boolean:workers=2").options
    (('encoding', 'boolean'), ('workers', 2))
    >>> parse_one("mrv:inference=none;branching=first").name
    'mrv:inference=none:branching=first'
    """
    label, backend, items = split_one(text)
    plugins = plugins or {}
    if backend in plugins:
        options = tuple((name, value_of(value)) for name, value in _unique(items, text))
        return Configuration(label or _text(backend, options), plugin=plugins[backend].plugin,
                             backend=backend, options=options)
    if backend not in registry.BACKENDS:
        extra = f"; plugins: {', '.join(plugins)}" if plugins else ""
        raise ConfigurationError(f"configuration {text.strip()!r}: unknown backend {backend!r}; "
                                 f"valid backends: {', '.join(registry.names())}{extra}")
    chosen = registry.get(backend)
    try:
        typed = chosen.declaration.parse(items)
        reason = chosen.declaration.unavailable(typed)
    except OptionError as error:
        raise ConfigurationError(f"configuration {text.strip()!r}: {error}") from None
    if reason:
        raise ConfigurationError(f"configuration {text.strip()!r}: backend {backend!r} is "
                                 f"unavailable: {reason}")
    options = tuple(typed.items())
    return Configuration(label or _text(backend, options), backend=backend, options=options)


def split_one(text: str) -> tuple[str, str, list[tuple[str, str]]]:
    """One configuration's label, backend and ``(option, value text)`` items, not yet typed;
    ConfigurationError on an empty label, backend, item, option name or a missing ``=``."""
    where = text.strip()
    body, label = where, ""
    equals, colon = body.find("="), body.find(":")
    if equals != -1 and (colon == -1 or equals < colon):
        label, body = body[:equals].strip(), body[equals + 1:].strip()
        if not label:
            raise ConfigurationError(f"configuration {where!r}: empty label before '='")
    backend, sep, rest = body.partition(":")
    backend = backend.strip()
    if not backend:
        raise ConfigurationError(f"configuration {where!r}: no backend named")
    if backend.endswith(".py") or "/" in backend or os.sep in backend:
        spec = f"{label}={body}" if label else body
        raise ConfigurationError(f"configuration {where!r}: {backend!r} is a file, not a backend; "
                                 f"load your own backend with --plugin {spec} (then --solvers "
                                 f"{label or 'NAME'} runs it)")
    items: list[tuple[str, str]] = []
    if sep:
        for item in _split(rest, SEPARATORS):
            name, has_value, value = item.partition("=")
            if not item.strip():
                raise ConfigurationError(f"configuration {where!r}: an empty option (nothing "
                                         "between two separators, or after the last)")
            if not has_value or not name.strip():
                raise ConfigurationError(f"configuration {where!r}: bad option {item.strip()!r}: "
                                         "expected OPTION=VALUE")
            items.append((name.strip(), value.strip()))
    return label, backend, items


def _unique(items: list[tuple[str, str]], text: str) -> list[tuple[str, str]]:
    names = [name for name, _ in items]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ConfigurationError(f"configuration {text.strip()!r}: option {twice[0]!r} is given twice")
    return items


def _text(backend: str, options: tuple[tuple[str, Any], ...]) -> str:
    return Configuration("", backend=backend, options=options).text()


def load_plugins(specs: Sequence[str]) -> dict[str, Configuration]:
    """Each --plugin spec named and loaded once (to fail early) in a worker process of its
    own, never in this one; PluginError if one does not load. A plugin's name can then be
    used as BACKEND in a configuration."""
    plugins: dict[str, Configuration] = {}
    for text in specs:
        spec = parse_spec(text)
        if spec.name in registry.BACKENDS or spec.name in plugins:
            raise ConfigurationError(f"plugin name {spec.name!r} is already taken; "
                                     f"name it with NAME={text}")
        plugins[spec.name] = Configuration(spec.name, plugin=text, backend=spec.name)
    for ref, error in check_loads(list(plugins.values())).items():
        if error is not None:
            raise PluginError(error if error.startswith("plugin ") else f"plugin {ref.plugin!r}: {error}")
    return plugins


def resolve(requested: str | None, plugins: dict[str, Configuration] | None = None, *,
            add_plugins: bool = True) -> list[Configuration]:
    """The configurations to run: the requested list, or every available backend; then any
    plugins not named (unless add_plugins is false). Checked before anything runs."""
    plugins = plugins or {}
    if requested is None:
        chosen = [Configuration(name, backend=name) for name in registry.available_names()]
    else:
        parts = split_list(requested)
        if not parts:
            raise ConfigurationError("the list of configurations is empty; name one or more, "
                                     "e.g. mrv,sat:encoding=extended (see 'compare.py list')")
        chosen = [parse_one(text, plugins) for text in parts]
        labels = [ref.name for ref in chosen]
        twice = sorted({label for label in labels if labels.count(label) > 1})
        if twice:
            raise ConfigurationError(f"configuration {twice[0]!r} is named twice; "
                                     "label one with LABEL=")
    if add_plugins:
        named = {ref.plugin for ref in chosen}
        chosen += [ref for ref in plugins.values() if ref.plugin not in named]
    if not chosen:
        raise ConfigurationError("no backend to run: none of the registered backends is available "
                                 "here (see 'compare.py list'); install one, or add your own "
                                 "with --plugin")
    return chosen


def left_out() -> dict[str, str]:
    """The registered backends a run of every available backend leaves out here, each with
    why (its package or program missing, and how to install it; the extra that has it)."""
    reasons = {name: backend.unavailable() for name, backend in registry.BACKENDS.items()}
    return {name: reason for name, reason in reasons.items() if reason is not None}


def choose_one(text: str | None, plugins: dict[str, Configuration] | None = None) -> Configuration:
    """One configuration: the given one, else the (first) plugin, else mrv."""
    plugins = plugins or {}
    if text is None:
        if plugins:
            return next(iter(plugins.values()))
        available = registry.available_names()
        if not available:
            raise ConfigurationError("no backend is available: install one, or give --plugin")
        text = "mrv" if "mrv" in available else available[0]
    chosen = resolve(text, plugins, add_plugins=False)
    if len(chosen) != 1:
        raise ConfigurationError(f"one configuration is needed here, not {len(chosen)}: {text!r}")
    return chosen[0]


def describe(ref: Configuration) -> dict[str, Any]:
    """How a configuration is saved with every run: label, backend, the options given, the
    options resolved (every option with the value the run uses, including what was chosen
    for the user), facts about what runs (a program's path and version), plugin."""
    facts: dict[str, Any] = {}
    if ref.plugin is None:
        declaration = registry.get(ref.backend_name).declaration
        if declaration.facts is not None:
            facts = declaration.facts(resolved_options(ref))
    return {"configuration": ref.name, "backend": ref.backend_name,
            "options": dict(ref.options), "resolved_options": resolved_options(ref),
            "facts": facts, "plugin": ref.plugin}


def resolved_options(ref: Configuration) -> dict[str, Any]:
    """Every option of a registered backend with the value the run uses (given, default, or
    chosen for the user); a plugin's as given.

    >>> resolved_options(parse_one("sat:encoding=minimal"))["encoding"]
    'minimal'
    >>> resolved_options(parse_one("pysat:inference=up"))["engine"]
    'minisat22'
    """
    if ref.plugin is not None:
        return dict(ref.options)
    return registry.get(ref.backend_name).check_options(dict(ref.options))


def value_of(text: str) -> Any:
    """A plugin's option value from its text (a registered backend's are typed by its declaration).

    >>> [value_of(t) for t in ("2", "0.5", "true", "none", "extended", '{"a": 1}')]
    [2, 0.5, True, None, 'extended', {'a': 1}]
    """
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    if text[:1] in "{[":
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise ConfigurationError(f"bad JSON value {text!r}: {error.msg}") from None
    return text


def split_list(text: str) -> list[str]:
    """The configurations of a comma-separated list (commas inside JSON brackets or quotes do
    not count); [] for an empty list, ConfigurationError for an empty item in a list.

    >>> split_list('mrv, cpsat:parameters={"a":1,"b":2}')
    ['mrv', 'cpsat:parameters={"a":1,"b":2}']
    """
    if not text.strip():
        return []
    parts = [part.strip() for part in _split(text, ",")]
    if not all(parts):
        raise ConfigurationError(f"empty configuration in the list {text!r} (two commas in a "
                                 "row, or one at an end)")
    return parts


def _split(text: str, separators: str) -> list[str]:
    """Split at any of separators outside JSON brackets and double quotes."""
    parts: list[str] = []
    current: list[str] = []
    depth, quoted = 0, False
    for char in text:
        if char == '"':
            quoted = not quoted
        elif not quoted:
            depth += 1 if char in "{[" else -1 if char in "}]" else 0
        if char in separators and depth == 0 and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts
