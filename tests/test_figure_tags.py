"""Every number in a figures table of the docs names a registered figure or says it is no
measurement (issue 34, item 6): bench/figure_tags.py reads the tags, and a new figure without
one, or a tag naming what does not exist, is caught here. Nothing is re-run."""
from __future__ import annotations

from pathlib import Path

import pytest

import bench.check_figures as check_figures
import bench.figure_tags as figure_tags

from .conftest import ROOT


@pytest.mark.parametrize("page", figure_tags.PAGES)
def test_every_number_in_a_figures_table_of_the_page_is_registered_or_says_it_is_no_measurement(page: str) -> None:
    assert figure_tags.problems((page,)) == []


def test_every_registered_figure_a_tag_names_is_one_its_page_shows() -> None:
    lines = [line for page in figure_tags.PAGES
             for table in figure_tags.tables(page, (ROOT / page).read_text(encoding="utf-8"))
             for line in (table.above, *(row for _, row in table.rows))]
    tagged = {name.strip() for line in lines for found in figure_tags.TAG.finditer(line)
              if found.group(1).startswith("figure") for name in found.group(2).split(",")}
    assert tagged, "no page names a registered figure"
    assert tagged <= {figure.name for figure in figure_tags.FIGURES}


def problems_of(tmp_path: Path, text: str) -> list[str]:
    (tmp_path / "page.md").write_text(text, encoding="utf-8")
    return figure_tags.problems(("page.md",), root=tmp_path)


TABLE = "| set | ms |\n| --- | --- |\n| top95 | 1.35 |\n"


def test_an_untagged_figures_table_is_named_by_page_and_line(tmp_path: Path) -> None:
    found = problems_of(tmp_path, "Measured:\n\n" + TABLE)
    assert len(found) == 1 and found[0].startswith("page.md:5: a row with numbers and no")


@pytest.mark.parametrize("tag", [
    pytest.param("[no figures: the techniques' weights]", id="no-figures"),
    pytest.param("<!-- generated: backend-options (python -m tests.docs_tables) -->", id="generated"),
])
def test_a_table_tagged_on_the_line_above_passes(tmp_path: Path, tag: str) -> None:
    assert problems_of(tmp_path, f"{tag}\n{TABLE}") == []


@pytest.mark.parametrize(("tag", "problem"), [
    pytest.param("[historical 2026-11-21, compare.py]", "a dated record no longer stands for a figure",
                 id="historical"),
    pytest.param("[figure no-such-figure]", "no figure no-such-figure is registered on page.md", id="unregistered"),
    pytest.param("[figures ab-ratio]", "no figure ab-ratio is registered on page.md", id="another-page"),
    pytest.param("[no figures]", "gives no reason", id="no-reason"),
])
def test_a_malformed_tag_is_a_problem(tmp_path: Path, tag: str, problem: str) -> None:
    found = problems_of(tmp_path, f"{tag}\n{TABLE}")
    assert found and problem in found[0]


def test_a_targets_row_needs_its_own_tag_even_under_a_tagged_table(tmp_path: Path) -> None:
    table = ("[no figures: the rows say]\n| target | standing figure | met |\n| --- | --- | --- |\n"
             "| under 1 ms | 0.83 ms [no figures: an example] | yes |\n| 4x | 8.7x | yes |\n")
    found = problems_of(tmp_path, table)
    assert len(found) == 1 and found[0].startswith("page.md:5:") and "a targets row" in found[0]


def test_a_registered_figure_tag_on_its_own_page_passes(tmp_path: Path) -> None:
    figure = figure_tags.FIGURES[0]
    (tmp_path / Path(figure.page).parent).mkdir(parents=True, exist_ok=True)
    (tmp_path / figure.page).write_text(f"[figure {figure.name}]\n{TABLE}", encoding="utf-8")
    assert figure_tags.problems((figure.page,), root=tmp_path) == []


def test_a_table_in_a_fenced_transcript_and_a_table_without_numbers_are_not_checked(tmp_path: Path) -> None:
    text = f"```\n$ python compare.py run x.txt --format markdown\n{TABLE}```\n\n| a | b |\n| --- | --- |\n| x | y |\n"
    assert problems_of(tmp_path, text) == []


def test_check_figures_fails_on_an_untagged_table_and_names_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "page.md").write_text(TABLE, encoding="utf-8")
    monkeypatch.setattr(figure_tags, "ROOT", tmp_path)
    monkeypatch.setattr(figure_tags, "PAGES", ("page.md",))
    assert check_figures.check([], rerun=False, everything=False, keep=False, tags=True) == 1
    assert "page.md:3: a row with numbers" in capsys.readouterr().out
