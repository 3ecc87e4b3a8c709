"""The test tiers and ``--backend`` (tests/tiers.py), through pytest's real command line: the
quick tier holds what guards the contract (every backend's contract cases, each command's
argument checks, the judge, the formats, the checker), a test is in it only when marked, a
quick test on a full-tier fixture is refused, and --backend narrows to one backend or says
which names it knows."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from solvers import registry
from solvers.harness.cli import COMMANDS

from .conftest import ROOT
from .quick_tier import QUICK

USAGE_ERROR = 4  # pytest's exit status for a bad command line


def pytest_run(*args: str, cwd: Path = ROOT, plugins: bool = True) -> subprocess.CompletedProcess[str]:
    """pytest in a fresh interpreter, as a developer runs it (no cost file, no xdist); without
    ``plugins``, the installed plugins are not loaded (hypothesis, xdist...: half a second a run,
    and nothing that --backend touches)."""
    env = {key: value for key, value in os.environ.items() if key not in ("TEST_COST_FILE", "PYTEST_ADDOPTS")}
    if not plugins:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env=env)


def collected(*args: str) -> list[str]:
    done = pytest_run("--collect-only", "-q", *args, plugins=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return [line for line in done.stdout.splitlines() if "::" in line]


@pytest.fixture(scope="module")
def quick_collection() -> subprocess.CompletedProcess[str]:
    """The whole suite collected as the docs say to run the quick tier (one collection for the
    module: each costs some seconds of CPU)."""
    done = pytest_run("--collect-only", "-q", "-m", "not slow")
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="module")
def quick_tier(quick_collection: subprocess.CompletedProcess[str]) -> list[str]:
    """The ids of the whole quick tier."""
    return [line for line in quick_collection.stdout.splitlines() if "::" in line]


CONTRACT = ("test_seeds_give_their_known_solutions", "test_solves_9x9", "test_small_geometries_have_unique_solutions",
            "test_variants_are_solved_under_their_own_groups", "test_empty_grid_is_solved_and_not_unique",
            "test_unsolvable_puzzles_are_unsat", "test_counts_every_solution_of_small_multiple_puzzles",
            "test_the_registry_refuses_bad_shared_arguments", "test_every_backend_names_its_counters_in_the_vocabulary",
            "test_time_limit_is_honoured_without_a_wrong_answer")


@pytest.mark.parametrize("test", CONTRACT)
def test_the_quick_tier_runs_every_backend_on_each_contract_test(quick_tier: list[str], test: str) -> None:
    modules = ("test_backends.py", "test_backend_limits.py")
    cases = [i for i in quick_tier if any(i.startswith(f"tests/{module}::{test}[") for module in modules)]
    missing = [name for name in registry.names() if not any(f"[{name}-" in i or f"[{name}]" in i for i in cases)]
    assert missing == [], f"{test}: no quick case for {missing}"


def test_the_quick_tier_checks_the_arguments_of_every_command(quick_tier: list[str]) -> None:
    checked = {i.split("[", 1)[1].rstrip("]") for i in quick_tier
               if i.startswith("tests/test_front_door.py::test_every_command_refuses_a_bad_value[")}
    assert checked == set(COMMANDS)


@pytest.mark.parametrize("guard", ["tests/test_harness_judge.py::", "tests/test_formats.py::",
                                   "tests/test_checker.py::", "tests/test_fpuzzles.py::", "models/"])
def test_the_quick_tier_holds_the_judge_the_formats_and_the_checker(quick_tier: list[str], guard: str) -> None:
    assert any(i.startswith(guard) for i in quick_tier)


def test_every_test_named_for_the_quick_tier_exists_and_is_in_it(quick_tier: list[str]) -> None:
    # a renamed or removed test must not drop out of the quick tier unnoticed
    chosen = {i.split("[", 1)[0] for i in quick_tier}
    missing = [f"{module}::{name}" for module, names in QUICK.items() for name in names
               if f"{module}::{name}" not in chosen]
    assert missing == []


def whole_suite(request: pytest.FixtureRequest) -> int:
    """How many tests the whole suite holds: this session's own count when it collected every
    test module with nothing narrowed (the full suite's run: a collection costs seconds of
    CPU), else a fresh collection's."""
    config, items = request.config, request.session.items
    narrowed = config.getoption("markexpr") or config.getoption("keyword") or config.getoption("--backend")
    modules = {item.path for item in items if item.path.name.startswith("test_")}
    if not narrowed and modules == set((ROOT / "tests").glob("test_*.py")):
        return len(items)
    return len(collected())


def test_the_quick_tier_is_a_small_part_of_the_suite(quick_collection: subprocess.CompletedProcess[str],
                                                     request: pytest.FixtureRequest) -> None:
    # pytest's last line: "<quick>/<collected> tests collected (<slow> deselected) in <time>"
    counts = re.search(r"(\d+)/(\d+) tests collected", quick_collection.stdout)
    assert counts is not None, quick_collection.stdout[-500:]
    quick = int(counts[1])
    assert quick == len([line for line in quick_collection.stdout.splitlines() if "::" in line])
    assert quick < whole_suite(request) / 2  # the quick tier's own count leaves modules out


