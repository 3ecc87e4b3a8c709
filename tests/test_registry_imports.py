"""What the registry makes of a backend whose import fails, for each kind of failure."""
from __future__ import annotations

import pytest

from solvers import registry

BACKEND = registry.Backend("broken", "test", "solvers.backends.broken", package="highspy",
                           imports="highspy")


def failing_with(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    def fail(name: str) -> None:
        raise error
    monkeypatch.setattr(registry.importlib, "import_module", fail)


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
def test_a_package_that_will_not_import_marks_the_backend_unavailable_with_the_reason(
        monkeypatch: pytest.MonkeyPatch, error: Exception, message: str) -> None:
    failing_with(monkeypatch, error)
    assert not BACKEND.available
    with pytest.raises(registry.BackendUnavailableError, match=message):
        BACKEND.load()


@pytest.mark.parametrize("error", [
    pytest.param(ImportError("cannot import name 'nothing' from 'solvers.result'",
                             name="solvers.result"), id="own-code"),
    pytest.param(ModuleNotFoundError("No module named 'solvers.backends.broken'",
                                     name="solvers.backends.broken"), id="module-not-written"),
])
def test_a_fault_in_the_toolkits_own_code_is_not_hidden(monkeypatch: pytest.MonkeyPatch,
                                                         error: Exception) -> None:
    failing_with(monkeypatch, error)
    with pytest.raises(type(error)) as raised:
        BACKEND.load()
    assert not isinstance(raised.value, registry.BackendUnavailableError)


def test_a_pure_python_backend_never_hides_an_import_error(monkeypatch: pytest.MonkeyPatch) -> None:
    failing_with(monkeypatch, ImportError("broken", name="highspy"))
    with pytest.raises(ImportError) as raised:
        registry.Backend("plain", "test", "solvers.backends.plain").load()
    assert not isinstance(raised.value, registry.BackendUnavailableError)
