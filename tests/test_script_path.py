"""A console script finds this project's ``models`` even when its bin/ folder holds a models.py
(python-sat installs one there, next to ``sudoku-compare``)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_console_script_beside_a_models_py_still_runs_list(tmp_path: Path) -> None:
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "models.py").write_text("raise ImportError('the models.py of another package')\n")
    script = bin_folder / "sudoku-compare"
    script.write_text("import sys\nfrom solvers.harness.cli import main\nsys.exit(main())\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(script), "list", "--format", "csv"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("backend,") and "\nmrv," in done.stdout

