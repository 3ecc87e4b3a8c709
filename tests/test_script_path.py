"""A console script finds this project's ``models`` even when its bin/ folder holds a models.py
(python-sat installs one there, next to ``sudoku-compare``)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

# The script's folder first on the path, as Python puts it for a console script (run with
# -I, which leaves out the folder and the environment's own editable finder for this copy).
# The project is found from a path entry, or (an editable install) by a finder that
# setuptools puts after PathFinder in sys.meta_path, so it is asked after every path entry.
SCRIPT_FIRST = "import os, sys\nsys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))\n"
FROM_PATH = SCRIPT_FIRST + f"sys.path.insert(1, {str(ROOT)!r})\n"
EDITABLE = SCRIPT_FIRST + f"""from importlib.machinery import PathFinder

class Editable:
    @staticmethod
    def find_spec(name, path=None, target=None):
        return PathFinder.find_spec(name, [{str(ROOT)!r}]) if name in ("solvers", "models") else None

sys.meta_path.insert(sys.meta_path.index(PathFinder) + 1, Editable)
"""


@pytest.mark.parametrize("install", [FROM_PATH, EDITABLE], ids=["on-path", "editable"])
def test_a_console_script_beside_a_models_py_still_runs_list(tmp_path: Path, install: str) -> None:
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "models.py").write_text("raise ImportError('the models.py of another package')\n")
    script = bin_folder / "sudoku-compare"
    script.write_text(install + "from solvers.harness.cli import main\nsys.exit(main())\n")
    done = subprocess.run([sys.executable, "-I", str(script), "list", "--format", "csv"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("backend,") and "\nmrv," in done.stdout
