"""Every output file asked for is written, or the exit status says otherwise, also when the
reader of stdout (and stderr) goes away early, as ``| head -1`` does. Through the real CLI."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

PUZZLES = str(ROOT / "puzzles" / "small_4x4.txt")


def run_into_closed_pipe(args: list[str], cwd: Path, *, stderr_too: bool) -> int:
    """Run compare.py with stdout (and stderr) on a pipe whose reader is already gone."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        done = subprocess.run([sys.executable, str(ROOT / "compare.py"), *args], cwd=cwd,
                              stdout=writer, stderr=writer if stderr_too else subprocess.DEVNULL,
                              timeout=300)
    finally:
        os.close(writer)
    return done.returncode


@pytest.mark.slow
@pytest.mark.parametrize("stderr_too", [False, True], ids=["stdout-closed", "stdout-and-stderr-closed"])
@pytest.mark.parametrize("database", [False, True], ids=["in-memory", "db"])
def test_a_closed_pipe_still_writes_json_and_csv(tmp_path: Path, stderr_too: bool, database: bool) -> None:
    extra = ["--db", "runs.sqlite"] if database else []
    status = run_into_closed_pipe(["run", PUZZLES, "--solvers", "mrv", "--timeout", "5",
                                   "--csv", "k.csv", "--json", "k.json", *extra],
                                  tmp_path, stderr_too=stderr_too)
    assert status == 0
    lines = (tmp_path / "k.csv").read_text().splitlines()
    assert lines[0].startswith("file,index") and len(lines) > 1
    assert json.loads((tmp_path / "k.json").read_text())["runs"]


@pytest.mark.slow
def test_a_closed_pipe_with_head_keeps_every_file(tmp_path: Path) -> None:
    command = (f"'{sys.executable}' '{ROOT / 'compare.py'}' run '{PUZZLES}' --solvers mrv "
               "--timeout 5 --csv k.csv --json k.json 2>&1 | head -1")
    done = subprocess.run(["bash", "-c", f"set -o pipefail; {command}"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0
    assert (tmp_path / "k.csv").read_text().startswith("file,index")
    assert json.loads((tmp_path / "k.json").read_text())["runs"]


def test_a_wrong_output_folder_is_refused_before_running(tmp_path: Path) -> None:
    status = run_into_closed_pipe(["run", PUZZLES, "--solvers", "mrv", "--csv", "no/such/k.csv",
                                   "--json", "k.json"], tmp_path, stderr_too=True)
    assert status == 2 and not (tmp_path / "k.json").exists()
