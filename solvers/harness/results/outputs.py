"""Output files: checked before a run, written whole or not at all.

An output that is one of the inputs, or that names the same file as another output, or
whose folder does not exist, is refused before anything runs. Every output is written to
a temporary file beside it and renamed over it, so a reader never sees half a file and a
failed write leaves the old one in place.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path


class OutputError(ValueError):
    """An output path that cannot or must not be written; the message says which and why."""


def check_output_paths(outputs: Sequence[str | None], inputs: Sequence[str]) -> None:
    """Refuse outputs that are inputs, repeat each other, or lie in no existing folder."""
    seen: list[str] = []
    for output in outputs:
        if not output or output == "-":
            continue
        for other in [*inputs, *seen]:
            if other != "-" and _same_file(output, other):
                what = "one of the inputs" if other in inputs else "another output"
                raise OutputError(f"{output}: refusing to write over {what} ({other})")
        folder = Path(output).resolve().parent
        if not folder.is_dir():
            raise OutputError(f"{output}: folder {folder} does not exist")
        if Path(output).is_dir():
            raise OutputError(f"{output}: is a directory")
        seen.append(output)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist (yet): compare the names
        return Path(a).resolve() == Path(b).resolve()


@contextmanager
def atomic_path(path: str) -> Iterator[str]:
    """A temporary path beside ``path`` to write; renamed over ``path`` when the block ends
    without an error, removed otherwise."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.resolve().parent, prefix=f".{target.name}.",
                                         suffix=target.suffix or ".tmp")
    os.close(handle)
    try:
        yield temporary
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file and a rename."""
    with atomic_path(path) as temporary:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
