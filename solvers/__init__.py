"""The solving side: the contract every method meets, and the methods themselves.

registry.py   names every backend; Backend.solve, the one validated entry every caller uses
options.py    what a backend declares as data: options (typed), counters, constraint kinds, needs
result.py     Result, Status, Stats: what every backend returns, in one vocabulary
jsonbounds.py JSON read within bounds (nesting, number size) and written so that it reads back
backends/     one module per method (its declaration and solve; a heavy one's method in _NAME.py)
encodings/    what several backends or exports share: CNF numbering and clauses, DIMACS, domains
generate/     puzzle generation and its command
harness/      the comparison machinery behind compare.py

>>> from solvers import registry
>>> registry.names()[:5]
['backtrack', 'mrv', 'cpsat', 'sat', 'csp']
>>> {'dlx', 'mip'} <= set(registry.names())
True
"""
__version__ = "0.2.0"

from .script_path import unshadow_models

unshadow_models()  # before anything imports models: python-sat puts a models.py in bin/

from . import registry  # noqa: E402 - after unshadow_models, on purpose
from .registry import Backend, BackendUnavailableError, UnknownBackendError, get  # noqa: E402 - likewise
from .result import Result, Solve, Stats, Status, finish  # noqa: E402 - likewise

__all__ = ["__version__", "Backend", "BackendUnavailableError", "Result", "Solve", "Stats", "Status",
           "UnknownBackendError", "finish", "get", "registry"]
