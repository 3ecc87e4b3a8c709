"""This project's ``models`` is the one imported, whatever shadows it: a console script's bin/
folder holding a models.py (python-sat installs one there, next to ``sudoku-compare`` and
``dask``), a working folder or a script's folder with one, anywhere on sys.path."""
from __future__ import annotations

import subprocess
import sys
import types
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


# ---------------------------------------------------------------- any working folder, any script folder

SHADOW = "raise ImportError('the models.py of another package')\n"
OURS = str(ROOT / "models" / "__init__.py")
USES_BOTH = "from solvers import registry\nfrom models import read_puzzles\nimport models\nprint(models.__file__)\n"


def test_python_c_in_a_folder_with_a_models_py_imports_ours(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text(SHADOW)
    done = subprocess.run([sys.executable, "-c", USES_BOTH], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == OURS


@pytest.mark.parametrize("place", [0, 2], ids=["first", "behind-dask-scratch-folders"])
def test_a_script_beside_a_models_py_imports_ours(tmp_path: Path, place: int) -> None:
    """The script's folder first on sys.path (as Python puts it), or third, behind two other
    folders (as a Dask worker started from bin/ has it)."""
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "models.py").write_text(SHADOW)
    script = folder / "use.py"
    script.write_text("import sys\nhere = sys.path.pop(0)\n"
                      f"sys.path[0:0] = [*{[str(tmp_path / 'a'), str(tmp_path / 'b')][:place]!r}, here]\n"
                      + USES_BOTH)
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == OURS


def test_a_console_scripts_models_py_imported_first_gives_way_to_ours(monkeypatch: pytest.MonkeyPatch) -> None:
    from solvers import script_path
    stray = types.ModuleType("models")
    stray.__file__ = str(Path(sys.executable).parent / "models.py")  # where python-sat puts its script
    monkeypatch.setitem(sys.modules, "models", stray)
    script_path.unshadow_models()
    assert sys.modules["models"].__file__ == OURS
    assert hasattr(sys.modules["models"], "read_puzzles")


def test_a_users_own_models_imported_first_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    from solvers import script_path
    own = types.ModuleType("models")
    own.__file__ = str(tmp_path / "models.py")
    monkeypatch.setitem(sys.modules, "models", own)
    with pytest.raises(script_path.ShadowedModelsError, match="another module called 'models'") as error:
        script_path.unshadow_models()
    assert str(tmp_path / "models.py") in str(error.value) and str(ROOT / "models") in str(error.value)
    assert sys.modules["models"] is own  # the user's module is left alone
