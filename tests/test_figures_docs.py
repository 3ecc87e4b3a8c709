"""The manual's tables made from kept JSON files (bench/figures_docs.py, issue 34 item 6): each
page shows exactly its table's rendering from the kept files, so the table cannot drift from
the run that made it; and its command line prints them and refuses a table it does not know."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import bench.figures_docs as figures_docs
from bench.figures import FIGURES
from bench.figures_docs import TABLES, RenderedTable

from .conftest import ROOT


@pytest.mark.parametrize("table", [pytest.param(table, id=table.name) for table in TABLES])
def test_each_page_shows_its_table_exactly_as_rendered_from_the_kept_json(table: RenderedTable) -> None:
    assert table.problems() == []


def test_every_figure_of_the_manual_is_in_the_registered_list() -> None:
    assert set(figures_docs.FIGURES) <= set(FIGURES)


def test_a_table_that_differs_from_its_rendering_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "page.md").write_text("| a | b |\n|---|---|\n| 1 | 3 |\n")
    (tmp_path / "kept.json").write_text("{}")
    monkeypatch.setattr(figures_docs, "ROOT", tmp_path)
    table = RenderedTable("t", "page.md", ("kept.json",), lambda outputs: ["| a | b |", "|---|---|", "| 1 | 2 |"])
    assert "does not show the table t" in table.problems()[0]


def test_the_command_line_refuses_an_unknown_table_with_the_names_there_are() -> None:
    done = subprocess.run([sys.executable, "-m", "bench.figures_docs", "--write", "no-such", "| x |"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no table named no-such" in done.stderr and TABLES[0].name in done.stderr


def test_the_command_line_prints_every_table_as_rendered_from_the_kept_json() -> None:
    done = subprocess.run([sys.executable, "-m", "bench.figures_docs"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    for table in TABLES:
        assert f"{table.name} ({table.page}):\n" + "\n".join(table.render(table.kept())) in done.stdout


def test_bench_rate_sets_refuses_a_limit_that_is_not_positive() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_rate_sets.py"), "--timeout", "0"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--timeout must be positive" in done.stderr
