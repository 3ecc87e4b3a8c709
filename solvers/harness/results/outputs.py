"""Output files: checked before a run, written through to what the path names.

An output that is one of the inputs, or that names the same file as another output, or
whose folder does not exist, is refused before anything runs. A path is followed through
its symbolic links (``os.path.realpath``) to what it names, and written there:

- a regular file (or a new one) is written to a temporary file in the target's own folder
  and renamed over it, so a reader never sees half a file, a failed write leaves the old
  one in place, a link stays a link and a link onto another filesystem works;
- a character device or a FIFO (``/dev/null``, a terminal, a named pipe) is opened and
  written directly: it is never replaced by a regular file, and "whole or nothing" cannot
  hold for it;
- a path naming an open descriptor (``/dev/stdout``, ``/dev/fd/N``, ``/proc/self/fd/N``)
  is opened as given, since the kernel's link reaches the descriptor's pipe or terminal
  where no name does; when it is a regular file (``> out.txt``) the text is added at its
  end, after what was printed there, never over it;
- anything else (a directory, a socket, a block device) is refused before the run.

A write that fails (a full disk, ``/dev/full``) is an ``OutputWriteError`` naming the
path: exit 2, never an internal error.
"""
from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path


class OutputError(ValueError):
    """An output path that cannot or must not be written; the message says which and why."""


class OutputWriteError(OSError):
    """Writing an output failed (no space, no permission...); ``str`` names the path and why."""

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror}"


def check_output_paths(outputs: Sequence[str | None], inputs: Sequence[str]) -> None:
    """Refuse outputs that are inputs, repeat each other, lie in no existing folder, or name
    something that is neither a regular file, a character device nor a FIFO."""
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
        kind = _kind(_target(output)[0])
        if kind not in ("missing", "regular", "device", "fifo"):
            raise OutputError(f"{output}: is a {kind}, not a file, a character device or a FIFO")
        seen.append(output)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one does not exist (yet): compare the names
        return Path(a).resolve() == Path(b).resolve()


def _kind(path: str) -> str:
    """What ``path`` names: missing, regular, device (a character device), fifo, or another kind."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    for test, name in ((stat.S_ISREG, "regular"), (stat.S_ISCHR, "device"), (stat.S_ISFIFO, "fifo"),
                       (stat.S_ISDIR, "directory"), (stat.S_ISBLK, "block device"),
                       (stat.S_ISSOCK, "socket")):
        if test(mode):
            return name
    return "special file"


def _names_descriptor(path: str) -> bool:
    """Whether ``path``, or a link on the way to what it names, is an open descriptor's
    entry (/proc/PID/fd/N, /dev/fd/N; /dev/stdout is a link to one)."""
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's own bound on a chain of links
        if _DESCRIPTOR.match(current):
            return True
        if not os.path.islink(current):
            return False
        current = os.path.normpath(os.path.join(os.path.dirname(current), os.readlink(current)))
    return False


_DESCRIPTOR = re.compile(r"^/(proc/[^/]+|dev)/fd/\d+$")


def _target(path: str) -> tuple[str, bool]:
    """What to open for ``path``, and whether it names an open descriptor: then the path as
    given (the kernel follows that link to a pipe or a socket, which has no name), else its
    real path."""
    if _names_descriptor(path):
        return path, True
    return os.path.realpath(path), False


IN_PLACE = ("device", "fifo")
"""The kinds written directly, never replaced."""


def writes_in_place(path: str) -> bool:
    """True when ``path`` names a character device or a FIFO: written directly, never replaced."""
    return _kind(_target(path)[0]) in IN_PLACE


@contextmanager
def atomic_path(path: str) -> Iterator[str]:
    """The path to write for ``path``: a temporary file in the folder of what ``path`` names,
    renamed over it when the block ends without an error (removed otherwise); or, for a
    character device or a FIFO, that device itself. An OSError is an OutputWriteError."""
    target, descriptor = _target(path)
    try:
        if _kind(target) in IN_PLACE:
            yield target
            return
        with (_appending if descriptor else _replacing)(target) as temporary:
            yield temporary
    except OutputWriteError:
        raise
    except OSError as error:
        raise OutputWriteError(error.errno or errno.EIO, error.strerror or str(error), path) from error


@contextmanager
def _replacing(target: str) -> Iterator[str]:
    """A temporary file beside ``target`` (a real path), renamed over it at the end; it takes
    the permissions of the file it replaces (a new one: 0666 less the umask)."""
    folder, name = os.path.split(target)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=Path(name).suffix or ".tmp")
    os.close(handle)
    try:
        yield temporary
        try:
            mode = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise


@contextmanager
def _appending(descriptor: str) -> Iterator[str]:
    """A temporary file whose whole text is added at the end of the regular file an open
    descriptor's path names (``--json /dev/stdout > out.txt``), when the block ends well."""
    handle, temporary = tempfile.mkstemp(prefix="compare-output.")
    os.close(handle)
    try:
        yield temporary
        with open(temporary, "rb") as source, open(descriptor, "ab") as sink:
            shutil.copyfileobj(source, sink)
    finally:
        os.unlink(temporary)


def write_atomic(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to what ``path`` names, through ``atomic_path``."""
    with atomic_path(path) as temporary, open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        if not writes_in_place(temporary):
            os.fsync(handle.fileno())
