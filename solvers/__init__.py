"""Solving backends behind one interface, and the registry that names them.

>>> from solvers import registry
>>> registry.names()
['backtrack', 'mrv', 'cpsat', 'sat', 'csp']
"""
from . import registry
from .registry import Backend, BackendUnavailableError, UnknownBackendError, get
from .result import Result, Stats, Status, finish

__all__ = ["Backend", "BackendUnavailableError", "Result", "Stats", "Status",
           "UnknownBackendError", "finish", "get", "registry"]