def test_the_quick_tier_does_not_import_a_module_without_a_quick_test(tmp_path: Path) -> None:
    folder = tiered_suite(tmp_path)
    (folder / "test_slow_only.py").write_text("raise RuntimeError('imported')\n\ndef test_slow():\n    pass\n")
    quick = run_tiered(folder, "-m", "not slow", "-v")
    assert quick.returncode == 0 and "test_chosen PASSED" in quick.stdout, quick.stdout + quick.stderr
    everything = run_tiered(folder, "--collect-only")
    assert everything.returncode != 0 and "RuntimeError: imported" in everything.stdout, everything.stdout


TIERED = '''
import pytest

@pytest.fixture
def costly(full_tier_only):
    return 1

@pytest.mark.quick
def test_chosen():
    pass

def test_left_to_the_full_tier():
    pass

@pytest.mark.quick
@pytest.mark.slow
def test_chosen_but_slow():
    pass

@pytest.mark.soak
def test_a_long_campaign():
    pass
'''

ON_A_COSTLY_FIXTURE = '''
@pytest.mark.quick
def test_quick_on_a_costly_fixture(costly):
    pass
'''


def tiered_suite(folder: Path, extra: str = "") -> Path:
    """A suite of its own whose conftest takes in the tier hooks, as tests/conftest.py does."""
    (folder / "conftest.py").write_text(
        "from tests.tiers import (full_tier_only, pytest_addoption, pytest_collection_modifyitems, pytest_configure,\n"
        "                         pytest_ignore_collect)\n")
    (folder / "test_tiered.py").write_text(TIERED + extra)
    return folder


def run_tiered(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest on a tiered suite, without the installed plugins (hypothesis, xdist...: the suite
    uses none, and loading them was half of each run's CPU)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--rootdir", str(folder),
                           "-c", os.devnull, *args, str(folder)], cwd=folder, capture_output=True,
                          text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def tiered(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., subprocess.CompletedProcess[str]]:
    """The tiered suite run with the arguments given, each command line once for the module
    (the runs without arguments and with ``-m "not slow"`` serve two tests)."""
    folder = tiered_suite(tmp_path_factory.mktemp("tiered"))
    done: dict[tuple[str, ...], subprocess.CompletedProcess[str]] = {}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        if args not in done:
            done[args] = run_tiered(folder, *args)
        return done[args]
    return run


def test_only_a_test_marked_quick_and_not_slow_is_in_the_quick_tier(
        tiered: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    done = tiered("-m", "not slow", "-v")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "test_chosen PASSED" in done.stdout
    assert "test_left_to_the_full_tier" not in done.stdout and "test_chosen_but_slow" not in done.stdout
    everything = tiered("-v")
    assert everything.stdout.count("PASSED") == 3, everything.stdout


def test_a_soak_test_runs_only_under_soak_and_soak_m_soak_runs_it_alone(
        tiered: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    everything = tiered("-v")
    assert everything.returncode == 0 and "test_a_long_campaign" not in everything.stdout, everything.stdout
    soaked = tiered("-v", "--soak")
    assert "test_a_long_campaign PASSED" in soaked.stdout and soaked.stdout.count("PASSED") == 4, soaked.stdout
    alone = tiered("-v", "--soak", "-m", "soak")
    assert alone.stdout.count("PASSED") == 1 and "test_a_long_campaign PASSED" in alone.stdout, alone.stdout
    assert "test_a_long_campaign" not in tiered("-m", "not slow", "-v").stdout


def test_a_quick_test_on_a_full_tier_fixture_is_refused_naming_both(tmp_path: Path) -> None:
    done = run_tiered(tiered_suite(tmp_path, ON_A_COSTLY_FIXTURE), "--collect-only")
    assert done.returncode == USAGE_ERROR, done.stdout + done.stderr
    assert "test_quick_on_a_costly_fixture is marked quick but uses a fixture of the full tier" in done.stderr


def test_backend_narrows_the_contract_tests_to_that_backend() -> None:
    ids = collected("--backend", "mrv", "tests/test_backends.py")
    assert ids and all("[mrv-" in i or "[mrv]" in i for i in ids), ids[:5]
    counters = "tests/test_backends.py::test_every_backend_names_its_counters_in_the_vocabulary"
    both = collected("--backend", "mrv", "--backend", "sat", counters)
    assert [i.rsplit("[", 1)[1] for i in both] == ["mrv]", "sat]"]


def test_a_contract_case_past_a_backends_reach_runs_under_soak_only() -> None:
    name = next(n for n in registry.names() if registry.get(n).declaration.reach.largest < 16)
    full = collected("--backend", name, "tests/test_backends.py")
    soaked = collected("--soak", "--backend", name, "tests/test_backends.py")
    past = [i for i in soaked if i.startswith("tests/test_backends.py::test_solves_16x16[")]
    assert past, soaked[:5]  # its 16x16 cases are past its reach
    assert set(full) < set(soaked) and not set(full) & set(past)


def test_backend_leaves_out_the_modules_of_other_backends_and_keeps_the_rest() -> None:
    ids = collected("--backend", "mrv", "tests/test_cpsat.py", "tests/test_mrv.py", "tests/test_geometry.py")
    files = {i.split("::", 1)[0] for i in ids}
    assert files == {"tests/test_mrv.py", "tests/test_geometry.py"}


def test_an_unknown_backend_is_a_usage_error_naming_the_registered_ones() -> None:
    done = pytest_run("--collect-only", "-q", "--backend", "msat", "tests/test_backends.py", plugins=False)
    assert done.returncode == USAGE_ERROR
    assert f"--backend: unknown backend 'msat'; registered: {', '.join(registry.names())}" in done.stderr
