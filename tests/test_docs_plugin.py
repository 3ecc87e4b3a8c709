"""The plugin example of docs/architecture.md is real: it runs through compare.py and is judged correct."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .conftest import ROOT, compare


@pytest.mark.slow
def test_docs_plugin_example_runs_and_is_correct(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = page.split("## Adding your own backend (--plugin)", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    (tmp_path / "my_solver.py").write_text(code, encoding="utf-8")
    out = tmp_path / "run.json"
    done = compare("run", "puzzles/small_4x4.txt", "puzzles/small_6x6.txt",
                   "--plugin", f"{tmp_path / 'my_solver.py'}:solve", "--solvers", "my_solver", "--unique",
                   "--json", str(out), timeout=120)
    assert done.returncode == 0, done.stderr
    runs = json.loads(out.read_text())["runs"]
    assert runs and all(r["category"] == "correct" and r["complete"] for r in runs)
