"""The project skeleton: the README's commands, .ci/run and pyproject agree with each other."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from .conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def readme_commands() -> list[str]:
    """The indented command lines of the README's set-up section, in order."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    return [line.strip() for line in section.splitlines() if line.startswith("    ") and line.strip()]


def ci_commands() -> list[str]:
    """The commands .ci/run executes, in order."""
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


SOAK = ".venv/bin/python -m pytest -q -n auto --dist loadfile --soak -m soak"
"""The soak tier (tests/tiers.py), which CI runs after the README's test command."""


def extras_in(command: str) -> set[str]:
    match = re.search(r"-e\s+['\"]?\.\[([^\]]*)\]", command)
    assert match, f"no editable install with extras in {command!r}"
    return set(match.group(1).split(","))


def test_readme_states_two_commands_install_and_run_then_install_and_test() -> None:
    run, test = readme_commands()
    assert "compare.py" in run and "pytest" not in run
    assert "pytest" in test and "compare.py" not in test
    for command in (run, test):
        steps = [shlex.split(step) for step in command.split("&&")]
        assert steps[0][:3] == ["python3", "-m", "venv"], "each command starts from a fresh venv"
        assert any("pip" in step[0] and "install" in step for step in steps)


def test_ci_runs_exactly_the_readme_test_command_then_only_the_soak_tier() -> None:
    commands, test = ci_commands(), readme_commands()[1]
    assert test in commands
    assert commands[commands.index(test) + 1:] == [SOAK]
    assert "--soak -m soak" in (ROOT / "README.md").read_text()  # the README names what CI adds


def test_ci_runs_the_readme_main_job_command_first() -> None:
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert readme_commands()[0] in lines
    assert lines.index(readme_commands()[0]) < lines.index(readme_commands()[1])


def test_ci_fails_when_the_tests_fail() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert script.startswith("#!/usr/bin/env bash")
    assert re.search(r"^set -[a-z]*e[a-z]*", script, re.MULTILINE), ".ci/run must stop on the first failure"
    assert "pipefail" in script and "|| true" not in script
    assert os.access(ROOT / ".ci" / "run", os.X_OK)


def test_the_first_run_bench_measures_the_readme_first_command_and_refuses_a_non_checkout(tmp_path: Path) -> None:
    bench = [sys.executable, str(ROOT / "bench" / "bench_first_run.py")]
    refused = subprocess.run([*bench, "--source", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "not a git checkout" in refused.stderr
    shown = subprocess.run([*bench, "--print-command"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and shown.stdout.strip() == readme_commands()[0]


def test_the_commands_ask_only_for_extras_that_exist() -> None:
    extras = set(PYPROJECT["project"]["optional-dependencies"])
    run, test = readme_commands()
    assert extras_in(run) <= extras and extras_in(test) <= extras
    assert "test" in extras_in(test)


def requirement_names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_pyproject_declares_the_solvers_runtime_dependencies() -> None:
    project = PYPROJECT["project"]
    names = requirement_names(project["dependencies"])
    assert {"ortools", "pycosat", "tabulate"} <= names
    assert names & {"python-constraint2", "python-constraint"}
    assert project["requires-python"] == ">=3.11"


def test_pyproject_test_extra_has_pytest_and_hypothesis() -> None:
    assert {"pytest", "hypothesis"} <= requirement_names(PYPROJECT["project"]["optional-dependencies"]["test"])


def test_every_python_package_folder_is_installed() -> None:
    # a package left out of pyproject would import from a checkout but not from an install
    installed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    folders = {str(init.parent.relative_to(ROOT)).replace(os.sep, ".")
               for top in ("models", "solvers") for init in (ROOT / top).rglob("__init__.py")}
    assert folders <= installed, f"not installed by pyproject: {sorted(folders - installed)}"


def test_fixed_top_level() -> None:
    expected = {"pyproject.toml", "README.md", "models", "solvers", "tests", "puzzles", "docs", ".ci"}
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    tracked = {line.split("/")[0] for line in listed.stdout.splitlines()}
    assert expected <= tracked
    extra = tracked - expected - {"compare.py", "bench", ".gitignore", *HOUSE_FILES}
    assert not extra, f"no new top-level entries: {sorted(extra)}"


HOUSE_FILES = ("LICENSE", "CHANGELOG.md", "CONTRIBUTING.md")
"""The files every project has, beside the fixed layout."""


def test_the_licence_is_the_mit_licence_pyproject_names_held_by_the_authors() -> None:
    text = (ROOT / "LICENSE").read_text()
    assert PYPROJECT["project"]["license"] == {"text": "MIT"}
    assert text.startswith("MIT License") and "Copyright (c) 2026 the sudoku-methods authors" in text


def test_the_changelog_has_an_unreleased_section_and_the_current_release() -> None:
    from solvers import __version__

    headings = [line for line in (ROOT / "CHANGELOG.md").read_text().splitlines() if line.startswith("## ")]
    assert headings[0] == "## Unreleased" and f"## {__version__}" in headings


@pytest.mark.parametrize("topic", ["## Add a backend", "## Add a technique", "## Add a command",
                                   "## The tests", "## The benchmarks"])
def test_the_contributing_guide_tells_how_to(topic: str) -> None:
    assert f"\n{topic}" in (ROOT / "CONTRIBUTING.md").read_text()


def test_puzzles_readme_describes_every_puzzle_file() -> None:
    readme = (ROOT / "puzzles" / "README.md").read_text()
    for path in sorted((ROOT / "puzzles").glob("*.txt")):
        assert f"`{path.name}`" in readme, f"puzzles/README.md does not describe {path.name}"



MAX_FUNCTION_LINES = 60


def long_functions(paths: list[Path]) -> list[str]:
    """'path:line name (N lines)' for every function or method over MAX_FUNCTION_LINES lines."""
    import ast

    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                lines = node.end_lineno - first + 1
                if lines > MAX_FUNCTION_LINES:
                    found.append(f"{path.name}:{first} {node.name} ({lines} lines)")
    return found


@pytest.mark.slow
def test_no_function_is_over_60_lines() -> None:
    paths = sorted((ROOT / "solvers").rglob("*.py")) + sorted((ROOT / "models").rglob("*.py"))
    assert long_functions([*paths, ROOT / "compare.py"]) == []


def test_the_function_length_check_finds_a_long_function(tmp_path: Path) -> None:
    body = "".join(f"        x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES - 1))
    source = tmp_path / "long.py"
    source.write_text(f"def short():\n    pass\n\n\nclass C:\n    @staticmethod\n"
                      f"    def long():\n{body}")
    assert long_functions([source]) == [f"long.py:6 long ({MAX_FUNCTION_LINES + 1} lines)"]


def test_every_extra_a_backend_names_holds_its_package_and_the_test_command_installs_it() -> None:
    from solvers import registry
    extras = PYPROJECT["project"]["optional-dependencies"]
    named = {b.declaration.extra: b.declaration.package for b in registry.BACKENDS.values() if b.declaration.extra}
    assert named, "no backend names an extra"
    for extra, package in named.items():
        assert extra in extras, f"pyproject has no extra {extra!r}"
        assert package.lower() in requirement_names(extras[extra]), f"extra {extra!r} lacks {package}"
        assert extra in extras_in(readme_commands()[1]), f"the README's test command does not install {extra!r}"
