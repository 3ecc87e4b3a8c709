"""The experiment's front door (issue 21): configurations typed and checked against the
backends' declarations before anything runs, the shell-safe ':' spelling, one call path,
and no solver library in compare.py's own process."""
from __future__ import annotations

import functools
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from models import parse_puzzle
from solvers import registry
from solvers.harness.cli import COMMANDS, build_parser
from solvers.harness.commands.ladder import RUNGS
from solvers.options import Declaration

from .conftest import ROOT, cli, compare

SMALL = "puzzles/small_4x4.txt"
HEAVY = ("numba", "ortools", "highspy", "pysat")


def heavy_imports(*args: str) -> list[str]:
    """The solver libraries compare.py imports in its own process for these arguments."""
    done = compare(*args, env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"})
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    return sorted(name for name in imported if name.split(".")[0] in HEAVY)


@pytest.mark.parametrize("spec, named", [
    ("cpsat:workers=two", "option 'workers' cannot be 'two'"),
    ("cpsat:workers=0", "option 'workers' cannot be '0'; valid: a whole number >= 1"),
    ("mrv:node_limit=abc", "option 'node_limit' cannot be 'abc'"),
    ("mrv:node_limit=-5", "option 'node_limit' cannot be '-5'"),
    ("mip:presolve=maybe", "option 'presolve' cannot be 'maybe'; valid: true, false"),
    ("cpsat:parameters=[1]", "option 'parameters' cannot be '[1]'"),
    ("mrv:inference=magic", "option 'inference' cannot be 'magic'; valid: none, forward"),
    ("mrv:colour=red", "unknown option 'colour'; valid: inference"),
    ("mrv:inference=none:inference=locked", "option 'inference' is given twice"),
    ("mrv:", "an empty option"),
    ("mrv:inference=none::branching=first", "an empty option"),
    ("mrv:inference=", "option 'inference' cannot be an empty value"),
    ("mrv:inference", "bad option 'inference': expected OPTION=VALUE"),
    ("mrv,,sat", "empty configuration in the list"),
    ("dimacs:solver=kissat", "option 'solver': program 'kissat' is not on PATH"),
    ("dimacs:solver=/no/such/solver", "option 'solver': '/no/such/solver' is neither"),
    ("nosuch:x=1", "unknown backend 'nosuch'"),
], ids=lambda value: value if ":" in value or "," in value else None)
def test_a_bad_configuration_exits_2_before_any_run_naming_the_option(spec: str, named: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    # the real parser in this process: tests/test_compare.py sends bad configurations through
    # compare.py's own command line
    status, out, err = cli(capsys, "run", str(ROOT / "puzzles" / "top95.txt"), "--solvers", spec)
    assert status == 2, err
    assert named in err, err
    assert out == ""  # not a single run was made or printed


BAD_VALUES = {
    "run": (["run", SMALL, "--timeout", "-1"], "argument --timeout: must be a positive number"),
    "solve": (["solve", SMALL, "--max-solutions", "0"], "argument --max-solutions: must be at least 1"),
    "export": (["export", SMALL, "--puzzle", "0"], "--puzzle 0: puzzles are counted from 1"),
    "decode": (["decode", "answer.txt", "--cnf", "x.cnf", "--format", "html"], "argument --format: invalid choice"),
    "list": (["list", "--format", "html"], "argument --format: invalid choice: 'html'"),
    "report": (["report", "r.json", "--par", "0"], "argument --par: must be a positive number"),
    "plot": (["plot", "nosuch", "r.json"], "argument kind: invalid choice: 'nosuch'"),
    "generate": (["generate", "--size", "7"], "size 7 is not a valid grid"),
    "study": (["study", "consistency", SMALL, "--levels", "magic"], "argument --levels: unknown level 'magic'"),
    "fuzz": (["fuzz", "--solvers", "mrv", "--budget", "0"], "argument --budget: must be a positive number"),
    "ladder": (["ladder", SMALL, "--timeout", "0"], "argument --timeout: must be a positive number"),
    "explain": (["explain", SMALL, "--max-steps", "0"], "argument --max-steps: must be at least 1"),
    "rate": (["rate", SMALL, "--sample", "0"], "argument --sample: must be at least 1"),
    "render": (["render", SMALL, "--puzzle", "0", "-o", "x.svg"], "--puzzle 0: puzzles are counted from 1"),
    "replay": (["replay", "trace.json", "--max-steps", "-3"], "argument --max-steps: must be at least 1"),
    "tree": (["tree", SMALL, "--max-nodes", "0"], "argument --max-nodes: must be at least 1"),
}
"""A wrong value for one option of each command, and the words its refusal must hold."""


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_a_bad_value(capsys: pytest.CaptureFixture[str], command: str) -> None:
    # the real parser in this process: the quick tier's check of every command's arguments (each
    # option is walked through compare.py's own parser by tests/test_options_honoured.py)
    assert command in BAD_VALUES, f"a new command: give BAD_VALUES a wrong value for one of {command}'s options"
    args, words = BAD_VALUES[command]
    status, out, err = cli(capsys, *args)
    assert (status, out) == (2, ""), err
    assert words in err


def test_an_empty_solver_list_says_it_is_empty() -> None:
    done = compare("run", SMALL, "--solvers", "")
    assert done.returncode == 2 and "the list of configurations is empty" in done.stderr


@pytest.mark.parametrize("command, typo, nearest", [
    ("run", "--timout", "--timeout"), ("report", "--fromat", "--format"),
    ("list", "--plugn", "--plugin"), ("solve", "--solvr", "--solver"),
])
def test_an_unknown_flag_suggests_the_nearest(command: str, typo: str, nearest: str) -> None:
    done = compare(command, typo, "5")
    assert done.returncode == 2
    assert f"unrecognized argument {typo!r} for {command!r}; did you mean {nearest!r}?" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("spelling", [":", ";"])
def test_the_ladders_five_rungs_run_from_the_command_line_in_both_spellings(spelling: str) -> None:
    specs = [rung.config.replace(":", spelling).replace(spelling, ":", 1) for rung in RUNGS[:5]]
    done = compare("run", SMALL, "--solvers", ",".join(specs), "--format", "csv", "--timeout", "20",
                   "--first", "1")  # each rung parsed and run once: its four puzzles cost a third more
    assert done.returncode == 0, done.stderr
    for rung in RUNGS[:5]:
        assert f",{rung.config}," in done.stdout, rung.name  # printed in the shell-safe ':' form


def test_the_ladder_prints_its_rungs_in_the_shell_safe_form() -> None:
    assert all(";" not in rung.config for rung in RUNGS)


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ["--help"], ["list"], ["list", "fast"], ["run", "--help"], ["run", SMALL, "--timout", "1"],
    ["run", SMALL, "--solvers", "fast:inference=magic"],
    ["run", SMALL, "--solvers", "fast,cpsat,mip,pysat", "--json", "/no/such/dir/x.json"],
], ids=lambda args: " ".join(args))
def test_no_solver_library_is_imported_in_compare_pys_own_process(args: list[str]) -> None:
    assert heavy_imports(*args) == []


