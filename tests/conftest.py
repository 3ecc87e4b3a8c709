"""What the tests share: the checkout's root, the puzzle files, compare.py run as a user runs it,
and a ``backend`` parameter over every registered backend."""
from __future__ import annotations

import compileall
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, Any

import pytest

from models import Puzzle, read_puzzles
from solvers import registry

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"

# Tables are fitted to COLUMNS when it is set (a CI runner may export COLUMNS=80): the tests read
# every column unless a test sets a width itself, on any machine
for _size in ("COLUMNS", "LINES"):
    os.environ.pop(_size, None)


def pytest_configure(config: pytest.Config) -> None:
    """Byte-compile the toolkit once, before any test starts (in the controller, not in each
    xdist worker). The suite starts some hundreds of interpreters (compare.py launches and the
    workers they spawn); where PYTHONDONTWRITEBYTECODE is set, as on CI machines, none of them
    writes its bytecode, so each compiled every module again: about 0.3 s of CPU a start,
    80 s over a full run."""
    if not hasattr(config, "workerinput"):
        for package in ("models", "solvers"):
            compileall.compile_dir(ROOT / package, quiet=1)
        compileall.compile_file(ROOT / "compare.py", quiet=1)


def compare(*args: str, stdin: str | IO[bytes] | None = None, cwd: Path = ROOT, timeout: float = 300,
            **options: Any) -> subprocess.CompletedProcess[str]:
    """compare.py run through its real command line, in a fresh interpreter, as a user would;
    ``stdin`` is the text to type in, or a file to read from."""
    feed: dict[str, Any] = {"input": stdin} if isinstance(stdin, str) else {"stdin": stdin}
    # os.environ as Python sees it: a library that initialised readline (pytest's debugger) has
    # put COLUMNS and LINES into the process's own environment, which a child would inherit
    options.setdefault("env", dict(os.environ))
    return subprocess.run([sys.executable, str(ROOT / "compare.py"), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, **feed, **options)


def copied_checkout(folder: Path) -> Path:
    """A copy of the checkout (no virtualenv, history, caches or pictures) to change in a test."""
    skip = shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", "build", "*.png", "*.sqlite")
    shutil.copytree(ROOT, folder, ignore=skip)
    return folder


@cache
def load(name: str) -> tuple[Puzzle, ...]:
    """Every puzzle of puzzles/<name>; fails the test if the file has a bad puzzle."""
    batch = read_puzzles(PUZZLES / name)
    assert not batch.errors, batch.errors
    return tuple(batch.puzzles)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """``backend_name`` over every registered backend, unless the test names its own (``on_every_backend``)."""
    if "backend_name" in metafunc.fixturenames and not _parametrizes(metafunc, "backend_name"):
        metafunc.parametrize("backend_name", registry.names())


def _parametrizes(metafunc: pytest.Metafunc, argument: str) -> bool:
    for marker in metafunc.definition.iter_markers("parametrize"):
        names = marker.args[0].split(",") if isinstance(marker.args[0], str) else marker.args[0]
        if argument in (name.strip() for name in names):
            return True
    return False


@dataclass(frozen=True)
class Case:
    """One case of the contract tests: its parameters and id, and what it asks of a backend in
    the terms of a backend's declared reach (solvers/options.py ``Reach``): the grid's side,
    its hardness on Reach's scale (0 plenty of givens, 1 hard 9x9 puzzles and variants, 2 the
    hardest the tests hold) and the solutions to list."""

    values: tuple[Any, ...]
    id: str
    side: int
    hardness: int = 0
    solutions: int = 1


def on_every_backend(cases: list[Case]) -> list[Any]:
    """Parameters ``backend_name, *case.values`` for each case on every registered backend; a
    pair past the backend's declared reach runs in the slow tier only, so that the quick tier
    runs every backend on the cases it finishes in well under a second, and no test names a
    backend to decide it."""
    return [pytest.param(name, *case.values, id=f"{name}-{case.id}",
                         marks=[] if registry.get(name).declaration.reach.takes(
                             case.side, case.hardness, case.solutions) else [pytest.mark.slow])
            for name in registry.names() for case in cases]


@pytest.fixture
def backend(backend_name: str) -> registry.Backend:
    """The registered backend, or a skip naming why it cannot run here."""
    chosen = registry.get(backend_name)
    try:
        chosen.load()
    except registry.BackendUnavailableError as error:
        pytest.skip(str(error))
    return chosen


# Optional per-test cost record, for keeping the quick tier quick (docs/architecture.md "Test tiers"):
# TEST_COST_FILE=path python -m pytest ... writes every test's CPU seconds (this process plus the
# subprocesses it waited for, setup and teardown included) and wall seconds, costliest first, as
# tab-separated lines (with -n 2, one file per worker: path.gw0, path.gw1). CPU time is what a
# loaded machine hardly inflates; a test whose wall time far exceeds its CPU time is waiting (a
# sleep, a timeout) rather than working. A module fixture's cost goes to its first test.
_COST_FILE = os.environ.get("TEST_COST_FILE")
_costs: list[tuple[float, float, str]] = []


def cpu_seconds() -> float:
    """CPU seconds of this process and of the children it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if _COST_FILE:
    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
        cpu, wall = cpu_seconds(), time.perf_counter()
        yield
        _costs.append((cpu_seconds() - cpu, time.perf_counter() - wall, item.nodeid))

    def pytest_sessionfinish(session: pytest.Session) -> None:
        if not _costs:  # xdist's controller runs no test
            return
        suffix = os.environ.get("PYTEST_XDIST_WORKER", "")  # one file per xdist worker
        lines = [f"{cpu:.3f}\t{wall:.3f}\t{nodeid}\n" for cpu, wall, nodeid in sorted(_costs, reverse=True)]
        Path(_COST_FILE + (f".{suffix}" if suffix else "")).write_text("cpu_s\twall_s\ttest\n" + "".join(lines))
