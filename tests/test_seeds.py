"""Solver seeds: every backend that declares a ``seed`` option, and the random isomorphs."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from models import Model, Puzzle, verify
from solvers import Status, registry
from solvers.encodings.isomorph import random_isomorph

from .conftest import load
from .killers import UNIQUE

SEEDED = [name for name in registry.names() if "seed" in registry.get(name).options]


def test_the_search_backends_take_a_seed() -> None:
    assert {"backtrack", "mrv", "fast", "cpsat", "pysat", "mip"} <= set(SEEDED)


@pytest.mark.parametrize("name", SEEDED)
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_a_seeded_run_still_finds_and_proves_the_one_solution(name: str, seed: int) -> None:
    backend = registry.get(name)
    if not backend.available:
        pytest.skip(f"{name} is not installed")
    puzzle = load("easy50.txt")[0]
    result = backend.solve(puzzle, max_solutions=2, seed=seed, time_limit=60)
    assert result.status is Status.SOLVED and result.unique
    assert verify(puzzle, result.solutions[0]).ok


@pytest.mark.parametrize("name, options", [("backtrack", {}), ("mrv", {"inference": "singles"}),
                                           ("pysat", {})])
def test_different_seeds_walk_different_trees(name: str, options: dict) -> None:
    if not registry.get(name).available:
        pytest.skip(f"{name} is not installed")
    puzzle = load("top95.txt")[5] if name != "backtrack" else load("easy50.txt")[0]
    nodes = {registry.solve(name, puzzle, seed=seed, **options).stats.nodes for seed in range(5)}
    assert len(nodes) > 1, nodes


@pytest.mark.parametrize("name", ["backtrack", "mrv"])
def test_the_same_seed_gives_the_same_run(name: str) -> None:
    puzzle = load("top95.txt")[5] if name == "mrv" else load("easy50.txt")[0]
    first, again = (registry.solve(name, puzzle, seed=3) for _ in range(2))
    assert first.solutions == again.solutions and first.stats.nodes == again.stats.nodes


@pytest.mark.parametrize("seed", [-1, 1.5, True, "3"])
@pytest.mark.parametrize("name", ["backtrack", "mrv", "pysat", "mip"])
def test_a_bad_seed_is_refused(name: str, seed: object) -> None:
    if not registry.get(name).available:
        pytest.skip(f"{name} is not installed")
    with pytest.raises(ValueError, match="option 'seed' cannot be"):
        registry.solve(name, load("seeds.txt")[0], seed=seed)


def puzzles() -> list:
    return [pytest.param(load(name)[i], id=f"{name.removesuffix('.txt')}-{i}") for name, i in
            (("top95.txt", 0), ("jigsaw.txt", 0), ("x_sudoku.txt", 0), ("small_6x6.txt", 1),
             ("16x16_forum_samples.txt", 0))] + \
        [pytest.param(next(iter(UNIQUE.values()))[0], id="killer")]


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("puzzle", puzzles())
def test_an_isomorphs_solution_maps_back_to_the_puzzles(puzzle: Puzzle, seed: int) -> None:
    model = Model.from_puzzle(puzzle)
    isomorph = random_isomorph(model, seed)
    assert isomorph.model.puzzle.num_givens == puzzle.num_givens
    assert isomorph.back(isomorph.model.givens) == puzzle.givens
    solution = registry.solve("mrv", isomorph.model).solutions[0]
    assert verify(isomorph.model.puzzle, solution).ok
    assert verify(puzzle, isomorph.back(solution)).ok


def test_a_plain_grid_has_its_cells_moved_and_a_variant_only_its_values() -> None:
    plain = random_isomorph(Model.from_puzzle(load("top95.txt")[0]), 1)
    jigsaw = random_isomorph(Model.from_puzzle(load("jigsaw.txt")[0]), 1)
    assert list(plain.cell_of) != sorted(plain.cell_of)
    assert list(jigsaw.cell_of) == sorted(jigsaw.cell_of)
    assert list(jigsaw.value_of) != sorted(jigsaw.value_of)
    killer = random_isomorph(Model.from_puzzle(next(iter(UNIQUE.values()))[0]), 1)
    assert list(killer.value_of) == sorted(killer.value_of)  # a cage total pins the values


ROOT = Path(__file__).resolve().parent.parent


def compare(*args: str) -> subprocess.CompletedProcess[str]:
    """Run compare.py from the repository root as a user would."""
    return subprocess.run([sys.executable, str(ROOT / "compare.py"), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_run_with_seeds_runs_each_configuration_once_per_seed_and_records_it(tmp_path: Path) -> None:
    out, table = tmp_path / "runs.json", tmp_path / "runs.csv"
    done = compare("run", "puzzles/small_4x4.txt", "--solvers", "mrv,backtrack", "--seeds", "3",
                   "--json", str(out), "--csv", str(table))
    assert done.returncode == 0, done.stderr
    runs = json.loads(out.read_text())["runs"]
    puzzles = len({r["index"] for r in runs})
    for configuration in ("mrv", "backtrack"):
        mine = [r for r in runs if r["configuration"] == configuration]
        assert sorted(r["seed"] for r in mine) == sorted([0, 1, 2] * puzzles)
        assert all(r["options"]["seed"] == r["seed"] == r["repeat"] for r in mine)
    rows = list(csv.DictReader(io.StringIO(table.read_text())))
    assert sorted({r["seed"] for r in rows}) == ["0", "1", "2"]
    assert "x 3 solver seeds" in done.stderr  # the legend is on stderr, under the table


@pytest.mark.parametrize("args, message", [
    (("--solvers", "mrv", "--seeds", "0"), "must be at least 1"),
    (("--solvers", "dlx", "--seeds", "2"), "takes no solver seed"),
    (("--solvers", "mrv:seed=4", "--seeds", "2"), "sets one already"),
    (("--solvers", "mrv", "--seeds", "2", "--repeat", "2"), "leave out --repeat"),
])
def test_run_refuses_seeds_it_cannot_give_with_exit_2(args: tuple[str, ...], message: str) -> None:
    done = compare("run", "puzzles/small_4x4.txt", *args)
    assert done.returncode == 2
    assert message in done.stderr
