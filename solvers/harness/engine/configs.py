"""Configurations: a backend with options, written once and used by every command.

The syntax, for ``--solvers`` and everywhere else a list of configurations is asked for::

    [LABEL=]BACKEND[:OPTION=VALUE[;OPTION=VALUE...]]   separated by commas

e.g. ``sat:encoding=extended,cpsat:encoding=boolean;workers=2,mrv`` or
``ext=sat:encoding=extended``. A value is read as an integer, a number, ``true``,
``false`` or ``none``, a JSON object or list, or else as text. The label (by default
the text itself, without spaces) names the configuration in every table and record;
the same backend may appear any number of times with different options.
"""
from __future__ import annotations

import inspect
import json
from collections.abc import Sequence
from typing import Any

from ... import registry
from ..tasks import Configuration
from .plugins import PluginError, parse_spec
from .runner import check_loads


class ConfigurationError(ValueError):
    """A configuration that names an unknown backend, option or value; says what is valid."""


def parse(text: str) -> list[Configuration]:
    """Every configuration in a comma-separated list; ConfigurationError on a bad one.

    >>> [c.name for c in parse("sat:encoding=extended, cpsat:encoding=boolean;workers=2,mrv")]
    ['sat:encoding=extended', 'cpsat:encoding=boolean;workers=2', 'mrv']
    """
    configurations = [parse_one(part) for part in split_list(text)]
    if not configurations:
        raise ConfigurationError("no configuration given")
    seen: set[str] = set()
    for configuration in configurations:
        if configuration.name in seen:
            raise ConfigurationError(f"configuration {configuration.name!r} is named twice; "
                                     "give one of them a label with LABEL=")
        seen.add(configuration.name)
    return configurations


def parse_one(text: str) -> Configuration:
    """One ``[LABEL=]BACKEND[:OPTION=VALUE;...]``, checked against the registry.

    >>> parse_one("cpsat:encoding=boolean;workers=2").options
    (('encoding', 'boolean'), ('workers', 2))
    """
    configuration = split_one(text)
    check(configuration)
    return configuration


def split_one(text: str) -> Configuration:
    """One configuration's parts, not yet checked against the registry (plugins are not in it)."""
    text = text.strip()
    label = ""
    equals, colon = text.find("="), text.find(":")
    if equals != -1 and (colon == -1 or equals < colon):
        label, text = text[:equals].strip(), text[equals + 1:].strip()
        if not label:
            raise ConfigurationError(f"empty label in {text!r}")
    backend, _, rest = text.partition(":")
    backend = backend.strip()
    options = tuple(_option(item, backend) for item in rest.split(";") if item.strip())
    if not backend:
        raise ConfigurationError(f"no backend named in {text!r}")
    return Configuration(label or Configuration("", backend=backend, options=options).text(),
                         backend=backend, options=options)


def check(configuration: Configuration) -> None:
    """ConfigurationError if the backend, an option name or an option value is not valid."""
    if configuration.backend not in registry.BACKENDS:
        raise ConfigurationError(f"unknown backend {configuration.backend!r}; "
                                 f"valid backends: {', '.join(registry.names())}")
    try:
        registry.get(configuration.backend).check_options(configuration.options_dict)
    except ValueError as error:
        raise ConfigurationError(str(error)) from None


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
        chosen = [_ref(text, plugins) for text in split_list(requested)]
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
    options resolved (the backend's defaults with the given ones over them), plugin."""
    return {"configuration": ref.name, "backend": ref.backend or ref.name,
            "options": dict(ref.options), "resolved_options": resolved_options(ref),
            "plugin": ref.plugin}


def resolved_options(ref: Configuration) -> dict[str, Any]:
    """Every option of a registered backend with the value the run uses (given or default).

    >>> resolved_options(resolve("sat:encoding=minimal")[0])["encoding"]
    'minimal'
    """
    if ref.plugin is not None:
        return dict(ref.options)
    backend = registry.get(ref.backend or ref.name)
    try:
        parameters = inspect.signature(backend.load()).parameters
    except (registry.BackendUnavailableError, TypeError, ValueError):
        return dict(ref.options)
    defaults = {name: parameters[name].default for name in backend.options
                if name in parameters and parameters[name].default is not inspect.Parameter.empty}
    return {**defaults, **dict(ref.options)}


def _ref(text: str, plugins: dict[str, Configuration]) -> Configuration:
    configuration = split_one(text)
    if configuration.backend in plugins:
        plugin = plugins[configuration.backend]
        return Configuration(configuration.name, plugin=plugin.plugin, backend=configuration.backend,
                         options=configuration.options)
    try:
        check(configuration)
        registry.get(configuration.backend).load()
    except ConfigurationError as error:
        extra = f"; plugins: {', '.join(plugins)}" if plugins and "unknown backend" in str(error) else ""
        raise ConfigurationError(f"{error}{extra}") from None
    except registry.BackendUnavailableError as error:
        raise ConfigurationError(str(error)) from None
    return Configuration(configuration.name, backend=configuration.backend,
                     options=configuration.options)


def _option(item: str, backend: str) -> tuple[str, Any]:
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise ConfigurationError(f"bad option {item.strip()!r} for {backend}: expected OPTION=VALUE")
    return key.strip(), value_of(value.strip())


def value_of(text: str) -> Any:
    """An option value from its text.

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
    """Split at commas outside JSON brackets."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        depth += 1 if char in "{[" else -1 if char in "}]" else 0
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]
