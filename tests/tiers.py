"""Which tier a test runs in, and ``--backend``: hooks that tests/conftest.py takes in.

The quick tier (``-m "not slow"``) is chosen, not left over: a test is in it only when it is
named in tests/quick_tier.py or marked ``quick`` (a doctest is: it is a docstring's example).
Every other test is marked ``slow`` here, when the suite is collected, so a new test runs in
the full tier until someone decides that it guards the contract cheaply (every backend on
small puzzles, the parser and each command's argument checks, the judge, the formats, the
checker) and names it. A case marked ``slow`` stays slow even in a quick test (a case past a
backend's reach). Under ``-m "not slow"`` a test module with no quick test is not imported.

A quick test may not use a fixture that requests ``full_tier_only`` (shared work too costly
for the quick tier): collecting one is an error naming both.

``--backend NAME[,NAME...]`` (repeatable) narrows the suite to those backends: a test
parametrised over the registered backends (its ``backend_name``) runs for them only, and a
module about one backend (marked ``backends("name")``) only when its backend is chosen; a
test about no backend in particular still runs (narrow those with a path or ``-k``).

The soak tier: a test marked ``soak`` is a long campaign whose subject is its length (a fuzz
run of a minute that must find nothing, planted bugs each hunted for minutes, a study over
whole puzzle sets), or a contract case past its backend's declared reach (conftest's
on_every_backend: it spends the reach's work budget, or searches on to its end). It is left
out unless ``--soak`` is given, so the full suite stays within its few minutes; ``--soak -m
soak`` runs the soak tier alone.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from solvers import registry

from .quick_tier import QUICK

FULL_TIER_FIXTURE = "full_tier_only"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--backend", action="append", default=[], metavar="NAME[,NAME...]",
                     help="run the tests of these registered backends only (repeatable): the tests "
                          "parametrised over the backends, for these; modules about other backends left out")
    parser.addoption("--soak", action="store_true", default=False,
                     help="also run the soak tier: the long campaigns marked soak (minutes each), left out by default")


def chosen_backends(config: pytest.Config) -> set[str]:
    """The backends --backend names (empty: all), each checked against the registry."""
    names = {name.strip() for value in config.getoption("backend") for name in value.split(",")}
    unknown = sorted(name for name in names if name not in registry.names())
    if unknown:
        raise pytest.UsageError(f"--backend: unknown backend {unknown[0]!r}; "
                                f"registered: {', '.join(registry.names())}")
    return names


def pytest_configure(config: pytest.Config) -> None:
    chosen_backends(config)  # a wrong name stops the run before anything is collected


def backends_of(item: pytest.Item) -> set[str] | None:
    """The backends a test is about: its backend_name parameter or its backends marker; None for
    a test about no backend in particular."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "backend_name" in callspec.params:
        return {callspec.params["backend_name"]}
    marker = item.get_closest_marker("backends")
    return set(marker.args) if marker is not None else None


def named_quick(item: pytest.Item) -> bool:
    """Named in tests/quick_tier.py (its module's path and the test function's name)."""
    module = item.nodeid.split("::", 1)[0]
    return isinstance(item, pytest.Function) and item.originalname in QUICK.get(module, ())


def in_quick_tier(item: pytest.Item) -> bool:
    """Named in tests/quick_tier.py or marked quick (a doctest is), and not marked slow."""
    chosen = (not isinstance(item, pytest.Function) or named_quick(item)
              or item.get_closest_marker("quick") is not None)
    return chosen and item.get_closest_marker("slow") is None


@pytest.hookimpl(tryfirst=True)  # before -m and -k deselect: they read the marks set here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if not in_quick_tier(item):
            item.add_marker(pytest.mark.slow)
        elif FULL_TIER_FIXTURE in getattr(item, "fixturenames", ()):
            raise pytest.UsageError(f"{item.nodeid} is marked quick but uses a fixture of the full tier "
                                    f"(one that requests {FULL_TIER_FIXTURE}): move the test to the full "
                                    "tier or give it a cheaper fixture")
    soak, chosen = config.getoption("soak"), chosen_backends(config)
    kept = [item for item in items if runs(item, soak, chosen)]
    if len(kept) < len(items):
        left = {id(item) for item in kept}
        config.hook.pytest_deselected(items=[item for item in items if id(item) not in left])
        items[:] = kept


QUICK_TIER = "not slow"
"""The -m expression that selects the quick tier, as the docs give it."""


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under ``-m "not slow"``, a test module with no test of the quick tier (not named in
    tests/quick_tier.py, nothing marked quick, no docstring example) is not imported at all:
    every test in it would be deselected, and importing and parametrising it is most of a
    collection's cost (2 of 4 s of CPU, in each xdist worker)."""
    if config.getoption("markexpr", "") != QUICK_TIER or not collection_path.name.startswith("test_") \
            or collection_path.suffix != ".py" or not collection_path.is_file():
        return None
    try:
        module = collection_path.relative_to(config.rootpath).as_posix()
    except ValueError:
        return None
    if module in QUICK:
        return None
    text = collection_path.read_text(encoding="utf-8")
    return None if "mark.quick" in text or ">>>" in text else True


def runs(item: pytest.Item, soak: bool, chosen: set[str]) -> bool:
    """Whether a collected test runs: a soak test only under --soak, and under --backend only a
    test about a chosen backend or about none in particular."""
    if not soak and item.get_closest_marker("soak") is not None:
        return False
    return not chosen or bool((backends_of(item) or chosen) & chosen)


@pytest.fixture(scope="session")
def full_tier_only() -> None:
    """Requested by a fixture whose shared work is too costly for the quick tier, so that a quick
    test using it is refused when the suite is collected."""
