"""Output files: checked before the first run (exit 2), then written atomically.

A long run must not end in a lost result, so every ``--json``, ``--csv`` and ``--plot``
path is checked first: its folder exists and is writable, it is not a folder itself,
it is not one of the inputs, no two outputs share a path, and a plot's suffix is a
format the plot can be saved in. Writing goes to a temporary file in the same folder,
then ``os.replace``, so a crash or Ctrl-C never leaves half a file.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

PLOT_FORMATS = ("png", "pdf", "svg", "svgz", "eps", "ps", "jpg", "jpeg", "tif", "tiff", "webp")


class OutputError(ValueError):
    """An output path that cannot or must not be written; the message says why."""


def check_outputs(outputs: Mapping[str, str | None], inputs: Sequence[str] = ()) -> None:
    """OutputError for the first bad output path; outputs maps an option (``--json``) to a path."""
    seen: dict[Path, str] = {}
    given_inputs = {_key(path): path for path in inputs if path != "-"}
    for option, path in outputs.items():
        if not path:
            continue
        key = _key(path)
        if key in given_inputs:
            raise OutputError(f"{option} {path}: is also an input; refusing to overwrite it")
        if key in seen:
            raise OutputError(f"{option} {path}: the same file as {seen[key]}")
        seen[key] = option
        check_writable(option, path)
        if option == "--plot":
            check_plot_format(path)


def check_writable(option: str, path: str) -> None:
    """OutputError unless path can be created or replaced."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise OutputError(f"{option} {path}: is a folder")
    if not folder.is_dir():
        raise OutputError(f"{option} {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise OutputError(f"{option} {path}: not writable")


def check_plot_format(path: str) -> None:
    """OutputError unless the suffix names a format the plot can be saved in.

    >>> check_plot_format("a.svg")
    >>> check_plot_format("a.gif")
    Traceback (most recent call last):
    ...
    solvers.harness.outputs.OutputError: --plot a.gif: unknown plot format 'gif'; use one of png, pdf, svg, svgz, eps, ps, jpg, jpeg, tif, tiff, webp
    """
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in PLOT_FORMATS:
        shown = f"unknown plot format {suffix!r}" if suffix else "no suffix to tell the format"
        raise OutputError(f"--plot {path}: {shown}; use one of {', '.join(PLOT_FORMATS)}")


def write_atomic(path: str, text: str) -> None:
    """Write text to path through a temporary file and os.replace (never half a file)."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                         dir=target.parent if str(target.parent) else ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _key(path: str) -> Path:
    return Path(path).expanduser().resolve()
