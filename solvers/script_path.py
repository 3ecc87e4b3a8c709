"""Keep ``import models`` on this project's package, whatever else is on ``sys.path``.

A console script runs with its own folder (the environment's ``bin/``) on ``sys.path``:
``sudoku-compare`` and ``dask worker`` put it first (a Dask worker behind its scratch
folders). python-sat installs a script called ``models.py`` there, so a plain ``import
models`` would load that file instead of this project's ``models`` package and fail with
a confusing ImportError; so would a ``models`` module or package in the working folder or
beside a user's script. Reordering ``sys.path`` does not help an editable install, whose
packages are found only after every path entry, so :func:`unshadow_models` asks where
``import models`` would go and, when that is not the ``models`` package beside this
``solvers`` package, loads ours by its location, before anything else imports ``models``.
"""
from __future__ import annotations

import importlib.util
import sys
import sysconfig
from pathlib import Path
from types import ModuleType

OUR_MODELS = Path(__file__).resolve().parent.parent / "models"
"""This project's models package: installed (or checked out) beside ``solvers``."""


class ShadowedModelsError(ImportError):
    """Another module called ``models`` was imported before this toolkit's, and is the user's own."""


def is_ours(origin: str | None) -> bool:
    """True when ``origin`` (a module's file) is this project's ``models/__init__.py``."""
    if not origin:
        return False
    try:
        return Path(origin).resolve() == (OUR_MODELS / "__init__.py").resolve()
    except OSError:
        return False


def _scripts_folders() -> set[Path]:
    """The folders console scripts are installed in (bin/ or Scripts/ of this environment)."""
    folders = {Path(sys.executable).parent}
    scripts = sysconfig.get_path("scripts")
    if scripts:
        folders.add(Path(scripts))
    return {folder.resolve() for folder in folders if folder.is_dir()}


def _a_script(module: ModuleType) -> bool:
    """True for a one-file module that lives among the environment's console scripts (as
    python-sat's ``models.py`` does): a script loaded by mistake, which nobody imports."""
    origin = getattr(module, "__file__", None)
    if not origin or hasattr(module, "__path__"):
        return False
    return Path(origin).resolve().parent in _scripts_folders()


def _load_ours() -> None:
    """Import this project's ``models`` package from its folder, as ``models``."""
    init = OUR_MODELS / "__init__.py"
    spec = importlib.util.spec_from_file_location("models", init,
                                                  submodule_search_locations=[str(OUR_MODELS)])
    if spec is None or spec.loader is None:  # pragma: no cover - a file location always has a loader
        raise ImportError(f"cannot load this toolkit's models package from {OUR_MODELS}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["models"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules["models"]
        raise


def unshadow_models() -> None:
    """Make ``models`` this project's package (loaded by location if ``import models`` would
    find another first); ShadowedModelsError if the user's own ``models`` is already loaded."""
    if not (OUR_MODELS / "__init__.py").is_file():
        return  # not beside its models package (a partial copy): leave importing to Python
    loaded = sys.modules.get("models")
    if loaded is not None:
        if is_ours(getattr(loaded, "__file__", None)):
            return
        if not _a_script(loaded):
            raise ShadowedModelsError(
                f"another module called 'models' ({getattr(loaded, '__file__', None) or loaded!r}) was "
                f"imported before this toolkit's models package ({OUR_MODELS}); import solvers "
                "first, or rename that module")
        del sys.modules["models"]  # a console script imported by mistake (python-sat's models.py)
    else:
        try:
            spec = importlib.util.find_spec("models")
        except (ImportError, ValueError):
            spec = None
        if spec is not None and is_ours(spec.origin):
            return
    _load_ours()

