"""A user's own backend, loaded from ``path/to/file.py:function`` or ``module:function``.

The function takes the same call as the built-in backends,
``solve(model, *, max_solutions=1, time_limit=None, **options) -> Result``.
A spec may start with ``NAME=`` to choose the name shown in tables; otherwise the
name is the function's, or the file's (module's) when the function is called ``solve``.
Without ``:function`` the function ``solve`` is used. A plugin file's folder is added
at the END of ``sys.path``, so it may import its neighbours but never shadows the
toolkit's modules or installed packages (a stray ``pycosat.py`` beside it is not used).

A plugin is code that runs with the user's rights. The harness imports it only in
worker processes of its own (runner.py), never in the process that prints results.
"""
from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.machinery
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import cast

from ... import registry
from ...registry import Backend, SolveFunction
from ..tasks import Configuration


class PluginError(ValueError):
    """A plugin spec that cannot be loaded; the message says which and why."""


@dataclass(frozen=True)
class PluginSpec:
    """A parsed ``[NAME=]target[:function]`` spec; ``target`` is a .py path or a module name."""

    name: str
    target: str
    function: str
    text: str

    @property
    def is_file(self) -> bool:
        return self.target.endswith(".py") or "/" in self.target or "\\" in self.target


def parse_spec(text: str) -> PluginSpec:
    """Split a spec into name, target and function.

    >>> parse_spec("tests/plugins/reference.py:solve").name
    'reference'
    >>> parse_spec("fast=mypackage.dlx:search")
    PluginSpec(name='fast', target='mypackage.dlx', function='search', text='fast=mypackage.dlx:search')
    """
    name, sep, rest = text.partition("=")
    if not sep:
        name, rest = "", text
    target, sep, function = rest.rpartition(":")
    if not sep:
        target, function = rest, "solve"
    if not target or not function.isidentifier():
        raise PluginError(f"bad plugin spec {text!r}: expected path/to/file.py:function "
                          "or module:function (optionally NAME= in front)")
    if not name:
        stem = Path(target).stem if target.endswith(".py") else target.rsplit(".", 1)[-1]
        name = stem if function == "solve" else function
    return PluginSpec(name, target, function, text)


def plugin_digest(text: str) -> str | None:
    """The SHA-256 of a plugin's source file (its .py file, or its module's file found without
    importing it); None when there is no file to read. A run's identity includes it, so a
    changed plugin is never taken for the one that ran before (--resume). Files the plugin
    imports are not included. The file is read once while it stays unchanged (same path,
    size and modification time)."""
    try:
        spec = parse_spec(text)
        path = Path(spec.target) if spec.is_file else _module_file(spec.target)
        if path is None or not path.is_file():
            return None
        facts = path.resolve().stat()
        return _file_digest(str(path.resolve()), facts.st_size, facts.st_mtime_ns)
    except (OSError, PluginError, ValueError, ImportError):
        return None


@functools.lru_cache(maxsize=64)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:  # noqa: ARG001 - size and mtime key the cache
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _module_file(name: str) -> Path | None:
    """Where module ``a.b.c`` would be loaded from, found without importing a, a.b or a.b.c."""
    locations: list[str] | None = None
    found = None
    parts = name.split(".")
    for depth in range(1, len(parts) + 1):
        found = importlib.machinery.PathFinder.find_spec(".".join(parts[:depth]), locations)
        if found is None:
            return None
        locations = list(found.submodule_search_locations or [])
    origin = found.origin if found is not None else None
    return Path(origin) if origin else None


def load_function(spec: PluginSpec) -> SolveFunction:
    """Import the plugin's module or file and return its function; PluginError if impossible."""
    try:
        module = _load_file(spec.target) if spec.is_file else importlib.import_module(spec.target)
    except PluginError:
        raise
    except Exception as error:  # the user's code may fail to import in any way
        raise PluginError(f"plugin {spec.text!r} failed to import: "
                          f"{type(error).__name__}: {error}") from error
    function = getattr(module, spec.function, None)
    if not callable(function):
        raise PluginError(f"plugin {spec.text!r}: {spec.target} has no function {spec.function!r}")
    return cast(SolveFunction, function)  # a callable; what it returns is checked at every call


def load_backend(ref: Configuration) -> Backend:
    """The backend a configuration runs, loaded (in the worker that runs it): a registered
    one (BackendUnavailableError if its package is missing), or a plugin as a Backend, so it
    runs exactly like a registered one."""
    if ref.plugin is None:
        backend = registry.get(ref.backend or ref.name)
        backend.load(ref.options_dict)
        return backend
    spec = parse_spec(ref.plugin)
    return Backend.from_function(ref.name, load_function(spec), description=f"plugin {spec.text}")


def _load_file(target: str) -> ModuleType:
    path = Path(target).resolve()
    if not path.is_file():
        raise PluginError(f"plugin file {target} not found")
    digest = hashlib.sha1(str(path).encode()).hexdigest()[:10]
    module_name = f"_sudoku_plugin_{path.stem}_{digest}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise PluginError(f"plugin file {target} cannot be imported as Python")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[module_name] = module
    try:
        loader_spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module