@pytest.mark.slow
def test_reading_a_saved_run_imports_no_solver_library(tmp_path: Path) -> None:
    saved = tmp_path / "run.json"
    made = compare("run", SMALL, "--solvers", "mrv,backtrack", "--json", str(saved))
    assert made.returncode == 0, made.stderr
    assert heavy_imports("report", str(saved)) == []
    assert heavy_imports("plot", "cactus", str(saved), "-o", str(tmp_path / "no-such-dir" / "x.png")) == []


@pytest.mark.slow
def test_the_saved_run_records_every_resolved_option_including_what_was_chosen(tmp_path: Path) -> None:
    saved = tmp_path / "run.json"
    done = compare("run", SMALL, "--solvers", "pysat:inference=up,pysat,cpsat", "--json", str(saved),
                   "--first", "1")  # what a configuration resolved to does not depend on the puzzles
    assert done.returncode in (0, 1), done.stderr
    described = {c["configuration"]: c for c in json.loads(saved.read_text())["configurations"]}
    assert described["pysat:inference=up"]["resolved_options"]["engine"] == "minisat22"
    assert described["pysat"]["resolved_options"]["engine"] == "cadical195"
    assert described["cpsat"]["resolved_options"]["workers"] == 1
    assert set(described["cpsat"]["resolved_options"]) == set(registry.get("cpsat").options)


def test_a_dimacs_configuration_records_its_binary_and_version(tmp_path: Path) -> None:
    from solvers.harness.engine.configs import describe, parse_one
    solver = tmp_path / "mysat"
    solver.write_text("#!/bin/sh\necho 'mysat 1.2.3'\n")
    solver.chmod(0o755)
    facts = describe(parse_one(f"dimacs:solver={solver}"))["facts"]
    assert facts == {"binary": str(solver), "binary_version": "mysat 1.2.3"}


