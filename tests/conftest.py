"""What the tests share: the checkout's root, the puzzle files, compare.py run as a user runs it,
and a ``backend`` parameter over every registered backend."""
from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import IO, Any

import pytest

from models import Puzzle, read_puzzles
from solvers import registry

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"


def compare(*args: str, stdin: str | IO[bytes] | None = None, cwd: Path = ROOT, timeout: float = 300,
            **options: Any) -> subprocess.CompletedProcess[str]:
    """compare.py run through its real command line, in a fresh interpreter, as a user would;
    ``stdin`` is the text to type in, or a file to read from."""
    feed: dict[str, Any] = {"input": stdin} if isinstance(stdin, str) else {"stdin": stdin}
    return subprocess.run([sys.executable, str(ROOT / "compare.py"), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, **feed, **options)


@cache
def load(name: str) -> tuple[Puzzle, ...]:
    """Every puzzle of puzzles/<name>; fails the test if the file has a bad puzzle."""
    batch = read_puzzles(PUZZLES / name)
    assert not batch.errors, batch.errors
    return tuple(batch.puzzles)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend_name" in metafunc.fixturenames:
        metafunc.parametrize("backend_name", registry.names())


@pytest.fixture
def backend(backend_name: str) -> registry.Backend:
    """The registered backend, or a skip naming why it cannot run here."""
    chosen = registry.get(backend_name)
    try:
        chosen.load()
    except registry.BackendUnavailableError as error:
        pytest.skip(str(error))
    return chosen
