"""generate says how a long search for a complete grid goes and stops at a bound (issue 39,
item 6): each jigsaw region map that gives no grid is said on stderr as it happens, and
--grid-timeout bounds the search (exit 1 naming size, time and maps tried), instead of
minutes of silence on a 25x25 jigsaw."""
from __future__ import annotations

import itertools
import random
from types import SimpleNamespace

import pytest

from solvers.generate import generator
from solvers.generate.generator import GenerationError, GridSearch, random_full_grid
from solvers.harness import cli

from .conftest import compare


@pytest.fixture
def never_filled(monkeypatch: pytest.MonkeyPatch) -> None:
    """No region map can be filled: the search for a complete grid always fails."""
    monkeypatch.setattr(generator, "random_solution", lambda *args, **kwargs: None)


def ticking_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The generator's clock 0.05 s on at each look: the same maps are heard under any load."""
    ticks = itertools.count()
    monkeypatch.setattr(generator, "time", SimpleNamespace(monotonic=lambda: next(ticks) / 20,
                                                           perf_counter=lambda: next(ticks) / 20))


def test_each_region_map_without_a_grid_is_heard_and_the_bound_stops_the_search(
        never_filled: None, monkeypatch: pytest.MonkeyPatch) -> None:
    ticking_clock(monkeypatch)
    heard: list[int] = []
    with pytest.raises(GenerationError) as stopped:
        random_full_grid(9, random.Random(1), "jigsaw",
                         GridSearch(0.2, lambda tried, spent: heard.append(tried)))
    assert heard == list(range(1, len(heard) + 1)) and heard
    tried = len(heard) + 1
    assert f"found no complete 9x9 jigsaw grid in 0.2 s ({tried} region maps tried)" in str(stopped.value)


def test_generate_prints_each_missed_map_and_exits_1_at_the_grid_timeout(
        never_filled: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    ticking_clock(monkeypatch)
    assert cli.main(["generate", "--size", "9", "--variant", "jigsaw", "--grid-timeout", "0.3"]) == 1
    err = capsys.readouterr().err
    assert "generate: puzzle 1: region map 1 gave no complete grid; trying another" in err
    assert "generate: found no complete 9x9 jigsaw grid in 0.3 s" in err and "--grid-timeout" in err


@pytest.mark.parametrize("value", ["-1", "nan", "1e400"])
def test_a_grid_timeout_that_is_no_positive_time_is_a_usage_error(value: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["generate", "--size", "9", "--variant", "jigsaw", "--grid-timeout", value])
    assert stopped.value.code == 2 and "argument --grid-timeout" in capsys.readouterr().err


def test_grid_timeout_through_the_command_line_a_wrong_value_and_a_right_one() -> None:
    wrong = compare("generate", "--size", "4", "--variant", "jigsaw", "--grid-timeout", "0")
    assert wrong.returncode == 2 and "argument --grid-timeout" in wrong.stderr
    right = compare("generate", "--size", "4", "--variant", "jigsaw", "--seed", "3", "--grid-timeout", "60")
    assert right.returncode == 0, right.stderr
    assert "regions=" in right.stdout
