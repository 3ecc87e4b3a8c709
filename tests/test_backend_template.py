"""Adding a backend is one file (solvers/backends/_template.py is the one to copy) and one
registry row: with only the row added here, every part of the toolkit takes the template."""
from __future__ import annotations

import pytest

from models import verify
from solvers import registry
from solvers.harness.commands.list import backend_row, detail
from solvers.harness.engine.configs import ConfigurationError, describe, parse_one
from solvers.harness.engine.worker import solve as worker_solve
from solvers.harness.tasks import Task
from solvers.result import Status

from .conftest import load

ROW = registry.Backend("template", "the template for a new backend", "solvers.backends._template")


@pytest.fixture(autouse=True)
def one_registry_row(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.BACKENDS, ROW.name, ROW)


def test_the_template_is_listed_with_its_options_from_its_declaration() -> None:
    assert "template" in registry.available_names()
    assert backend_row(ROW)["options"].startswith("node_limit=a whole number >= 0")
    assert "value_order=ascending, descending  (default ascending)" in detail(ROW)


def test_a_configuration_of_the_template_is_typed_and_checked() -> None:
    configuration = parse_one("template:value_order=descending:node_limit=50")
    assert configuration.options == (("value_order", "descending"), ("node_limit", 50))
    assert describe(configuration)["resolved_options"] == {"node_limit": 50,
                                                           "value_order": "descending"}
    with pytest.raises(ConfigurationError, match="option 'value_order' cannot be 'random'"):
        parse_one("template:value_order=random")


@pytest.mark.parametrize("order", ["ascending", "descending"])
def test_the_template_solves_through_the_python_api(order: str) -> None:
    for puzzle in load("small_4x4.txt"):
        result = registry.solve("template", puzzle, max_solutions=2, value_order=order)
        assert result.status is Status.SOLVED and result.complete
        assert verify(puzzle, result.solutions[0]).ok


def test_the_template_runs_in_a_worker_through_the_validated_entry() -> None:
    puzzle = load("small_4x4.txt")[0]
    task = Task(parse_one("template:node_limit=1000"), puzzle, max_solutions=1, time_limit=5.0)
    outcome = worker_solve(ROW, task)
    assert outcome["status"] == "solved", outcome


def test_the_templates_node_limit_gives_unknown() -> None:
    puzzle = load("small_4x4.txt")[0]
    result = registry.solve("template", puzzle, node_limit=0)
    assert result.status is Status.UNKNOWN and result.message == "node limit reached"
