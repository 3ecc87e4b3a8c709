"""One counter vocabulary: docs/backends.md, `compare.py list`, the saved JSON and the backends agree."""
from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from solvers import registry
from solvers.result import COUNTERS, Stats

from .conftest import ROOT, compare, compare_here

BACKENDS_PAGE = (ROOT / "docs" / "backends.md").read_text()
TIMES = {"wall_time", "encode_time", "solve_time"}


def section(title: str) -> str:
    """The text of docs/backends.md from a heading with this title to the next heading of any level."""
    return re.split(r"\n#{2,3} ", BACKENDS_PAGE.split(f"\n{title}\n", 1)[1], maxsplit=1)[0]


def table_rows(text: str) -> list[list[str]]:
    """The cells of a Markdown table's body rows."""
    rows = [line.strip().strip("|").split("|") for line in text.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row] for row in rows[2:]]


@cache
def listed() -> dict[str, str]:
    """`compare.py list --format json`: backend name -> its 'counters' field."""
    done = compare_here("list", "--format", "json")
    assert done.returncode == 0, done.stderr
    return {row["backend"]: row["counters"] for row in json.loads(done.stdout)}


def test_the_docs_counters_table_lists_exactly_the_vocabulary() -> None:
    names = [row[0].strip("`") for row in table_rows(section("## Counters"))]
    assert names == list(COUNTERS)


def test_stats_has_one_field_per_counter_after_the_times() -> None:
    fields = list(Stats.__dataclass_fields__)
    assert fields[:3] == ["wall_time", "encode_time", "solve_time"]
    assert fields[3:] == list(COUNTERS)


def test_the_docs_backend_table_names_the_backends_counters(backend_name: str) -> None:
    rows = {row[0].strip("`"): row[-1] for row in table_rows(section("## Counters per backend"))}
    assert backend_name in rows, f"docs/backends.md's counters table has no row for {backend_name}"
    assert re.findall(r"`(\w+)`", rows[backend_name]) == list(registry.get(backend_name).counters)


def test_compare_list_names_the_backends_counters(backend_name: str) -> None:
    backend = registry.get(backend_name)
    if not backend.available:
        pytest.skip(f"{backend_name} is not installed here")
    field = listed()[backend_name]
    names = [] if field == "-" else [part.split(" = ")[0] for part in field.split("; ")]
    assert names == list(backend.counters)


@pytest.mark.slow
def test_saved_json_stats_use_only_the_vocabulary(tmp_path: Path) -> None:
    puzzles = tmp_path / "one.txt"
    puzzles.write_text("12..34....43..21\n")
    out = tmp_path / "run.json"
    done = compare("run", str(puzzles), "--timeout", "20", "--jobs", "1", "--json", str(out))
    assert done.returncode == 0, done.stderr
    runs = json.loads(out.read_text())["runs"]
    assert {run["solver"] for run in runs} == set(registry.available_names())
    for run in runs:
        counters = set(run["stats"]) - TIMES
        assert counters <= set(registry.get(run["solver"]).counters), run["solver"]


def test_stats_has_exactly_one_field_per_counter_after_the_times() -> None:
    from dataclasses import fields

    from solvers.result import COUNTERS, Stats

    names = [f.name for f in fields(Stats)]
    assert names == ["wall_time", "encode_time", "solve_time", *COUNTERS]