def test_a_declaration_matches_its_backends_solve_function(backend_name: str) -> None:
    backend = registry.get(backend_name)
    parameters = inspect.signature(backend._module().solve).parameters
    declared = backend.declaration
    assert isinstance(declared, Declaration)
    for option in declared.options:
        assert option.name in parameters, f"{backend_name}: solve takes no {option.name}"
        assert parameters[option.name].default == option.default, f"{backend_name}.{option.name}"
    shared = {"model", "max_solutions", "time_limit"}
    assert set(parameters) - shared == {o.name for o in declared.options}


def test_the_python_api_refuses_a_bad_option_with_the_same_words() -> None:
    with pytest.raises(ValueError, match="backend 'mrv': option 'node_limit' cannot be 'ten'"):
        registry.solve("mrv", parse_puzzle("1234341221434321"), node_limit="ten")


def documented_options() -> list[list[str]]:
    """The rows of the 'Backend options' table, wherever the manual keeps it."""
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text() if page.is_file() else ""
        if "### Backend options" in text:
            section = text.split("### Backend options", 1)[1].split("\n#", 1)[0]
            rows = [line.strip().strip("|").split("|") for line in section.splitlines()
                    if line.startswith("|")]
            return [[cell.strip().strip("`") for cell in row] for row in rows[2:]]
    raise AssertionError("no '### Backend options' table in README.md or docs/")


def test_the_manuals_option_table_is_the_declarations() -> None:
    declared = [[name, option.name, option.valid(),
                 "none" if option.default is None else str(option.default).lower()
                 if isinstance(option.default, bool) else str(option.default)]
                for name in registry.names() for option in registry.get(name).declaration.options]
    assert documented_options() == declared


HIDING = """
import importlib.util, sys
found = importlib.util.find_spec
importlib.util.find_spec = lambda name, *rest: None if name == "highspy" else found(name, *rest)
from solvers.harness.cli import main
sys.exit(main(sys.argv[1:]))
"""


HIDING_PYSAT = HIDING.replace('"highspy"', '"pysat"')


def test_a_backend_whose_package_is_an_extra_names_the_extra_when_missing() -> None:
    done = subprocess.run([sys.executable, "-c", HIDING_PYSAT, "run", SMALL, "--solvers", "pysat"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "backend 'pysat' is unavailable: needs the package 'python-sat': pip install " \
           "'sudoku-methods[pysat]' (or pip install python-sat)" in done.stderr


def test_a_configuration_whose_package_is_missing_exits_2_saying_how_to_install_it() -> None:
    done = subprocess.run([sys.executable, "-c", HIDING, "run", SMALL, "--solvers", "mip:presolve=false"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "configuration 'mip:presolve=false': backend 'mip' is unavailable: needs the package " \
           "'highspy': pip install highspy" in done.stderr


@pytest.mark.parametrize("args", [["list"], *(["list", name] for name in registry.names())],
                         ids=lambda args: " ".join(args))
def test_list_fits_a_100_column_terminal(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # in this process, through the real parser (list's own command line: tests/test_compare.py)
    status, out, err = cli(capsys, *args)
    assert status == 0, err
    assert max(len(line) for line in out.splitlines()) <= 100
    if len(args) == 2:  # every declared option is shown with what is valid
        for option in registry.get(args[1]).declaration.options:
            assert f"  {option.name}=" in out


@pytest.mark.slow
def test_list_of_an_unknown_backend_exits_2_with_the_nearest() -> None:
    done = compare("list", "fsat")
    assert done.returncode == 2 and "unknown backend 'fsat'; did you mean 'sat'?" in done.stderr


@functools.cache
def every_commands_help() -> dict[str, str]:
    """Each command's help from the parser of every command (built once)."""
    return {name: parser.format_help() for name, parser in build_parser().commands.items()}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_parsed_alone_has_the_options_and_help_it_has_among_all(command: str) -> None:
    alone = build_parser(command)
    assert list(alone.commands) == [command]
    assert alone.commands[command].format_help() == every_commands_help()[command]


@pytest.mark.slow
def test_a_run_imports_no_other_commands_module() -> None:
    done = compare("run", SMALL, "--timout", "1", env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"})
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    others = {f"solvers.harness.commands.{name}" for name in COMMANDS if name != "run"}
    assert "solvers.harness.commands.sweep_db" in imported  # run's own part: the run module was loaded
    assert not imported & others, sorted(imported & others)
