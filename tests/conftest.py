"""Shared fixtures: the puzzle files, and a ``backend`` parameter over every registered backend."""
from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from models import Puzzle, read_puzzles
from solvers import registry

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


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
