"""Keep ``import models`` on this project's package when a console script runs.

A console script such as ``sudoku-compare`` runs with its own folder (the environment's
``bin/``) first on ``sys.path``. python-sat installs a script called ``models.py`` there,
so a plain ``import models`` would load that file instead of this project's ``models``
package and fail with a confusing ImportError. Moving the folder along ``sys.path`` does
not help an editable install, whose packages are found only after every path entry, so
:func:`unshadow_models` loads the ``models`` package that sits beside this ``solvers``
package directly, before anything else imports ``models``.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

OUR_MODELS = Path(__file__).resolve().parent.parent / "models"
"""This project's models package: installed (or checked out) beside ``solvers``."""


def shadows_models(folder: str) -> bool:
    """True when the folder holds a ``models.py`` file but no ``models`` package."""
    if not folder:
        return False
    path = Path(folder)
    return (path / "models.py").is_file() and not (path / "models" / "__init__.py").is_file()


def unshadow_models() -> None:
    """Import our ``models`` package by its location if the first path entry would hide it."""
    if "models" in sys.modules or not sys.path or not shadows_models(sys.path[0]):
        return
    init = OUR_MODELS / "__init__.py"
    if not init.is_file():
        return
    spec = importlib.util.spec_from_file_location("models", init,
                                                  submodule_search_locations=[str(OUR_MODELS)])
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["models"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules["models"]
        raise
