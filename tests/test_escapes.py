"""Runs that try to get out (issue 28): above the memory limit by raising it, or past their
own end through processes they leave behind (one that burns CPU, one that keeps re-forking
into new sessions). The limit holds hard, and what a run leaves is killed when it ends.

The plugins (tests/plugins/escapes.py) check at the start of each run that nothing an
earlier run left is alive, so a leftover shows as an error run; after compare.py ends, the
test looks again (the re-forking child by its heartbeat file: it changes pid faster than
a look through /proc can find it).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from .conftest import ROOT, compare

ESCAPES = ROOT / "tests" / "plugins" / "escapes.py"
PUZZLES = ".3.....4.1.....1\n.....1.2..3....1\n.1.....4...3.4..\n"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the plugins read /proc")


def escapes_module():
    sys.path.append(str(ESCAPES.parent))
    import escapes  # the plugin module, from its folder put on sys.path just above

    return escapes


@pytest.fixture
def puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "three.txt"
    path.write_text(PUZZLES, encoding="utf-8")
    return path


@pytest.mark.slow
def test_a_run_that_raises_its_memory_limit_is_still_memory_out(puzzles: Path, tmp_path: Path) -> None:
    saved = tmp_path / "runs.json"
    done = compare("run", str(puzzles), "--solvers", "mrv,raises_memory_limit", "--plugin",
                   f"{ESCAPES}:raises_memory_limit", "--memory-limit", "300", "--timeout", "20",
                   "--json", str(saved))
    assert done.returncode == 0, done.stderr[-2000:]
    runs = json.loads(saved.read_text())["runs"]
    assert {(r["solver"], r["category"]) for r in runs} == {("mrv", "correct"),
                                                            ("raises_memory_limit", "memory-out")}


@pytest.mark.slow
def test_what_a_run_leaves_behind_is_killed_when_the_run_ends(puzzles: Path, tmp_path: Path) -> None:
    escapes = escapes_module()
    beat = tmp_path / "heartbeat"
    saved = tmp_path / "runs.json"
    done = compare("run", str(puzzles), "--solvers", f"mrv,burns_after_answer,reforks:beat={beat}",
                   "--plugin", f"{ESCAPES}:burns_after_answer", "--plugin", f"{ESCAPES}:reforks",
                   "--timeout", "10", "--jobs", "1", "--json", str(saved))
    assert done.returncode == 0, done.stderr[-2000:]
    runs = json.loads(saved.read_text())["runs"]
    assert len(runs) == 9
    assert [(r["solver"], r["message"]) for r in runs if r["category"] != "correct"] == []
    assert beat.exists()  # the re-forking children ran
    assert not escapes.beating(str(beat), 0.5)
    assert escapes.alive(escapes.BURNER) == []
