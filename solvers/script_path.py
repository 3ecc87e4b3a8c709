"""Keep ``import models`` on this project's package when a console script runs.

A console script such as ``sudoku-compare`` runs with its own folder (the environment's
``bin/``) first on ``sys.path``. python-sat installs a script called ``models.py`` there,
so a plain ``import models`` would load that file instead of this project's ``models``
package and fail with a confusing ImportError. :func:`unshadow_models` moves such a
folder to the end of the path before anything imports ``models``.
"""
from __future__ import annotations

import sys
from pathlib import Path


def shadows_models(folder: str) -> bool:
    """True when the folder holds a ``models.py`` file but no ``models`` package."""
    if not folder:
        return False
    path = Path(folder)
    return (path / "models.py").is_file() and not (path / "models" / "__init__.py").is_file()


def unshadow_models() -> None:
    """Move the script's folder to the end of sys.path if its ``models.py`` would hide ours."""
    if "models" in sys.modules or not sys.path or not shadows_models(sys.path[0]):
        return
    sys.path.append(sys.path.pop(0))
