"""What the registry makes of a backend whose package is missing or will not import."""
from __future__ import annotations

import sys
from types import ModuleType

import pytest

from models import parse_puzzle
from solvers import registry
from solvers.options import Declaration
from solvers.result import Result

PUZZLE = parse_puzzle("1234341221434321")
MODULE = "solvers.backends._test_broken"


def backend_failing_with(monkeypatch: pytest.MonkeyPatch, error: Exception,
                         imports: str = "highspy") -> registry.Backend:
    """A registered-style backend whose module declares ``imports`` and whose solve fails
    to import its library with ``error``."""
    module = ModuleType(MODULE)

    def solve(*_args: object, **_options: object) -> Result:
        raise error
    module.solve = solve  # type: ignore[attr-defined]
    module.DECLARATION = Declaration(package=imports, imports=imports)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, MODULE, module)
    monkeypatch.delitem(sys.modules, imports, raising=False)
    return registry.Backend("broken", "test", MODULE)


def test_a_missing_package_is_found_without_importing_and_says_how_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    backend = backend_failing_with(monkeypatch, RuntimeError("never called"), imports="no_such_pkg")
    assert not backend.available
    with pytest.raises(registry.BackendUnavailableError, match="pip install no_such_pkg"):
        backend.solve(PUZZLE)


@pytest.mark.parametrize("error, message", [
    pytest.param(ModuleNotFoundError("No module named 'highspy'", name="highspy"),
                 "needs the package 'highspy': pip install highspy", id="package-missing"),
    pytest.param(ImportError("libhighs.so: cannot open shared object file", name="highspy"),
                 "unavailable: importing 'highspy' failed: ImportError: libhighs.so",
                 id="binary-broken"),
    pytest.param(ModuleNotFoundError("No module named 'numpy'", name="numpy"),
                 "failed: ModuleNotFoundError: No module named 'numpy'", id="dependency-missing"),
    pytest.param(OSError("wrong ELF class"), "failed: OSError: wrong ELF class", id="os-error"),
])
def test_a_library_that_will_not_import_in_solve_makes_the_backend_unavailable_with_the_reason(
        monkeypatch: pytest.MonkeyPatch, error: Exception, message: str) -> None:
    backend = backend_failing_with(monkeypatch, error)
    with pytest.raises(registry.BackendUnavailableError, match=message):
        backend.solve(PUZZLE)


def test_a_fault_in_the_toolkits_own_code_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    error = ImportError("cannot import name 'nothing' from 'solvers.result'", name="solvers.result")
    backend = backend_failing_with(monkeypatch, error)
    with pytest.raises(ImportError) as raised:
        backend.solve(PUZZLE)
    assert not isinstance(raised.value, registry.BackendUnavailableError)
