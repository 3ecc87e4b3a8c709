"""bench/README.md's targets and the sections they point to (bench/figures_targets.py, issue 34
item 6): each table made from a kept bench JSON is shown exactly as rendered from it, each
kept table can be rendered again as its script printed it, and the targets' figures are
registered. Nothing is re-run."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import bench.figures_targets as figures_targets
from bench.figure_base import decoded
from bench.figures import FIGURES
from bench.figures_docs import RenderedTable

from .conftest import ROOT


@pytest.mark.parametrize("table", [pytest.param(table, id=table.name) for table in figures_targets.TABLES])
def test_each_targets_table_is_shown_exactly_as_rendered_from_its_kept_json(table: RenderedTable) -> None:
    assert table.problems() == []


def test_every_targets_figure_is_in_the_registered_list() -> None:
    assert set(figures_targets.FIGURES) <= set(FIGURES)


@pytest.mark.parametrize("cell", ["4.67x", "34,048", "95/95", " 923.0 "])
def test_a_table_cell_reads_as_its_number(cell: str) -> None:
    assert figures_targets.number(cell) == float(cell.strip().split("/")[0].replace(",", "").rstrip("x"))


def test_a_cell_reader_refuses_a_row_that_matches_twice() -> None:
    read = figures_targets.table_cell(figures_targets.DLX, "side by side", "mean nodes", method="dlx")
    with pytest.raises(ValueError, match="2 rows of side by side match"):
        read({"dlx.json": ROOT / figures_targets.DLX})


def test_a_kept_table_renders_with_the_style_it_was_printed_in() -> None:
    from bench import tables
    document = decoded(ROOT / figures_targets.DLX)
    assert tables.render(document, "side by side", "simple").splitlines()[1].startswith("-----")


def test_a_shown_table_is_saved_with_provenance_and_renders_as_it_was_printed(tmp_path: Path) -> None:
    from bench import tables
    printed = tables.shown("demo", [["top95", 1.5, "4.67x"]], ["set", "ms", "ratio"], tablefmt="github",
                           floatfmt=".2f")
    tables.save(tmp_path / "kept.json", None, extra=1)
    document = decoded(tmp_path / "kept.json")
    assert tables.render(document, "demo") == printed and document["extra"] == 1
    assert document["provenance"]["toolkit"]["git"]["commit"]


@pytest.mark.slow
def test_bench_generate_writes_its_figures_and_refuses_a_count_below_one(tmp_path: Path) -> None:
    script = [sys.executable, str(ROOT / "bench" / "bench_generate.py"), "--size", "4"]
    done = subprocess.run([*script, "--count", "1", "--json", str(tmp_path / "g.json")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    written = decoded(tmp_path / "g.json")
    assert len(written["givens"]) == 1 and written["cpu_s"] > 0 and "provenance" in written
    refused = subprocess.run([*script, "--count", "0"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "--count must be at least 1" in refused.stderr


@pytest.mark.slow
@pytest.mark.parametrize("script", ["bench_dlx.py", "bench_sat.py", "bench_generate.py"])
def test_a_bench_script_refuses_a_json_path_without_a_folder_before_running(script: str) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "bench" / script), "--json", "/nonexistent/kept.json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no folder /nonexistent to write it in" in done.stderr


@pytest.mark.slow
def test_bench_dlx_keeps_the_table_it_prints_with_its_provenance(tmp_path: Path) -> None:
    from bench import tables
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_dlx.py"), "--sets", "hardest", "--repeat", "1",
                           "--format", "github", "--json", str(tmp_path / "dlx.json")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    document = decoded(tmp_path / "dlx.json")
    assert tables.render(document, "side by side") in done.stdout
    assert document["provenance"]["packages"] and document["measured"]["hardest"]["dlx"]["nodes"]
