"""Adding a backend is one file (solvers/backends/_template.py is the one to copy) and one
registry row: with only the row added here, every part of the toolkit takes the template."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from models import verify
from solvers import registry
from solvers.harness.commands.list import backend_row, detail
from solvers.harness.engine.configs import ConfigurationError, describe, parse_one
from solvers.harness.engine.worker import solve as worker_solve
from solvers.harness.tasks import Task
from solvers.result import Status

from .conftest import copied_checkout, load

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


NEW_ROW = '    Backend("mymethod", "a copy of the template", "solvers.backends.mymethod"),\n'
COPY_TESTS = ["tests/test_backends.py", "tests/test_backend_limits.py", "tests/test_vocabulary.py",
              "tests/test_front_door.py", "tests/test_docs.py"]
"""The contract tests and the docs tests that check a backend's rows."""


@pytest.mark.slow  # a copied checkout and a pytest run in it, the quick tier on one backend: about 20 s
def test_a_copied_template_with_one_registry_row_passes_the_contract_and_docs_tests(tmp_path: Path) -> None:
    tree = copied_checkout(tmp_path / "tree")
    shutil.copy(tree / "solvers" / "backends" / "_template.py", tree / "solvers" / "backends" / "mymethod.py")
    registry_file = tree / "solvers" / "registry.py"
    text = registry_file.read_text()
    registry_file.write_text(text.replace(")}\n", NEW_ROW + ")}\n", 1))
    environment = {**os.environ, "PYTHONPATH": str(tree)}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, *args], cwd=tree, capture_output=True, text=True, timeout=900,
                              env=environment)

    behind = run("-m", "tests.docs_tables", "--check")  # the docs' tables are made, not written
    assert behind.returncode == 1 and "README.md: the table 'backends' is behind" in behind.stdout
    assert run("-m", "tests.docs_tables").returncode == 0
    assert "| `mymethod` | a copy of the template | a template to copy |" in (tree / "README.md").read_text()
    chosen = "mymethod or generated_table or option_table or counters_table_lists"
    done = run("-m", "pytest", "-v", "-p", "no:cacheprovider", "-m", "not slow", "-k", chosen, *COPY_TESTS)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    passed = set(re.findall(r"::(\S+) PASSED", done.stdout))
    assert {"test_solves_9x9[mymethod-easy50-0]", "test_unsolvable_puzzles_are_unsat[mymethod-small_unsat-0]",
            "test_time_limit_is_honoured_without_a_wrong_answer[mymethod]",
            "test_readme_backend_table_has_a_short_row_for_the_backend[mymethod]",
            "test_the_docs_backend_table_names_the_backends_counters[mymethod]",
            "test_a_declaration_matches_its_backends_solve_function[mymethod]",
            "test_the_generated_table_is_what_its_definition_gives_now[backend-options]",
            "test_the_manuals_option_table_is_the_declarations"} <= passed
    assert len([name for name in passed if "mymethod" in name]) >= 40  # its quick tier: 41 cases
