"""Figures that reproduce (issue 34, item 6): bench/check_figures.py checks that every
documented figure of bench/figures.py is shown by its page, kept with full provenance and
inside its interval, re-makes figures with their committed commands and says which moved;
and provenance says whether the tree that wrote a figure was clean."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import bench.check_figures as check_figures
import bench.figure_base as figure_base
import bench.figures as figures
from bench.figures import Figure, decoded
from solvers.harness.results.provenance import environment, git_state

from .conftest import ROOT

SCRIPT = ROOT / "bench" / "check_figures.py"


def check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def figure_cases() -> list:
    return [pytest.param(figure, id=figure.name, marks=pytest.mark.slow) for figure in figures.FIGURES]


@pytest.mark.parametrize("figure", figure_cases())
def test_each_documented_figure_is_shown_kept_with_its_provenance_and_inside_its_interval(figure: Figure) -> None:
    assert check_figures.static_problems(figure) == []


def test_the_static_check_of_a_figure_holds_through_the_command_line() -> None:
    done = check("--static", "--only", "givens-forward-17")  # a count read from its kept JSON
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[1].startswith("givens-forward-17: docs/experiments.md shows")


def test_an_unknown_figure_is_refused_with_the_names_there_are() -> None:
    done = check("--only", "no-such-figure")
    assert done.returncode == 2 and "no figure named no-such-figure" in done.stderr
    assert figures.FIGURES[0].name in done.stderr


def test_keep_is_refused_without_a_re_run() -> None:
    done = check("--static", "--keep")
    assert done.returncode == 2 and "--keep" in done.stderr


@pytest.fixture()
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in checkout: a page that shows 7 and a kept run that says 7, with full provenance."""
    (tmp_path / "page.md").write_text("The answer is 7 puzzles.\n")
    (tmp_path / "kept").mkdir()
    (tmp_path / "kept" / "value.json").write_text(json.dumps({"provenance": complete(), "value": 7}))
    monkeypatch.setattr(check_figures, "ROOT", tmp_path)
    monkeypatch.setattr(figures, "ROOT", tmp_path)
    monkeypatch.setattr(figure_base, "ROOT", tmp_path)
    return tmp_path


def complete() -> dict:
    """Provenance as a clean checkout writes it."""
    found = environment()
    found["toolkit"]["git"] = {"commit": "0" * 40, "dirty": False, "untracked": [], "clean": True}
    found["machine"].update(cpu="a CPU", cpu_flags="fpu sse2")
    found["packages"]["python-sat"] = "1.9"
    found["builds"]["python-sat"] = {"record_sha256": "0123456789abcdef"}
    return found


def planted(value: int) -> Figure:
    """A figure shown as 7 (exactly) whose command writes ``value`` with full provenance."""
    code = ("import json, sys; json.dump({'provenance': json.loads(sys.argv[1]), 'value': int(sys.argv[2])}, "
            "open(sys.argv[3], 'w'))")
    command = ("python", "-c", code, json.dumps(complete()), str(value), "{out}/value.json")
    return Figure("planted", "page.md", "is 7 puzzles", (command,), ("kept/value.json",),
                  lambda outputs: float(decoded(outputs["value.json"])["value"]), 7, 7)


def test_a_figure_that_reruns_inside_its_interval_holds(checkout: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check_figures.check([planted(7)], rerun=True, everything=True, keep=False) == 0
    assert "re-run gives 7" in capsys.readouterr().out


def test_a_figure_that_reruns_outside_its_interval_is_reported_moved(
        checkout: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check_figures.check([planted(8)], rerun=True, everything=True, keep=False) == 1
    assert "MOVED: 8 is outside 7-7" in capsys.readouterr().out
    assert decoded(checkout / "kept" / "value.json")["value"] == 7  # kept only with --keep


def test_keep_replaces_the_kept_file_with_the_re_run(checkout: Path) -> None:
    check_figures.check([planted(8)], rerun=True, everything=True, keep=True)
    assert decoded(checkout / "kept" / "value.json")["value"] == 8
    assert "the kept outputs give 8, outside 7-7" in check_figures.static_problems(planted(8))


def test_a_page_that_no_longer_shows_the_figure_is_a_problem(checkout: Path) -> None:
    (checkout / "page.md").write_text("The answer is 9 puzzles.\n")
    assert check_figures.static_problems(planted(7)) == ["page.md does not show 'is 7 puzzles'"]


def test_a_figure_the_page_wraps_across_lines_is_still_shown(checkout: Path) -> None:
    (checkout / "page.md").write_text("The answer is\n7   puzzles.\n")
    assert check_figures.static_problems(planted(7)) == []


@pytest.mark.parametrize(("change", "problem"), [
    pytest.param(lambda p: p["toolkit"]["git"].update(dirty=True, clean=False), "not written from a clean tree",
                 id="dirty"),
    pytest.param(lambda p: p["toolkit"]["git"].pop("clean"), "no clean-tree flag", id="no-clean-flag"),
    pytest.param(lambda p: p["machine"].pop("cpu_flags"), "no CPU model name and flags", id="no-cpu-flags"),
    pytest.param(lambda p: p["builds"].pop("python-sat"), "no python-sat version and build", id="no-pysat-build"),
    pytest.param(lambda p: p["toolkit"].update(git=None), "no commit", id="no-commit"),
])
def test_provenance_that_lacks_something_is_a_problem(change, problem: str) -> None:
    found = complete()
    change(found)
    assert problem in check_figures.provenance_problems({"provenance": found})
    assert check_figures.provenance_problems(complete()) == []  # at the top level, as compare.py run saves it


def test_an_untracked_source_file_makes_the_tree_unclean(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)
    git("init", "-q")
    (tmp_path / "solvers").mkdir()
    (tmp_path / "solvers" / "kept.py").write_text("")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    assert git_state(tmp_path)["clean"] is True
    (tmp_path / "notes.txt").write_text("")  # not code: still clean
    assert git_state(tmp_path)["clean"] is True
    (tmp_path / "solvers" / "new.py").write_text("")
    state = git_state(tmp_path)
    assert (state["clean"], state["dirty"], state["untracked"]) == (False, False, ["solvers/new.py"])


def test_a_changed_bench_output_leaves_the_tree_clean_and_changed_code_does_not(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)
    git("init", "-q")
    for name in ("bench/kept.json", "bench/kept.png", "docs/page.md", "solvers/code.py", "puzzles/set.txt"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("before")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one")
    for name in ("bench/kept.json", "bench/kept.png", "docs/page.md"):  # what one benchmark writes
        (tmp_path / name).write_text("after")
    state = git_state(tmp_path)
    assert (state["clean"], state["outputs"]) == (True, ["bench/kept.json", "bench/kept.png", "docs/page.md"])
    for name in ("solvers/code.py", "puzzles/set.txt"):
        (tmp_path / name).write_text("after")
        assert git_state(tmp_path)["clean"] is False, name
        (tmp_path / name).write_text("before")
