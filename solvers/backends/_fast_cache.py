"""Where fast's compiled kernels are cached, and a check that nobody changed them.

Numba caches compiled kernels (``cache=True``) by default in ``__pycache__`` beside the
source: a folder anyone who may write the source tree may write, and numba loads whatever
it finds there (native code, and an index it unpickles), so a poisoned file would silently
change ``fast`` in every later run. Two defences, each cheap:

- ``use_private_cache`` (called before any kernel is declared) puts the cache in a folder of
  this user's outside the source tree, made private (mode 0700):
  ``$XDG_CACHE_HOME/sudoku-methods/numba``, else ``~/.cache/sudoku-methods/numba``; a
  ``NUMBA_CACHE_DIR`` the user set is kept as it is.
- ``verify`` (before numba loads or compiles a kernel) checks every cache file of this
  source folder's kernels against the ``sealed.json`` beside them, where ``seal`` (after
  they are compiled or loaded) wrote each file's SHA-256: a file that is not listed, or whose bytes changed,
  is removed before numba can load it (numba then compiles that kernel again) and stderr
  says which. ``compiling`` wraps a compile (inside fast's compile lock, one per kernel
  group): verify, compile, seal. Two groups may compile at once into one folder, so each
  compile leaves a marker while it runs, and ``verify`` leaves alone what changed since
  another live compile began (that compile seals it).

Not covered: the user's own account writing both a cache file and ``sealed.json`` (any
program run as the user, a plugin included, can change the user's files).
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

MARKER = ".compiling-"
"""A compile under way: a file ``.compiling-<pid>`` in the kernels' folder while it runs."""
SEAL = "sealed.json"
"""The file listing each cache file of fast's kernels with its SHA-256."""
_SUFFIXES = (".nbi", ".nbc")


def cache_root() -> Path:
    """The folder numba caches fast's kernels under: NUMBA_CACHE_DIR if the user set it,
    else this user's private cache folder outside the source tree."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "sudoku-methods" / "numba"


def use_private_cache() -> Path:
    """Point numba's cache at ``cache_root()`` (made, private, when it is ours) before any
    kernel is declared; the folder chosen. A folder that cannot be made leaves numba's own
    choice (beside the source, or its user-wide folder) and says so."""
    root = cache_root()
    if "NUMBA_CACHE_DIR" not in os.environ:
        try:
            root.mkdir(parents=True, exist_ok=True, mode=0o700)
            root.chmod(0o700)
        except OSError as error:
            print(f"fast: cannot make its cache folder {root} ({error.strerror}); numba caches "
                  "beside the source", file=sys.stderr)
            return root
        os.environ["NUMBA_CACHE_DIR"] = str(root)  # worker processes started from here use it too
    from numba.core import config  # noqa: PLC0415 - numba only once fast is used

    config.CACHE_DIR = str(root)  # type: ignore[attr-defined]  # set by numba at import; read when a kernel is declared
    return root


def kernel_folder(root: Path) -> Path:
    """Where numba keeps the kernels of fast's source folder under ``root``: the subfolder it
    names ``<folder name>_<SHA-1 of the folder's path>`` (each checkout has its own, and its
    own seal)."""
    here = os.path.dirname(os.path.abspath(__file__))  # as numba names it: not resolved
    return root / f"{os.path.basename(here)}_{hashlib.sha1(here.encode()).hexdigest()}"


def kernel_files(folder: Path) -> list[Path]:
    """The cache files of fast's kernels in their folder."""
    return sorted(path for path in folder.glob("_fast*") if path.suffix in _SUFFIXES and path.is_file())


def verify(root: Path | None = None) -> list[str]:
    """Remove each cache file of fast's kernels that the seal does not vouch for (not
    listed, or its bytes changed since), before numba can load it; the files removed, each
    said on stderr. A missing or unreadable seal vouches for nothing. A file changed since
    another process's compile began (still running: its marker, its process alive) is left
    for that compile to seal."""
    folder = kernel_folder(root or cache_root())
    sealed = _read_seal(folder)
    since = _others_compiling_since(folder)
    removed = []
    for path in kernel_files(folder):
        if sealed.get(path.name) != _digest(path) and not _changed_since(path, since):
            why = "is not one fast wrote" if path.name not in sealed else "changed since fast wrote it"
            try:
                path.unlink()
            except OSError:
                continue
            removed.append(path.name)
            print(f"fast: cache file {path} {why}: removed; the kernel is compiled again",
                  file=sys.stderr, flush=True)
    return removed


@contextlib.contextmanager
def compiling(root: Path | None = None) -> Iterator[None]:
    """A compile of some of fast's kernels: ``verify`` first, a marker while it runs (so a
    compile of other kernels at the same time spares its new files), ``seal`` after."""
    folder = kernel_folder(root or cache_root())
    marker = folder / f"{MARKER}{os.getpid()}"
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        marker.touch()
    except OSError:
        pass  # no marker: a compile elsewhere may remove this one's files; numba compiles them again
    try:
        verify(root)
        yield
        seal(root)
    finally:
        marker.unlink(missing_ok=True)


def _others_compiling_since(folder: Path) -> float | None:
    """When the earliest compile of another live process began (its marker's time), or None;
    a marker whose process is gone is removed."""
    times = []
    for marker in folder.glob(f"{MARKER}*"):
        pid = marker.name[len(MARKER):]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
            times.append(marker.stat().st_mtime)
        except ProcessLookupError:
            marker.unlink(missing_ok=True)
        except OSError:  # another user's process took the number, or the marker went
            continue
    return min(times) if times else None


def _changed_since(path: Path, since: float | None) -> bool:
    try:
        return since is not None and path.stat().st_mtime >= since
    except OSError:
        return False


def seal(root: Path | None = None) -> None:
    """Write the seal, ``sealed.json`` beside the kernels: every cache file of fast's kernels
    with its SHA-256 (written whole: a temporary file renamed over it)."""
    folder = kernel_folder(root or cache_root())
    files = {path.name: _digest(path) for path in kernel_files(folder)}
    temporary = folder / f".{SEAL}.{os.getpid()}"
    try:
        temporary.write_text(json.dumps(files, indent=1, sort_keys=True) + "\n")
        os.replace(temporary, folder / SEAL)
    except OSError:
        temporary.unlink(missing_ok=True)


def _read_seal(root: Path) -> dict[str, str]:
    try:
        data = json.loads((root / SEAL).read_text())
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)} \
        if isinstance(data, dict) else {}


def _digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""
