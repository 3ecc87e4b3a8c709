"""What the tests share: the checkout's root, the puzzle files, compare.py run as a user runs it,
and a ``backend`` parameter over every registered backend."""
from __future__ import annotations

import compileall
import io
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO, Any

import pytest

from models import Geometry, Puzzle, read_puzzles
from solvers import registry

from . import launcher, tiers
from .tiers import (  # noqa: F401 - hooks and a fixture, taken in here
    full_tier_only,
    pytest_addoption,
    pytest_collection_modifyitems,
    pytest_ignore_collect,
)

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"

# Tables are fitted to COLUMNS when it is set (a CI runner may export COLUMNS=80): the tests read
# every column unless a test sets a width itself, on any machine
for _size in ("COLUMNS", "LINES"):
    os.environ.pop(_size, None)


def pytest_configure(config: pytest.Config) -> None:
    """Byte-compile the toolkit once, before any test starts (in the controller, not in each
    xdist worker), and let pytest keep its rewritten test modules. The suite starts some
    hundreds of interpreters (compare.py launches and the workers they spawn); where
    PYTHONDONTWRITEBYTECODE is set, as on CI machines, none of them writes its bytecode, so each
    compiled every module again: about 0.3 s of CPU a start, 80 s over a full run. pytest, too,
    rewrote the asserts of every test module in every run and every xdist worker: 5 to 6 s of
    CPU a collection of the whole suite."""
    tiers.pytest_configure(config)
    config.pluginmanager.register(OnlyModulesWithExamples(), "only-modules-with-examples")
    sys.dont_write_bytecode = False  # this process only: what it imports from now on is tests/
    if not hasattr(config, "workerinput"):
        for package in ("models", "solvers", "tests/plugins"):  # the plugins: imported by harness workers
            compileall.compile_dir(ROOT / package, quiet=1)
        compileall.compile_file(ROOT / "compare.py", quiet=1)


@pytest.hookimpl(optionalhook=True)  # xdist's hook: unknown where its plugin is not loaded
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the cores this process may use. About a fifth of the
    suite's time is waiting, not working (a planted hang until its kill, a plugin sleeping past
    its limit, a Dask cluster starting), and a worker per core left a core idle through each
    wait: 5 min 0 s with two workers on two quiet cores, 3 min 50 s with three
    (bench/test_timings.md)."""
    from solvers.harness.engine.runner import default_jobs  # the harness's own count of the cores

    return default_jobs() + 1


class OnlyModulesWithExamples:
    """--doctest-modules imports every module of models/ and solvers/ to look for examples, in
    every xdist worker: OR-tools, numba's kernels and the rest, 2-3 s of CPU a collection for
    the 131 modules (of 197) that have none. A module whose text has no ``>>>`` is not collected
    (registered as a plugin: a conftest's hook would not reach paths outside tests/)."""

    @staticmethod
    def pytest_ignore_collect(collection_path: Path) -> bool | None:
        inside = any(collection_path.is_relative_to(ROOT / package) for package in ("models", "solvers"))
        if not inside or collection_path.suffix != ".py" or not collection_path.is_file():
            return None
        return True if ">>>" not in collection_path.read_text(encoding="utf-8") else None


def interruptible() -> None:
    """A ``preexec_fn`` for a launch a test stops with SIGINT: the child meets Ctrl-C as one
    started from a terminal does. A test run started in the background (``&``, nohup, some CI
    runners) has SIGINT ignored, and a child would inherit that and never stop."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def compare(*args: str, stdin: str | IO[bytes] | None = None, cwd: Path = ROOT, timeout: float = 300,
            fresh: bool = False, **options: Any) -> subprocess.CompletedProcess[str]:
    """compare.py run through its real command line, in a process of its own, as a user would;
    ``stdin`` is the text to type in, or a file to read from. Served from a preloaded
    interpreter (tests/launcher.py) unless ``options`` ask for more than an environment or
    the environment sets the interpreter's own PYTHON* variables otherwise, or ``fresh``
    asks for a fresh interpreter (timing comparisons within one run: an A/A run's second
    configuration read slower in 3 of 17 served launches, in none of 17 fresh; not understood)."""
    feed: dict[str, Any] = {"input": stdin} if isinstance(stdin, str) else {"stdin": stdin}
    # os.environ as Python sees it: a library that initialised readline (pytest's debugger) has
    # put COLUMNS and LINES into the process's own environment, which a child would inherit
    if options.get("env") is None:  # not given, or None (subprocess's spelling of "inherit")
        options["env"] = dict(os.environ)
    if not fresh and set(options) == {"env"} and launcher.served(options["env"]):
        return launcher.launch(ROOT / "compare.py", list(args), cwd, options["env"], stdin, timeout)
    return subprocess.run([sys.executable, str(ROOT / "compare.py"), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, **feed, **options)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """compare.py's command line in this process, through its real parser: (status, stdout,
    stderr). For what a fresh interpreter adds nothing to (argument checks, reading saved
    files); what a user runs is tested through ``compare`` as well."""
    from solvers.harness.cli import main
    try:
        status = main(list(args))
    except SystemExit as stop:  # as the interpreter maps it: None 0, a number itself, a message 1
        status = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
    out, err = capsys.readouterr()
    return status, out, err


def compare_here(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``compare`` for a command that starts no worker, run in this process through the real
    parser from the checkout's root, ``stdin`` the text typed in: what a fresh interpreter
    prints and exits with, without its 0.3-0.4 s of CPU. Not for what the interpreter decides
    (signals, closed streams, the environment, a command that starts workers): ``compare``."""
    from solvers.harness.cli import main
    written = [io.BytesIO(), io.BytesIO()]
    streams = [io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8"),
               *(io.TextIOWrapper(buffer, encoding="utf-8", newline="") for buffer in written)]
    saved, folder = (sys.stdin, sys.stdout, sys.stderr), os.getcwd()
    sys.stdin, sys.stdout, sys.stderr = streams
    os.chdir(ROOT)
    try:
        status = main(list(args))
    except SystemExit as stop:  # as the interpreter maps it: None 0, a number itself, a message 1
        status = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        os.chdir(folder)
        for stream in streams:
            stream.flush()
    out, err = (buffer.getvalue().decode("utf-8") for buffer in written)
    return subprocess.CompletedProcess(["compare.py", *args], status, out, err)


