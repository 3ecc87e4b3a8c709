"""The mip backend: the 0-1 model, HiGHS's statuses and counters, limits, and silence."""
from __future__ import annotations

import importlib

import pytest

from models import Model, parse_puzzle, verify
from solvers import Status, registry

from .conftest import load

highspy = pytest.importorskip("highspy",
                              reason="the mip backend needs highspy (pip install highspy)")
_mip = importlib.import_module("solvers.backends._mip")
mip = importlib.import_module("solvers.backends.mip")


@pytest.mark.parametrize("name", list(highspy.HighsModelStatus.__members__))
def test_every_highs_model_status_is_translated(name: str) -> None:
    assert _mip.translate(highspy.HighsModelStatus.__members__[name]) in Status


def test_an_unknown_status_is_an_error_not_a_guess() -> None:
    with pytest.raises(_mip.UnknownStatusError, match="unknown model status"):
        _mip.translate("kSomethingNew")


@pytest.mark.parametrize("presolve", [True, False])
def test_the_model_has_a_binary_per_candidate_and_an_equality_per_cell_and_group_value(
        presolve: bool) -> None:
    empty = Model.from_puzzle(parse_puzzle("." * 16))
    result = mip.solve(empty, presolve=presolve, max_solutions=2)
    assert result.stats.variables == 16 * 4
    # 16 cells + 12 groups x 4 values, and the one no-good cut that found the second grid
    assert result.stats.constraints == 16 + 12 * 4 + 1
    assert len(set(result.solutions)) == 2
    assert all(verify(empty.puzzle, grid).ok for grid in result.solutions)


def test_counting_to_two_adds_one_cut_and_proves_uniqueness() -> None:
    model = Model.from_puzzle(load("top95.txt")[0])
    one, two = mip.solve(model), mip.solve(model, max_solutions=2)
    assert one.solutions == two.solutions and two.unique is True and two.complete
    assert two.stats.constraints == one.stats.constraints + 1


def test_without_presolve_the_counters_come_from_branch_and_bound() -> None:
    results = [mip.solve(Model.from_puzzle(p), presolve=False) for p in load("top95.txt")[:5]]
    assert all(r.status is Status.SOLVED for r in results)
    assert all(r.stats.nodes >= 1 for r in results)
    assert sum(r.stats.lp_iterations for r in results) > 0


def test_a_spent_node_budget_is_unknown() -> None:
    result = mip.solve(Model.from_puzzle(load("top95.txt")[0]), presolve=False, node_limit=0)
    assert result.status is Status.UNKNOWN and not result.solutions and not result.complete


@pytest.mark.parametrize("bad", [-1, 2.5, True])
def test_a_bad_node_limit_is_refused(bad: object) -> None:
    with pytest.raises(ValueError, match="node_limit"):
        registry.get("mip").solve(Model.from_puzzle(load("top95.txt")[0]), node_limit=bad)


def test_a_value_with_no_place_is_unsat_with_the_reason() -> None:
    # Row 1 needs a 3, but the 3 in its box rules out both open cells (which can still take 4).
    result = mip.solve(Model.from_puzzle(parse_puzzle("12....3........." )))
    assert result.status is Status.UNSAT and result.complete
    assert result.message == "3 has no place left in row 1"


def test_a_complete_grid_needs_no_solve() -> None:
    result = mip.solve(Model.from_puzzle(load("seeds.solutions.txt")[0]), max_solutions=2)
    assert result.status is Status.SOLVED and result.unique is True and result.stats.variables == 0


def test_highs_prints_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    mip.solve(Model.from_puzzle(load("top95.txt")[1]), presolve=False, max_solutions=2)
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_pyproject_pins_highspy_and_ortools_together() -> None:
    # highspy 1.15 next to the HiGHS that ortools bundles crashes the process.
    import tomllib
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    dependencies = tomllib.loads(text)["project"]["dependencies"]
    assert "highspy==1.12.0" in dependencies
    assert "ortools>=9.15,<9.16" in dependencies