def copied_checkout(folder: Path) -> Path:
    """A copy of the checkout (no virtualenv, history, caches or pictures) to change in a test."""
    skip = shutil.ignore_patterns(".venv", ".git", "__pycache__", "*.egg-info", "build", "*.png", "*.sqlite")
    shutil.copytree(ROOT, folder, ignore=skip)
    return folder


def puzzle_file(folder: Path, *lines: str, name: str = "puzzles.txt") -> str:
    """A puzzle file of these lines (after a comment line) in ``folder``; its path."""
    path = folder / name
    path.write_text("# test puzzles\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def empty(n: int, **variant: Any) -> Puzzle:
    """The n x n grid without givens (``variant``: Puzzle's fields, e.g. diagonals=True)."""
    return Puzzle(Geometry.for_size(n), (0,) * (n * n), **variant)


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


PAST_REACH = (pytest.mark.slow, pytest.mark.soak)
"""The marks of a contract case past its backend's declared reach: the soak tier's."""


def on_every_backend(cases: list[Case]) -> list[Any]:
    """Parameters ``backend_name, *case.values`` for each case on every registered backend; a
    pair past the backend's declared reach runs in the soak tier only (``--soak``: it spends
    the reach's work budget, or searches on to its end), so that the quick and full tiers run
    every backend on the cases it finishes within the budget, and no test names a backend to
    decide it."""
    return [pytest.param(name, *case.values, id=f"{name}-{case.id}",
                         marks=() if registry.get(name).declaration.reach.takes(
                             case.side, case.hardness, case.solutions) else PAST_REACH)
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
# processes it launched and waited for, setup and teardown included), wall seconds, outcome, and
# the CPU seconds of this process alone (own_cpu_s: the rest is what it launched) as
# tab-separated lines (under xdist, one file per worker: path.gw0, path.gw1, ...). Each line is written
# as its test ends, so a run stopped by a cap keeps what it measured; a finished run sorts its
# file costliest first. CPU time is what a loaded machine hardly inflates; a test whose wall time
# far exceeds its CPU time is waiting (a sleep, a timeout) rather than working. A module
# fixture's cost goes to its first test.
_COST_FILE = os.environ.get("TEST_COST_FILE")
_HEADER = "cpu_s\twall_s\toutcome\ttest\town_cpu_s\n"
_NESTED = "TEST_COST_RECORDING"
"""Set by the recording session: a pytest that a test starts (inheriting the environment, and
an xdist worker's name) records nothing, rather than unlink or fill this run's record."""


def cpu_seconds() -> float:
    """CPU seconds of this process, of the children it has waited for, and of the launches
    tests/forkserver.py served it."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return (own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
            + launcher.cpu_elsewhere)


def own_cpu_seconds() -> float:
    """CPU seconds of this process alone (the test's own work, not what it launched)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def _cost_path() -> Path:
    suffix = os.environ.get("PYTEST_XDIST_WORKER", "")  # one file per xdist worker
    return Path(f"{_COST_FILE}.{suffix}" if suffix else str(_COST_FILE))


if _COST_FILE:
    _OUTCOMES = pytest.StashKey[list[pytest.TestReport]]()
    _RECORDING = pytest.StashKey[bool]()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
        cpu, wall = cpu_seconds(), time.perf_counter()
        own = own_cpu_seconds()
        yield
        if not item.config.stash.get(_RECORDING, False):
            return
        reports = item.stash.get(_OUTCOMES, [])
        failed = [r for r in reports if r.failed]
        outcome = "failed" if failed else "skipped" if any(r.skipped for r in reports) else "passed"
        path = _cost_path()
        with path.open("a", encoding="utf-8") as costs:
            if costs.tell() == 0:
                costs.write(_HEADER)
            costs.write(f"{cpu_seconds() - cpu:.3f}\t{time.perf_counter() - wall:.3f}\t{outcome}\t{item.nodeid}\t"
                        f"{own_cpu_seconds() - own:.3f}\n")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
        outcome = yield
        item.stash.setdefault(_OUTCOMES, []).append(outcome.get_result())

    def pytest_sessionstart(session: pytest.Session) -> None:
        nested = bool(os.environ.get(_NESTED)) and not hasattr(session.config, "workerinput")
        session.config.stash[_RECORDING] = not nested
        if not nested:
            os.environ[_NESTED] = "1"
            _cost_path().unlink(missing_ok=True)  # a fresh record for this run

    def pytest_sessionfinish(session: pytest.Session) -> None:
        path = _cost_path()
        if not session.config.stash.get(_RECORDING, False) or not path.exists():  # xdist's controller runs no test
            return
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)[1:]
        lines.sort(key=lambda line: float(line.split("\t", 1)[0]), reverse=True)
        path.write_text(_HEADER + "".join(lines), encoding="utf-8")
